"""The turn page: view, preview, compose without JavaScript, submit, and the JSON API."""

import json

from pbem.games.babel.cards import NAMES
from pbem.games.rng import Rng
from pbem.policy import links


def first_turn(hand: str) -> str:
    """A legal first turn for a hand of 8: move, settle one card, build the starting card."""
    return f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"


def hand_of(client, link) -> str:
    data = client.get(link, headers={"Accept": "application/json"}).get_json()
    return data["view"]["players"][data["seat"]]["hand"]


def test_turn_page_shows_the_seats_own_view(actions, client):
    actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    page = client.get(link)
    assert page.status_code == 200
    html = page.data.decode()
    assert "It is your turn" in html and "You play <strong>Anna</strong>" in html
    hand = hand_of(client, link)
    assert len(hand) == 8
    assert "Your hand" in html
    assert 'name="add" value="move ' + hand[0] in html   # a legal step offered as a button


def test_submit_appends_and_redirects_then_link_is_used(actions, client):
    game = actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    response = client.post(link, data={"steps": first_turn(hand_of(client, link)), "action": "submit"})
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/s/")
    assert actions.event_count(game) == 1
    again = client.get(link)
    assert again.status_code == 200 and "already submitted" in again.data.decode()
    resubmit = client.post(link, data={"steps": "pass", "action": "submit"})
    assert resubmit.status_code == 409
    assert actions.event_count(game) == 1
    # Bob is told it is his turn, with Anna's turn in notation.
    mail = actions.last_mail("bob@example.org")
    assert "your turn" in mail["Subject"]
    assert "build mine" in mail.get_body(("plain",)).get_content()


def test_illegal_turn_is_refused_with_its_step_and_nothing_is_written(actions, client):
    game = actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    response = client.post(link, data={"steps": "settle A", "action": "submit"})
    assert response.status_code == 422
    assert "step 1 (settle A): your figure is still on the quarry" in response.data.decode()
    assert actions.event_count(game) == 0


def test_first_turn_must_build_the_starting_card(actions, client):
    game = actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    hand = hand_of(client, link)
    response = client.post(link, json={"steps": f"move {hand[0]}"})
    assert response.status_code == 422
    body = response.get_json()
    assert body["step"] == 1 and "starting level-1 card" in body["error"]
    assert actions.event_count(game) == 0


def test_compose_without_javascript_add_preview_remove(actions, client):
    actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    hand = hand_of(client, link)
    page = client.post(link, data={"steps": "", "add": f"move {hand[0]}"}).data.decode()
    assert f"<code>move {hand[0]}</code>" in page
    assert f'>move {hand[0]}\n</textarea>' in page
    page = client.post(link, data={"steps": f"move {hand[0]}\nsettle {hand[1]}",
                                   "action": "preview"}).data.decode()
    assert f"<code>settle {hand[1]}</code>" in page
    assert 'value="build mine"' in page             # now legal: offered as the next step
    page = client.post(link, data={"steps": f"move {hand[0]}\nsettle {hand[1]}", "remove": "1"}).data.decode()
    assert f'>settle {hand[1]}\n</textarea>' in page
    assert "your figure is still on the quarry" in page


def test_preview_fragment_and_json(actions, client):
    actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    hand = hand_of(client, link)
    fragment = client.post(link + "/preview", data={"steps": f"move {hand[0]}"},
                           headers={"X-Fragment": "1"})
    assert fragment.status_code == 200
    assert "<html" not in fragment.data.decode() and "Next steps" in fragment.data.decode()
    data = client.post(link + "/preview", json={"steps": f"move {hand[0]}\nsettle {hand[1]}"}).get_json()
    assert data["steps"] == [f"move {hand[0]}", f"settle {hand[1]}"]
    assert data["error"] is None and data["done"] is False
    assert "starting level-1 card" in data["todo"]   # every step is legal, but not finished
    me = data["view"]["players"][0]
    assert me["figure"] == hand[0] and me["rows"][hand[0]] == hand[1]
    territory = data["view"]["territories"]["AHMPS".index(hand[0])]["name"]
    assert {"notation": "build mine", "label": f"build level 1 in the {territory} territory from your column",
            "ends": False, "group": ""} in data["legal_steps"]
    bad = client.post(link + "/preview", json={"steps": "move X"}).get_json()
    assert bad["step"] == 1 and "'X' is not a tribe" in bad["error"]


def test_json_api_view_submit_and_conflict(actions, client):
    game = actions.create(first=1)
    link = actions.links("bob@example.org")["turn"]
    view = client.get(link, headers={"Accept": "application/json"})
    assert view.status_code == 200 and view.mimetype == "application/json"
    data = view.get_json()
    assert data["can_act"] and data["seat"] == 1 and data["names"] == ["Anna", "Bob"]
    assert data["view"]["players"][0]["hand"] is None       # never the opponent's hand
    ok = client.post(link, json={"steps": first_turn(data["view"]["players"][1]["hand"])})
    assert ok.status_code == 200
    after = ok.get_json()
    assert after["can_act"] is False and after["seq"] == 1
    assert after["next"].startswith("http://pbem.test/s/")
    conflict = client.post(link, json={"steps": "pass"})
    assert conflict.status_code == 409 and "already submitted" in conflict.get_json()["error"]
    assert actions.event_count(game) == 1


def test_whole_game_state_is_the_fold_of_its_log(actions, client, app):
    game = actions.create(first=0)
    rng = Rng(5)
    for _ in range(6):
        loaded = actions.state(game)
        decision = loaded.engine.to_act(loaded.state)[0]
        with app.app_context():   # after his discards a seat goes on without a new mail
            link = links.path(links.TURN, game, decision.seat, loaded.seq)
        text = loaded.engine.random_submission(loaded.state, decision.seat, rng)
        response = client.post(link, json={"steps": text})
        assert response.status_code == 200, response.get_json()
    loaded = actions.state(game)
    assert len(loaded.events) == actions.event_count(game)
    fresh = loaded.engine.replay(loaded.row.seed, loaded.row.options, 2, loaded.row.first, loaded.events)
    assert json.dumps(loaded.engine.view(fresh, None)) == json.dumps(loaded.engine.view(loaded.state, None))


def test_submitting_without_javascript_asks_first_in_plain_words(actions, client):
    game = actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    hand = hand_of(client, link)
    text = first_turn(hand)
    page = client.post(link, data={"steps": text, "action": "confirm"})
    assert page.status_code == 200 and actions.event_count(game) == 0
    html = page.data.decode()
    assert "Submit this turn?" in html and 'value="submit"' in html
    assert (f"Move to the {NAMES[hand[0]]}, settle 1 {NAMES[hand[1]]} in the {NAMES[hand[0]]} territory, "
            f"build level 1 in the {NAMES[hand[0]]} territory from your column.") in html
    unfinished = client.post(link, data={"steps": f"move {hand[0]}", "action": "confirm"})
    assert unfinished.status_code == 422 and "Not finished yet" in unfinished.data.decode()
    assert client.post(link, data={"steps": text, "action": "submit"}).status_code == 303
    assert actions.event_count(game) == 1


def test_preview_json_gives_the_turn_as_one_sentence(actions, client):
    actions.create(first=0)
    link = actions.links("anna@example.org")["turn"]
    hand = hand_of(client, link)
    data = client.post(link + "/preview", json={"steps": first_turn(hand)}).get_json()
    assert data["done"] and data["sentence"].startswith(f"Move to the {NAMES[hand[0]]}, settle 1 ")
