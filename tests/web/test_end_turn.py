"""B1 (issue 17): a Babel player who may end his turn with no step ends it from his page: a
button offers it, and Submit of the empty draft does it, with and without JavaScript."""

from __future__ import annotations

from pbem.games.rng import Rng


def at_a_turn_that_may_end_empty(actions) -> tuple[str, str, int]:
    """A game of Babel played on (by the turn service) until the seat to act may end its turn
    with no step; its id, the turn link's path and the seat."""
    from pbem.play import turns
    from pbem.policy import links
    from pbem.store import gamelog
    game, rng = actions.create(first=0), Rng(3)
    with actions.app.app_context():
        while True:
            loaded = gamelog.load(game)
            seat = loaded.engine.to_act(loaded.state)[0].seat
            options = loaded.engine.legal_steps(loaded.state, seat)
            if any(o.ends for o in options):
                return game, links.path(links.TURN, game, seat, loaded.seq), seat
            text = loaded.engine.random_submission(loaded.state, seat, rng)
            turns.submit(game, seat, loaded.seq, text, turns.Origin(turns.OPERATOR))


def last_event(actions, game: str) -> dict:
    return actions.state(game).events[-1]


def test_the_page_offers_ending_the_turn_as_a_button(actions, client):
    _, path, _ = at_a_turn_that_may_end_empty(actions)
    page = client.get(path).data.decode()
    assert "You may end your turn here, with no step" in page
    assert '<button type="submit" name="action" value="confirm" class="primary">End your turn…</button>' \
        in page


def test_the_preview_of_an_empty_draft_that_may_end_is_done(actions, client):
    """What the page's script asks before it opens the confirmation: done, and in words."""
    game, path, seat = at_a_turn_that_may_end_empty(actions)
    data = client.post(path + "/preview", json={"steps": ""}).get_json()
    assert data["done"] is True and data["todo"] is None and data["error"] is None
    assert data["sentence"] == "Play no action."
    assert data["legal_steps"]            # still the steps a composer may add first
    assert actions.event_count(game) == len(actions.state(game).events)


def test_submitting_the_empty_draft_without_javascript_ends_the_turn(actions, client):
    game, path, seat = at_a_turn_that_may_end_empty(actions)
    before = actions.event_count(game)
    confirm = client.post(path, data={"steps": "", "action": "confirm"})
    assert confirm.status_code == 200, confirm.data
    html = confirm.data.decode()
    assert "Submit this turn?" in html and "Play no action." in html
    steps = html.split('name="steps" value="', 1)[1].split('"', 1)[0]
    done = client.post(path, data={"steps": steps, "action": "submit"})
    assert done.status_code == 303
    assert actions.event_count(game) == before + 1
    assert last_event(actions, game) == {"v": 1, "type": "turn", "seat": seat, "steps": "pass"}


def test_submitting_the_empty_draft_from_the_script_ends_the_turn(actions, client):
    """The confirmation dialog's button posts the form as it stands: the empty draft."""
    game, path, seat = at_a_turn_that_may_end_empty(actions)
    done = client.post(path, data={"steps": "", "action": "submit"})
    assert done.status_code == 303
    assert last_event(actions, game)["steps"] == "pass" and last_event(actions, game)["seat"] == seat


def test_an_empty_draft_that_may_not_end_is_still_refused(actions, client):
    game = actions.create(first=0)
    path = actions.links("anna@example.org")["turn"]     # the first turn: something is owed
    data = client.post(path + "/preview", json={"steps": ""}).get_json()
    assert data["done"] is False
    assert client.post(path, data={"steps": "", "action": "submit"}).status_code == 422
    assert actions.event_count(game) == 0
