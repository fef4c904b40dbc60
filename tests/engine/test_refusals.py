"""Every refusal the engine raises carries a known reason code and its parameters."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from engine import EUROPEAN, Round, Shoe
from engine.errors import IllegalActionError
from engine.refusals import REFUSALS, refused

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _codes_used() -> set[str]:
    """The codes the engine's sources pass to `refused` (f-string codes expanded)."""
    used: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "refused":
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    used.add(first.value)
                else:  # f"{action.value}_first_two_cards": a double's and a split's
                    tail = ast.unparse(first).split("}")[-1].rstrip("'\"")
                    used.update(f"{action}{tail}" for action in ("double", "split"))
    return used


def test_every_code_raised_has_a_template_and_every_template_is_raised():
    assert _codes_used() == set(REFUSALS)


def test_no_engine_module_raises_an_illegal_action_without_a_code():
    for path in ENGINE.rglob("*.py"):
        if path.name in ("errors.py", "refusals.py"):
            continue
        assert not re.search(r"IllegalActionError\(", path.read_text()), path.name


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_a_refusal_is_its_template_filled_with_its_parameters(code: str):
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
