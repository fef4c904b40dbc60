"""Every refusal the engine raises carries a known reason code and its parameters."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from engine import EUROPEAN, Round, Shoe
from engine.errors import IllegalActionError
from engine.refusals import REFUSALS, Refusal, refused

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_every_reason_has_a_template():
    assert set(REFUSALS) == set(Refusal)


def test_no_engine_module_raises_an_illegal_action_without_a_code():
    for path in ENGINE.rglob("*.py"):
        if path.name in ("errors.py", "refusals.py"):
            continue
        assert not re.search(r"IllegalActionError\(", path.read_text()), path.name


@pytest.mark.parametrize("code", sorted(Refusal))
def test_a_refusal_is_its_template_filled_with_its_parameters(code: Refusal):
    names = {name for _, name, _, _ in string.Formatter().parse(REFUSALS[code]) if name}
    params = dict.fromkeys(names, 7)
    error = refused(code, **params)
    assert isinstance(error, IllegalActionError)
    assert (error.code, dict(error.params)) == (code, params)
    assert "{" not in str(error)


def test_a_round_refuses_acting_out_of_turn_with_the_code_and_seat():
    rnd = Round(EUROPEAN, Shoe.stacked("9s 9h 5c 5d 7c 7h"))
    rnd.place_bet(seat=1, amount=10)
    rnd.place_bet(seat=2, amount=10, owner="other")
    rnd.deal()
    with pytest.raises(IllegalActionError) as refusal:
        rnd.apply("hit", seat=2)
    assert refusal.value.code == "other_seats_turn"
    assert dict(refusal.value.params) == {"turn": 1, "seat": 2}
