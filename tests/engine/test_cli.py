from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from engine.__main__ import HELP, main
from engine.rule_ranges import RulesError
from engine.shoe import Shoe
from engine.strategy import store, strategy_for


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
        ["simulate", "--rounds", "10"],
        ["ev", "--up", "9"],
        ["ev", "--hand", "10,6"],
    ],
)
def test_bad_arguments_print_usage_and_exit_with_status_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_an_unknown_preset_is_refused_as_a_choice_listing_the_presets(capsys):
    with pytest.raises(SystemExit):
        main(["edge", "--rules", "vegas"])
    assert "invalid choice: 'vegas' (choose from 'american', 'deluxe', 'european')" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("command", ["play", "simulate", "chart", "ev", "edge"])
def test_every_command_takes_rules_settings_and_a_seed(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    usage = capsys.readouterr().out
    assert "[--set FIELD=VALUE]" in usage and "[--seed SEED]" in usage


def test_each_bot_tier_simulates():
    for tier in ("easy", "normal", "hard"):
        assert (
            json.loads(run("simulate", "--tier", tier, "--rounds", "5", "--seed", "1"))["tier"]
            == tier
        )


def test_the_chart_is_csv_by_default_and_when_asked():
    assert run("chart", "--format", "csv") == run("chart")
    assert run("chart").splitlines()[0].startswith("hand,")


def test_help_names_the_command_and_says_what_it_does(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert shown.startswith("usage: python -m engine ")
    assert "The engine's command line" in shown


def test_play_runs_rounds_from_the_keyboard_until_the_player_stops():
    output = run("play", "--seed", "3", stdin="s\nn\n")
    assert "your move" in output and "chips" in output
    # README: a text round against the dealer, 1,000 chips and bets of 10 unless told.
    assert output.startswith("european v1.0.0: 1000 chips, 10 a round.")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--rounds", "10"], "the following arguments are required: --tier"),
        (["simulate", "--tier", "genius", "--rounds", "10"], "invalid choice: 'genius'"),
        (["ev", "--up", "9"], "the following arguments are required: --hand"),
        (["ev", "--hand", "10,6"], "the following arguments are required: --up"),
    ],
)
def test_a_missing_or_unknown_argument_is_named(argv, message, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err


def test_help_says_what_each_command_and_option_is_for(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # one line per option: nothing wrapped
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    options = {
        "play": ["--set", "--seed"],
        "simulate": ["--set", "--seed"],
        "chart": ["--set", "--seed", "--no-cache"],
        "ev": ["--set", "--seed", "--no-cache", "--hand", "--up"],
        "edge": ["--set", "--seed", "--no-cache"],
    }
    for command, named in options.items():
        assert HELP[command] in top
        with pytest.raises(SystemExit):
            main([command, "--help"])
        shown = capsys.readouterr().out
        for option in named:
            assert re.search(rf"^  {option}\b.*  {re.escape(HELP[option])}$", shown, re.M), option


def test_the_module_runs_as_python_dash_m_engine():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--tier", "easy", "--rounds", "50"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout)["rounds"] == 50


# The commands below read their analyses from the tests' shared store (tests/conftest.py),
# computed once per rules; only the test of the store itself starts from an empty one.
@pytest.fixture
def strategy_cache(tmp_path):
    """An empty store, and no analysis kept in this process."""
    previous = store.default_directory()
    store.use_directory(tmp_path)
    strategy_for.cache_clear()
    yield tmp_path
    store.use_directory(previous)
    strategy_for.cache_clear()


def test_chart_prints_the_documented_csv():
    lines = run("chart", "--rules", "american").splitlines()
    assert lines[0] == "hand,2,3,4,5,6,7,8,9,10,A"
    labels = [line.split(",")[0] for line in lines[1:]]
    assert labels == (
        [f"hard {t}" for t in range(5, 22)]
        + [f"soft {t}" for t in range(13, 22)]
        + [f"pair {r}" for r in (*range(2, 11), "A")]
    )
    assert lines[labels.index("hard 11") + 1] == "hard 11,D,D,D,D,D,D,D,D,D,H"


def test_chart_as_text_is_an_aligned_table():
    text = run("chart", "--rules", "european", "--format", "text")
    assert text.splitlines()[0].split() == [
        "hand",
        *["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"],
    ]


def test_ev_prints_every_action_for_one_hand():
    evs = json.loads(run("ev", "--rules", "american", "--hand", "8,8", "--up", "10"))
    assert set(evs) == {"stand", "hit", "double", "split", "surrender"}
    assert evs["surrender"] is None  # the American preset has no surrender
    assert evs["split"] > max(evs["stand"], evs["hit"])
    no_pair = json.loads(run("ev", "--rules", "deluxe", "--hand", "10,6", "--up", "9"))
    assert no_pair["split"] is None and no_pair["surrender"] == pytest.approx(-0.5)


def test_edge_prints_the_documented_object_and_set_changes_the_rules():
    edge = json.loads(run("edge", "--rules", "european"))
    assert set(edge) == {"rules", "version", "expected_return", "house_edge_percent",
                         "rtp_percent", "cd_expected_return"}  # fmt: skip
    assert edge["rtp_percent"] == pytest.approx(100 - edge["house_edge_percent"])
    worse = json.loads(run("edge", "--rules", "european", "--set", "blackjack_pays=6/5"))
    assert worse["expected_return"] < edge["expected_return"] - 0.01


def test_results_are_kept_on_disk_and_no_cache_recomputes(strategy_cache):
    # Worked out afresh, nothing is read from the store nor kept in it.
    fresh = run("edge", "--rules", "american", "--no-cache")
    assert list(strategy_cache.glob("*.json.z")) == []
    first = run("edge", "--rules", "american")
    assert len(list(strategy_cache.glob("*.json.z"))) == 1
    assert first == fresh


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("decks", "--set takes FIELD=VALUE, not 'decks'"),
        # Only the first = parts the field from its value.
        ("name=x=y", "name must be 1 to 40 letters, digits, - or _"),
    ],
)
def test_a_setting_is_a_field_then_its_value(setting, message, capsys):
    with pytest.raises(SystemExit):
        main(["edge", "--set", setting], stdin=io.StringIO(""), stdout=io.StringIO())
    assert capsys.readouterr().err.rstrip().endswith(message)


@pytest.mark.parametrize(
    "argv",
    [
        ["ev", "--rules", "european", "--hand", "10", "--up", "9"],
        ["ev", "--rules", "european", "--hand", "10,X", "--up", "9"],
        ["ev", "--rules", "european", "--hand", "10,6", "--up", "1"],
        ["chart", "--rules", "european", "--format", "pdf"],
        ["edge", "--rules", "european", "--set", "decks=0"],
    ],
)
def test_bad_strategy_arguments_exit_with_status_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "usage:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("decks=100000", "decks must be a whole number from 1 to 8"),
        ("decks=1000000000", "decks must be a whole number from 1 to 8"),
        ("max_hands=1000", "max_hands must be a whole number from 1 to 4"),
        ("blackjack_pays=1e400", "blackjack_pays must be a fraction from 1 to 2"),
        ("max_seats=26", "max_seats must be a whole number from 1 to 7"),
    ],
)
@pytest.mark.parametrize("command", [["edge"], ["chart"], ["simulate", "--tier", "easy",
                                     "--rounds", "10"], ["play"]])  # fmt: skip
def test_rules_out_of_range_exit_2_with_the_message(command, setting, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--set", setting], stdin=io.StringIO(""), stdout=io.StringIO())
    assert exit_.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(message)


def test_bad_rules_never_give_a_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "edge", "--set", "decks=100000"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.rstrip().endswith("decks must be a whole number from 1 to 8")


def test_an_engine_error_of_a_command_exits_2_with_its_message(capsys, monkeypatch):
    def refuse(rules, *args, **kwargs):
        raise RulesError("the analysis cannot do that", field="decks", code="range")

    monkeypatch.setattr("engine.__main__.simulate", refuse)
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--tier", "easy", "--rounds", "10"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith("the analysis cannot do that")


# A natural is worth the blackjack payout, less the pushes against a dealer natural where
# the dealer does not peek (with a peek the EVs are conditioned on no dealer natural).
# Worked by hand from six decks (312 cards: 24 aces, 96 ten-values) with the player's ace
# and ten and the up card out (309 left):
#   up 10, no peek: P(hole ace) = 23/309, value = 3/2 * (1 - 23/309) = 429/309
#   up A,  no peek: P(hole ten) = 95/309, value = 3/2 * (1 - 95/309) = 321/309
@pytest.mark.parametrize(
    ("argv", "value"),
    [
        (["--rules", "european", "--hand", "A,10", "--up", "2"], 1.5),
        (["--rules", "european", "--hand", "K,A", "--up", "Q"], 429 / 309),
        (["--rules", "european", "--hand", "A,T", "--up", "t"], 429 / 309),
        (["--rules", "european", "--hand", "A,J", "--up", "A"], 321 / 309),
        (["--rules", "american", "--hand", "A,10", "--up", "10"], 1.5),
        (["--rules", "american", "--hand", "A,10", "--up", "A"], 1.5),
        (["--rules", "european", "--set", "blackjack_pays=6/5", "--hand", "10,A", "--up", "9"],
         1.2),
    ],
)  # fmt: skip
def test_ev_of_a_natural_is_its_payout_and_offers_no_play(argv, value):
    result = json.loads(run("ev", *argv))
    assert result == {"natural": True, "value": pytest.approx(value, abs=1e-12)}


# The terminal game, played from a seeded shoe: every line it shows, exactly. Seed 7 deals
# 3d 3c against a 7; "x" is no key, keys are read in either case and from a word's first
# letter, and "N" ends the game.
SEED_7_SPLIT = """\
european v1.0.0: 20 chips, 10 a round. Keys: h=hit, s=stand, d=double, p=split, r=surrender, i=insure, n=no_insurance
dealer 7h ??   you 3d 3c   (total 6)
your move [h/s/d/p]: 'x' is not an action
dealer 7h ??   you 3d 3c   (total 6)
your move [h/s/d/p]: dealer 7h ??   you 3d 9h  |  3c   (total 12)
your move [h/s]: dealer 7h ??   you 3d 9h 7s  |  3c   (total 19)
your move [h/s]: dealer 7h ??   you 3d 9h 7s  |  3c 3c   (total 6)
your move [h/s]: dealer 7h 4c 5d Ah (17); you +0 → 20 chips
another round? [Y/n] """  # noqa: E501


def test_play_shows_each_decision_and_result_and_reads_a_key_in_either_case():
    keys = "x\np\nHit\ns\nS\nN\n"
    assert run("play", "--seed", "7", "--bankroll", "20", "--bet", "10", stdin=keys) == SEED_7_SPLIT


def test_play_goes_on_until_the_chips_cannot_cover_a_bet():
    # A bankroll of exactly one bet plays a round; seed 1 loses it (16 against a 6).
    assert run("play", "--seed", "1", "--bankroll", "10", "--bet", "10", stdin="s\n") == (
        "european v1.0.0: 10 chips, 10 a round. Keys: h=hit, s=stand, d=double, p=split,"
        " r=surrender, i=insure, n=no_insurance\n"
        "dealer 6h ??   you 6c Kc   (total 16)\n"
        "your move [h/s]: dealer 6h 6d 3c 5h (20); you -10 → 0 chips\n"
        "another round? [Y/n] not enough chips for another round\n"
    )


def test_play_ends_quietly_when_the_keyboard_input_ends():
    # Any answer but no goes on to another round; the end of input ends the game, status 0.
    output = run("play", "--seed", "3", "--bet", "1", stdin="s\nyes\n")
    assert output.endswith("another round? [Y/n] dealer 7c ??   you Qs 5d   (total 15)\n"
                           "your move [h/s/d]: ")  # fmt: skip


class _Screen(io.StringIO):
    """A terminal: what was flushed is what the player sees."""

    shown = ""

    def flush(self) -> None:
        self.shown = self.getvalue()


class _Keyboard:
    """Typed lines, read only once the question is on the screen."""

    def __init__(self, screen: _Screen, lines: list[str]) -> None:
        self.screen, self.lines = screen, lines

    def readline(self) -> str:
        assert self.screen.shown == self.screen.getvalue(), "the prompt is not on screen"
        return self.lines.pop(0) if self.lines else ""


def test_play_shows_each_question_before_it_waits_for_a_key():
    screen = _Screen()
    keyboard = _Keyboard(screen, ["s\n", "n\n"])
    assert main(["play", "--seed", "3"], stdin=keyboard, stdout=screen) == 0  # type: ignore[arg-type]
    assert screen.getvalue().endswith("another round? [Y/n] ")


@pytest.mark.parametrize(
    ("value", "message"),
    [("x", "not a whole number: 'x'"), ("0", "must be at least 1: 0"),
     ("-3", "must be at least 1: -3")],
)  # fmt: skip
def test_a_count_that_is_not_a_positive_whole_number_is_refused_saying_why(value, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--tier", "easy", "--rounds", value])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(f"argument --rounds: {message}")


def test_a_count_of_one_is_allowed():
    assert (
        json.loads(run("simulate", "--tier", "easy", "--rounds", "1", "--seed", "1"))["rounds"] == 1
    )
    assert "1 a round" in run("play", "--bet", "1", stdin="")


def test_play_without_a_seed_shuffles_with_the_operating_systems_generator(monkeypatch):
    given = []
    for_rules = Shoe.for_rules

    def recorded(rules, rng=None):
        given.append(rng)
        return for_rules(rules, rng)

    monkeypatch.setattr(Shoe, "for_rules", recorded)
    run("play", stdin="")
    assert given == [None]  # the shoe's default: the operating system's CSPRNG
