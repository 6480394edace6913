"""Creating games: the start page and `flask --app pbem new-game`."""

import re
from html import unescape

import pytest

from pbem.store import gamelog
from pbem_web import confirm, text_of


def form(**changes):
    data = {"game": "babel", "name0": "Anna", "email0": "anna@example.org",
            "name1": "Bob", "email1": "bob@example.org", "first": "random",
            "option.sumerians": "top-run"}
    data.update(changes)
    return data


def confirm_link(actions, creator: str) -> str:
    """The confirmation link in the creator's mail (the only mail a new game sends)."""
    mail = actions.last_mail(creator)
    assert mail["Subject"].startswith("Confirm your game")
    found = re.search(r"http://pbem\.test(/c/[A-Za-z0-9_.\-]+)", text_of(mail))
    assert found, text_of(mail)
    return found.group(1)


def confirm_by_mail(actions, client, creator: str):
    """Open the link in the creator's mail, and press its button."""
    link = confirm_link(actions, creator)
    page = client.get(link)
    assert page.status_code == 200 and "Start the game" in page.data.decode()
    return client.post(link)


def test_start_page_offers_the_game_and_its_options(client):
    page = client.get("/").data.decode()
    assert 'value="babel"' in page and "Babel" in page
    assert 'name="option.sumerians" value="top-run"' in page and 'value="all"' in page
    assert '<option value="random">at random</option>' in page


def test_creating_a_game_invites_both_and_gives_the_starter_his_turn_link(actions, client, app):
    response = client.post("/games", data=form(first="1", **{"option.sumerians": "all"}))
    assert response.status_code == 303
    game = response.headers["Location"].split("/")[2]
    confirmed = confirm_by_mail(actions, client, "anna@example.org")
    assert confirmed.status_code == 303
    response = confirmed
    loaded = actions.state(game)
    assert loaded.row.options == {"sumerians": "all"} and loaded.row.first == 1
    assert loaded.names == ["Anna", "Bob"]
    anna, bob = actions.links("anna@example.org"), actions.links("bob@example.org")
    assert anna["turn"] is None and anna["seat"]
    assert bob["turn"] and bob["seat"]
    assert "your turn" in actions.last_mail("bob@example.org")["Subject"]
    assert "invited" in actions.last_mail("anna@example.org")["Subject"]
    record = client.get(response.headers["Location"]).data.decode()
    assert "invitations were mailed" in record


@pytest.mark.parametrize("changes, message", [
    ({"email1": ""}, "Player 2 needs a mail address."),
    ({"email0": "not-an-address"}, "is not a mail address"),
    ({"email0": "anna@example.org\r\nBcc: x@evil.org"}, "is not a mail address"),
    ({"name0": "x" * 101}, "at most 100 characters"),
    ({"game": "chess"}, "Choose a game this server hosts."),
    ({"first": "7"}, "Choose who starts"),
    ({"option.sumerians": "some"}, "option sumerians='some' is not one of top-run, all"),
])
def test_bad_forms_are_refused_with_a_message_and_nothing_is_written(actions, client, changes, message):
    response = client.post("/games", data=form(**changes))
    assert response.status_code == 400
    assert message in unescape(response.data.decode())
    assert actions.mail_count() == 0
    json_response = client.post("/games", json=form(**changes))
    assert json_response.status_code == 400 and message in json_response.get_json()["error"]


def test_json_creation(client, actions):
    response = client.post("/games", json=form())
    assert response.status_code == 202
    game = response.get_json()["game"]
    assert response.get_json()["status"] == "unconfirmed"
    assert "anna@example.org" in response.get_json()["message"]
    link = confirm_link(actions, "anna@example.org")
    confirmed = client.post(link, json={})
    assert confirmed.status_code == 201 and confirmed.get_json()["game"] == game
    assert actions.state(game).engine.name == "babel"


def test_names_without_a_name_take_the_address(actions, client):
    response = client.post("/games", data=form(name0=""))
    game = confirm(client, response.headers["Location"].split("/")[2])
    assert actions.state(game).names == ["anna", "Bob"]


def test_cli_new_game(app, actions):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "42",
                                 "--option", "sumerians=all"])
    assert result.exit_code == 0, result.output
    game = result.output.strip()
    loaded = actions.state(game)
    assert (loaded.row.seed, loaded.row.first, loaded.row.options) == (42, 0, {"sumerians": "all"})
    assert loaded.engine.to_act(loaded.state)[0].seat == 0
    assert actions.links("anna@example.org")["turn"]
    # The same seed deals the same game.
    with app.app_context():
        again = loaded.engine.start(42, {"sumerians": "all"}, 2, 0)
    assert again == loaded.state


@pytest.mark.parametrize("args, message", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "babel", "--option", "sumerians"], "write name=value"),
    (["--game", "babel", "--option", "sumerians=most"], "is not one of"),
    (["--game", "babel", "--first", "2"], "--first must name a seat"),
    (["--game", "babel", "--seed", "-1"], "--seed must be"),
])
def test_cli_new_game_refuses_bad_arguments(app, actions, args, message):
    players = ["--player", "Anna <anna@example.org>", "--player", "Bob <bob@example.org>"]
    result = app.test_cli_runner().invoke(args=["new-game", *args, *players])
    assert result.exit_code == 2 and message in result.output
    assert actions.mail_count() == 0


def test_cli_new_game_refuses_a_bad_player(app, actions):
    result = app.test_cli_runner().invoke(args=["new-game", "--game", "babel", "--player", "Anna",
                                                "--player", "Bob <bob@example.org>"])
    assert result.exit_code == 2 and "is not a mail address" in result.output
    result = app.test_cli_runner().invoke(args=["new-game", "--game", "babel",
                                                "--player", "Bob <bob@example.org>"])
    assert result.exit_code == 2 and "Babel is a game for two" in result.output
    with app.app_context():
        assert gamelog.games_of("bob@example.org") == []
