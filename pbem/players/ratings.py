"""Ratings: how strong each player is at each game, moved by the results of rated games.

One library for every game: OpenSkill's Plackett-Luce model (`openskill` on PyPI, 6.x,
maintained, typed, pure Python). It rates two players and three or four alike, knows shared
places (a draw, a shared win), and its (mu, sigma) read like Glicko's rating and deviation on
the scale we set (1500 and 350). The Glicko-2 packages on PyPI (`glicko2` 2.1.0, Jan 2024, a
single-file port; a few newer one-person packages) are not kept well enough to depend on, and
one model for every game means one ladder's numbers mean the same thing in each game.

- A game counts when it was created rated (`games.rated`) and finished; aborted (by the
  operator, or a declined invitation) it does not count.
- Places as the rules say (`GameResult.places`: 1, 2, 2, 4): a draw or a shared win is a shared
  place. A player who left (resigned, ran out of time: `GameResult.left`) loses: he is placed
  below everyone, and the computer that played his seat on is not rated for that game.
- A computer playing a seat from the start is rated like a person, under its level
  (`computer:<level>`, named "Computer (level)" on the ladder).
- People are rated by address; only those with a public name are shown (`ladder`, player
  pages). The address is never shown.
- Live: the rows change in the flush that writes the game's `GameResult` (the transaction of
  its last event: a session listener, as the store below may not call up to here).
  `rebuild()` recomputes every row from the finished rated games in the order they ended, with
  the same function, so a fix to the formula never loses history.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce
from sqlalchemy import delete, event, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pbem.extensions import db
from pbem.games.base import ABORTED_REASON
from pbem.games.phrases import phrase
from pbem.players import public
from pbem.store.models import Game, GameResult, Seat, utcnow
from pbem.store.models import Rating as RatingRow
from pbem.store.transaction import transaction

#: The scale: a new player's rating and deviation (Glicko's), the performance spread (beta) and
#: the deviation added before each game (tau), so a rating keeps moving.
MU, SIGMA, BETA, TAU = 1500.0, 350.0, 175.0, 5.0
COMPUTER = "computer:"


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True)
class Rating:
    rating: int
    deviation: int
    games: int


@dataclass(frozen=True)
class Rung:
    """One line of a ladder: a public name (or a computer's), never an address."""
    name: str
    rating: int
    deviation: int
    games: int
    computer: bool = False


def computer_player(level: str) -> str:
    """How a computer of that level is rated (`rating_of(computer_player("normal"), game)`)."""
    return COMPUTER + level


def computer_name(level: str) -> str:
    return phrase("Computer ({level})", level=level)


def _shown(row: RatingRow) -> Rating:
    return Rating(round(row.mu), round(row.sigma), row.games)


def rating_of(address: str, game: str) -> Rating | None:
    """The address's rating at a game (`computer:<level>` for a computer); None: unrated."""
    row = db.session.get(RatingRow, (address.strip().lower(), game))
    return _shown(row) if row is not None else None


def computers() -> dict[tuple[str, str], Rating]:
    """{(level, game): rating} of every computer rated at any game: one query (the start page
    shows them beside the levels)."""
    rows = db.session.scalars(select(RatingRow).where(RatingRow.player.startswith(COMPUTER)))
    return {(row.player[len(COMPUTER):], row.game): _shown(row) for row in rows}


def ratings_of(address: str) -> dict[str, Rating]:
    """{game: rating} of every game the address is rated at."""
    rows = db.session.scalars(select(RatingRow).where(RatingRow.player == address.strip().lower())
                              .order_by(RatingRow.game))
    return {row.game: _shown(row) for row in rows}


def ladder(game: str) -> list[Rung]:
    """The game's ladder, strongest first: the players with a public name and the computers."""
    rows = list(db.session.scalars(select(RatingRow).where(RatingRow.game == game)
                                   .order_by(RatingRow.mu.desc(), RatingRow.player)))
    names = public.names_of(r.player for r in rows if not r.player.startswith(COMPUTER))
    rungs = []
    for row in rows:
        if row.player.startswith(COMPUTER):
            rungs.append(Rung(computer_name(row.player[len(COMPUTER):]), round(row.mu),
                              round(row.sigma), row.games, computer=True))
        elif row.player in names:
            rungs.append(Rung(names[row.player], round(row.mu), round(row.sigma), row.games))
    return rungs


def _players(session: Session, result: GameResult) -> list[tuple[str, int]]:
    """(player, place) of every seat that counts; leavers placed below everyone."""
    seats = session.execute(select(Seat.seat, Seat.email, Seat.bot)
                            .where(Seat.game_id == result.game_id).order_by(Seat.seat)).all()
    winners = set(result.winners or ())
    places = result.places or [1 if s.seat in winners else 2 for s in seats]
    left = {int(seat) for seat in (result.left or {})}
    last = max(places, default=1) + 1
    counted = []
    for seat, email, bot in seats:
        if seat in left:
            counted.append((email.strip().lower(), last))
        elif bot:
            counted.append((computer_player(bot), places[seat]))
        else:
            counted.append((email.strip().lower(), places[seat]))
    keys = [player for player, _ in counted]
    # Two computers of one level in a game would play themselves: neither counts.
    return [(player, place) for player, place in counted if player and keys.count(player) == 1]


def rate(session: Session, result: GameResult) -> None:
    """Move the ratings of a finished game's players (nothing when it does not count)."""
    game = session.get(Game, result.game_id)
    if game is None or not game.rated or result.reason == ABORTED_REASON:
        return
    players = _players(session, result)
    if len(players) < 2 or all(p.startswith(COMPUTER) for p, _ in players):
        return
    rows = [_locked(session, player, game.kind) for player, _ in players]
    teams = [[model().rating(mu=row.mu, sigma=row.sigma)] for row in rows]
    after = model().rate(teams, ranks=[float(place) for _, place in players])
    now = utcnow()
    for row, [rated] in zip(rows, after):
        row.mu, row.sigma, row.games, row.updated_at = rated.mu, rated.sigma, row.games + 1, now


def _locked(session: Session, player: str, game: str) -> RatingRow:
    """The player's row, made at the start of the scale if he has none, locked until the
    commit: two games of his ending at once move it one after the other (an upsert, so
    neither fails on the first row)."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    session.execute(insert(RatingRow).values(player=player, game=game, mu=MU, sigma=SIGMA, games=0,
                                             updated_at=utcnow()).on_conflict_do_nothing())
    row = session.get(RatingRow, (player, game), with_for_update=True, populate_existing=True)
    assert row is not None
    return row


def install(session_class) -> None:
    """Move ratings with every flush that writes a result, in sessions of this class (called by
    the app factory, once per process, as `pbem.policy.due.install`)."""
    if not event.contains(session_class, "before_flush", _on_flush):
        event.listen(session_class, "before_flush", _on_flush)


def _on_flush(session: Session, _context, _instances) -> None:
    """A game's result being written: its ratings move in the same flush and transaction."""
    for result in [o for o in session.new if isinstance(o, GameResult)]:
        with session.no_autoflush:
            rate(session, result)


def rebuild() -> int:
    """Every rating recomputed from the finished rated games, in the order they ended; how
    many games counted."""
    with transaction():
        db.session.execute(delete(RatingRow))
        results = db.session.scalars(select(GameResult).join(Game, Game.id == GameResult.game_id)
                                     .where(Game.rated.is_(True))
                                     .order_by(GameResult.ended_at, GameResult.game_id)).all()
        session = db.session()
        with session.no_autoflush:
            for result in results:
                rate(session, result)
                session.flush()
    return len(results)
