"""Computers at the table: the worker's bot loop finds the decisions computers owe and makes them.

A computer's decision is made exactly as a person's: `turns.submit` with `Origin(BOT)`, at
the point of the log the worker found it owing, so it is mailed, shown and recorded like any
other. Several workers may run at once: the one that claims a decision's row in the index of
what is due (`pbem.policy.due.claim`) thinks about it, the others pass it by; a worker that
dies thinking leaves it to another after COMPUTER_CLAIM_SECONDS. The database key (game_id, seq)
still lets only one decision be appended.

What the computer gets is `pbem.bots.choose`'s contract (the engine, the state, its seat, its
level, a seed), never the game's seed: its seed is derived one way from the game's seed, the
seat and the point of the log (`bot_seed`), so replaying a game explains every decision
without a computer being able to recover the seed that drew the hidden cards.

The loop runs in a thread of its own beside mail delivery (`pbem.jobs.worker`), so a computer that
thinks for seconds never holds up a mail.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime

from pbem import bots
from pbem.errors import AlreadySubmitted
from pbem.extensions import db
from pbem.games.errors import GameError
from pbem.mail import wakeup
from pbem.play import turns
from pbem.policy import due
from pbem.policy.deadlines import Waiting, waiting
from pbem.store import gamelog
from pbem.store.models import utcnow
from pbem.store.transaction import transaction

log = logging.getLogger(__name__)


def bot_seed(game_seed: int, game_id: str, seat: int, seq: int) -> int:
    """The seed a computer decides with at this point of the log: a hash, so that the game's
    seed cannot be read back from it."""
    digest = hashlib.sha256(f"pbem-bot:{game_id}:{game_seed}:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1   # 63 bits, like a game's seed


def owed(now: datetime | None = None) -> list[Waiting]:
    """Every decision a computer owes now, oldest first: read from the index of what is due
    (`pbem.policy.due`), so a round costs what computers owe, not what is stored."""
    found = waiting(among=due.computers_due(now or utcnow()), bots_only=True)
    return sorted(found, key=lambda w: w.since)


@dataclass(frozen=True)
class Played:
    game_id: str
    seat: int
    seq: int               # the point of the log it decided at (its event is seq + 1)
    text: str


def play(game_id: str, seat: int, seq: int, now: datetime | None = None,
         exclusive: bool = False) -> Played | None:
    """The decision the computer at `seat` owes at `seq`, made and submitted; None when it
    owes none there (decided meanwhile, by another worker too). `exclusive`: the job engine
    gave it to this worker alone (its job's row lock), so the index's claim only marks it as
    being thought about; a retry after a worker died thinks again though the claim stands."""
    loaded = gamelog.load(game_id)
    level = gamelog.bot_of(game_id, seat)
    if not level or loaded.seq != seq or loaded.decision_of(seat) is None:
        return None
    with transaction():   # one worker thinks about it: the others find it taken
        if not due.claim(game_id, seat, now or utcnow()) and not exclusive:
            return None
    log.info("computer (%s) of seat %s in game %s: thinking at %s", level, seat, game_id, seq)
    # Think outside any transaction (SQLite: an open read would hold up every writer), on a
    # copy of the state (the loaded one is this process's cache).
    db.session.rollback()
    text = bots.choose(loaded.engine, loaded.state.copy(), seat, level,
                       bot_seed(loaded.row.seed, game_id, seat, seq))
    try:
        turns.submit(game_id, seat, seq, text, turns.Origin(turns.BOT))
    except AlreadySubmitted:
        return None   # another worker was first
    return Played(game_id, seat, seq, text)


def run(budget: float = 10.0) -> list[Played]:
    """One round: every decision computers owe now, until `budget` seconds are spent (the rest
    waits for the next round). A decision that fails is logged and left for the next round."""
    started = time.monotonic()
    played = []
    for w in owed():
        if time.monotonic() - started > budget:
            break
        try:
            done = play(w.game.id, w.seat, w.seq)
        except GameError:   # the computer chose something illegal: a bug in pbem.bots
            log.exception("the computer of seat %s in game %s chose an illegal decision",
                          w.seat, w.game.id)
            continue
        if done is not None:
            played.append(done)
    return played


def loop(app, stop: threading.Event, every: float = 1.0, budget: float = 10.0) -> None:
    """Play the computers' decisions every `every` seconds until `stop` is set."""
    while not stop.is_set():
        try:
            with app.app_context():
                played = run(budget)
        except Exception:   # keep playing: the decision is still owed, the next round tries it
            log.exception("the computers' round failed; trying again")
            played = []
        if not played:   # after a decision, at once: the next may be a computer's too
            wakeup.computers_owed.wait(every)   # a commit that makes one owed wakes it
            wakeup.computers_owed.clear()
