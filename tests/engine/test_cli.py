from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine.__main__ import main


def run(*argv: str, stdin: str = "") -> str:
    out = io.StringIO()
    assert main(list(argv), stdin=io.StringIO(stdin), stdout=out) == 0
    return out.getvalue()


def test_simulate_prints_one_json_object_with_the_documented_keys():
    result = json.loads(run("simulate", "--rules", "european", "--tier", "easy",
                            "--rounds", "500", "--seed", "1"))  # fmt: skip
    assert set(result) == {"rules", "tier", "rounds", "mean", "stderr", "rounds_per_second"}
    assert (result["rules"], result["tier"], result["rounds"]) == ("european", "easy", 500)
    assert result["stderr"] > 0 and result["rounds_per_second"] > 0


def test_the_same_seed_gives_the_same_result():
    args = ("simulate", "--tier", "normal", "--rounds", "300", "--seed", "5")
    assert json.loads(run(*args))["mean"] == json.loads(run(*args))["mean"]


def test_set_overrides_a_rule_field():
    result = json.loads(run("simulate", "--tier", "normal", "--rounds", "100", "--seed", "1",
                            "--set", "decks=1", "--set", "dealer_hits_soft_17=true"))  # fmt: skip
    assert result["rules"] == "european-custom"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["simulate", "--tier", "normal"],
        ["simulate", "--tier", "genius", "--rounds", "10"],
        ["simulate", "--tier", "easy", "--rounds", "0"],
        ["simulate", "--tier", "easy", "--rounds", "10", "--rules", "vegas"],
        ["simulate", "--tier", "easy", "--rounds", "10", "--set", "decks=many"],
        ["simulate", "--tier", "easy", "--rounds", "10", "--set", "nonsense=1"],
        ["simulate", "--tier", "easy", "--rounds", "10", "--set", "decks"],
    ],
)
def test_bad_arguments_print_usage_and_exit_with_status_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_play_runs_rounds_from_the_keyboard_until_the_player_stops():
    output = run("play", "--seed", "3", stdin="s\nn\n")
    assert "your move" in output and "chips" in output


def test_the_module_runs_as_python_dash_m_engine():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--tier", "easy", "--rounds", "50"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout)["rounds"] == 50
