"""Replaying every stored game, after an upgrade: which logs no longer replay?

Each game is replayed from its seed through the current engine (its events
read through the upcasters), every event checked as it was when submitted.
The seats owing a decision after each event are compared with what was
written then, and every snapshot of the current rules version with the state
the replay reaches at its point. Nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from pbem import games
from pbem.extensions import db
from pbem.games.errors import GameError
from pbem.store.models import Event, Game, Snapshot


@dataclass
class Problem:
    game_id: str
    seq: int | None
    message: str

    def __str__(self) -> str:
        where = f" at event {self.seq}" if self.seq is not None else ""
        return f"game {self.game_id}{where}: {self.message}"


def verify_game(row: Game) -> Problem | None:
    try:
        engine = games.get(row.kind)
    except games.UnknownGame:
        return Problem(row.id, None, f"no engine for {row.kind!r}")
    try:
        state = engine.start(row.seed, row.options, row.seats, row.first)
    except GameError as error:
        return Problem(row.id, None, f"cannot start: {error}")
    events = db.session.scalars(select(Event).where(Event.game_id == row.id).order_by(Event.seq))
    snapshots: dict[int, dict] = {seq: state for seq, state in db.session.execute(
        select(Snapshot.seq, Snapshot.state).where(
            Snapshot.game_id == row.id, Snapshot.rules == engine.rules_version))}
    for expected, event in enumerate(events, 1):
        if event.seq != expected:
            return Problem(row.id, expected, f"the log has a gap (next stored event is {event.seq})")
        try:
            state = engine.apply(state, engine.upcast(event.data))
        except GameError as error:
            return Problem(row.id, event.seq, f"no longer applies: {error}")
        to_act = [d.seat for d in engine.to_act(state)]
        if event.owed is not None and to_act != event.owed:
            return Problem(row.id, event.seq, f"seats owing a decision were {event.owed}, "
                                              f"replay says {to_act}")
        if event.seq in snapshots and engine.restore(snapshots[event.seq]) != state:
            return Problem(row.id, event.seq, "the stored snapshot differs from the replay")
    return None


def verify_all(progress=None) -> tuple[int, list[Problem]]:
    """(games checked, problems); `progress(done)` is called every 500 games."""
    problems, done = [], 0
    ids = db.session.scalars(select(Game.id).order_by(Game.created_at, Game.id)).all()
    for game_id in ids:
        row = db.session.get(Game, game_id)
        problem = verify_game(row) if row is not None else None
        if problem:
            problems.append(problem)
        done += 1
        if progress and done % 500 == 0:
            progress(done)
        db.session.expunge_all()   # keep memory flat over many games
    return done, problems
