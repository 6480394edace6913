"""Leagues by mail through the server (`pbem.play.leagues`): a league of Babel Tower for four,
joined by links from its page and the mails, started by the worker's round, played to the end
by turn links, the standings right after every game, the final mail; joins after the start
refused; a league with too few players cancelled; a player's own league confirmed by mail;
the abuse limits; the pairings (every pairing once, seats balanced) and Babylonia's groups."""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction

import pytest
from sqlalchemy import select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.play import leagues, pairings
from pbem.players import public
from pbem.store import gamelog
from pbem.store.models import GameResult, LeagueGame, utcnow
from pbem_web import outbox, play_by_links, seat_path, too_long  # tests/helpers

JSON = {"Accept": "application/json"}
PEOPLE = {"anna@example.org": "Anna", "bob@example.org": "Bob", "carl@example.org": "Carl",
          "dave@example.org": None}   # Dave has no public name yet: he chooses one as he joins
JOIN = re.compile(r"http://pbem\.test(/lj/[A-Za-z0-9_.\-]+)")


def make_league(app, kind="babel-tower", least=4, most=8, days=2, **more) -> str:
    with app.app_context():
        terms = leagues.Terms("Autumn Tower", kind, least, most, utcnow() + timedelta(days=days),
                              "move:3", **more)
        return leagues.create(terms).id


def mails(app, kind: str, to: str | None = None) -> list[tuple]:
    return [m for m in outbox(app) if m[0] == kind and (to is None or m[4] == to)]


def join_link(app, address: str) -> str:
    text = mails(app, "league_join", address)[-1][2]
    return JOIN.search(text).group(1)


def ask_and_join(app, client, league_id: str, address: str, name: str | None = None) -> str:
    response = client.post(f"/leagues/{league_id}/join", json={"email": address}, headers=JSON)
    assert response.status_code == 202, response.data
    link = join_link(app, address)
    assert client.get(link).status_code == 200
    response = client.post(link, data={"action": "join", "name": name or ""})
    assert response.status_code == 303, response.data
    return link



def expected_points(app, league_id: str) -> dict[str, Fraction]:
    """Each player's points counted here from the games' results: a win 1, a draw ½."""
    with app.app_context():
        points: dict[str, Fraction] = {}
        for game in db.session.scalars(select(LeagueGame).where(LeagueGame.league_id == league_id)):
            names = [public.name_of(a) for a in game.players]
            for name in names:
                points.setdefault(name, Fraction(0))
            result = db.session.get(GameResult, game.game_id)
            if result is None:
                continue
            winners = set(result.winners)
            for seat, name in enumerate(names):
                if seat in winners:
                    points[name] += Fraction(1, len(winners))
        return points


def shown_points(text: str) -> Fraction:
    whole, half = text.removesuffix("½"), text.endswith("½")
    return Fraction(int(whole) if whole else 0) + (Fraction(1, 2) if half else 0)


def test_a_league_of_four_joined_started_played_to_the_end_and_told(app, client):
    with app.app_context():
        for address, name in PEOPLE.items():
            if name:
                public.choose(address, name)
    league = make_league(app, rated=True)
    page = client.get(f"/leagues/{league}", headers=JSON).get_json()
    assert page["status"] == "open" and page["members"] == [] and page["players"] == {"least": 4, "most": 8}
    links = {address: ask_and_join(app, client, league, address, "Dave" if not name else None)
             for address, name in PEOPLE.items()}
    assert client.get(f"/leagues/{league}", headers=JSON).get_json()["members"] == [
        "Anna", "Bob", "Carl", "Dave"]
    # A member leaves before the start, and his link is spent; he asks again and is back.
    assert client.post(links["bob@example.org"], data={"action": "leave"}).status_code == 303
    assert client.get(links["bob@example.org"]).status_code == 410
    assert client.post(links["bob@example.org"], data={"action": "join"}).status_code == 410
    assert "Bob" not in client.get(f"/leagues/{league}", headers=JSON).get_json()["members"]
    ask_and_join(app, client, league, "bob@example.org")
    # The join mail reads at 80 columns.
    assert not too_long(mails(app, "league_join", "bob@example.org")[-1][2])

    # The worker's round at the start date: six games, each player's list, the invitations.
    with app.app_context():
        done = leagues.tend(utcnow() + timedelta(days=2, minutes=1))
    assert done.started == [league]
    shown = client.get(f"/leagues/{league}", headers=JSON).get_json()
    assert shown["status"] == "running" and len(shown["games"]) == 6
    pairs = [tuple(g["players"]) for g in shown["games"]]
    assert sorted(tuple(sorted(p)) for p in pairs) == [
        (a, b) for a in ("Anna", "Bob", "Carl", "Dave") for b in ("Anna", "Bob", "Carl", "Dave")
        if a < b]
    for player, (first, second) in pairings.firsts(pairs).items():
        assert abs(first - second) <= 1, (player, first, second)
    for address in PEOPLE:
        started = mails(app, "league_started", address)
        assert len(started) == 1 and started[0][2].count("/s/") == 3
        assert not too_long(started[0][2])
        assert len(mails(app, "invite", address)) == 3
    # Joining after the start is refused, by the page and by an old link.
    refused = client.post(f"/leagues/{league}/join", json={"email": "eve@example.org"}, headers=JSON)
    assert refused.status_code == 409
    assert client.post(links["anna@example.org"], data={"action": "leave"}).status_code == 409

    # Played to the end, one game after the other; a player resigns one; the standings follow.
    for n, game in enumerate(shown["games"]):
        if n == 2:   # the second seat leaves: a loss
            response = client.post(seat_path(app, game["game"], 1) + "/resign",
                                   json={"confirm": True}, headers=JSON)
            assert response.status_code == 200, response.data[:300]
            with app.app_context():
                assert db.session.get(GameResult, game["game"]).winners == [0]
        else:
            play_by_links(app, client, game["game"], seed=n)
        table = client.get(f"/leagues/{league}", headers=JSON).get_json()["standings"]
        want = expected_points(app, league)
        assert {r["name"]: shown_points(r["points"]) for r in table} == want
        assert [shown_points(r["points"]) for r in table] == sorted(want.values(), reverse=True)
        assert sum(r["played"] for r in table) == 2 * (n + 1)
        with app.app_context():
            assert leagues.tend(utcnow() + timedelta(days=2, minutes=2)).finished == (
                [league] if n == 5 else [])

    final = client.get(f"/leagues/{league}", headers=JSON).get_json()
    assert final["status"] == "finished" and final["winners"]
    for address in PEOPLE:
        told = mails(app, "league_final", address)
        assert len(told) == 1
        text = told[0][2]
        assert not too_long(text) and "@" not in text.split("Points:")[0].replace(address, "")
        for row in final["standings"]:
            assert re.search(rf"^\s*{row['rank']}\s+{row['name']}\s+{re.escape(row['points'])}\s",
                             text, re.M), (row, text)
    winner = final["winners"][0]
    mine = client.get(f"/p/{winner}", headers=JSON).get_json()["leagues"]
    assert mine == [{"name": "Autumn Tower", "url": f"http://pbem.test/leagues/{league}",
                     "status": "finished", "winner": True}]
    page = client.get(f"/leagues/{league}").get_data(as_text=True)
    assert "Sonneborn-Berger" in page and "@" not in page


def test_a_league_with_too_few_players_is_cancelled_and_its_members_told(app, client):
    with app.app_context():
        public.choose("anna@example.org", "Anna")
    league = make_league(app, least=3)
    ask_and_join(app, client, league, "anna@example.org")
    with app.app_context():
        assert leagues.tend(utcnow() + timedelta(days=3)).cancelled == [league]
    assert client.get(f"/leagues/{league}", headers=JSON).get_json()["status"] == "cancelled"
    told = mails(app, "league_cancelled", "anna@example.org")
    assert len(told) == 1 and "1 players had joined, and it needed 3" in told[0][2].replace("\n", " ")
    assert not [m for m in outbox(app) if m[0] == "invite"]


def test_a_player_starts_a_league_from_his_home_and_confirms_it_by_mail(app, client):
    from pbem.players import settings
    from pbem.web.home import csrf_token
    with app.app_context():
        public.choose("anna@example.org", "Anna")
        home = settings.home_url("anna@example.org").removeprefix("http://pbem.test")
    token = home.split("/")[2]
    starts = (utcnow() + timedelta(days=5)).date().isoformat()
    with app.app_context():
        form = {"csrf": csrf_token(token), "name": "Anna's Babel", "game": "babel", "least": "2",
                "most": "4", "starts": starts, "clock": "move:5", "rated": "on"}
    form_page = client.get(home + "/league")
    assert form_page.status_code == 200 and "Babel Tower" in form_page.get_data(as_text=True)
    response = client.post(home + "/league", data=form)
    assert response.status_code == 200 and "is asked for" in response.get_data(as_text=True)
    asked = mails(app, "league_confirm", "anna@example.org")
    assert len(asked) == 1 and not too_long(asked[0][2])
    link = re.search(r"http://pbem\.test(/lc/\S+)", asked[0][2]).group(1)
    league = client.get(link)
    assert league.status_code == 200
    response = client.post(link)
    assert response.status_code == 303
    league_id = response.headers["Location"].split("/")[-1]
    shown = client.get(f"/leagues/{league_id}", headers=JSON).get_json()
    assert shown["status"] == "open" and shown["members"] == ["Anna"] and shown["rated"]
    # A bad form says why, and asks for nothing.
    with app.app_context():
        bad = {**form, "least": "9", "most": "3", "csrf": csrf_token(token)}
    response = client.post(home + "/league", data=bad)
    assert response.status_code == 400 and len(mails(app, "league_confirm")) == 1


def test_join_requests_are_counted_like_games_asked_for(make_app):
    app = make_app(PROPOSALS_PER_CLIENT_PER_DAY=3, PROPOSALS_PER_ADDRESS_PER_DAY=2)
    client = app.test_client()
    league = make_league(app)
    asked = [client.post(f"/leagues/{league}/join", json={"email": "eve@example.org"},
                         headers=JSON).status_code for _ in range(3)]
    assert asked == [202, 202, 429]    # per address
    assert client.post(f"/leagues/{league}/join", json={"email": "fay@example.org"},
                       headers=JSON).status_code == 202
    assert client.post(f"/leagues/{league}/join", json={"email": "gus@example.org"},
                       headers=JSON).status_code == 429   # per client
    assert len(mails(app, "league_join")) == 3


@pytest.mark.parametrize("n", range(2, 13))
def test_a_round_robin_pairs_everybody_once_with_seats_balanced(n):
    pairs = pairings.round_robin(list(range(n)))
    assert sorted(tuple(sorted(p)) for p in pairs) == [
        (a, b) for a in range(n) for b in range(a + 1, n)]
    assert all(abs(first - second) <= 1 for first, second in pairings.firsts(pairs).values())


@pytest.mark.parametrize("n", range(3, 13))
def test_babylonia_groups_are_of_three_or_four_and_seat_everybody(n):
    tables = pairings.groups(list(range(n)))
    assert all(3 <= len(t) <= 4 for t in tables)
    seated = [m for t in tables for m in t]
    if n == 5:
        assert len(tables) == 5 and all(seated.count(m) == 4 for m in range(5))
    else:
        assert sorted(seated) == list(range(n))
        assert max(map(len, tables)) - min(map(len, tables)) <= 1


def test_a_babylonia_league_of_five_plays_five_games_of_four(app, client):
    with app.app_context():
        for i in range(5):
            public.choose(f"p{i}@example.org", f"Player {i}")
    league = make_league(app, kind="babylonia", least=3, most=6)
    for i in range(5):
        ask_and_join(app, client, league, f"p{i}@example.org")
    with app.app_context():
        assert leagues.tend(utcnow() + timedelta(days=3)).started == [league]
    shown = client.get(f"/leagues/{league}", headers=JSON).get_json()
    assert [len(g["players"]) for g in shown["games"]] == [4] * 5
    with app.app_context():
        game = shown["games"][0]["game"]
        assert gamelog.load(game).engine.name == "babylonia"


def eve_lost_on_time(app) -> None:
    """Eve, with a public name, has just lost a game of Babel on time."""
    from pbem.play import turns
    with app.app_context():
        public.choose("eve@example.org", "Eve")
        game = turns.create_game(turns.Spec("babel", [("Eve", "eve@example.org"),
                                                      ("Fay", "fay@example.org")],
                                            {"sumerians": "top-run"}, 0, 1)).id
        assert turns.time_out(game, 0, 0, utcnow() + timedelta(days=2)) is not None


def test_a_league_refuses_a_player_below_its_on_time_minimum(app, client):
    eve_lost_on_time(app)
    league = make_league(app, min_on_time=50)
    response = client.post(f"/leagues/{league}/join", json={"email": "eve@example.org"}, headers=JSON)
    assert response.status_code == 202
    refused = client.post(join_link(app, "eve@example.org"), json={"action": "join"}, headers=JSON)
    assert refused.status_code == 400 and "50% of decisions on time" in refused.get_json()["error"]
    assert client.get(f"/leagues/{league}", headers=JSON).get_json()["members"] == []


def test_a_loss_on_time_bars_rated_leagues_as_it_bars_rated_challenges(app, client):
    eve_lost_on_time(app)
    unrated, rated = make_league(app), make_league(app, rated=True)
    for league in (unrated, rated):
        asked = client.post(f"/leagues/{league}/join", json={"email": "eve@example.org"},
                            headers=JSON)
        assert asked.status_code == 202
        answer = client.post(join_link(app, "eve@example.org"), json={"action": "join"},
                             headers=JSON)
        members = client.get(f"/leagues/{league}", headers=JSON).get_json()["members"]
        if league == unrated:
            assert answer.status_code < 400 and len(members) == 1
        else:
            assert answer.status_code == 400
            assert "bars you from rated leagues until" in answer.get_json()["error"]
            assert members == []
    with app.app_context(), pytest.raises(BadInput, match="rated leagues"):
        leagues.propose(leagues.Terms("Eve's own", "babel-tower", 4, 8,
                                      utcnow() + timedelta(days=2), "move:3", rated=True),
                        "eve@example.org", "test")


def test_standings_of_games_of_four_count_shares_shared_places_and_leavers():
    from pbem.views.standings import Finished, said, table
    games = [Finished("abcd", [1, 2, 2, 4]),                 # b and c share the second place
             Finished("abcd", [2, 1, 3, 4], frozenset({1}))]  # b left: last, whatever his seat made
    lines = table(list("abcd"), {m: 2 for m in "abcd"}, games)
    points = {line.player: said(line.points) for line in lines}
    # a: 1 + 1 (b left); b: ½ + 0; c: ½ + ⅔ (ahead of d and of b); d: 0 + ⅓ (ahead of b).
    assert points == {"a": "2", "b": "½", "c": "1.17", "d": "0.33"}
    assert [line.player for line in lines] == ["a", "c", "b", "d"]
    assert [line.won for line in lines] == [2, 0, 0, 0]


def test_the_league_page_speaks_german(app, client):
    league = make_league(app)
    page = client.get(f"/leagues/{league}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Beitreten" in page and "Spieler: 4 bis 8" in page and "Join" not in page
