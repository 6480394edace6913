"""The engine's command line, run as a real subprocess.

docs/games/babel-notation.md, "The engine's command line".

Other tools call `python -m pbem.games.babel` exactly as documented: these tests do the same.
"""

import io
import json
from pathlib import Path

import pytest

from engine_cli import run_engine
from pbem.games.babel import GAME, cli, position
from pbem.games.babel.randomplay import play_random_game
from pbem.games.babel.turn import begin_turn

#: The example position of docs/games/babel-notation.md (Anna to move, phase 2).
EXAMPLE = {
    "options": {"sumerians": "top-run"},
    "to_move": 0, "end_phase": False, "migrated": False,
    "players": [
        {"name": "Anna", "hand": "AHS", "figure": "H", "column": [2, 1], "first_turn": False,
         "rows": {"H": "SSSSAPP", "S": "PP", "A": "HH", "M": "", "P": ""},
         "temples": {"H": [], "S": [], "A": [], "M": [], "P": []}},
        {"name": "Bob", "hand": "AAMMSPP", "figure": "A", "column": [], "first_turn": False,
         "rows": {"H": "PSAAM"}, "temples": {"H": [1, 2, 3, 4, 5, 6], "A": [1, 2, 3]}},
    ],
    "tribe_supply": "SPAMHHSPAM", "discard": "", "temple_supply": [4, 5, 2],
    "pending_discard": None, "outcome": None,
}

#: The rulebook's example turn for Anna (German original, "Ein Beispiel").
ANNA_TURN = """switch          # take Bob's Medes card
migrate H S
switch
destroy         # Bob's level-6 temple goes back on the supply
move A
settle H
rob
move S
halve P
halve P
"""


def run(*args, stdin=None):
    return run_engine("pbem.games.babel", *args, stdin=stdin)


def write(tmp_path, data, name="position.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def play_ok(path, *turn_args, stdin=None):
    code, out, err = run("play", "--position", path, *turn_args, stdin=stdin)
    assert code == 0, (out, err)
    return json.loads(out)


def refused(path, *turn_args, stdin=None):
    code, out, err = run("play", "--position", path, *turn_args, stdin=stdin)
    assert code == 2, (out, err)
    assert "Traceback" not in err
    return json.loads(out)


# -- play ------------------------------------------------------------------------------------

def test_play_prints_the_position_after_the_turn(tmp_path):
    path = write(tmp_path, EXAMPLE)
    after = play_ok(path, "--turn", ANNA_TURN)
    assert after["to_move"] == 1 and after["phase"] == "draw"
    anna, bob = after["players"]
    assert anna["name"] == "Anna" and bob["name"] == "Bob"
    assert bob["temples"]["H"] == [] and anna["temples"]["A"] == [3]
    assert after["pending_discard"] == {"seat": 1, "count": 5}
    assert after["temple_supply"] == [4, 5, 2, 6, 5, 4, 3]
    assert anna["column"] == [2, 1, 2, 1]
    assert after["outcome"] is None
    # It is a valid position in the same format, and Bob has not drawn yet.
    assert position.from_json(after).state.players[1].hand_letters() == "AAMMPPS"
    assert after["tribe_supply"] == EXAMPLE["tribe_supply"]


def test_a_plain_pass_plays_phase_3_only(tmp_path):
    after = play_ok(write(tmp_path, EXAMPLE), "--turn", "pass")
    assert after["to_move"] == 1 and after["phase"] == "draw"
    assert after["players"][0]["column"] == [2, 1, 5, 2]   # the 5 placed first, the 2 on top
    assert after["temple_supply"] == [4]


def test_turn_file_and_standard_input(tmp_path):
    path = write(tmp_path, EXAMPLE)
    expected = play_ok(path, "--turn", ANNA_TURN)
    turn_file = write(tmp_path, ANNA_TURN, "turn.txt")
    assert play_ok(path, "--turn-file", turn_file) == expected
    assert play_ok(path, "--turn-file", "-", stdin=ANNA_TURN) == expected
    # A reply quoted in a mail reads the same.
    quoted = "> Your turn, Anna.\n> Bob played: pass\n" + ANNA_TURN
    assert play_ok(path, "--turn-file", "-", stdin=quoted) == expected


def test_an_illegal_turn_is_refused_with_its_step(tmp_path):
    path = write(tmp_path, EXAMPLE)
    body = refused(path, "--turn", "switch\nbuild theirs")
    assert body == {"error": "step 2 (build theirs): your opponent's column is empty.", "step": 2}
    body = refused(path, "--turn", "move A; fly away")
    assert body["step"] == 2 and body["error"].startswith("step 2 (fly away): 'fly' is not a step")
    body = refused(path, "--turn", "switch; switch; switch")
    assert body["step"] == 3 and body["error"].startswith("step 3 (switch): ")
    body = refused(path, "--turn", "")
    assert body["step"] == 1
    body = refused(path, "--turn", "move A; pass")
    assert body["step"] == 2
    body = refused(path, "--turn-file", "-", stdin="discard A")
    assert body["step"] == 1


def test_a_game_ended_mid_turn_refuses_the_steps_after_the_end(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["players"][0]["temples"] = {"A": [1, 2, 3, 4, 5], "S": [1, 2, 3, 4, 5, 6], "H": [1, 2, 3]}
    data["players"][0]["column"] = [2, 1, 4]
    data["players"][1]["temples"] = {"H": [1, 2], "A": [1, 2, 3]}
    path = write(tmp_path, data)
    # Anna (14) builds level 4 in the Hittites territory: 15 against Bob's 5 wins at once.
    after = play_ok(path, "--turn", "build mine")
    assert after["outcome"] == {"winner": 0, "reason": "fifteen-ten"}
    # No phase 3 after the end, but the printed position still names the other player.
    assert (after["to_move"], after["phase"], after["players"][0]["column"]) == (1, "draw", [2, 1])
    body = refused(path, "--turn", "build mine\nmove A")
    assert body["step"] == 2 and "the game ended after step 1" in body["error"]
    # A finished game takes no turn at all.
    body = refused(write(tmp_path, after, "over.json"), "--turn", "pass")
    assert "over" in body["error"]


@pytest.mark.parametrize("content, field", [
    ("{not json", "position: not valid JSON"),
    ("", "position: not valid JSON"),
    ("[" * 50_000, "position: not valid JSON"),
    (json.dumps(dict(EXAMPLE, to_move=2)), "to_move: "),
    (json.dumps(dict(EXAMPLE, colour="blue")), "colour: unknown field"),
    (json.dumps(dict(EXAMPLE, temple_supply=[4, 7])), "temple_supply[1]: "),
    (json.dumps(dict(EXAMPLE, discard="AXE")), "discard: 'X' is not a tribe"),
    (json.dumps(dict(EXAMPLE, players=[EXAMPLE["players"][0]])), "players: "),
    (json.dumps(dict(EXAMPLE, outcome={"winner": 0, "reason": "boredom"})), "outcome.reason: "),
])
def test_a_malformed_position_is_refused_naming_the_field(tmp_path, content, field):
    body = refused(write(tmp_path, content), "--turn", "pass")
    assert set(body) == {"error"}
    assert body["error"].startswith(field), body


def test_an_unreadable_position_is_refused(tmp_path):
    body = refused(tmp_path / "missing.json", "--turn", "pass")
    assert set(body) == {"error"} and body["error"].startswith("position: cannot read ")
    body = refused(tmp_path, "--turn", "pass")   # a directory
    assert body["error"].startswith("position: cannot read ")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{\x00")
    body = refused(binary, "--turn", "pass")
    assert body["error"].startswith("position: cannot read ")
    body = refused(write(tmp_path, EXAMPLE), "--turn-file", tmp_path / "no-turn.txt")
    assert body["error"].startswith("turn: cannot read ")


def test_bad_usage_exits_2(tmp_path):
    code, out, err = run("play", "--position", write(tmp_path, EXAMPLE))
    assert code == 2 and "usage" in err
    code, out, err = run("fly")
    assert code == 2 and "usage" in err


# -- positions chain ----------------------------------------------------------------------------

def test_printed_positions_play_on_discard_draw_and_phase_2(tmp_path):
    after_anna = play_ok(write(tmp_path, EXAMPLE), "--turn", ANNA_TURN)
    # Bob owes 5 discards: his turn text starts with them, then he draws 3 (M, A, P) and plays.
    path = write(tmp_path, after_anna, "bob.json")
    body = refused(path, "--turn", "pass")
    assert body["step"] == 1 and "discard" in body["error"]
    body = refused(path, "--turn", "discard A A M")
    assert body["step"] == 1 and "5" in body["error"]
    body = refused(path, "--turn", "discard A A M M S")
    assert body["step"] == 2   # nothing of phase 2 follows
    after_bob = play_ok(path, "--turn", "discard A A M M S\nmove M\nsettle A P")
    bob = after_bob["players"][1]
    assert after_bob["to_move"] == 0 and after_bob["phase"] == "draw"
    assert after_bob["pending_discard"] is None
    assert bob["hand"] == "PP" and bob["figure"] == "M" and bob["rows"]["M"] == "AP"
    assert after_bob["discard"].endswith("AAMMSM")
    assert after_bob["tribe_supply"] == "SPAMHHS"
    assert bob["column"] == [4, 3]
    # And Anna again: no discard owed, she draws and plays.
    after = play_ok(write(tmp_path, after_bob, "anna.json"), "--turn", "pass")
    assert after["to_move"] == 1 and after["phase"] == "draw"
    hand = after_bob["players"][0]["hand"]
    assert sorted(after["players"][0]["hand"]) == sorted(hand + "SHH")   # the top three
    assert after["tribe_supply"] == "SPAM"


def chain(seed, sumerians, first, events, play):
    """Play a game's events turn by turn from printed positions; the state after them, drawn."""
    state = GAME.start(seed, {"sumerians": sumerians}, 2, first)
    data = position.to_json(position.Position(state, ["Ann", "Bob"], True))
    pending = ""
    for n, event in enumerate(events):
        if event["type"] == "discard":
            pending = "discard " + " ".join(event["cards"]) + "\n"
            continue
        data = play(data, pending + event["steps"], n)
        pending = ""
        assert data["complete"] is True and data["phase"] == "draw"
    chained = position.from_json(data).state
    begin_turn(chained)
    return chained


def test_a_random_game_replays_turn_by_turn_through_the_command_line(tmp_path):
    """Positions chain: each printed position plays the game's next turn, as the server would."""
    def play(data, text, n):
        return play_ok(write(tmp_path, data, f"turn-{n}.json"), "--turn-file", "-", stdin=text)

    game = play_random_game(1454)
    events = game.events[:6]
    assert chain(1454, "top-run", game.first, events, play) == \
        GAME.replay(1454, {}, 2, game.first, events)


GOLDEN = sorted((Path(__file__).parent / "golden").glob("seed-*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_games_chain_through_play_to_their_end(tmp_path, path):
    """The same in process, for whole games: owed discards, reshuffles, the end."""
    def play(data, text, n):
        source = write(tmp_path, data, "position.json")
        out = io.StringIO()
        assert cli.main(["play", "--position", str(source), "--turn", text], out=out) == 0, \
            out.getvalue()
        return json.loads(out.getvalue())

    record = json.loads(path.read_text(encoding="utf-8"))
    chained = chain(record["seed"], record["sumerians"], record["first"], record["events"], play)
    final = position.to_json(position.Position(chained, ["Player 1", "Player 2"], True))
    assert final == record["final"]


# -- random-game ----------------------------------------------------------------------------------

def test_random_game_prints_one_turn_per_line_and_the_outcome():
    code, out, err = run("random-game", "--seed", 1454)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("# babel random game: seed 1454")
    summary = json.loads(lines[-1])
    assert summary["outcome"]["reason"] in ("fifteen-ten", "twenty", "below-ten", "supply-empty")
    assert summary["outcome"]["winner"] in (0, 1, None)
    assert len(summary["scores"]) == 2
    turns = lines[1:-1]
    assert len(turns) == summary["turns"]
    for n, line in enumerate(turns, 1):
        assert line.startswith(f"{n}. seat ")
    assert any("discard" in line for line in turns)
    again = run("random-game", "--seed", 1454)
    assert again[1] == out
    assert run("random-game", "--seed", 1455)[1] != out


def test_random_game_options_and_json():
    code, out, _ = run("random-game", "--seed", 77, "--sumerians", "all", "--first", 1, "--json")
    assert code == 0
    record = json.loads(out)
    assert record["seed"] == 77 and record["sumerians"] == "all" and record["first"] == 1
    assert set(record) == {"seed", "first", "sumerians", "events", "outcome", "scores", "turns",
                           "final"}
    final = GAME.replay(77, {"sumerians": "all"}, 2, 1, record["events"])
    final_json = position.to_json(position.Position(final, ["Player 1", "Player 2"], True))
    assert final_json == record["final"]


def test_bench_reports_speed():
    code, out, err = run("bench", "--games", 5)
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 5
    assert report["random_games_per_second"] > 0
    assert set(report["replay_ms"]) == {"mean", "p95"}


def test_random_game_json_after_n_prints_the_position_after_n_decisions(tmp_path):
    """`--json --after N`: the position file after the game's first N decisions (0: the deal,
    after its first draw), which `play` takes: the next turn of the record plays from it."""
    record = json.loads(run("random-game", "--seed", 77, "--json")[1])
    events, first = record["events"], record["first"]
    played = 0
    for n in (0, 1, 2, 7, len(events) - 1, len(events)):
        code, out, err = run("random-game", "--seed", 77, "--json", "--after", n)
        assert code == 0 and err == "", err
        data = json.loads(out)
        state = GAME.replay(77, {}, 2, first, events[:n])
        assert data == position.to_json(position.Position(state, ["Player 1", "Player 2"], True))
        assert position.from_json(data).state == state
        if n < len(events) and events[n]["type"] == "turn":
            after = play_ok(write(tmp_path, out, f"after-{n}.json"), "--turn", events[n]["steps"])
            assert after["to_move"] == 1 - state.to_move
            played += 1
    assert played >= 3
    code, out, err = run("random-game", "--seed", 77, "--json", "--after", len(events) + 1)
    assert code == 2 and out == "" and f"this game has {len(events)} decisions" in err


@pytest.mark.parametrize("args, words", [
    (["--after", "3"], "argument --after: only with --json"),
    (["--json", "--after", "-1"], "a number of decisions from 0"),
    (["--json", "--after", "x"], "'x' is not a number of decisions"),
])
def test_after_needs_json_and_a_number(args, words):
    code, out, err = run("random-game", "--seed", 77, *args)
    assert code == 2 and out == "" and words in err and "Traceback" not in err
