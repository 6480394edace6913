"""`python -m pbem.games.babel_tower random-game`, run as a real subprocess, like Babel's."""

from __future__ import annotations

import json
import re

import pytest

from engine_cli import random_game, run_engine
from pbem.games.babel_tower import GAME, position
from position_edits import DELETE, edit

LINE = re.compile(r"(\d+)\. seat ([01]): (pick [0-4]|place [0-4] (?:NW|NE|SE|SW) (?:-|U?D?N?E?S?W?))")


def run(*args, stdin=None):
    return run_engine("pbem.games.babel_tower", *args, stdin=stdin, timeout=60)


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


# -- positions: random-game --json --after N, and play ------------------------------------------

def write(tmp_path, data, name="position.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def after(seed, n, *args):
    code, out, err = run("random-game", "--seed", seed, "--json", "--after", n, *args)
    assert code == 0 and err == "", err
    return out


@pytest.mark.parametrize("draft", ["pick", "random"])
def test_play_from_the_position_after_n_steps_gives_the_position_after_n_plus_1(tmp_path, draft):
    """Every step of a random game, played by `play` from the position before it (written by
    `random-game --json --after N`), prints the position after it."""
    events = json.loads(game("--seed", 4, "--json", "--draft", draft))["events"]
    assert json.loads(after(4, 0, "--draft", draft)) == position.to_json(GAME.start(4, {"draft": draft}, 2))
    for n in range(0, len(events), 3 if draft == "pick" else 1):
        source = write(tmp_path, after(4, n, "--draft", draft), f"after-{n}.json")
        code, out, err = run("play", "--position", source, "--turn", events[n]["step"])
        assert code == 0, (out, err)
        assert json.loads(out) == json.loads(after(4, n + 1, "--draft", draft))
        state = position.loads(out)
        assert state == GAME.replay(4, {"draft": draft}, 2, None, events[:n + 1])
    code, out, err = run("random-game", "--seed", 4, "--draft", draft, "--json", "--after", len(events) + 1)
    assert code == 2 and out == "" and f"this game has {len(events)} decisions" in err


def test_play_reads_the_step_from_standard_input_and_refuses_illegal_steps(tmp_path):
    source = write(tmp_path, after(4, 0))
    code, out, _ = run("play", "--position", source, "--turn-file", "-", stdin="pick 2\n")
    assert code == 0 and json.loads(out)["pool"][2] == 1
    code, out, err = run("play", "--position", source, "--turn", "place 2 NW UN")
    assert code == 2 and "Traceback" not in err
    assert json.loads(out) == {
        "error": "step 1 (place 2 NW UN): cubes are placed once the draft is over.", "step": 1}
    code, out, _ = run("play", "--position", source, "--turn", "pick 9")
    assert code == 2 and json.loads(out) == {
        "error": "step 1 (pick 9): '9' is not a cube; cubes are 0, 1, 2, 3 and 4 (their bumps).",
        "step": 1}
    events = json.loads(game("--seed", 4, "--json"))["events"]
    over = write(tmp_path, after(4, len(events)), "over.json")
    code, out, _ = run("play", "--position", over, "--turn", "place 0 NW -")
    assert code == 2 and "the game is over" in json.loads(out)["error"]




BAD = [
    (["phase"], "over", "phase", "must be one of"),
    (["phase"], DELETE, "phase", "is missing"),
    (["colour"], "blue", "colour", "unknown field"),
    (["to_move"], 2, "to_move", "must be a seat from 0 to 1"),
    (["pool"], [6, 6, 2, 6], "pool", "must be a list of 5"),
    (["pool", 2], 3, "pool[2]", "from 0 to 2"),
    (["pool", 0], "6", "pool[0]", "whole number"),
    (["hands"], [[0] * 5], "hands", "must be a list of 2"),
    (["hands", 1, 4], -1, "hands[1][4]", "from 0 to 4"),
    (["picks"], 3, "picks", "0 cubes have left the pool, not 3"),
    (["result"], ["x", "blocked"], "result[0]", "must be a seat from 0 to 1 or null"),
    (["result"], [0, "boredom"], "result[1]", "must be one of"),
    (["result"], [1, "aborted"], "result[0]", "no winner"),
    (["floors"], [{}] * 5, "floors", "must be a list of 6"),
]


@pytest.mark.parametrize("path, value, field, words", BAD,
                         ids=[f"{'.'.join(map(str, b[0]))}={b[1]!r}" for b in BAD])
def test_a_bad_field_is_refused_with_its_name(tmp_path, path, value, field, words):
    start = json.loads(after(4, 0))
    body = refused_position(tmp_path, edit(start, path, value))
    assert body["error"].startswith(field + ": ") and words in body["error"], body


BUILT = [
    (["floors", 0, "XY"], [0, "-", 0], "floors[0].XY", "unknown field"),
    (["floors", 0, "NW"], [5, "-", 0], "floors[0].NW[0]", "from 0 to 4"),
    (["floors", 0, "NW"], [2, "UD", 0], "floors[0].NW[1]", "U and D are opposite"),
    (["floors", 0, "NW"], [1, "Q", 0], "floors[0].NW[1]", "must be bump faces"),
    (["floors", 0, "NW"], [1, "UU", 0], "floors[0].NW[1]", "must be bump faces"),
    (["floors", 0, "NW"], [1, "U", 2], "floors[0].NW[2]", "must be a seat"),
    (["floors", 0, "NW"], [1, "U"], "floors[0].NW", "must be a list of 3"),
    (["floors", 3], {"NW": [0, "-", 0]}, "floors[3]", "complete floor"),
    (["hands", 0, 0], 0, "cubes", "the game has 6"),
    (["pool"], [1, 0, 0, 0, 0], "pool", "the pool is empty once the draft is over"),
]


@pytest.mark.parametrize("path, value, field, words", BUILT,
                         ids=[f"{'.'.join(map(str, b[0]))}={b[1]!r}" for b in BUILT])
def test_a_bad_floor_is_refused_with_its_name(tmp_path, path, value, field, words):
    built = json.loads(after(4, 30))
    assert built["phase"] == "build" and len(built["floors"][0]) == 4 and not built["floors"][3]
    data = edit(built, path, value)
    if path == ["pool"]:
        data["hands"][0][0] -= 1            # the cubes stay 24
    body = refused_position(tmp_path, data)
    assert body["error"].startswith(field + ": ") and words in body["error"], body


def refused_position(tmp_path, data):
    code, out, err = run("play", "--position", write(tmp_path, data), "--turn", "pick 0")
    assert code == 2 and "Traceback" not in err, err
    body = json.loads(out)
    assert set(body) == {"error"}
    return body


@pytest.mark.parametrize("text, words", [("{not json", "position: not valid JSON"),
                                         ("[]", "position: must be a JSON object"),
                                         ("1" * 5000, "position: not valid JSON")])
def test_a_file_that_is_no_position_is_refused(tmp_path, text, words):
    assert words in refused_position(tmp_path, text)["error"]
    code, out, _ = run("play", "--position", tmp_path / "missing.json", "--turn", "pick 0")
    assert code == 2 and json.loads(out)["error"].startswith("position: cannot read")


def test_bench_reports_speed():
    code, out, err = run("bench", "--games", 3, "--draft", "random")
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 3 and report["draft"] == "random"
    assert report["random_games_per_second"] > 0
    assert set(report["random_game_ms"]) == set(report["replay_ms"]) == {"mean", "p95"}
    assert report["events_per_game"] >= 1 and report["steps_per_game"] == report["events_per_game"]
