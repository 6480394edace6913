"""Which mails each change of a game causes. Called inside the transaction that makes the change.

- a new game: each seat gets an invitation with its seat link, and the seat
  to act its turn link too;
- an event: each seat that now owes a decision gets a turn mail, unless it is
  the seat that just acted (it goes on at once in the page: discards, then its
  turn); when the game ends every seat is told how.
"""

from __future__ import annotations

from flask import current_app

from .. import links, store
from ..store import Loaded
from .compose import queue


def _from_name(loaded: Loaded) -> str:
    return f"{loaded.engine.title}: {' vs '.join(loaded.names)}"


def _context(loaded: Loaded, seat: int) -> dict:
    nonce = store.current_nonce(loaded.id, seat)
    decision = loaded.owed(seat)
    last = loaded.last_event_by_other(seat)
    outcome = loaded.engine.outcome(loaded.state)
    return {
        "game": loaded.engine,
        "game_id": loaded.id,
        "seat": seat,
        "names": loaded.names,
        "opponents": [n for i, n in enumerate(loaded.names) if i != seat],
        "decision": decision,
        "turn_url": links.url(links.TURN, loaded.id, seat, loaded.seq) if decision else None,
        "seat_url": links.url(links.SEAT, loaded.id, seat, nonce),
        "record_url": f"{current_app.config['BASE_URL']}/games/{loaded.id}/record",
        "last_turn": loaded.engine.notation(last) if last else None,
        "last_name": loaded.names[last["seat"]] if last else None,
        "scores": loaded.engine.scores(loaded.state),
        "outcome": outcome,
        "winner_name": (loaded.names[outcome.winner]
                        if outcome and outcome.winner is not None else None),
    }


def _subject(loaded: Loaded, seat: int, what: str) -> str:
    others = " and ".join(n for i, n in enumerate(loaded.names) if i != seat)
    return f"{loaded.engine.title} with {others}: {what}"


def game_created(loaded: Loaded) -> None:
    for seat in loaded.seats:
        context = _context(loaded, seat.seat)
        what = "your turn" if context["decision"] else "you are invited"
        queue("invite", seat.name, seat.email, _subject(loaded, seat.seat, what), context,
              game_id=loaded.id, seat=seat.seat, from_name=_from_name(loaded), root=True)


def event_appended(loaded: Loaded, actor: int | None) -> None:
    if loaded.engine.outcome(loaded.state) is not None:
        for seat in loaded.seats:
            queue("over", seat.name, seat.email, _subject(loaded, seat.seat, "the game is over"),
                  _context(loaded, seat.seat), game_id=loaded.id, seat=seat.seat,
                  from_name=_from_name(loaded))
        return
    for decision in loaded.engine.to_act(loaded.state):
        if decision.seat == actor:
            continue
        seat = loaded.seats[decision.seat]
        queue("turn", seat.name, seat.email, _subject(loaded, seat.seat, f"your turn, {seat.name}"),
              _context(loaded, seat.seat), game_id=loaded.id, seat=seat.seat,
              from_name=_from_name(loaded))


def links_reissued(loaded: Loaded, seat: int) -> None:
    """A fresh seat link (and turn link, if a decision is owed) to the seat's own address."""
    row = loaded.seats[seat]
    queue("links", row.name, row.email, _subject(loaded, seat, "your links"),
          _context(loaded, seat), game_id=loaded.id, seat=seat, from_name=_from_name(loaded))
