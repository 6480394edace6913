"""A game's record: its turns in notation, public views only, and the score chart."""

import re

from pbem.games.rng import Rng
from pbem.policy import links
from pbem.web import record
from pbem.web.chart import score_chart


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
    from pbem.play import turns
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
    assert "The start of the game" in start and 'rel="prev"' not in start
    first_steps = len(record.turn_steps(actions.state(game), 1))
    first = "?turn=1&amp;step=1#board" if first_steps > 1 else "?turn=1#board"
    assert f'href="{first}" rel="next"' in start
    second = client.get(f"/games/{game}/record?turn=2").data.decode()
    assert "After turn 2" in second
    assert 'href="?turn=1#board" data-go="prev-turn"' in second
    assert 'href="?turn=3#board" data-go="next-turn"' in second
    assert '<li id="turn-2" class="current" aria-current="step">' in second
    last = client.get(f"/games/{game}/record").data.decode()
    assert "After turn 3" in last and 'rel="next"' not in last
    assert "After turn 3" in client.get(f"/games/{game}/record?turn=99").data.decode()
    assert "After turn 3" in client.get(f"/games/{game}/record?turn=x").data.decode()


def test_record_steps_through_a_turn_with_the_board_after_each_step(actions, client):
    """Babel's first turn has several steps: each is a page (no JavaScript needed), its board
    drafted from the turn's own steps; the last step is the turn as it was played."""
    game = actions.create(first=0)
    play(actions, client, game, 2)
    loaded = actions.state(game)
    engine = loaded.engine
    steps = record.turn_steps(loaded, 1)
    assert len(steps) > 1 and "; ".join(steps) == engine.notation(loaded.events[0], None).replace("\n", "; ")
    seat = loaded.events[0]["seat"]
    before = engine.start(loaded.row.seed, loaded.row.options, loaded.row.seats, loaded.row.first)
    views = []
    for k in range(1, len(steps) + 1):
        page = client.get(f"/games/{game}/record?turn=1&step={k}").data.decode()
        assert (f"After turn 1, step {k} of {len(steps)}" if k < len(steps) else "After turn 1:") in page
        assert '<li class="current" aria-current="step"><a href="?turn=1' in page
        expected = engine.view(engine.draft(before, seat, "\n".join(steps[:k])).state, None)
        views.append(record.view_after_step(loaded, 1, k, {"whole": True}))
        if k < len(steps):
            assert views[-1] == expected
            nxt = f"?turn=1&amp;step={k + 1}#board" if k + 1 < len(steps) else "?turn=1#board"
            assert f'href="{nxt}" rel="next"' in page
        prev = f"?turn=1&amp;step={k - 1}#board" if k > 1 else "?turn=0#board"
        assert f'href="{prev}" rel="prev"' in page
    assert views[-1] == {"whole": True}         # the last step: the turn's own view
    assert len({repr(v) for v in views[:-1]}) == len(steps) - 1   # each step changed the board
    # A step out of range is the nearest step; the turn's last is the turn itself.
    assert "step 1 of" in client.get(f"/games/{game}/record?turn=1&step=0").data.decode()
    assert "After turn 1:" in client.get(f"/games/{game}/record?turn=1&step=99").data.decode()


def test_the_legend_lies_beside_the_lines_in_playing_order(actions, client):
    """B5: the legend was drawn inside the plot, over the lines once the scores reached the
    top; now no text lies in the plot, the axes have marks and titles, and the legend is a
    list in playing order (Bob first when Bob began)."""
    game = actions.create(first=1)
    play(actions, client, game, 4)
    page = client.get(f"/games/{game}/record").data.decode()
    chart = score_chart([[0, 0], [20, 3], [25, 25]], ["Anna", "Bob"], [1, 0])
    plot = chart["plot"]
    assert [m["value"] for m in chart["marks"]][-1] >= 25 and chart["marks"][0]["value"] == 0
    assert all(plot["left"] < t["x"] <= plot["right"] or t["value"] == 0 for t in chart["ticks"])
    assert [line["name"] for line in chart["lines"]] == ["Bob", "Anna"]
    svg = page[page.index("<svg"):page.index("</svg>")]
    texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"', svg)
    assert texts
    p = score_chart([[0, 0]], ["Anna", "Bob"])["plot"]
    for x, y in texts:    # every mark and title outside the plot
        inside = p["left"] < float(x) < p["right"] and p["top"] < float(y) < p["bottom"]
        assert not inside, (x, y)
    assert "Anna:" not in svg and "Bob:" not in svg
    assert "turns played" in svg and ">score<" in svg
    legend = re.search(r'<ol class="legend"[^>]*>(.*?)</ol>', page, re.S).group(1)
    assert re.findall(r'<li class="who(\d)">', legend) == ["1", "0"]
    assert re.findall(r"\((\w+) \d+, (\w+) \d+\)", page)[0] == ("Bob", "Anna")
