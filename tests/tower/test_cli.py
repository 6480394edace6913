"""`python -m pbem.games.babel_tower random-game`, run as a real subprocess, like Babel's."""

from __future__ import annotations

import json
import re

import pytest
from engine_cli import random_game, run_engine

from pbem.games.babel_tower import GAME

LINE = re.compile(r"(\d+)\. seat ([01]): (pick [0-4]|place [0-4] (?:NW|NE|SE|SW) (?:-|U?D?N?E?S?W?))")


def run(*args):
    return run_engine("pbem.games.babel_tower", *args, timeout=60)


def game(*args):
    return random_game("pbem.games.babel_tower", *args, timeout=60)


def replay(seed, draft, lines, first=None):
    """The printed steps, replayed through the engine."""
    state = GAME.start(seed, {"draft": draft}, 2, first)
    for number, line in enumerate(lines, 1):
        found = LINE.fullmatch(line)
        assert found, line
        assert int(found.group(1)) == number
        seat, text = int(found.group(2)), found.group(3)
        assert [d.seat for d in GAME.to_act(state)] == [seat]
        state = GAME.apply(state, GAME.decide(state, seat, text))
    return state


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_one_step_a_line_and_the_outcome_last(seed):
    out = game("--seed", seed)
    lines = out.splitlines()
    assert lines[0] == f"# babel tower random game: seed {seed}, draft pick"
    last = json.loads(lines[-1])
    steps = lines[1:-1]
    assert last["steps"] == len(steps)
    assert all(line.split(": ")[1].startswith("pick") for line in steps[:24])     # the draft first
    assert all(line.split(": ")[1].startswith("place") for line in steps[24:])
    state = replay(seed, "pick", steps)
    assert GAME.outcome(state) is not None
    assert last["outcome"] == {"winner": state.result.winner, "reason": state.result.reason}
    assert last["placed"] == GAME.scores(state)


def test_same_seed_same_output_and_seeds_differ():
    assert game("--seed", 12) == game("--seed", 12)
    assert game("--seed", 12) != game("--seed", 13)
    assert game("--seed", 12, "--draft", "random") == game("--seed", 12, "--draft", "random")


def test_a_random_deal_has_no_draft():
    out = game("--seed", 8, "--draft", "random")
    lines = out.splitlines()
    assert lines[0] == "# babel tower random game: seed 8, draft random"
    steps = lines[1:-1]
    assert steps and all(line.split(": ")[1].startswith("place") for line in steps)
    state = replay(8, "random", steps)
    assert json.loads(lines[-1])["outcome"] == {"winner": state.result.winner, "reason": state.result.reason}


def test_first_names_the_seat_that_starts():
    for first in (0, 1):
        pick = game("--seed", 3, "--first", first).splitlines()
        assert pick[1].startswith(f"1. seat {first}: pick")
        assert pick[25].startswith(f"25. seat {1 - first}: place")     # the last picker places first
        dealt = game("--seed", 3, "--draft", "random", "--first", first).splitlines()
        assert dealt[1].startswith(f"1. seat {first}: place")
        replay(3, "random", dealt[1:-1], first)


def test_json_holds_the_events_and_the_final_view():
    data = json.loads(game("--seed", 9, "--json"))
    assert set(data) == {"seed", "draft", "events", "outcome", "placed", "steps", "final"}
    assert data["seed"] == 9 and data["draft"] == "pick" and data["steps"] == len(data["events"])
    state = GAME.replay(9, {"draft": "pick"}, 2, None, data["events"])
    assert data["final"] == GAME.view(state, None)
    assert data["outcome"] == {"winner": state.result.winner, "reason": state.result.reason}
    text = game("--seed", 9).splitlines()
    assert [f"{i}. seat {e['seat']}: {e['step']}" for i, e in enumerate(data["events"], 1)] == text[1:-1]
    dealt = json.loads(game("--seed", 9, "--json", "--draft", "random"))
    assert dealt["draft"] == "random" and all(e["type"] == "place" for e in dealt["events"])


@pytest.mark.parametrize("args", [[], ["--seed"], ["--seed", "x"], ["--seed", "1", "--draft", "deal"],
                                  ["--seed", "1", "--first", "2"]])
def test_bad_arguments_are_usage_errors(args):
    code, out, err = run("random-game", *args)
    assert code == 2 and out == "" and "usage:" in err and "Traceback" not in err


def test_a_command_is_required():
    code, out, err = run()
    assert code == 2 and "usage:" in err and "Traceback" not in err
