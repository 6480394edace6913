"""No public page of players ever shows an address: a property over generated players and games.

Players (some with a public name, some without; addresses of any case), rated and unrated
games of two and three seats, finished, running, resigned, with a computer; then every public
route that speaks of players: the start page, each player page and each ladder (page and
JSON), the open challenges (their list, and each one's accept page as a stranger sees it), a
league of the named players (its page, standings and games; the list of leagues), and the
public record of every game a player page links to. None may hold any address
of any player, in any case, nor its URL-encoded form."""

from __future__ import annotations

import itertools
import re
from datetime import timedelta
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from pbem import games
from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.play import challenges, leagues, turns
from pbem.players import public
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import LeagueGame, LeagueMember, utcnow
from pbem.views import challengeview

JSON = {"Accept": "application/json"}
_run = itertools.count()

local_parts = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.", min_size=1, max_size=10).filter(
    lambda s: not s.startswith(".") and not s.endswith(".") and ".." not in s)
a_player = st.tuples(local_parts, st.sampled_from(["example.org", "Mail.Example.COM", "x.test"]),
                     st.booleans(),            # has a public name
                     st.booleans())            # his address typed upper-case
a_game = st.tuples(st.sampled_from(["babel", "babylonia"]),
                   st.integers(0, 1000),        # seed of the decisions
                   st.booleans(),               # rated
                   st.sampled_from(["finish", "run", "resign", "computer"]))


def play(game_id: str, seed: int, decisions: int | None) -> None:
    rng, made = Rng(seed), 0
    while decisions is None or made < decisions:
        loaded = gamelog.load(game_id)
        if loaded.over:
            return
        seat = loaded.engine.to_act(loaded.state)[0].seat
        origin = turns.Origin(turns.BOT if gamelog.bot_of(game_id, seat) else turns.OPERATOR)
        turns.submit(game_id, seat, loaded.seq, loaded.engine.random_submission(loaded.state, seat, rng),
                     origin)
        made += 1


def make_game(kind, seed, rated, how, people) -> None:
    seats = 2 if kind == "babel" else 3
    chosen = [people[(seed + i) % len(people)] for i in range(seats)]
    if len({a.lower() for _, a in chosen}) < seats:
        return
    bots: tuple = ()
    if how == "computer":
        chosen[-1], bots = ("", ""), (None,) * (seats - 1) + ("random",)
    options = {"sumerians": "top-run"} if kind == "babel" else {}
    game = turns.create_game(turns.Spec(kind, chosen, options, 0, bots=bots, rated=rated)).id
    if how == "resign":
        play(game, seed, 3)
        turns.resign(game, 0)
    play(game, seed, 5 if how == "run" else None)


def make_league(addresses: list[str]) -> str:
    """A league of Babel Tower of the players with a public name, joined by their links,
    started when two or more joined, its first game played to the end."""
    terms = leagues.Terms("Open", "babel-tower", 2, 8, utcnow() + timedelta(days=1), "move:3")
    league = leagues.create(terms).id
    for address in addresses:
        leagues.ask(league, address, "127.0.0.1")
        ticket = db.session.get(LeagueMember, (league, address.lower())).ticket
        leagues.join(links.sign(links.LEAGUE_JOIN, [league, ticket]))
    leagues.tend(utcnow() + timedelta(days=1, minutes=1))
    for game in db.session.scalars(select(LeagueGame.game_id).where(LeagueGame.league_id == league)
                                   .limit(1)):
        play(game, 1, None)
    return league


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(players=st.lists(a_player, min_size=3, max_size=5), made=st.lists(a_game, min_size=1, max_size=3))
def test_no_public_page_ever_shows_an_address(app, client, players, made):
    run = next(_run)
    people, addresses, names = [], [], []
    with app.app_context():
        for i, (local, domain, named, upper) in enumerate(players):
            address = f"{local}{i}r{run}@{domain}"
            address = address.upper() if upper else address
            addresses.append(address)
            people.append((f"{local[:6]}{i}", address))
            if named:
                names.append(public.choose(address, f"P{run} {local[:8]} {i}"))
        for kind, seed, rated, how in made:
            make_game(kind, seed, rated, how, people)
        # Each player posts a challenge (rated when he has a public name; a stranger may
        # see it); one of them has a seat taken already.
        posted = []
        for i, (name, address) in enumerate(people):
            kind = "babylonia" if i % 2 else "babel"
            terms = challengeview.Terms(kind, 3 if kind == "babylonia" else 2,
                                     rated=public.name_of(address) is not None,
                                     lowest=1000 if i == 0 else None, on_time=50 if i == 1 else None)
            row = challenges.post(terms, address, name, f"client{i}")
            challenges.confirm(row.id)
            posted.append(row.id)
        babylonia = posted[1::2]
        if babylonia:
            try:
                challenges.accept(babylonia[0], people[0][1], people[0][0], None)
            except challenges.NotForYou:
                pass
        stranger = f"stranger{run}@example.net"
        accept_pages = [links.path_of(links.ACCEPT, [c, stranger, "", ""]) for c in posted]
        league = make_league([a for a, (_, _, named, _) in zip(addresses, players) if named])
    paths = (["/", "/challenges", "/leagues", f"/leagues/{league}"]
             + [f"/ratings/{kind}" for kind in games.INSTALLED] + accept_pages)
    paths += [f"/p/{quote(name)}" for name in names]
    records = set()
    for name in names:
        for current in client.get(f"/p/{quote(name)}", headers=JSON).get_json()["current"]:
            records.add(current["url"].removeprefix("http://pbem.test"))
    paths += sorted(records)
    forbidden = [a.lower() for a in addresses] + [quote(a.lower(), safe="") for a in addresses]
    for path in paths:
        for headers in ({}, JSON):
            response = client.get(path, headers=headers)
            assert response.status_code == 200, (path, response.status_code)
            body = response.get_data(as_text=True).lower()
            shown = [a for a in forbidden if a in body]
            assert not shown, (path, headers, shown)
            assert not re.search(r"[a-z0-9.]+r\d+@", body), (path, headers)
