"""The arena's command line: the --json report's shape, the text report, bad arguments."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.bots.__main__ import main
from pbem.bots.arena import ArenaError, check, play, wilson

KEYS = ["game", "a", "b", "games", "wins_a", "wins_b", "draws", "score_a", "ci95",
        "pair_wins_a", "pair_losses_a", "pair_draws_a", "pair_score_a", "pair_ci95",
        "seconds_per_decision_a", "seconds_per_decision_b"]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["arena", *argv], out), out.getvalue()


def test_json_report_has_exactly_its_keys_and_adds_up():
    code, out = run("--game", "babel-tower", "--a", "random", "--b", "random", "--games", "3",
                    "--seed", "4", "--json")
    assert code == 0
    report = json.loads(out)
    assert list(report) == KEYS
    assert report["games"] == 3 and report["wins_a"] + report["wins_b"] + report["draws"] == 3
    lo, hi = report["ci95"]
    assert 0 <= lo <= report["score_a"] <= hi <= 1
    assert report["seconds_per_decision_a"] >= 0 and report["seconds_per_decision_b"] >= 0
    # two players: the pairwise score is the score
    assert report["pair_score_a"] == report["score_a"] and report["pair_ci95"] == report["ci95"]
    assert report["pair_wins_a"] + report["pair_losses_a"] + report["pair_draws_a"] == 3


def test_with_more_players_the_pairs_count_places_against_each_b_seat():
    from pbem.bots.arena import Match, _count_pairs
    match = Match("babylonia", "random", "random", 4, 1)
    _count_pairs(match, [2, 1, 2, 4], a_seat=0)      # behind one, level with one, ahead of one
    _count_pairs(match, [1, 2, 3, 4], a_seat=0)
    assert (match.pair_wins, match.pair_losses, match.pair_draws) == (4, 1, 1)
    assert match.pair_scores == [0.5, 1.0]


def test_more_players_level_a_takes_one_seat_in_turn_and_the_match_is_fixed_by_its_seed():
    argv = ("--game", "babylonia", "--a", "random", "--b", "random", "--games", "3",
            "--seed", "9", "--players", "3", "--json")
    first, second = json.loads(run(*argv)[1]), json.loads(run(*argv)[1])
    for report in (first, second):
        report.pop("seconds_per_decision_a"), report.pop("seconds_per_decision_b")
    assert first == second and first["games"] == 3


def test_the_text_report_names_the_levels_and_the_interval():
    code, out = run("--game", "babel", "--a", "random", "--b", "random", "--games", "1")
    assert code == 0
    assert "random (A) against random (B)" in out and "95% CI" in out


@pytest.mark.parametrize("argv, words", [
    (("--game", "chess", "--a", "easy", "--b", "random"), "unknown game 'chess'"),
    (("--game", "babel", "--a", "expert", "--b", "random"), "unknown level 'expert' for --a"),
    (("--game", "babel", "--a", "easy", "--b", "godlike"), "unknown level 'godlike' for --b"),
    (("--game", "babel", "--a", "easy", "--b", "random", "--players", "3"),
     "--players 3 is out of range: Babel is played by 2"),
    (("--game", "babylonia", "--a", "easy", "--b", "random", "--players", "5"),
     "--players 5 is out of range: Babylonia is played by 2 to 4"),
    (("--game", "babel", "--a", "easy", "--b", "random", "--games", "0"),
     "--games must be at least 1"),
])
def test_bad_arguments_are_named_and_exit_2(argv, words, capsys):
    code, out = run(*argv)
    assert code == 2 and out == ""
    assert words in capsys.readouterr().err


def test_the_error_is_typed():
    with pytest.raises(ArenaError, match="unknown level 'x' for --b"):
        check("babel", "easy", "x", games=1, players=None)


def test_unreadable_numbers_exit_2_through_argparse(capsys):
    assert run("--game", "babel", "--a", "easy", "--b", "random", "--games", "many")[0] == 2
    assert "--games" in capsys.readouterr().err


def test_the_module_runs_as_a_command():
    done = subprocess.run([sys.executable, "-m", "pbem.bots", "arena", "--game", "nope",
                           "--a", "easy", "--b", "random"], capture_output=True, text=True)
    assert done.returncode == 2 and "unknown game 'nope'" in done.stderr


def test_wilson_interval():
    lo, hi = wilson(1.0, 10)
    assert hi == pytest.approx(1.0) and 0.69 < lo < 0.73
    assert wilson(0.5, 0) == (0.0, 1.0)


def test_the_ladder_fits_ratings_from_a_round_robin():
    from pbem.bots.ladder import bradley_terry
    # a beats b 3 games in 4 (each 40 games), b beats c as often: a > b > c, evenly spaced
    scores = {("a", "b"): (30.0, 40), ("b", "c"): (30.0, 40), ("a", "c"): (36.0, 40)}
    ratings = {r["level"]: r for r in bradley_terry(["c", "b", "a"], scores)}
    assert ratings["c"]["elo"] == 0
    assert 120 < ratings["b"]["elo"] < 200 < ratings["a"]["elo"] < 400
    for r in ratings.values():
        assert r["low"] <= r["elo"] <= r["high"]
    assert ratings["a"]["high"] - ratings["a"]["low"] > 50      # forty games tell only so much


def test_the_ladder_command_prints_every_level_rated():
    out = io.StringIO()
    code = main(["ladder", "--game", "babel-tower", "--games", "2", "--levels",
                 "random,greedy"], out)
    assert code == 0
    text = out.getvalue()
    assert "random" in text and "greedy" in text and "Elo" in text
    assert main(["ladder", "--game", "babel", "--levels", "random,expert"], io.StringIO()) == 2


def test_the_oracle_plays_in_the_arena_only(monkeypatch):
    from pbem.bots import BUDGETS, LEVELS, UnknownLevel, choose
    from pbem.bots.arena import ORACLE
    from pbem.bots.turns import TurnBudget
    from pbem.games import get
    assert ORACLE not in LEVELS
    engine = get("babel")
    with pytest.raises(UnknownLevel):
        choose(engine, engine.start(1, {}, 2, 0), 0, ORACLE, 1)
    monkeypatch.setitem(BUDGETS, "strong", TurnBudget(candidates=2, playouts=2, seconds=60.0))
    match = play("babel", ORACLE, "greedy", 1, 5)
    assert len(match.scores) == 1


def test_the_babel_experiments_script_plays_a_variant_against_greedy():
    """benchmarks/babel_bots.py keeps working: a cheap variant (the evaluation alone, points
    only) plays two games and reports them as the arena does, under the variant's name."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "babel_bots.py"
    done = subprocess.run([sys.executable, str(script), "g-points", "--games", "2", "--seed", "3"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["a"] == "g-points" and report["b"] == "greedy" and report["games"] == 2
    assert report["wins_a"] + report["wins_b"] + report["draws"] == 2
    assert 0 <= report["score_a"] <= 1


def test_the_babylonia_experiments_script_plays_greedy_as_the_arena_does():
    """benchmarks/babylonia_bots.py keeps working, and its measured side goes through the
    levels' own code: `g-base` (greedy's beam) plays three-player games exactly as the arena's
    `greedy` does on the same seeds, and a wider beam plays them too."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "babylonia_bots.py"
    done = subprocess.run([sys.executable, str(script), "g-base", "g-wide", "--players", "3",
                           "--games", "2", "--seed", "3"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    base, wide = (json.loads(line) for line in done.stdout.splitlines())
    arena = play("babylonia", "greedy", "greedy", 2, 3, 3).report()
    assert (base["wins_a"], base["wins_b"], base["draws"], base["score_a"]) == (
        arena["wins_a"], arena["wins_b"], arena["draws"], arena["score_a"])
    assert wide["a"] == "g-wide" and wide["games"] == 2
    assert wide["wins_a"] + wide["wins_b"] + wide["draws"] == 2
