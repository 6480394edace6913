"""A game's record: its turns in notation, public views only, and the score chart."""

from pbem import links
from pbem.games.rng import Rng


def play(actions, client, game, turns, seed=3):
    rng = Rng(seed)
    for _ in range(turns):
        loaded = actions.state(game)
        decision = loaded.engine.to_act(loaded.state)[0]
        with actions.app.app_context():   # after his discards a seat goes on without a new mail
            link = links.path(links.TURN, game, decision.seat, loaded.seq)
        text = loaded.engine.random_submission(loaded.state, decision.seat, rng)
        assert client.post(link, json={"steps": text}).status_code == 200


def test_record_lists_every_turn_with_the_public_view_after_it(actions, client):
    game = actions.create(first=0)
    play(actions, client, game, 4)
    loaded = actions.state(game)
    page = client.get(f"/games/{game}/record").data.decode()
    for event in loaded.events:
        assert loaded.engine.notation(event).replace("'", "&#39;") in page
    assert page.count('<li id="turn-') == len(loaded.events)
    assert "<svg" in page and "<polyline" in page
    assert "Your hand" not in page
    data = client.get(f"/games/{game}/record", headers={"Accept": "application/json"}).get_json()
    assert [t["seq"] for t in data["turns"]] == list(range(1, len(loaded.events) + 1))
    assert all(p["hand"] is None for t in data["turns"] for p in t["view"]["players"])
    assert data["scores"][-1] == loaded.engine.scores(loaded.state)
    assert data["view"] == loaded.engine.view(loaded.state, None)    # the game now


def test_record_of_an_unknown_game_is_404(client):
    assert client.get("/games/nosuchgame/record").status_code == 404
    assert client.get("/games/x/record", headers={"Accept": "application/json"}).get_json() == {
        "error": "There is no such game."}


def test_resigned_game_shows_the_result(actions, client, app):
    from pbem import turns
    game = actions.create(first=0)
    with app.app_context():
        turns.resign(game, 0)
    page = client.get(f"/games/{game}/record").data.decode()
    assert "Bob wins" in page and "resigned" in page
    assert "is over" in actions.last_mail("anna@example.org")["Subject"]


def test_record_replays_turn_by_turn(actions, client):
    game = actions.create(first=0)
    play(actions, client, game, 3)
    start = client.get(f"/games/{game}/record?turn=0").data.decode()
    assert "The start of the game" in start and 'href="?turn=1#board" rel="next"' in start
    assert 'rel="prev"' not in start
    second = client.get(f"/games/{game}/record?turn=2").data.decode()
    assert "After turn 2:" in second
    assert 'href="?turn=1#board" rel="prev"' in second and 'href="?turn=3#board" rel="next"' in second
    assert '<li id="turn-2" class="current" aria-current="step">' in second
    last = client.get(f"/games/{game}/record").data.decode()
    assert "After turn 3:" in last and 'rel="next"' not in last
    assert "After turn 3:" in client.get(f"/games/{game}/record?turn=99").data.decode()
    assert "After turn 3:" in client.get(f"/games/{game}/record?turn=x").data.decode()
