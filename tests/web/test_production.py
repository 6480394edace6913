"""Running in production: the replay cache, upcasters, `verify`, the database going away and
coming back, PROXY_FIX, rate limits, and indexes for the queries the pages run.

Games are played through the JSON API with the engine's random player; turn links are minted
with `pbem.policy.links.path` (after owed discards the same seat goes on without a mail). Rate-limit
windows are moved by moving stored rows' times back, never by sleeping. The tests that need
PostgreSQL (a TCP proxy that cuts the database off; EXPLAIN) skip their SQLite run.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import socket
import threading
from contextlib import contextmanager
from datetime import UTC, timedelta

import pytest
from sqlalchemy import delete, func, select, text, update
from sqlalchemy import event as sa_event
from sqlalchemy.engine import make_url

from pbem import games
from pbem.extensions import db
from pbem.games.babel import GAME
from pbem.games.babel.game import Babel
from pbem.games.errors import GameError, WrongDecision
from pbem.games.rng import Rng
from pbem.play import turns
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import Event, Game, Mail, RateEvent, SeatNonce
from pbem.store.replaycache import ReplayCache
from pbem_web import started  # tests/helpers

ANNA, BOB = "anna@example.org", "bob@example.org"
JSON = {"Accept": "application/json"}
BASE_URL = "http://pbem.test"
UNLIMITED = {"SUBMISSIONS_PER_CLIENT_PER_MINUTE": 10**6, "SUBMISSIONS_PER_ADDRESS_PER_MINUTE": 10**6,
             "PREVIEWS_PER_CLIENT_PER_MINUTE": 10**6}


# -- apps ---------------------------------------------------------------------------

def postgresql_only(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("needs PostgreSQL (set PBEM_TEST_DATABASE_URL); the SQLite run is skipped")


# -- games through the JSON API ------------------------------------------------------

def create(client, first=0, emails=(ANNA, BOB), **environ) -> str:
    body = {"game": "babel", "first": str(first), "name0": "Anna", "email0": emails[0],
            "name1": "Bob", "email1": emails[1]}
    response = client.post("/games", json=body, environ_base=environ)
    assert response.status_code == 202, response.get_json()
    return started(client, response)


def full_replay(game_id: str):
    """(engine, upcast events, state) from the stored rows alone: a fold over every event."""
    row = db.session.get(Game, game_id)
    engine = games.get(row.kind)
    events = [engine.upcast(e) for e in db.session.scalars(
        select(Event.data).where(Event.game_id == game_id).order_by(Event.seq))]
    state = engine.start(row.seed, row.options, row.seats, row.first)
    for e in events:
        state = engine.apply(state, e)
    return engine, events, state


def as_json(value) -> str:
    return json.dumps(value, sort_keys=True)


def assert_same_as_full_replay(game_id: str):
    """The (cached) load equals a full replay: log, state, and every seat's view."""
    loaded = gamelog.load(game_id)
    engine, events, state = full_replay(game_id)
    assert loaded.events == events
    assert loaded.seq == len(events)
    assert loaded.state == state
    for seat in (None, 0, 1):
        assert as_json(engine.view(loaded.state, seat)) == as_json(engine.view(state, seat))
    assert [d.seat for d in engine.to_act(loaded.state)] == [d.seat for d in engine.to_act(state)]
    return loaded


def turn_path(app, game_id: str) -> tuple[int, str] | None:
    """(seat, live turn link) of the seat owing a decision now; None once the game is over."""
    with app.app_context():
        engine, events, state = full_replay(game_id)
        owed = engine.to_act(state)
        if not owed:
            return None
        seat = owed[0].seat
        return seat, links.path(links.TURN, game_id, seat, len(events), gamelog.current_nonce(game_id, seat))


def random_text(app, game_id: str, seat: int, k: int) -> str:
    with app.app_context():
        _, _, state = full_replay(game_id)
    return GAME.random_submission(state, seat, Rng(k))


def play(app, client, game_id: str, k: int, **environ) -> bool:
    """One random legal decision through the JSON API; False when the game is over."""
    owed = turn_path(app, game_id)
    if owed is None:
        return False
    seat, path = owed
    response = client.post(path, json={"steps": random_text(app, game_id, seat, k)},
                           environ_base=environ)
    assert response.status_code == 200, response.get_json()
    return True


def played(make_app, decisions: int):
    """(app, client, game) after that many random decisions through the JSON API."""
    app = make_app(**UNLIMITED)
    client = app.test_client()
    game_id = create(client)
    for k in range(decisions):
        assert play(app, client, game_id, k)
    return app, client, game_id


def seat_path(game_id: str, seat: int) -> str:
    return links.path(links.SEAT, game_id, seat, gamelog.current_nonce(game_id, seat))


def event_count(app, game_id: str | None = None) -> int:
    with app.app_context():
        query = select(func.count()).select_from(Event)
        if game_id is not None:
            query = query.where(Event.game_id == game_id)
        return db.session.scalar(query)


def snapshot(app, counts: bool = True) -> dict:
    """Every row of every table, to show that something wrote nothing (but for the requests
    counted for rate limits and the locks they were counted under, unless `counts`)."""
    with app.app_context():
        with db.engine.connect() as conn:
            return {table.name: list(conn.execute(select(table).order_by(*table.primary_key.columns)))
                    for table in db.metadata.sorted_tables
                    if counts or table.name not in ("rate_events", "rate_locks")}


JSON_ACCEPT = {"Accept": "application/json"}


# -- counting what the database is asked -----------------------------------------------

@contextmanager
def statements(engine):
    """Every statement sent to the database meanwhile, with its parameters."""
    seen = []

    def listener(conn, cursor, statement, parameters, context, executemany):
        seen.append((statement, parameters))

    sa_event.listen(engine, "after_cursor_execute", listener)
    try:
        yield seen
    finally:
        sa_event.remove(engine, "after_cursor_execute", listener)


EVENTS_TABLE = re.compile(r"\b(FROM|JOIN) events\b", re.I)


def event_rows_read(seen) -> int:
    """How many rows of `events` those statements fetched: each is run again, as it was sent.
    A load's one statement reads other rows beside them: its events are the rows of part 2
    (cold) or those with an event (warm)."""
    raw = db.engine.raw_connection()
    try:
        cursor, total = raw.cursor(), 0
        for statement, parameters in seen:
            if EVENTS_TABLE.search(statement):
                cursor.execute(statement, parameters)
                names = [column[0] for column in cursor.description]
                rows = cursor.fetchall()
                if "part_" in names:
                    rows = [row for row in rows if row[names.index("part_")] == 2]
                elif "event_seq_" in names:
                    rows = [row for row in rows if row[names.index("event_seq_")] is not None]
                total += len(rows)
        return total
    finally:
        raw.close()


def cache_of(app) -> ReplayCache:
    return app.extensions["pbem.replay_cache"]


# == 1. the replay cache ================================================================

#: (first, seed) of games whose random players (Rng(1000 * seed + seq)) make owed discards,
#: after which the same seat plays on, and one that has none; each ends after 22 to 24 decisions.
SEEDED = [(0, 96), (1, 48), (0, 6), (1, 0)]


def new_game(app, seed: int, first: int) -> str:
    result = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel", "--player", f"Anna <{ANNA}>", "--player", f"Bob <{BOB}>",
        "--first", str(first), "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    return result.output.split()[-1]


@pytest.mark.parametrize("size", [2000, 1, 0], ids=["cached", "evicting", "off"])
def test_cached_loads_equal_a_full_replay_after_every_decision(make_app, monkeypatch, size):
    """Four games, interleaved at random, every decision through the JSON API until each game
    is over. After each one, `gamelog.load` (through the cache) equals a full replay of the stored
    rows, and each seat's JSON view (through the cache, in a request) is the full replay's view.
    With room for one game the cache evicts all the time; with REPLAY_CACHE_SIZE=0 it is off."""
    monkeypatch.setenv("REPLAY_CACHE_SIZE", str(size))
    app = make_app(**UNLIMITED)
    client = app.test_client()
    assert cache_of(app).size == size
    seeds = {new_game(app, seed, first): seed for first, seed in SEEDED}
    chooser, running, decisions = random.Random(size), list(seeds), 0
    while running:
        game_id = chooser.choice(running)
        if not play(app, client, game_id, k=1000 * seeds[game_id] + event_count(app, game_id)):
            running.remove(game_id)
            continue
        decisions += 1
        with app.app_context():
            assert_same_as_full_replay(game_id)
            engine, _, state = full_replay(game_id)
            for seat in (0, 1):
                data = client.get(seat_path(game_id, seat), headers=JSON).get_json()
                assert as_json(data["view"]) == as_json(engine.view(state, seat))
    with app.app_context():
        kinds = [e.type for e in db.session.scalars(select(Event))]
        assert decisions == len(kinds) > 80 and kinds.count("discard") >= 4
        for game_id in seeds:
            loaded = assert_same_as_full_replay(game_id)
            assert loaded.engine.outcome(loaded.state) is not None
    assert len(cache_of(app)._entries) == min(size, len(seeds))


def test_a_second_load_reads_only_the_last_cached_event(make_app):
    app, client, game_id = played(make_app, 12)
    with app.app_context():
        gamelog.load(game_id)
        with statements(db.engine) as seen:
            again = gamelog.load(game_id)
        assert again.seq == 12
        assert len(seen) == 1 and EVENTS_TABLE.search(seen[0][0])   # one query, of the log
        assert event_rows_read(seen) == 1     # the last cached event: is the log still so?
        cache_of(app).clear()
        with statements(db.engine) as seen:
            gamelog.load(game_id)
        assert event_rows_read(seen) == 12    # without the cache: the whole log
    assert play(app, client, game_id, 99)
    with app.app_context():
        with statements(db.engine) as seen:
            after = gamelog.load(game_id)
        assert after.seq == 13
        assert event_rows_read(seen) == 2     # the last cached one and the new one
        assert_same_as_full_replay(game_id)


def test_with_replay_cache_size_0_every_load_reads_the_whole_log(make_app, monkeypatch):
    monkeypatch.setenv("REPLAY_CACHE_SIZE", "0")
    app, client, game_id = played(make_app, 5)
    with app.app_context():
        for _ in range(3):
            with statements(db.engine) as seen:
                gamelog.load(game_id)
            assert event_rows_read(seen) == 5
        assert_same_as_full_replay(game_id)
    assert not cache_of(app)._entries


def test_the_cost_of_a_load_does_not_grow_with_the_games_length(make_app):
    app = make_app(**UNLIMITED)
    client = app.test_client()
    short, long = create(client), create(client)
    for k in range(2):
        assert play(app, client, short, k)
    for k in range(20):
        assert play(app, client, long, 100 + k)
    with app.app_context():
        counts = []
        for game_id in (short, long):
            gamelog.load(game_id)
            with statements(db.engine) as seen:
                gamelog.load(game_id)
            counts.append((len(seen), event_rows_read(seen)))
        assert counts[0] == counts[1]


def test_a_page_reads_the_database_in_a_few_statements_cold_or_warm(make_app):
    """A turn page, its JSON and a preview read the game (cold: its row and seats, its latest
    snapshot, the log after it; warm: its new events) and the seat's facts (one statement)."""
    app, client, game_id = played(make_app, 6)
    seat, path = turn_path(app, game_id)
    for cold in (True, False, True):
        for request in (lambda: client.get(path), lambda: client.get(path, headers=JSON_ACCEPT),
                        lambda: client.post(path + "/preview", json={"steps": ""})):
            if cold:
                cache_of(app).clear()
            with app.app_context():
                engine = db.engine
            with statements(engine) as seen:
                assert request().status_code == 200
            assert len(seen) == (4 if cold else 2), [s for s, _ in seen]


def test_pages_read_outside_any_transaction_and_a_submission_inside_one(make_app, database_url):
    """`pbem.store.reading`: a page, its JSON, a preview, the record and a player's seat page send
    every statement in autocommit on PostgreSQL (no BEGIN and ROLLBACK round trips), and
    outside any transaction on SQLite; a submission's statements are all in its transaction."""
    app, client, game_id = played(make_app, 4)
    seat, path = turn_path(app, game_id)
    with app.app_context():
        engine = db.engine
        nonce = db.session.scalar(select(SeatNonce.nonce).where(
            SeatNonce.game_id == game_id, SeatNonce.seat == seat).order_by(SeatNonce.id.desc()))
        seat_path = links.path(links.SEAT, game_id, seat, nonce)
        loaded = gamelog.load(game_id)
        text_ = loaded.engine.random_submission(loaded.state, seat, Rng(3))
    postgres = not database_url.startswith("sqlite")

    def modes(request) -> set[bool]:
        """For each statement the request sent: whether it ran outside a transaction."""
        seen: set[bool] = set()

        def heard(conn, cursor, statement, *args):
            dbapi = conn.connection.driver_connection
            seen.add(dbapi.autocommit if postgres else not dbapi.in_transaction)
        sa_event.listen(engine, "before_cursor_execute", heard)
        try:
            assert request().status_code in (200, 303), request
        finally:
            sa_event.remove(engine, "before_cursor_execute", heard)
        return seen
    for cold in (True, False):
        for request in (lambda: client.get(path), lambda: client.get(path, headers=JSON_ACCEPT),
                        lambda: client.post(path + "/preview", json={"steps": ""}),
                        lambda: client.get(f"/games/{game_id}/record"),
                        lambda: client.get(seat_path)):
            if cold:
                cache_of(app).clear()
            assert modes(request) == {True}
    if postgres:   # (SQLite's driver begins its transaction at the first write)
        assert modes(lambda: client.post(path, json={"steps": text_})) == {False}


def test_a_log_left_without_its_game_is_no_game(make_app, database_url):
    """Events and snapshots whose game row is gone (deleted by hand: SQLite here does not
    enforce the foreign keys) are no game, not a game of no known kind."""
    if not database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL keeps the foreign keys: a game row cannot go alone")
    app, client, game_id = played(make_app, 3)
    seat, path = turn_path(app, game_id)
    with app.app_context():
        db.session.execute(text("DELETE FROM games WHERE id = :g"), {"g": game_id})
        db.session.commit()
        cache_of(app).clear()
        with pytest.raises(gamelog.NotFound) as missing:
            gamelog.load(game_id)
        assert str(missing.value.message) == "There is no such game."


def test_a_load_of_a_game_gone_is_not_found_cold_or_warm(make_app):
    app, client, game_id = played(make_app, 3)
    seat, path = turn_path(app, game_id)
    assert client.get(path).status_code == 200            # cached now
    with app.app_context():
        for table in ("snapshots", "events", "seat_nonces", "seats", "mails", "dues", "games"):
            db.session.execute(text(f"DELETE FROM {table} WHERE game_id = :g" if table != "games"
                                    else "DELETE FROM games WHERE id = :g"), {"g": game_id})
        db.session.commit()
    assert client.get(path, headers=JSON_ACCEPT).status_code == 404      # warm: the cache asks
    cache_of(app).clear()
    assert client.get(path, headers=JSON_ACCEPT).status_code == 404      # cold


def test_a_rolled_back_write_does_not_poison_the_cache(make_app):
    app, client, game_id = played(make_app, 5)
    seat, path = turn_path(app, game_id)
    with app.app_context():
        _, _, state = full_replay(game_id)
        texts = [GAME.random_submission(state, seat, Rng(k)) for k in range(1000, 1010)]
    written = GAME.decide(state, seat, texts[0])
    other_text = next(t for t in texts if GAME.decide(state, seat, t) != written)
    other = GAME.decide(state, seat, other_text)
    with app.app_context():
        gamelog.append(gamelog.load(game_id), written)
        inside = gamelog.load(game_id)     # the flushed write, seen (and cached) before the rollback
        assert inside.seq == 6 and inside.events[-1] == written
        db.session.rollback()
        assert event_count(app, game_id) == 5
        assert assert_same_as_full_replay(game_id).seq == 5   # the log is shorter than cached
        # Once more; then another decision is committed at the same point of the log.
        gamelog.append(gamelog.load(game_id), written)
        assert gamelog.load(game_id).events[-1] == written
        db.session.rollback()
    response = client.post(path, json={"steps": other_text})
    assert response.status_code == 200, response.get_json()
    with app.app_context():
        after = assert_same_as_full_replay(game_id)      # as long as cached, but another end
        assert after.seq == 6 and after.events[-1] == other


def test_a_request_that_fails_after_its_write_leaves_no_trace_in_the_cache(make_app, monkeypatch):
    """A submission whose mails fail to queue (a 500): the event was flushed and loaded, then
    rolled back; the next load is the log as committed."""
    from pbem.mail import notify
    app, client, game_id = played(make_app, 3)
    seat, path = turn_path(app, game_id)

    def broken(loaded, actor):
        assert gamelog.load(loaded.id).seq == loaded.seq   # the flushed event, now in the cache
        raise RuntimeError("the outbox is broken")

    monkeypatch.setattr(notify, "event_appended", broken)
    response = client.post(path, json={"steps": random_text(app, game_id, seat, 7)})
    assert response.status_code == 500
    assert event_count(app, game_id) == 3
    with app.app_context():
        assert assert_same_as_full_replay(game_id).seq == 3
    assert client.get(path, headers=JSON).get_json()["can_act"] is True


def test_the_cache_evicts_the_least_recently_used_game(make_app, monkeypatch):
    monkeypatch.setenv("REPLAY_CACHE_SIZE", "2")
    app = make_app(**UNLIMITED)
    client = app.test_client()
    a, b, c = (create(client) for _ in range(3))
    for k, game_id in enumerate((a, b, c)):
        for j in range(3):
            assert play(app, client, game_id, 10 * k + j)
    cache = cache_of(app)
    cache.clear()

    def rows(game_id):
        with statements(db.engine) as seen:
            gamelog.load(game_id)
        return event_rows_read(seen)

    with app.app_context():
        assert [rows(a), rows(b), rows(c)] == [3, 3, 3]   # misses: a is gone, b and c are kept
        assert rows(b) == 1                                # a hit; b is now the most recent
        assert rows(a) == 3                                # a miss, which evicts c (not b)
        assert rows(b) == 1
        assert rows(c) == 3                                # c was evicted; now a goes
        assert rows(b) == 1 and rows(c) == 1
        assert rows(a) == 3
        assert len(cache._entries) == 2
        for game_id in (a, b, c):
            assert_same_as_full_replay(game_id)


def test_replay_cache_unit():
    cache = ReplayCache(2)
    cache.put("a", ("A", 1))
    cache.put("b", ("B", 2))
    assert cache.get("a") == ("A", 1)          # a is now more recent than b
    cache.put("c", ("C", 3))
    assert cache.get("b") is None and cache.get("a") == ("A", 1) and cache.get("c") == ("C", 3)
    cache.put("a", ("A", 4))                   # replacing keeps the size
    assert cache.get("a") == ("A", 4) and len(cache._entries) == 2
    cache.clear()
    assert cache.get("a") is None
    off = ReplayCache(0)
    off.put("a", ("A", 1))
    assert off.get("a") is None


# == 2. upcasters ======================================================================

def renamed(event):
    """Event format 2 calls a turn's steps "moves"."""
    event = dict(event)
    event["moves"] = event.pop("steps")
    return event


class BabelV2(Babel):
    """Babel whose event format is version 2: only v2 turns (with "moves") are applied, so a
    v1 row reaching `apply` without going through the upcasters is refused."""
    event_version = 2
    upcasters = {("turn", 1): renamed}

    def __init__(self):
        self.upcast_calls = 0

    def upcast(self, event):
        self.upcast_calls += 1
        return super().upcast(event)

    @staticmethod
    def _as_v1(event):
        if event.get("type") == "turn":
            if event.get("v") != 2 or "steps" in event or "moves" not in event:
                raise WrongDecision(f"not a version 2 turn: {event!r}")
            event = {**event, "steps": event["moves"], "v": 1}
            del event["moves"]
        return event

    def apply_in_place(self, state, event):
        super().apply_in_place(state, self._as_v1(event))

    def notation(self, event, seat=None):
        return super().notation(self._as_v1(event), seat)

    def recount(self, before, event, seat, after=None):
        return super().recount(before, self._as_v1(event), seat, after)

    def decide(self, state, seat, text):
        event = super().decide(state, seat, text)
        return renamed({**event, "v": 2}) if event["type"] == "turn" else {**event, "v": 2}


def test_v1_rows_load_through_the_upcaster_and_are_never_rewritten(make_app, monkeypatch):
    app, client, game_id = played(make_app, 6)
    with app.app_context():
        _, v1_events, v1_state = full_replay(game_id)   # through today's engine
    before = snapshot(app)["events"]
    assert all(e["v"] == 1 and "steps" in e for e in v1_events if e["type"] == "turn")

    # The upgrade: a new engine, a fresh process (an empty cache).
    v2 = BabelV2()
    monkeypatch.setitem(games._loaded, "babel", v2)
    cache_of(app).clear()
    with app.app_context():
        loaded = gamelog.load(game_id)
        assert v2.upcast_calls == 6
        assert loaded.state == v1_state
        assert [e["v"] for e in loaded.events] == [2] * 6
        turns = [e for e in loaded.events if e["type"] == "turn"]
        assert turns and all("moves" in e and "steps" not in e for e in turns)
        for mine, theirs in zip(loaded.events, v1_events):
            expected = renamed(theirs) if theirs["type"] == "turn" else dict(theirs)
            expected["v"] = 2
            assert mine == expected
    assert snapshot(app)["events"] == before          # loading rewrote nothing

    # Play on with the new engine: new rows are v2; old rows stay v1; the record still reads.
    for k in range(2):
        assert play(app, client, game_id, 50 + k)
    with app.app_context():
        rows = db.session.execute(select(Event.seq, Event.v, Event.data).where(
            Event.game_id == game_id).order_by(Event.seq)).all()
        assert [tuple(r) for r in rows[:6]] == [(r.seq, r.v, r.data) for r in before]
        assert all(v == 2 and data["v"] == 2 and ("moves" in data or data["type"] != "turn")
                   for _, v, data in rows[6:])
        assert assert_same_as_full_replay(game_id).seq == 8
    assert client.get(f"/games/{game_id}/record", headers=JSON).status_code == 200
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 0 and "verified 1 games: 0 no longer replay" in result.output

    # A type without an upcaster (a v1 resignation) just has its "v" raised; a resignation
    # written now is written in the current format.
    assert BabelV2().upcast({"v": 1, "type": "resign", "seat": 1}) == {"v": 2, "type": "resign", "seat": 1}
    with app.app_context():
        resign = client.post(seat_path(game_id, 1) + "/resign", json={"confirm": True})
    assert resign.status_code == 200, resign.get_json()
    cache_of(app).clear()
    with app.app_context():
        stored = db.session.scalar(select(Event.data).where(Event.game_id == game_id, Event.seq == 9))
        assert stored == {"v": 2, "type": "resign", "seat": 1}
        assert gamelog.load(game_id).events[-1] == stored


def test_upcast_steps_one_version_at_a_time_and_leaves_its_input_alone():
    class V3(Babel):
        event_version = 3
        upcasters = {("turn", 1): renamed,
                     ("turn", 2): lambda e: {**e, "moves": e["moves"].upper()}}

    engine = V3()
    stored = {"v": 1, "type": "turn", "seat": 0, "steps": "move m"}
    assert engine.upcast(stored) == {"v": 3, "type": "turn", "seat": 0, "moves": "MOVE M"}
    assert stored == {"v": 1, "type": "turn", "seat": 0, "steps": "move m"}
    assert engine.upcast({"v": 2, "type": "turn", "seat": 0, "moves": "x"})["moves"] == "X"
    discard = {"type": "discard", "seat": 1, "cards": "AM"}    # no "v": version 1
    assert engine.upcast(discard) == {**discard, "v": 3}
    current = {"v": 3, "type": "turn", "seat": 0, "moves": "pass"}
    assert engine.upcast(current) == current


def test_an_event_newer_than_the_server_is_refused_clearly(make_app):
    app, client, game_id = played(make_app, 3)
    with app.app_context():
        data = db.session.scalar(select(Event.data).where(Event.game_id == game_id, Event.seq == 2))
        db.session.execute(update(Event).where(Event.game_id == game_id, Event.seq == 2)
                           .values(data={**data, "v": 2}, v=2))
        db.session.commit()
    cache_of(app).clear()
    with app.app_context():
        with pytest.raises(GameError, match=r"event version 2 is newer than this server's 1; "
                                            r"upgrade the server"):
            gamelog.load(game_id)
        page = client.get(seat_path(game_id, 0), headers=JSON)
    assert page.status_code == 422
    assert "newer than this server's" in page.get_json()["error"]
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 1
    assert f"game {game_id} at event 2: no longer applies: event version 2 is newer" in result.output


# == 3. flask verify ===================================================================

def games_for_verify(app, client) -> list[str]:
    ids = [create(client, first=i % 2) for i in range(3)]
    for i, game_id in enumerate(ids):
        for k in range(6 + i):
            assert play(app, client, game_id, 10 * i + k)
    return ids


def illegal_turn(app, game_id: str, seq: int) -> dict:
    """A turn the seat that made event `seq` could not have made then."""
    with app.app_context():
        engine, events, _ = full_replay(game_id)
        row = db.session.get(Game, game_id)
    state = engine.replay(row.seed, row.options, row.seats, row.first, events[:seq - 1])
    seat = events[seq - 1]["seat"]
    for steps in ("build theirs", "destroy theirs", "move M\nmove M\nmove M"):
        try:
            engine.decide(state, seat, steps)
        except GameError:
            return {"v": 1, "type": "turn", "seat": seat, "steps": steps}
    raise AssertionError("no illegal turn found")


def corrupt(app, game_id: str, how: str):
    with app.app_context():
        if how == "illegal turn":
            db.session.execute(update(Event).where(Event.game_id == game_id, Event.seq == 3)
                               .values(data=illegal_turn(app, game_id, 3)))
        elif how == "gap":
            db.session.execute(delete(Event).where(Event.game_id == game_id, Event.seq == 3))
        elif how == "wrong owed":
            owed = db.session.scalar(select(Event.owed).where(Event.game_id == game_id, Event.seq == 3))
            db.session.execute(update(Event).where(Event.game_id == game_id, Event.seq == 3)
                               .values(owed=[1 - owed[0]] if owed else [0]))
        db.session.commit()


def test_verify_all_fine_exits_zero_and_writes_nothing(make_app):
    app = make_app(**UNLIMITED)
    client = app.test_client()
    games_for_verify(app, client)
    create(client)                          # a game without events
    before = snapshot(app)
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 0, result.output
    assert "verified 4 games: 0 no longer replay" in result.output
    assert snapshot(app) == before


@pytest.mark.parametrize("how, says", [
    ("illegal turn", "no longer applies: "),
    ("gap", "the log has a gap (next stored event is 4)"),
    ("wrong owed", "seats owing a decision were "),
])
def test_verify_names_the_game_and_event_that_no_longer_replays(make_app, how, says):
    app = make_app(**UNLIMITED)
    client = app.test_client()
    ids = games_for_verify(app, client)
    corrupt(app, ids[1], how)
    before = snapshot(app)
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 1, result.output
    assert "verified 3 games: 1 no longer replay" in result.output
    problems = [line for line in result.output.splitlines() if line.startswith("game ")]
    assert len(problems) == 1
    assert problems[0].startswith(f"game {ids[1]} at event 3: {says}")
    assert snapshot(app) == before


# == 4. the database going away and coming back =======================================

class Proxy:
    """A TCP proxy on loopback to the real database: it can cut every connection, refuse new
    ones, and accept them again."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self._listener: socket.socket | None = None
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self):
        listener = socket.create_server(("127.0.0.1", self.port))
        listener.settimeout(0.05)
        self._listener = listener
        self._acceptor = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._acceptor.start()

    def _accept(self, listener):
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            client.settimeout(None)
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._conns.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                self._kill(s)

    def _kill(self, s):
        with self._lock:
            self._conns.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()

    def stop(self):
        """Refuse new connections and cut every open one."""
        listener, self._listener = self._listener, None
        if listener is not None:
            self._acceptor.join()   # it polls: the port is free once it is done
            listener.close()
        with self._lock:
            conns = list(self._conns)
        for s in conns:
            self._kill(s)


@pytest.fixture
def proxied(database_url, make_app):
    """An app whose database is reached through a Proxy (PostgreSQL only)."""
    postgresql_only(database_url)
    real = make_url(database_url)
    proxy = Proxy((real.host or "127.0.0.1", real.port or 5432))
    proxy.start()
    url = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    app = make_app(url, **UNLIMITED)
    try:
        yield app, proxy
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        proxy.stop()


def assert_unavailable_page(response):
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "30"
    assert response.mimetype == "text/html"
    page = response.data.decode()
    assert "<html" in page and "cannot be reached" in page and "Try again" in page


def assert_unavailable_json(response):
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "30"
    assert response.mimetype == "application/json"
    assert "cannot be reached" in response.get_json()["error"]


def test_the_database_going_away_answers_503_and_coming_back_works_without_a_restart(proxied):
    app, proxy = proxied
    client = app.test_client()
    game_id = create(client)
    assert play(app, client, game_id, 0)
    seat, path = turn_path(app, game_id)
    steps = random_text(app, game_id, seat, 1)
    with app.app_context():
        seat_link = seat_path(game_id, seat)
    before = snapshot(app)
    assert client.get(path).status_code == 200          # the pool holds open connections now

    proxy.stop()
    for _ in range(2):   # the pool's connections are dead, and new ones are refused
        assert_unavailable_page(client.get(path))
        assert_unavailable_page(client.get(seat_link))
        assert_unavailable_page(client.get(f"/games/{game_id}/record"))
        assert_unavailable_json(client.get(path, headers=JSON))
        assert_unavailable_page(client.post(path, data={"steps": steps, "action": "submit"}))
        assert_unavailable_json(client.post(path, json={"steps": steps}))
        assert_unavailable_json(client.post(path + "/preview", json={"steps": steps}))
        assert_unavailable_json(client.post("/links", json={"email": ANNA}))

    proxy.start()
    assert snapshot(app) == before                       # nothing was half-written
    assert client.get(path).status_code == 200
    assert client.get(seat_link).status_code == 200
    assert client.get(f"/games/{game_id}/record").status_code == 200
    assert client.get(path, headers=JSON).get_json()["can_act"] is True
    response = client.post(path, json={"steps": steps})
    assert response.status_code == 200, response.get_json()
    assert event_count(app, game_id) == 2


def test_the_database_going_away_in_the_middle_of_a_submission_writes_nothing(proxied, monkeypatch):
    """The connection dies after the event is flushed, before the commit: 503, and neither the
    event nor its mails were written; the same submission works once the database is back."""
    from pbem.mail import notify
    app, proxy = proxied
    client = app.test_client()
    game_id = create(client)
    assert play(app, client, game_id, 0)
    seat, path = turn_path(app, game_id)
    steps = random_text(app, game_id, seat, 1)
    before = snapshot(app, counts=False)
    queue_mails = notify.event_appended

    def then_cut(loaded, actor):
        queue_mails(loaded, actor)
        db.session.flush()
        proxy.stop()

    monkeypatch.setattr(notify, "event_appended", then_cut)
    assert_unavailable_json(client.post(path, json={"steps": steps}))
    monkeypatch.setattr(notify, "event_appended", queue_mails)
    proxy.start()
    assert snapshot(app, counts=False) == before   # the submission was counted; nothing else
    response = client.post(path, json={"steps": steps})
    assert response.status_code == 200, response.get_json()
    assert event_count(app, game_id) == 2
    with app.app_context():
        assert_same_as_full_replay(game_id)


# == 5. PROXY_FIX ========================================================================

def client_keys(app, prefix: str) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(select(RateEvent.key).where(RateEvent.key.like(prefix + "%"))))


def test_behind_a_proxy_the_client_address_comes_from_x_forwarded_for(make_app, monkeypatch):
    monkeypatch.setenv("PROXY_FIX", "1")
    app = make_app(LINK_REQUESTS_PER_CLIENT_PER_HOUR=1, **UNLIMITED)
    assert app.config["PROXY_FIX"] == 1
    client = app.test_client()
    for n in (1, 2):
        answer = client.post("/links", json={"email": ANNA},
                             headers={"X-Forwarded-For": f"203.0.113.{n}"})
        assert answer.status_code == 202
    # A client behind the proxy that writes its own X-Forwarded-For is still itself: the proxy
    # appends the address it saw, and only that last one is trusted.
    again = client.post("/links", json={"email": ANNA},
                        headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.1"})
    assert again.status_code == 429
    assert client_keys(app, "links-client:") == ["links-client:203.0.113.1", "links-client:203.0.113.2"]
    game_id = create(client)
    seat, path = turn_path(app, game_id)
    response = client.post(path, json={"steps": random_text(app, game_id, seat, 0)},
                           headers={"X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 200
    assert client_keys(app, "submit-client:") == ["submit-client:203.0.113.9"]


def test_without_proxy_fix_x_forwarded_for_is_ignored(make_app, monkeypatch):
    monkeypatch.delenv("PROXY_FIX", raising=False)
    app = make_app(LINK_REQUESTS_PER_CLIENT_PER_HOUR=1, **UNLIMITED)
    assert app.config["PROXY_FIX"] == 0
    client = app.test_client()
    first = client.post("/links", json={"email": ANNA}, headers={"X-Forwarded-For": "203.0.113.1"})
    assert first.status_code == 202
    for n in (2, 3):   # one client cannot pretend to be many
        answer = client.post("/links", json={"email": ANNA},
                             headers={"X-Forwarded-For": f"203.0.113.{n}"})
        assert answer.status_code == 429
    assert client_keys(app, "links-client:") == ["links-client:127.0.0.1"]


# == 6. rate limits ========================================================================

def move_back(app, key_prefix: str, by: timedelta, oldest: int | None = None):
    """Move stored rate events (all, or the `oldest` n) back in time instead of sleeping."""
    with app.app_context():
        query = (select(RateEvent).where(RateEvent.key.like(key_prefix + "%"))
                 .order_by(RateEvent.at, RateEvent.id))
        rows = db.session.scalars(query).all()
        for row in rows[:oldest] if oldest is not None else rows:
            row.at = row.at - by
        db.session.commit()


def test_submissions_per_client_are_limited_and_the_window_slides(make_app):
    app = make_app(SUBMISSIONS_PER_CLIENT_PER_MINUTE=3, SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100)
    client = app.test_client()
    me = {"REMOTE_ADDR": "192.0.2.10"}
    game_id = create(client)
    for k in range(3):   # both seats, from one client
        assert play(app, client, game_id, k, **me)
    seat, path = turn_path(app, game_id)
    steps = random_text(app, game_id, seat, 3)
    before = snapshot(app)
    refused = client.post(path, json={"steps": steps}, environ_base=me)
    assert refused.status_code == 429
    assert "Too many submissions" in refused.get_json()["error"]
    page = client.post(path, data={"steps": steps, "action": "submit"}, environ_base=me)
    assert page.status_code == 429 and "Too many submissions" in page.data.decode()
    assert snapshot(app) == before                       # nothing written, not even a count
    other = client.get(path, headers=JSON, environ_base={"REMOTE_ADDR": "192.0.2.11"})
    assert other.get_json()["can_act"] is True
    # The window slides: once the oldest submission is a minute old, one more goes through.
    move_back(app, "submit-client:192.0.2.10", timedelta(seconds=61), oldest=1)
    assert client.post(path, json={"steps": steps}, environ_base=me).status_code == 200
    seat, path = turn_path(app, game_id)
    steps = random_text(app, game_id, seat, 4)
    assert client.post(path, json={"steps": steps}, environ_base=me).status_code == 429
    # Another client is not limited by this one.
    assert client.post(path, json={"steps": steps},
                       environ_base={"REMOTE_ADDR": "192.0.2.11"}).status_code == 200
    assert event_count(app, game_id) == 5


def test_refused_submissions_count_too(make_app):
    """Illegal submissions cost the server a check each: they count like any other."""
    app = make_app(SUBMISSIONS_PER_CLIENT_PER_MINUTE=3, SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100)
    client = app.test_client()
    me = {"REMOTE_ADDR": "192.0.2.20"}
    game_id = create(client)
    seat, path = turn_path(app, game_id)
    for _ in range(3):
        assert client.post(path, json={"steps": "settle A"}, environ_base=me).status_code == 422
    assert client.post(path, json={"steps": "settle A"}, environ_base=me).status_code == 429
    steps = random_text(app, game_id, seat, 0)
    assert client.post(path, json={"steps": steps}, environ_base=me).status_code == 429
    assert event_count(app, game_id) == 0


def test_submissions_per_seat_address_are_limited_whatever_the_client(make_app):
    app = make_app(SUBMISSIONS_PER_CLIENT_PER_MINUTE=100, SUBMISSIONS_PER_ADDRESS_PER_MINUTE=2)
    client = app.test_client()
    ids = [create(client, first=0, emails=(ANNA, f"p{i}@example.org")) for i in range(3)]
    for i, game_id in enumerate(ids[:2]):   # Anna, from two clients
        assert play(app, client, game_id, i, REMOTE_ADDR=f"192.0.2.{30 + i}")
    seat, path = turn_path(app, ids[2])
    assert seat == 0
    steps = random_text(app, ids[2], seat, 7)
    before = snapshot(app, counts=False)
    refused = client.post(path, json={"steps": steps}, environ_base={"REMOTE_ADDR": "192.0.2.99"})
    assert refused.status_code == 429
    assert event_count(app, ids[2]) == 0
    assert snapshot(app, counts=False) == before
    # Bob, the other seat of these games, is not limited by Anna's submissions.
    assert play(app, client, ids[0], 10, REMOTE_ADDR="192.0.2.99")
    move_back(app, f"submit-address:{ANNA}", timedelta(seconds=61))
    response = client.post(path, json={"steps": steps}, environ_base={"REMOTE_ADDR": "192.0.2.99"})
    assert response.status_code == 200
    assert event_count(app, ids[2]) == 1


def fresh_address() -> dict:
    """A client address no other test used: previews are counted per process, not per app."""
    return {"REMOTE_ADDR": "10." + ".".join(str(secrets.randbelow(256)) for _ in range(3))}


def test_previews_per_client_are_limited(make_app):
    app = make_app(**{**UNLIMITED, "PREVIEWS_PER_CLIENT_PER_MINUTE": 3})
    client = app.test_client()
    game_id = create(client)
    seat, path = turn_path(app, game_id)
    me = fresh_address()
    for _ in range(3):
        assert client.post(path + "/preview", json={"steps": "move A"}, environ_base=me).status_code == 200
    refused = client.post(path + "/preview", json={"steps": "move A"}, environ_base=me)
    assert refused.status_code == 429 and "Too many previews" in refused.get_json()["error"]
    fragment = client.post(path + "/preview", data={"steps": "move A"}, environ_base=me)
    assert fragment.status_code == 429 and "Too many previews" in fragment.data.decode()
    other = fresh_address()
    assert client.post(path + "/preview", json={"steps": "move A"}, environ_base=other).status_code == 200


# == 7. indexes ==========================================================================

WATCHED = ("events", "mails", "seat_nonces", "rate_events")
FILLER_GAMES = 2000


def fill(app):
    """Some thousand rows in every watched table, inserted directly, as many games leave them:
    2000 games of 7 events, 3 mails each (a few failed or pending, not yet due), request counts.
    Three of the games have waited long enough for a reminder."""
    from datetime import datetime

    from pbem.store.models import Due, Seat
    now = datetime.now(UTC)
    rng = random.Random(7)
    rows = {Game: [], Seat: [], SeatNonce: [], Event: [], Mail: [], RateEvent: [], Due: []}
    for g in range(FILLER_GAMES):
        game_id, since = f"filler{g:05d}", now - timedelta(days=30 if g < 3 else 0)
        rows[Game].append({"id": game_id, "kind": "babel", "options": {"sumerians": "top-run"},
                           "seed": g, "first": 0, "seats": 2, "created_at": since,
                           "time_limit_days": None, "owed": [0]})
        # Its row in the index of what is due, as the commit hooks would have written it.
        rows[Due].append({"game_id": game_id, "seat": 1, "bot": None,
                          "due_at": since + timedelta(hours=48)})
        for seat in (0, 1):
            rows[Seat].append({"game_id": game_id, "seat": seat, "name": f"P{g}-{seat}",
                               "email": f"p{g}-{seat}@example.net"})
            rows[SeatNonce].append({"game_id": game_id, "seat": seat,
                                    "nonce": secrets.token_urlsafe(12), "created_at": since})
        for seq in range(1, 8):
            seat = (seq - 1) % 2
            rows[Event].append({"game_id": game_id, "seq": seq, "seat": seat, "type": "turn", "v": 1,
                                "data": {"v": 1, "type": "turn", "seat": seat, "steps": "pass"},
                                "created_at": since, "owed": [1 - seat]})
        for m in range(3):
            status = rng.choice(["sent"] * 20 + ["failed", "pending"])
            rows[Mail].append({
                "game_id": game_id, "seat": m % 2, "kind": rng.choice(["turn", "invite", "links"]),
                "to_name": "P", "to_addr": f"p{g}-{m % 2}@example.net", "from_name": "pbem",
                "subject": "s", "text": "t", "html": "h", "message_id": f"<{game_id}.{m}@x>",
                "status": status, "attempts": 1,
                "next_attempt_at": now + timedelta(days=1) if status == "pending" else now,
                "created_at": now - timedelta(days=rng.randint(0, 30))})
        for r in range(3):
            rows[RateEvent].append({"key": f"submit-client:10.{g // 250}.{g % 250}.{r}",
                                    "at": now - timedelta(minutes=rng.randint(0, 2000))})
    with app.app_context():
        for model, values in rows.items():
            db.session.execute(model.__table__.insert(), values)
        db.session.commit()
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE " + ", ".join(("games", "seats") + WATCHED)))


def nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def full_scans(plan: dict) -> list[str]:
    """Scans of a watched table not narrowed by an index condition: sequential scans, and walks
    through a whole index (which cost as much)."""
    out = []
    for node in nodes(plan):
        kind, table = node["Node Type"], node.get("Relation Name")
        if table not in WATCHED:
            continue
        if kind == "Seq Scan" or (kind in ("Index Scan", "Index Only Scan") and "Index Cond" not in node):
            using = f" using {node['Index Name']}" if "Index Name" in node else ""
            out.append(f"{kind} on {table}{using}")
    return out


def plans(seen) -> dict[str, dict]:
    """EXPLAIN of every distinct query among the statements seen, with the parameters it had."""
    out = {}
    raw = db.engine.raw_connection()
    try:
        cursor = raw.cursor()
        for statement, parameters in seen:
            if statement in out or not re.match(r"\s*(SELECT|UPDATE|DELETE)\b", statement, re.I):
                continue
            cursor.execute("EXPLAIN (FORMAT JSON) " + statement, parameters)
            out[statement] = cursor.fetchone()[0][0]["Plan"]
        raw.rollback()
    finally:
        raw.close()
    return out


def test_the_queries_of_pages_and_workers_use_indexes(database_url, make_app):
    """Load a game, look up a seat's nonce, count requests for rate limits, list a game's failed
    mails, claim the next mail, find the decisions waiting, prune old counts: with some thousand
    rows in each table, EXPLAIN shows each watched table reached through an index condition."""
    postgresql_only(database_url)
    from pbem.jobs import reminders
    from pbem.mail.deliver import deliver_due, failed_for_game
    app = make_app(**UNLIMITED)
    client = app.test_client()
    fill(app)
    with app.app_context():
        engine = db.engine
    with statements(engine) as seen:
        game_id = create(client)
        seat, path = turn_path(app, game_id)
        assert client.get(path).status_code == 200
        assert client.get(path, headers=JSON).status_code == 200
        assert client.post(path + "/preview", json={"steps": "move A"}).status_code == 200
        assert play(app, client, game_id, 1)
        with app.app_context():
            seat_link = seat_path(game_id, seat)
            failed_for_game(game_id)
        assert client.get(seat_link).status_code == 200
        assert client.get(f"/games/{game_id}/record").status_code == 200
        assert client.post("/links", json={"email": BOB}).status_code == 202
        assert client.post(seat_link + "/renew").status_code == 202
        with app.app_context():
            # The creator's confirmation, 2 invitations, 1 turn, links for Bob, the renewal.
            assert deliver_due().sent == 6
            assert len(reminders.run().reminded) == 3
    with app.app_context():
        explained = plans(seen)
    queried = " ".join(explained)
    for table in WATCHED:
        assert f"FROM {table}" in queried
    assert "FOR UPDATE OF mails SKIP LOCKED" in queried and "DELETE FROM rate_events" in queried
    bad = {s: scans for s, plan in explained.items() if (scans := full_scans(plan))}
    assert not bad, "\n\n".join(f"{s}\n  -> {', '.join(scans)}" for s, scans in bad.items())


# == snapshots in the database ============================================================

def play_by_store(game_id: str, decisions: int, k: int = 0) -> None:
    """Random legal decisions submitted through the turn service (inside an app)."""
    for n in range(decisions):
        loaded = gamelog.load(game_id)
        owed = loaded.engine.to_act(loaded.state)
        if not owed:
            return
        text = loaded.engine.random_submission(loaded.state, owed[0].seat, Rng(k * 1000 + n))
        turns.submit(game_id, owed[0].seat, loaded.seq, text, turns.Origin(turns.BOT))


def test_cold_loads_start_from_the_latest_snapshot_and_equal_a_full_replay(make_app):
    from pbem.store.models import Snapshot
    app = make_app(SNAPSHOT_EVERY=4, REPLAY_CACHE_SIZE=0)     # every load is cold
    game_id = new_game(app, 96, 0)
    with app.app_context():
        for n in range(30):
            play_by_store(game_id, 1, n)
            assert_same_as_full_replay(game_id)
        seq = gamelog.load(game_id).seq
        stored = db.session.scalars(select(Snapshot.seq).where(Snapshot.game_id == game_id)).all()
        assert sorted(stored) == list(range(4, seq + 1, 4))
        with statements(db.engine) as seen:
            loaded = gamelog.load(game_id)
            read = event_rows_read(seen)
        assert loaded.seq == seq and read <= gamelog.RECENT + 4 < seq   # not the whole log
        assert app.test_cli_runner().invoke(args=["verify"]).exit_code == 0


def test_snapshots_of_other_rules_or_that_differ_are_ignored_and_reported(make_app):
    from pbem.store.models import Snapshot
    app = make_app(SNAPSHOT_EVERY=4, REPLAY_CACHE_SIZE=0)
    game_id = new_game(app, 48, 1)
    with app.app_context():
        play_by_store(game_id, 9)
        # A snapshot of another rules version (before a rules fix) is never read.
        wrong = GAME.snapshot(GAME.start(1, {}, 2, 0))
        db.session.add(Snapshot(game_id=game_id, seq=8, rules=GAME.rules_version + 1, state=wrong))
        db.session.commit()
        assert_same_as_full_replay(game_id)
        # One of this version that no longer matches its replay: verify names it.
        db.session.execute(update(Snapshot).where(Snapshot.game_id == game_id, Snapshot.seq == 4,
                                                  Snapshot.rules == GAME.rules_version)
                           .values(state=wrong))
        db.session.commit()
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 1
    assert f"game {game_id} at event 4: the stored snapshot differs from the replay" in result.output


# -- a database never upgraded -------------------------------------------------------------------

def test_a_server_started_without_db_upgrade_answers_503_with_one_line_in_the_log(
        database_url, tmp_path, smtp, caplog):
    """The operator forgot `db upgrade` (on SQLite "no such table" is an OperationalError, on
    PostgreSQL "relation does not exist" a ProgrammingError, which was a 500 with a traceback)."""
    import logging

    from pbem import create_app
    # The test's own database comes migrated: an empty file, or a schema nobody made, is not.
    empty = (f"sqlite:///{tmp_path / 'empty.sqlite3'}" if database_url.startswith("sqlite")
             else database_url.replace("search_path%3Dt_", "search_path%3Dempty_t_"))
    app = create_app({"TESTING": True, "SECRET_KEY": "k" * 32, "SQLALCHEMY_DATABASE_URI": empty,
                      "BASE_URL": "http://pbem.test"})     # never upgraded
    client = app.test_client()
    with app.app_context():
        path = links.path(links.TURN, "abcdefghijkl", 0, 0)
    try:
        with caplog.at_level(logging.INFO):
            for ask in (lambda: client.get(path),
                        lambda: client.get(path, headers={"Accept": "application/json"}),
                        lambda: client.post("/links", json={"email": "anna@example.org"})):
                response = ask()
                assert response.status_code == 503, response.data[:300]
                assert response.headers["Retry-After"] == "30"
        records = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(records) == 3, [r.getMessage() for r in records]
        for record in records:
            said = record.getMessage()
            assert "\n" not in said and record.exc_info is None, said
            assert "flask --app pbem db upgrade" in said, said
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
