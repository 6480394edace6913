"""Rematch: a player of a finished game asks for a new game of the same kind with the same
players and the same options; every other person confirms from his mailbox (a link whose
button, a POST, says yes); when the last one does, the game starts and everybody is invited
as in any new game. Computers stay computers (with their level), and need no asking; a player
whose seat a computer took over is a person again, and is asked. Who starts moves on by one
seat (when the finished game named who starts; otherwise it is drawn again).

One rematch per finished game (`rematches.source` is unique): asking twice, or two players
asking at once, is the same rematch. Each use case owns its transaction, like the start
page's `turns.propose` and `turns.confirm`, and is counted like them.
"""

from __future__ import annotations

from sqlalchemy import select

from pbem.errors import AlreadySubmitted, BadInput, LinkTampered, NotFound, ServerError
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.mail import notify
from pbem.mail.compose import queue
from pbem.play import turns
from pbem.policy import limits, links
from pbem.store import gamelog
from pbem.store.models import Clock, Game, Rematch, Seat
from pbem.store.transaction import transaction


class RematchStarted(ServerError):
    """A rematch link whose game has started already."""
    status, title = 410, phrase("Started already")


def _spec(game: Game, seats: list[Seat]) -> turns.Spec:
    """The finished game's kind, players and options; computers stay computers."""
    from_start = [s.email == "" for s in seats]   # a computer from the start has no address
    first = None if game.first is None else (game.first + 1) % len(seats)
    bank = db.session.get(Clock, game.id)     # a time bank goes with the rest of the clock
    return turns.Spec(game.kind, [(s.name, s.email) for s in seats], dict(game.options), first,
                      game.time_limit_days, None,
                      tuple(s.bot if bot else None for s, bot in zip(seats, from_start)),
                      game.takeover or turns.DEFAULT_TAKEOVER,
                      (bank.start_days, bank.increment_days, bank.cap_days) if bank else None,
                      tuple(s.language for s in seats), rated=bool(game.rated),
                      rest_days=game.rest_days is not False)   # as the game was agreed


def people(spec: turns.Spec) -> list[int]:
    return [i for i in range(len(spec.players)) if not spec.level(i)]


def ask(game_id: str, seat: int) -> Rematch:
    """The seat's player asks for a rematch of a finished game: the other people are mailed a
    link to confirm (or, with only computers besides him, it starts at once). Asked already:
    that rematch (his yes added)."""
    loaded = gamelog.load(game_id)
    if not loaded.over:
        raise BadInput(phrase("A rematch can be asked for once the game is over."))
    game = db.session.get(Game, game_id)
    seats = list(db.session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)))
    if game is None or not 0 <= seat < len(seats) or not seats[seat].email:
        raise NotFound(phrase("Game {game} has no player in seat {seat}.", game=game_id, seat=seat))
    existing = _of_source(game_id)
    if existing is None and gamelog.bot_of(game_id, seat):
        # He left the game: its result is not his to play again (the others may ask him).
        raise BadInput(phrase("You left this game: a rematch is for the players who finished "
                              "it; they may ask you."))
    if existing is not None:
        if seat not in existing.confirmed:
            return confirm(existing.id, seat)
        spec = turns.Spec.from_json(existing.kind, existing.spec)
        if not existing.started and set(people(spec)) <= set(existing.confirmed):
            return _start(existing.id)   # everybody said yes, but it could not start then
        return existing
    spec = turns.checked(_spec(game, seats))
    try:
        with transaction():
            limits.take(limits.PROPOSALS_ADDRESS, seats[seat].email)
            row = Rematch(id=gamelog.new_id(), source=game_id, kind=spec.kind, spec=spec.to_json(),
                          asked_by=seat, confirmed=[seat], started=False)
            db.session.add(row)
            db.session.flush()   # a rematch asked at the same moment: the unique source refuses
            for other in people(spec):
                if other != seat:
                    _mail_ask(row, spec, other, seats[seat].name)
    except AlreadySubmitted:
        return ask(game_id, seat)   # the other one's rematch; his yes is added to it
    if len(people(spec)) == 1:
        return _start(row.id)
    return row


def _of_source(game_id: str) -> Rematch | None:
    return db.session.scalars(select(Rematch).where(Rematch.source == game_id)).first()


def of_game(game_id: str) -> Rematch | None:
    """The rematch asked for of a finished game, if any (one per game)."""
    return _of_source(game_id)


def _mail_ask(row: Rematch, spec: turns.Spec, seat: int, asker: str) -> None:
    engine = spec.engine()
    names = [name for name, _ in spec.players]
    queue("rematch", names[seat], spec.players[seat][1],
          phrase("{title}: {asker} asks for a rematch", title=engine.title, asker=asker),
          {"title": engine.title, "names": names, "asker": asker,
           "confirm_url": links.url_of(links.REMATCH, [row.id, seat])},
          from_name=notify.from_name(engine.title, names),
          language=spec.languages[seat] if seat < len(spec.languages) else None)


def read_link(token: str) -> tuple[Rematch, int, turns.Spec]:
    """The rematch and seat a rematch link names; LinkTampered, NotFound otherwise."""
    payload = links.unsign(links.REMATCH, token)
    if not (isinstance(payload, list) and len(payload) == 2 and isinstance(payload[0], str)
            and isinstance(payload[1], int) and not isinstance(payload[1], bool)):
        raise LinkTampered()
    row = db.session.get(Rematch, payload[0])
    if row is None:
        raise NotFound(phrase("This rematch is no longer there."))
    return row, payload[1], turns.Spec.from_json(row.kind, row.spec)


def confirm(rematch_id: str, seat: int) -> Rematch:
    """A player says yes; the last yes starts the game (every player is invited)."""
    with transaction():
        row = db.session.scalars(select(Rematch).where(Rematch.id == rematch_id)
                                 .with_for_update()).first()
        if row is None:
            raise NotFound(phrase("This rematch is no longer there."))
        if row.started:
            raise RematchStarted(phrase("This rematch has started already: the invitations are "
                                        "in your mailbox."))
        spec = turns.Spec.from_json(row.kind, row.spec)
        if seat not in people(spec):
            raise LinkTampered()
        row.confirmed = sorted({*row.confirmed, seat})
        complete = set(people(spec)) <= set(row.confirmed)
    return _start(rematch_id) if complete else row


def _start(rematch_id: str) -> Rematch:
    with transaction():
        row = db.session.scalars(select(Rematch).where(Rematch.id == rematch_id)
                                 .with_for_update()).first()
        if row is None or row.started:
            raise RematchStarted(phrase("This rematch has started already."))
        spec = turns.Spec.from_json(row.kind, row.spec)
        # Every invitation counted at once, its keys locked in one order (`limits.take_all`).
        limits.take_all([(limits.INVITES_ADDRESS, address) for address in spec.people])
        row.started = True
        turns.start_confirmed(spec, row.id)
    return row


def mail_home_for(game_id: str, address: str, client: str) -> None:
    """From a finished game's public record: mail the address its home link, where it asks for
    the rematch, if it played a person's seat in that game. The answer is the same either way
    (nobody learns who played), and asking is counted like asking for links."""
    with transaction():
        limits.take(limits.LINKS_CLIENT, client)
        seat = db.session.scalars(select(Seat).where(Seat.game_id == game_id, Seat.email == address)
                                  .limit(1)).first()
        if seat is None or not limits.allow(limits.LINKS_ADDRESS, address):
            return
        loaded = gamelog.load(game_id)
        if not loaded.over:
            return
        queue("rematch_link", seat.name, address,
              phrase("{title}: your rematch", title=loaded.engine.title),
              {"title": loaded.engine.title, "names": loaded.names}, language=seat.language)
