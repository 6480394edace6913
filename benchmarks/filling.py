"""Filling a benchmark database with many legal Babel games, fast.

A few hundred distinct games are played (`players.py`), then copied under new
ids until there are as many as asked for, and written straight into the tables
in bulk: PostgreSQL's COPY, or executemany on SQLite. 100,000 games (about two
million events) take a few minutes. Copies share their seed, so each replays to
the same state as its template: the server sees 100,000 real, distinct games.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from players import feud_game, random_game

from pbem.games.babel import GAME
from pbem.games.rng import Rng
from pbem.store.gamelog import new_id, new_nonce

NAMES = ("Anna", "Bob")
LONG = 150                 # decisions in a long game
SNAPSHOT_EVERY = 16        # the server's default
OPTIONS = {"sumerians": "top-run"}

COLUMNS = {
    "games": ("id", "kind", "options", "seed", "first", "seats", "created_at", "time_limit_days", "owed"),
    "seats": ("game_id", "seat", "name", "email"),
    "seat_nonces": ("game_id", "seat", "nonce", "created_at"),
    "events": ("game_id", "seq", "seat", "type", "v", "data", "created_at", "owed"),
    "snapshots": ("game_id", "seq", "rules", "state", "created_at"),
}
JSON_COLUMNS = {"options", "owed", "data", "state"}


@dataclass(frozen=True)
class Template:
    """One played game: what every copy of it writes, but its id and addresses."""
    seed: int
    events: tuple[str, ...]            # each event as JSON
    seats: tuple[int | None, ...]      # each event's seat
    types: tuple[str, ...]
    owed: tuple[str, ...]              # the seats to act after each event, as JSON
    snapshots: tuple[tuple[int, str], ...]
    to_act_at_start: str
    to_act: tuple[int, ...]            # the seats owing a decision at its end

    @property
    def long(self) -> bool:
        return len(self.events) >= LONG


@dataclass(frozen=True)
class Running:
    """A decision owed in a stored game, for the benchmarks to answer."""
    game: str
    seat: int
    seq: int
    long: bool


def play(seed: int, decisions: int, long: bool) -> Template:
    first, events, _ = (feud_game if long else random_game)(seed, decisions)
    state = GAME.start(seed, OPTIONS, 2, None)
    to_act_at_start = json.dumps([d.seat for d in GAME.to_act(state)])
    owed, snapshots = [], []
    for seq, event in enumerate(events, 1):
        state = GAME.apply(state, event)
        owed.append(json.dumps([d.seat for d in GAME.to_act(state)]))
        if seq % SNAPSHOT_EVERY == 0:       # as the server's own appends write them
            snapshots.append((seq, json.dumps(GAME.snapshot(state))))
    return Template(seed, tuple(json.dumps(e) for e in events), tuple(e["seat"] for e in events),
                    tuple(e["type"] for e in events), tuple(owed), tuple(snapshots),
                    to_act_at_start, tuple(d.seat for d in GAME.to_act(state)))


def templates(count: int, long_games: int, seed: int) -> list[Template]:
    """`count` distinct games: `long_games` of them LONG decisions long, the others random
    games stopped after 0 to 40 decisions (some are over, most running)."""
    rng = Rng.derived(seed, "bench-fill")
    made = []
    for i in range(count):
        long = i < long_games
        made.append(play(rng.below(2**62), LONG if long else rng.below(41), long))
    return made


def _game_rows(games: int, made: list[Template], now: datetime,
               running: list[Running]) -> Iterator[tuple[str, tuple]]:
    for i in range(games):
        template = made[i % len(made)]
        game_id = new_id()
        created = now - timedelta(days=1, seconds=len(template.events) * 60)
        yield "games", (game_id, "babel", json.dumps(OPTIONS), template.seed, None, 2, created, None,
                        template.to_act_at_start)
        for seat, name in enumerate(NAMES):
            yield "seats", (game_id, seat, name, f"{name.lower()}{i}@example.org")
            yield "seat_nonces", (game_id, seat, new_nonce(), created)
        for seq, data in enumerate(template.events, 1):
            yield "events", (game_id, seq, template.seats[seq - 1], template.types[seq - 1], 1, data,
                             created + timedelta(seconds=seq * 60), template.owed[seq - 1])
        for seq, state in template.snapshots:
            yield "snapshots", (game_id, seq, GAME.rules_version, state, created)
        running += [Running(game_id, seat, len(template.events), template.long)
                    for seat in template.to_act]


def fill(url: str, games: int, long_games: int = 0, seed: int = 1, distinct: int = 500,
         log=print) -> list[Running]:
    """Write `games` games into the (migrated, empty) database at `url`; the decisions owed."""
    started = time.monotonic()
    made = templates(min(distinct, games), min(long_games, distinct, games), seed)
    log(f"  played {len(made)} distinct games ({time.monotonic() - started:.0f} s)")
    running: list[Running] = []
    rows = _game_rows(games, made, datetime.now(UTC), running)
    if url.startswith("postgresql"):
        _copy(url, rows, games, log)
    else:
        _insert(url, rows, games, log)
    log(f"  wrote {games} games ({time.monotonic() - started:.0f} s)")
    return running


def _copy(url: str, rows: Iterator[tuple[str, tuple]], games: int, log) -> None:
    import psycopg
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        cursors = {table: conn.cursor() for table in COLUMNS}
        # One COPY at a time per connection: buffer a batch of games, then copy each table.
        batch: dict[str, list[tuple]] = {table: [] for table in COLUMNS}
        done = 0
        for table, row in rows:
            batch[table].append(row)
            if table == "games":
                done += 1
                if done % 10_000 == 0:
                    _flush_copy(cursors, batch)
                    log(f"  {done}/{games} games")
        _flush_copy(cursors, batch)
        conn.execute("ANALYZE")


def _flush_copy(cursors: dict[str, Any], batch: dict[str, list[tuple]]) -> None:
    for table, cols in COLUMNS.items():     # in this order: the foreign keys hold at every step
        with cursors[table].copy(f"COPY {table} ({', '.join(cols)}) FROM STDIN") as copy:
            for row in batch[table]:
                copy.write_row(row)
        batch[table].clear()


def _insert(url: str, rows: Iterator[tuple[str, tuple]], games: int, log) -> None:
    import sqlite3
    path = url.split("sqlite:///", 1)[1]
    conn = sqlite3.connect(path)
    # Stored as SQLAlchemy stores them: ISO datetimes without the offset, JSON as text.
    sql = {table: f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
           for table, cols in COLUMNS.items()}
    batch: dict[str, list[tuple]] = {table: [] for table in COLUMNS}
    done = 0
    for table, row in rows:
        batch[table].append(tuple(_sqlite_value(v) for v in row))
        if table == "games":
            done += 1
            if done % 10_000 == 0:
                _flush_insert(conn, sql, batch)
                log(f"  {done}/{games} games")
    _flush_insert(conn, sql, batch)
    conn.execute("ANALYZE")
    conn.close()


def _sqlite_value(value):
    if isinstance(value, datetime):
        return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ")
    return value


def _flush_insert(conn, sql: dict[str, str], batch: dict[str, list[tuple]]) -> None:
    with conn:
        for table in COLUMNS:
            conn.executemany(sql[table], batch[table])
            batch[table].clear()


if __name__ == "__main__":   # a quick look: python benchmarks/filling.py sqlite:///x.sqlite3 1000
    print(len(fill(sys.argv[1], int(sys.argv[2]))), "decisions owed")
