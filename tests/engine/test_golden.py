"""Golden games: whole random games, stored, must replay exactly (docs/games/babel-rulings.md, "Randomness").

Each file in golden/ is the output of `python -m pbem.games.babel random-game --seed N --json`
(its name records the arguments). The files pin the deal, the reshuffles, random play, the rules
and the record's format together: a stored game must replay to the same state on every Python
version and every later release.

If a deliberate rules change alters them, regenerate with

    .venv/bin/python tests/engine/golden/regenerate.py

and review the diff. These tests only read the files; they never rewrite them.
"""

import io
import json
import re
from pathlib import Path

import pytest

from pbem.games.babel import GAME, cli, position
from pbem.games.babel.randomplay import play_random_game

GOLDEN = Path(__file__).parent / "golden"
NAME = re.compile(r"seed-(\d+)_(top-run|all)_first-(0|1|random)\.json")
FILES = sorted(GOLDEN.glob("seed-*.json"))


def case(path: Path):
    match = NAME.fullmatch(path.name)
    assert match, f"{path.name}: golden files are named seed-N_SUMERIANS_first-F.json"
    seed, sumerians, first = match.groups()
    return int(seed), sumerians, None if first == "random" else int(first)


def stored(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def final_json(state) -> dict:
    return position.to_json(position.Position(state, ["Player 1", "Player 2"], True))


def test_the_golden_games_cover_both_options_and_both_ways_of_choosing_the_first_player():
    cases = [case(p) for p in FILES]
    assert len(cases) >= 6
    assert {s for _, s, _ in cases} == {"top-run", "all"}
    firsts = {f for _, _, f in cases}
    assert None in firsts and {0, 1} <= firsts
    records = [stored(p) for p in FILES]
    assert any(e["type"] == "discard" for r in records for e in r["events"])
    steps = " ".join(e.get("steps", "") for r in records for e in r["events"])
    for skill in ("destroy", "rob", "jump", "emigrate", "switch", "halve", "migrate"):
        assert skill in steps, f"no golden game plays {skill}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_file_says_what_its_name_says(path):
    seed, sumerians, first = case(path)
    record = stored(path)
    assert record["seed"] == seed and record["sumerians"] == sumerians
    if first is not None:
        assert record["first"] == first
    assert record["final"]["outcome"] == record["outcome"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_random_play_reproduces_the_stored_game(path):
    seed, sumerians, first = case(path)
    record = stored(path)
    game = play_random_game(seed, sumerians, first)
    assert game.first == record["first"]
    assert game.sumerians == record["sumerians"]
    assert game.events == record["events"]
    result = game.state.result
    assert {"winner": result.winner, "reason": result.reason} == record["outcome"]
    assert game.state.scores() == record["scores"]
    assert final_json(game.state) == record["final"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_replaying_the_stored_events_gives_the_stored_final_position(path):
    record = stored(path)
    state = GAME.replay(record["seed"], {"sumerians": record["sumerians"]}, 2, record["first"],
                        record["events"])
    assert final_json(state) == record["final"]
    # The fold of the base interface (apply, event by event, on copies) agrees.
    state = GAME.start(record["seed"], {"sumerians": record["sumerians"]}, 2, record["first"])
    for event in record["events"]:
        state = GAME.apply(state, event)
    assert final_json(state) == record["final"]


@pytest.mark.parametrize("path", [p for p in FILES if case(p)[2] is None], ids=lambda p: p.stem)
def test_when_the_seed_chose_the_first_player_replay_without_naming_him_agrees(path):
    seed, sumerians, _ = case(path)
    record = stored(path)
    state = GAME.replay(seed, {"sumerians": sumerians}, 2, None, record["events"])
    assert final_json(state) == record["final"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_command_line_prints_the_stored_file_byte_for_byte(path):
    seed, sumerians, first = case(path)
    args = ["random-game", "--seed", str(seed), "--json", "--sumerians", sumerians]
    if first is not None:
        args += ["--first", str(first)]
    out = io.StringIO()
    assert cli.main(args, out=out) == 0
    assert out.getvalue() == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_stored_final_position_is_a_valid_complete_position(path):
    record = stored(path)
    pos = position.from_json(record["final"])
    assert pos.complete
    assert position.to_json(pos) == record["final"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_stored_record_is_in_canonical_notation(path):
    from pbem.games.babel.notation import canonical
    for event in stored(path)["events"]:
        if event["type"] == "turn":
            assert canonical(event["steps"]) == event["steps"]
        else:
            assert event["type"] == "discard"
            assert event["cards"] == "".join(sorted(event["cards"]))
