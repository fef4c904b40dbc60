"""``python -m engine simulate`` with a counter: its options, its JSON, its refusals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.counting.index_table import I18


def run(*argv: str) -> dict[str, object]:
    out = io.StringIO()
    assert main(list(argv), stdout=out) == 0
    data = json.loads(out.getvalue())
    assert isinstance(data, dict)
    return data


COUNTER = ("simulate", "--rules", "american", "--rounds", "600", "--seed", "2", "--processes", "1")


def test_a_counter_keeps_the_simulations_keys_and_adds_its_figures() -> None:
    data = run(*COUNTER, "--system", "hi-lo", "--ramp", "1:2,2:4", "--indices", "i18")
    for key in ("rules", "tier", "rounds", "mean", "stderr", "rounds_per_second"):
        assert key in data
    for key in ("win_per_100", "sd_per_100", "n0", "score", "risk_of_ruin", "by_count"):
        assert key in data and f"{key}_stderr" in data or key == "by_count"
    assert (data["rounds"], data["tier"], data["system"]) == (600, "hard", "Hi-Lo")
    assert data["ramp"] == {"bets": {"1": 2, "2": 4}, "below": 1}
    assert data["mean"] == data["edge"]


def test_the_options_reach_the_counter() -> None:
    data = run(
        *COUNTER, "--system", "zen", "--estimate", "quarter", "--rounding", "round",
        "--penetration", "5/6", "--others", "2", "--enter", "1", "--leave", "0",
        "--bank", "500", "--min-bet", "2", "--tier", "normal",
    )  # fmt: skip
    assert (data["system"], data["estimate"], data["rounding"]) == ("Zen", "quarter", "round")
    assert (data["penetration"], data["others"], data["enter"], data["leave"]) == ("5/6", 2, 1, 0)
    assert (data["bank"], data["tier"]) == (500, "normal")
    assert data["rounds_played"] < data["rounds_dealt"]  # type: ignore[operator]
    assert data["average_bet"] == 2


def test_a_custom_system_and_a_file_of_index_plays(tmp_path: Path) -> None:
    table = tmp_path / "indices.json"
    table.write_text(json.dumps({"indices": [entry.to_json() for entry in I18]}))
    data = run(
        *COUNTER, "--tags", "2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,10=-1,A=-1", "--indices", str(table)
    )
    assert data["system"] == "Custom"


def test_the_same_seed_gives_the_same_json_on_one_or_two_processes() -> None:
    args = ("simulate", "--rules", "american", "--rounds", "300", "--seed", "4", "--system", "ko")
    one = run(*args, "--processes", "1")
    two = run(*args, "--processes", "2")
    for varying in ("seconds", "rounds_per_second", "processes"):
        del one[varying], two[varying]
    assert one == two


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ramp", "1:2"], "--ramp needs a counter: give --system or --tags"),
        (["--others", "1", "--bank", "9"], "--others, --bank need a counter"),
        (["--system", "hi-lo", "--ramp", "1-2"], "--ramp: a ramp takes COUNT:BET pairs in units"),
        (["--system", "hi-lo", "--ramp", "1:4,2:2"], "the ramp's bets must not fall"),
        (["--system", "hi-lo", "--indices", "i19"], "--indices takes none, i18, fab4"),
        (["--system", "hi-lo", "--tags", "2=1"], "give --system or --tags, not both"),
        (["--tags", "2=1,3"], "--tags takes RANK=TAG pairs, not '3'"),
        (["--tags", "2=1,Z=1"], "not a rank in the tags: 'Z'"),
        (["--system", "hi-lo", "--penetration", "0.99"], "penetration"),
        (["--system", "hi-lo", "--enter", "1", "--leave", "0"], "back-counting needs other"),
        (["--system", "hilo"], "invalid choice: 'hilo'"),
        ([], "the following arguments are required: --tier (or --system)"),
    ],
)
def test_bad_counter_options_print_the_reason_and_exit_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--rounds", "10", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_bad_file_of_index_plays_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "bad.json"
    table.write_text(
        '[{"row": "hard 16", "up": "10", "play": "fly", "otherwise": "hit", "index": 0}]'
    )
    with pytest.raises(SystemExit):
        main(["simulate", "--rounds", "10", "--system", "hi-lo", "--indices", str(table)])
    assert "index play 1: not a play: 'fly'" in capsys.readouterr().err


def test_an_optimal_ramp_is_worked_out_from_a_flat_run_and_played() -> None:
    data = run(
        *COUNTER,
        "--rounds",
        "40000",
        "--system",
        "hi-lo",
        "--optimal-ramp",
        "1:8",
        "--bank",
        "2000",
    )
    ramp = data["ramp"]
    assert isinstance(ramp, dict)
    bets = [ramp["bets"][str(count)] for count in range(-5, 11)]
    assert bets == sorted(bets) and bets[0] == 1 and bets[-1] <= 8
    assert "flat_edge" in data and "flat_edge_stderr" in data


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--optimal-ramp", "1:8", "--ramp", "1:2"], "give --optimal-ramp or --ramp"),
        (["--optimal-ramp", "8"], "--optimal-ramp takes MIN:MAX in units, not '8'"),
        (["--optimal-ramp", "8:1"], "--optimal-ramp needs 1 <= MIN <= MAX units, not '8:1'"),
        (["--optimal-ramp", "0:4"], "--optimal-ramp needs 1 <= MIN <= MAX units"),
    ],
)
def test_a_bad_optimal_ramp_is_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*COUNTER, "--system", "hi-lo", *argv])
    assert message in capsys.readouterr().err
