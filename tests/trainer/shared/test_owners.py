"""An owner and the engine's name for them at a table: the one place those names are read."""

from __future__ import annotations

import pytest

from trainer.shared.owners import Owner


@pytest.mark.parametrize("owner", [Owner.account(17), Owner.guest("Zq-3_x")])
def test_a_persons_engine_name_reads_back_as_them(owner: Owner) -> None:
    assert Owner.named(owner.name) == owner


def test_the_names_are_the_engines() -> None:
    assert Owner.account(17).name == "account 17"
    assert Owner.guest("Zq-3_x").name == "guest Zq-3_x"


@pytest.mark.parametrize("name", ["bot 3", "player", ""])
def test_a_bot_or_any_other_name_is_no_person(name: str) -> None:
    assert Owner.named(name) is None


def test_a_record_is_made_and_found_by_the_same_owner_fields() -> None:
    assert Owner.account(5).fields() == {"user_id": 5, "guest_token": ""}
    assert Owner.guest("t").fields() == {"user_id": None, "guest_token": "t"}
    assert Owner.account(5).filter() == {"user_id": 5}
    assert Owner.guest("t").filter() == {"user__isnull": True, "guest_token": "t"}
