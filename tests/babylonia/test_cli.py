"""`python -m pbem.games.babylonia random-game` and `bench`, run as a real subprocess, like
Babel's and the Tower's: one event a line in the notation, the outcome as the last line."""

from __future__ import annotations

import io
import json
import re

import pytest

from engine_cli import random_game, run_engine
from pbem.games.babylonia import GAME, cli, position
from position_edits import DELETE, edit

HEADER = re.compile(r"# babylonia random game: seed (-?\d+), ([234]) players, seat ([0-3]) first, "
                    r"ziggurat cards (basic|advanced) \(((?:[1-9] ?)+)\)(, greedy)?")
LINE = re.compile(r"(\d+)\. seat ([0-3]): (.+)")
SUMMARY_KEYS = {"outcome", "scores", "cities", "turns", "owed_cards"}


def run(*args, stdin=None):
    return run_engine("pbem.games.babylonia", *args, stdin=stdin)


def game(*args):
    return random_game("pbem.games.babylonia", *args)


def in_process(*args):
    out = io.StringIO()
    assert cli.main([*map(str, args)], out=out) == 0
    return out.getvalue()


def replay(seed, players, cards, lines, first=None):
    """The printed lines, decided and applied through the engine one by one."""
    state = GAME.start(seed, {"ziggurat_cards": cards}, players, first)
    for number, line in enumerate(lines, 1):
        found = LINE.fullmatch(line)
        assert found, line
        assert int(found.group(1)) == number
        seat, text = int(found.group(2)), found.group(3)
        assert [d.seat for d in GAME.to_act(state)] == [seat], line
        state = GAME.apply(state, GAME.decide(state, seat, text))
    assert GAME.to_act(state) == []
    return state


def check_summary(summary, state, lines):
    assert set(summary) == SUMMARY_KEYS
    outcome = GAME.outcome(state)
    assert summary["outcome"] == {"winner": outcome.winner, "winners": list(outcome.winners),
                                  "reason": "end"}
    assert summary["scores"] == GAME.scores(state)
    assert summary["cities"] == [len(c) for c in state.cities]
    assert summary["turns"] + summary["owed_cards"] == len(lines)
    assert summary["owed_cards"] == sum(bool(re.search(r": card \d$", x)) for x in lines)


@pytest.mark.parametrize("seed, players", [(1, 2), (7, 3), (2024, 4)])
def test_one_event_a_line_and_the_outcome_last(seed, players):
    out = game("--seed", seed, "--players", players)
    lines = out.splitlines()
    header = HEADER.fullmatch(lines[0])
    assert header, lines[0]
    assert header.group(1, 2, 4) == (str(seed), str(players), "basic")
    assert header.group(5) == "1 2 3 4 5 6 7" and header.group(6) is None
    events = lines[1:-1]
    first = int(header.group(3))
    assert events[0].startswith(f"1. seat {first}: ")
    assert len(events[0].split(": ", 1)[1].split("; ")) == 1     # the first player: 1 token
    state = replay(seed, players, "basic", events)
    check_summary(json.loads(lines[-1]), state, events)


def test_the_default_is_two_players_and_the_same_seed_the_same_game():
    out = game("--seed", 12)
    assert ", 2 players, " in out.splitlines()[0]
    assert out == game("--seed", 12, "--players", 2, "--cards", "basic")
    assert out != in_process("random-game", "--seed", 13)
    assert in_process("random-game", "--seed", 12) == out


def test_advanced_cards_first_seat_and_the_greedy_player():
    out = game("--seed", 5, "--players", 4, "--cards", "advanced", "--first", 3, "--greedy")
    lines = out.splitlines()
    header = HEADER.fullmatch(lines[0])
    assert header and header.group(3) == "3" and header.group(6) == ", greedy"
    dealt = GAME.start(5, {"ziggurat_cards": "advanced"}, 4, 3)
    assert header.group(5) == " ".join(map(str, dealt.available))
    assert lines[1].startswith("1. seat 3: ")
    state = replay(5, 4, "advanced", lines[1:-1], first=3)
    check_summary(json.loads(lines[-1]), state, lines[1:-1])
    assert out != game("--seed", 5, "--players", 4, "--cards", "advanced", "--first", 3)


def test_owed_cards_have_lines_of_their_own():
    """Greedy games pause for someone's ziggurat card now and then: `seat S: card N`."""
    for seed in range(30):
        out = in_process("random-game", "--seed", seed, "--players", 3, "--greedy")
        lines = out.splitlines()
        if json.loads(lines[-1])["owed_cards"]:
            break
    else:
        pytest.fail("no greedy game of 30 paused for a card")
    owed = [x for x in lines[1:-1] if re.search(r": card \d$", x)]
    assert owed
    replay(seed, 3, "basic", lines[1:-1])


def test_json_holds_the_events_and_the_final_snapshot():
    data = json.loads(game("--seed", 9, "--players", 3, "--json"))
    assert set(data) == {"seed", "players", "first", "ziggurat_cards", "greedy", "events",
                         "final"} | SUMMARY_KEYS
    assert (data["seed"], data["players"], data["ziggurat_cards"], data["greedy"]) == \
        (9, 3, "basic", False)
    state = GAME.replay(9, {"ziggurat_cards": "basic"}, 3, None, data["events"])
    assert GAME.restore(data["final"]) == state
    assert GAME.replay(9, {}, 3, data["first"], data["events"]) == state
    text = in_process("random-game", "--seed", 9, "--players", 3).splitlines()
    assert [f"{i}. seat {e['seat']}: {GAME.notation(e, e['seat'])}"
            for i, e in enumerate(data["events"], 1)] == text[1:-1]
    check_summary({k: data[k] for k in SUMMARY_KEYS}, state, text[1:-1])


def test_bench_reports_speed():
    code, out, err = run("bench", "--games", 2, "--players", 3)
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 2 and report["players"] == 3
    assert report["random_games_per_second"] > 0
    assert set(report["random_game_ms"]) == set(report["replay_ms"]) == {"mean", "p95"}
    assert report["events_per_game"] > 20 and report["steps_per_game"] > report["events_per_game"]


@pytest.mark.parametrize("args, words", [
    ([], "the following arguments are required: --seed"),
    (["--seed"], "expected one argument"),
    (["--seed", "x"], "invalid int value"),
    (["--seed", "1", "--players", "1"], "Babylonia is a game for 2 to 4 players, not 1"),
    (["--seed", "1", "--players", "5"], "Babylonia is a game for 2 to 4 players, not 5"),
    (["--seed", "1", "--players", "two"], "'two' is not a number of players"),
    (["--seed", "1", "--cards", "expert"], "invalid choice: 'expert'"),
    (["--seed", "1", "--first", "2"], "a seat from 0 to 1 for 2 players, not 2"),
    (["--seed", "1", "--players", "3", "--first", "-1"], "a seat from 0 to 2 for 3 players"),
])
def test_bad_arguments_are_usage_errors(args, words):
    code, out, err = run("random-game", *args)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "usage: python -m pbem.games.babylonia random-game" in err
    assert words in err, err


def test_a_command_is_required_and_bench_checks_its_arguments():
    for args in ([], ["fly"], ["bench", "--players", "6"], ["bench", "--games", "0"]):
        code, out, err = run(*args)
        assert code == 2 and out == "" and "usage:" in err and "Traceback" not in err, args


# -- positions: random-game --json --after N, and play ------------------------------------------

def write(tmp_path, data, name="position.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def after(n, *args):
    code, out, err = run("random-game", "--seed", 0, "--players", 3, "--greedy", "--json",
                         "--after", n, *args)
    assert code == 0 and err == "", err
    return out


def test_play_from_the_position_after_n_decisions_gives_the_position_after_n_plus_1(tmp_path):
    """Decisions of a greedy game of three, turns and the cards owed while a turn pauses
    (events 30 and 39), played by `play` from the position before each (`--after N`)."""
    events = json.loads(game("--seed", 0, "--players", 3, "--greedy", "--json"))["events"]
    assert [n for n, e in enumerate(events) if e["type"] == "card"] == [30, 39]
    for n in (0, 1, 2, 29, 30, 31, 39, len(events) - 1):
        event = events[n]
        source = write(tmp_path, after(n), f"after-{n}.json")
        code, out, err = run("play", "--position", source, "--turn",
                             GAME.notation(event, event["seat"]))
        assert code == 0, (out, err)
        assert json.loads(out) == json.loads(after(n + 1))
        assert position.loads(out) == GAME.replay(0, {}, 3, None, events[:n + 1])
    over = write(tmp_path, after(len(events)), "over.json")
    code, out, _ = run("play", "--position", over, "--turn", "card 1")
    assert code == 2 and "the game is over" in json.loads(out)["error"]
    code, out, err = run("random-game", "--seed", 0, "--players", 3, "--greedy", "--json",
                         "--after", len(events) + 1)
    assert code == 2 and out == "" and f"this game has {len(events)} decisions" in err


def test_play_refuses_an_illegal_decision_naming_the_step(tmp_path):
    source = write(tmp_path, after(30))                      # seat 2 owes a ziggurat card
    code, out, _ = run("play", "--position", source, "--turn-file", "-", stdin="farmer g7\n")
    assert code == 2 and json.loads(out) == {
        "error": "step 1 (farmer g7): answer with one step: card N, the ziggurat card you take.",
        "step": 1}
    code, out, _ = run("play", "--position", write(tmp_path, after(0), "start.json"),
                       "--turn", "farmer q1; farmer q1")
    assert code == 2 and json.loads(out)["step"] == 1




BAD = [
    (["players"], 5, "players", "from 2 to 4"),
    (["players"], DELETE, "players", "is missing"),
    (["colour"], "blue", "colour", "unknown field"),
    (["tiles", "a1"], "city M", "tiles.a1", "is not a site of the board for 3 players"),
    (["tiles", "b11"], "city X", "tiles.b11", "must be one of"),
    (["tokens", "i7"], [0, "F", False], "tokens.i7", "is not a hex of the board"),
    (["tokens", "e5"], [1, "P", False], "tokens.e5[2]", "face down (true) on a river"),
    (["tokens", "e5"], [3, "P", True], "tokens.e5[0]", "must be a seat from 0 to 2"),
    (["tokens", "e5"], [1, "X", True], "tokens.e5[1]", "must be one of"),
    (["stands"], [[1, 1, 1, 1]] * 2, "stands", "must be a list of 3"),
    (["stands", 0], [8, 0, 0, 0], "stands[0][0]", "from 0 to 7"),
    (["stands", 0], [4, 4, 0, 0], "stands[0]", "at most 7 tokens"),
    (["supplies", 1], "FFX", "supplies[1]", "'X' is not a token"),
    (["scores", 2], -1, "scores[2]", "whole number of at least 0"),
    (["causes", 0], [[0, "nothing"]], "causes[0][0][0]", "of at least 1"),
    (["cities", 0], ["field 5"], "cities[0][0]", "must be a city tile"),
    (["available"], [1, 1], "available", "names a card twice"),
    (["available"], [10], "available[0]", "from 1 to 9"),
    (["cards", 1], [1], "cards[1]", "card 1 is also in available"),
    (["used", 0], [3], "used[0]", "card 3 is turned over but not held"),
    (["scored"], ["g7"], "scored[0]", "is not a hex this field may name"),
    (["to_move"], 3, "to_move", "must be a seat from 0 to 2"),
    (["card_due"], 9, "card_due", "must be a seat from 0 to 2 or null"),
    (["seed"], -1, "seed", "whole number"),
    (["turn"], None, "turn", "a game in play has a turn in progress"),
    (["turn", "resolved"], 1, "turn.resolved", "from 0 to 0"),
    (["turn", "waiting"], "g7", "turn.waiting", "is not a hex"),
    (["turn", "extra"], "no", "turn.extra", "must be true or false"),
    (["turn", "spare"], 1, "turn.spare", "unknown field"),
    (["result"], [[], "end"], "result[0]", "an aborted game has no winner"),
    (["result"], [[0], "boredom"], "result[1]", "must be one of"),
]


@pytest.mark.parametrize("path, value, field, words", BAD,
                         ids=[f"{'.'.join(map(str, b[0]))}={b[1]!r}" for b in BAD])
def test_a_bad_field_is_refused_with_its_name(tmp_path, path, value, field, words):
    start = json.loads(after(5))
    assert start["tokens"]["e5"] == [1, "P", True] and start["turn"]["order"] == []
    start["available"], start["cards"][0], start["used"][0] = [1, 3, 4, 5, 6, 7], [2], []
    code, out, err = run("play", "--position", write(tmp_path, edit(start, path, value)),
                         "--turn", "card 1")
    assert code == 2 and "Traceback" not in err, err
    body = json.loads(out)
    assert set(body) == {"error"} and body["error"].startswith(field + ": "), body
    assert words in body["error"], body
