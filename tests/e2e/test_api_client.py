"""The example client of the bot protocol (docs/bots.md) (examples/api_player.py) plays a whole game
against a built-in computer on a live server (`flask --app pbem serve`, whose worker thread
plays the computer): a bot outside the server, through the JSON API alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import ROOT, LiveServer, migrated

CLIENT = ROOT / "examples" / "api_player.py"


@pytest.fixture
def live(tmp_path, templates):
    server = LiveServer(migrated(tmp_path, templates), PREVIEWS_PER_CLIENT_PER_MINUTE="100000",
                        SUBMISSIONS_PER_CLIENT_PER_MINUTE="100000",
                        SUBMISSIONS_PER_ADDRESS_PER_MINUTE="100000")
    yield server
    server.stop()


@pytest.mark.parametrize("game, players", [
    ("babel-tower", ["--player", "bot:random"]),
    ("babylonia", ["--player", "bot:normal", "--player", "bot:easy"]),
])
def test_the_example_client_plays_a_whole_game_against_a_computer(live, game, players):
    game_id = live.flask("new-game", "--game", game, "--player", "Outside <bot@example.org>",
                         *players, "--seed", "7")
    shown = json.loads(live.flask("games", "show", game_id, "--json"))
    seat_link = shown["players"][0]["seat_link"]
    done = subprocess.run([sys.executable, str(CLIENT), seat_link, "--seed", "3", "--poll", "0.2",
                           "--timeout", "240"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr + done.stdout
    assert done.stdout.splitlines()[-1].startswith("result: ")
    decisions = [line for line in done.stdout.splitlines() if line.startswith("seat 0: ")]
    shown = json.loads(live.flask("games", "show", game_id, "--json"))
    assert shown["result"] is not None and shown["state"] == "finished"
    assert shown["events"] > len(decisions) > 0          # the computers played too
    assert all(p["address"] == "" for p in shown["players"][1:])
    assert {m["to"] for m in shown["mails"]} == {"bot@example.org"}
