"""``manage.py analyse_common``: the common custom rule sets, worked out at deployment."""

from __future__ import annotations

import itertools
from io import StringIO
from unittest import mock

import pytest
from django.core.management import call_command
from pytest_django.fixtures import Settings

from engine.counting.index_store import IndexRequest
from engine.rules import PRESETS
from engine.strategy.store import rules_key
from trainer.models import StoredAnalysis
from trainer.shared.analyses import COMMON_CHANGES, DatabaseStore, common_rule_sets

pytestmark = [pytest.mark.django_db, pytest.mark.database]


def test_every_preset_with_every_combination_is_there_once() -> None:
    keys = [rules_key(rules) for rules in common_rule_sets()]
    assert len(keys) == len(set(keys))
    for base in PRESETS.values():
        for values in itertools.product(*COMMON_CHANGES.values()):
            changed = base.with_overrides(dict(zip(COMMON_CHANGES, values, strict=True)))
            assert rules_key(changed) in keys
    assert {rules_key(rules) for rules in PRESETS.values()} <= set(keys)


def analyse_common(*args: str) -> str:
    out = StringIO()
    # The command lowers its own priority for good: not the test process's.
    with mock.patch("trainer.management.commands.analyse_common.lower_priority") as lowered:
        call_command("analyse_common", *args, stdout=out)
    lowered.assert_called_once()
    return out.getvalue()


def test_a_sample_is_worked_out_kept_and_not_worked_out_again(settings: Settings) -> None:
    settings.BLACKJACK_STORED_ANALYSES = 0  # players' analyses are evicted at once
    sample = common_rule_sets()[:2]
    assert "2 worked out, 0 stored already" in analyse_common("--limit", "2")
    stored = StoredAnalysis.objects.filter(key__in=[rules_key(rules) for rules in sample])
    assert stored.count() == 2 and all(row.preset for row in stored)  # kept
    DatabaseStore().put("a-players-own", b"payload")  # evicting players' analyses...
    assert stored.count() == 2  # ...leaves the common sets'
    assert "0 worked out, 2 stored already" in analyse_common("--limit", "2")


def test_the_presets_hi_lo_index_tables_are_worked_out_when_asked(settings: Settings) -> None:
    """With ``--indices``, each preset's Hi-Lo table once (the work itself is the engine's,
    tested there): those stored are skipped."""
    worked: list[str] = []

    def compute_and_store(request: IndexRequest) -> None:
        worked.append(request.rules.name)
        DatabaseStore().put(request.key(), b"not read here")

    command = "trainer.management.commands.analyse_common"
    with (
        mock.patch(f"{command}.compute_and_store", compute_and_store),
        mock.patch(f"{command}.indices_ready",
                   lambda request: DatabaseStore().get(request.key()) is not None),
    ):  # fmt: skip
        analyse_common("--limit", "0")
        assert worked == []
        analyse_common("--limit", "0", "--indices")
        assert sorted(worked) == sorted(PRESETS)
        analyse_common("--limit", "0", "--indices")
        assert len(worked) == len(PRESETS)
