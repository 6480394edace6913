"""What anybody sees of a player with a public name (`/p/<name>`), built once and rendered as a
page or JSON; and a game's ladder (`/ratings/<game>`). Public: no address appears in either,
the player is his public name, his opponents their seat names as the public records show them.

`LEAGUES`: the functions that list the leagues an address is in ({"name", "url", ...} each);
the leagues register theirs, so this floor does not import theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import func, select

from pbem import games
from pbem.errors import NotFound
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.players import public, ratings, record
from pbem.policy import links
from pbem.store.models import Game, GameResult, Seat

#: Where a player page finds the leagues of an address: each function answers a list of dicts.
LEAGUES: list[Callable[[str], list[dict]]] = []


class NoSuchPlayer(NotFound):
    title = phrase("No such player")


@dataclass(frozen=True)
class Current:
    game: str
    kind: str
    title: str
    players: tuple[str, ...]
    url: str

    def to_json(self) -> dict:
        return {"game": self.game, "kind": self.kind, "title": self.title,
                "players": list(self.players), "url": self.url}


@dataclass(frozen=True)
class Player:
    name: str
    ratings: dict[str, ratings.Rating]
    played: int
    finished: int
    on_time: record.OnTime
    current: list[Current] = field(default_factory=list)
    leagues: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        share = self.on_time.share
        return {"name": self.name,
                "ratings": {game: {"rating": r.rating, "deviation": r.deviation, "games": r.games}
                            for game, r in self.ratings.items()},
                "games": {"played": self.played, "finished": self.finished},
                "on_time": {"share": None if share is None else round(share, 3),
                            "decisions": self.on_time.decisions, "missed": self.on_time.missed,
                            "lost_on_time": self.on_time.lost_on_time, "left": self.on_time.left},
                "current": [c.to_json() for c in self.current],
                "leagues": list(self.leagues)}


def title_of(kind: str) -> str:
    try:
        return games.get(kind).title
    except games.UnknownGame:
        return kind


def _current(address: str) -> list[Current]:
    """His running games, newest first, with every seat's name (as the public record shows)."""
    running = (select(Game.id, Game.kind).join(Seat, Seat.game_id == Game.id)
               .where(Seat.email == address,
                      ~select(GameResult.game_id).where(GameResult.game_id == Game.id).exists())
               .order_by(Game.created_at.desc(), Game.id))
    rows = db.session.execute(running).all()
    names: dict[str, list[str]] = {}
    if rows:
        for game_id, name in db.session.execute(
                select(Seat.game_id, Seat.name).where(Seat.game_id.in_([r[0] for r in rows]))
                .order_by(Seat.game_id, Seat.seat)):
            names.setdefault(game_id, []).append(name)
    return [Current(game_id, kind, title_of(kind), tuple(names.get(game_id, ())),
                    links.record_url(game_id)) for game_id, kind in rows]


def _counts(address: str) -> tuple[int, int]:
    played = db.session.scalar(select(func.count(func.distinct(Seat.game_id)))
                               .where(Seat.email == address)) or 0
    finished = db.session.scalar(select(func.count(func.distinct(Seat.game_id)))
                                 .join(GameResult, GameResult.game_id == Seat.game_id)
                                 .where(Seat.email == address)) or 0
    return played, finished


def player(name: str) -> Player:
    """The player page of a public name (any case); NoSuchPlayer when nobody has it."""
    address = public.address_of(name)
    if address is None:
        raise NoSuchPlayer(phrase("Nobody plays under the public name {name}.", name=name[:40]))
    played, finished = _counts(address)
    return Player(public.name_of(address) or name, ratings.ratings_of(address), played, finished,
                  record.on_time(address), _current(address),
                  [league for listing in LEAGUES for league in listing(address)])


@dataclass(frozen=True)
class Ladder:
    game: str
    title: str
    rungs: list[ratings.Rung]

    def to_json(self) -> dict:
        return {"game": self.game, "title": self.title,
                "ladder": [{"name": r.name, "rating": r.rating, "deviation": r.deviation,
                            "games": r.games, "computer": r.computer} for r in self.rungs]}


def ladder(game: str) -> Ladder:
    """A game's ladder; NotFound for a game this server does not have."""
    if game not in games.INSTALLED:
        raise NotFound(phrase("There is no such game."))
    return Ladder(game, title_of(game), ratings.ladder(game))
