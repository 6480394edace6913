"""What anybody sees of a league (`/leagues/<id>`, page and JSON; the final mail's table):
its terms, its members, its games and its standings (`pbem.views.standings`), built once.
Public: members are their public names, never their addresses.

Also the leagues of an address for its player page (`of_address`, installed into
`playerview.LEAGUES` by the app factory), and the list of leagues (`/leagues`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select

from pbem import games
from pbem.errors import NotFound
from pbem.extensions import db
from pbem.games.base import ABORTED_REASON
from pbem.games.phrases import Phrase, phrase
from pbem.players import public
from pbem.policy import clocks, links
from pbem.policy.deadlines import utc
from pbem.store.models import GameResult, League, LeagueGame, LeagueMember
from pbem.views import playerview, standings

PROPOSED, OPEN, RUNNING, FINISHED, CANCELLED = "proposed", "open", "running", "finished", "cancelled"
SHOWN = (OPEN, RUNNING, FINISHED, CANCELLED)   # a proposed league is its creator's alone


class NoSuchLeague(NotFound):
    title = phrase("No such league")


def status_words(status: str) -> Phrase:
    return {OPEN: phrase("open: players may join until it starts"),
            RUNNING: phrase("running: its games are being played"),
            FINISHED: phrase("finished"),
            CANCELLED: phrase("cancelled: too few players by its start")}.get(status, phrase("not yet open"))


def url_of(league_id: str) -> str:
    from flask import current_app
    return f"{current_app.config['BASE_URL']}/leagues/{league_id}"


@dataclass(frozen=True)
class Played:
    """One game of the league: its players' public names and, once finished, what each scored."""
    game: str
    url: str
    names: tuple[str, ...]
    scores: tuple[str, ...] | None     # None: still running; () aborted

    def to_json(self) -> dict:
        return {"game": self.game, "url": self.url, "players": list(self.names),
                "finished": self.scores is not None, "aborted": self.scores == (),
                "points": list(self.scores) if self.scores else None}


@dataclass(frozen=True)
class Row:
    rank: int
    name: str
    played: int
    games: int
    won: int
    points: str
    tiebreak: str

    def to_json(self) -> dict:
        return {"rank": self.rank, "name": self.name, "played": self.played, "games": self.games,
                "won": self.won, "points": self.points, "tiebreak": self.tiebreak}


@dataclass(frozen=True)
class Shown:
    id: str
    name: str
    kind: str
    title: str
    status: str
    least: int
    most: int
    clock: Phrase
    rated: bool
    min_on_time: int | None
    starts_at: datetime
    members: list[str]
    table: list[Row] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)

    @property
    def url(self) -> str:
        return url_of(self.id)

    @property
    def two_players(self) -> bool:
        return games.get(self.kind).max_seats == 2

    @property
    def winners(self) -> list[str]:
        return [row.name for row in self.table if row.rank == 1] if self.status == FINISHED else []

    @property
    def open(self) -> bool:
        return self.status == OPEN

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "game": self.kind, "status": self.status,
                "players": {"least": self.least, "most": self.most}, "clock": self.clock,
                "rated": self.rated, "min_on_time": self.min_on_time,
                "starts_at": self.starts_at.isoformat(), "members": list(self.members),
                "standings": [row.to_json() for row in self.table],
                "games": [g.to_json() for g in self.played], "winners": self.winners,
                "url": self.url}


def row_of(league_id: str) -> League:
    """The league, shown to anybody; NoSuchLeague (also for one not yet confirmed)."""
    row = db.session.get(League, league_id) if len(league_id) <= 16 else None
    if row is None or row.status not in SHOWN:
        raise NoSuchLeague(phrase("There is no such league."))
    return row


def members_of(league_id: str) -> list[str]:
    """The addresses in the league, in the order they joined."""
    return list(db.session.scalars(select(LeagueMember.address).where(
        LeagueMember.league_id == league_id, LeagueMember.joined.is_(True))
        .order_by(LeagueMember.joined_at, LeagueMember.address)))


def finished_games(league_id: str) -> tuple[list[LeagueGame], dict[str, GameResult]]:
    rows = list(db.session.scalars(select(LeagueGame).where(LeagueGame.league_id == league_id)
                                   .order_by(LeagueGame.game_id)))
    results = {r.game_id: r for r in db.session.scalars(select(GameResult).where(
        GameResult.game_id.in_([g.game_id for g in rows])))} if rows else {}
    return rows, results


def _finished(game: LeagueGame, result: GameResult) -> standings.Finished:
    winners = set(result.winners or ())
    places = result.places or [1 if seat in winners else 2 for seat in range(len(game.players))]
    return standings.Finished(game.players, places, frozenset(int(s) for s in (result.left or {})))


def league(league_id: str) -> Shown:
    row = row_of(league_id)
    addresses = members_of(row.id)
    rows, results = finished_games(row.id)
    names = public.names_of({*addresses, *(a for g in rows for a in g.players)})
    name = lambda address: names.get(address, "?")   # noqa: E731 (every member has one)
    counted = [_finished(g, results[g.game_id]) for g in rows
               if g.game_id in results and results[g.game_id].reason != ABORTED_REASON]
    per_member = {a: sum(a in g.players for g in rows) for a in addresses}
    lines = standings.table(addresses, per_member, counted, name) if rows else []
    table = [Row(line.rank, name(line.player), line.played, line.games, line.won,
                 standings.said(line.points), standings.said(line.tiebreak)) for line in lines]
    played = []
    for g in rows:
        result = results.get(g.game_id)
        scores = None
        if result is not None:
            scores = () if result.reason == ABORTED_REASON else tuple(
                standings.said(s) for s in standings.shares(_finished(g, result)))
        played.append(Played(g.game_id, links.record_url(g.game_id),
                             tuple(name(a) for a in g.players), scores))
    return Shown(row.id, row.name, row.kind, playerview.title_of(row.kind), row.status, row.least,
                 row.most, clocks.parse(row.clock).describe(), row.rated, row.min_on_time,
                 utc(row.starts_at), [name(a) for a in addresses], table, played)


def _terms(r: League) -> Shown:
    return Shown(r.id, r.name, r.kind, playerview.title_of(r.kind), r.status, r.least, r.most,
                 clocks.parse(r.clock).describe(), r.rated, r.min_on_time, utc(r.starts_at), [])


def proposed(league_id: str) -> Shown:
    """A league's terms whatever its status (its creator's confirmation page: he holds the
    signed link); NoSuchLeague when there is none (forgotten)."""
    row = db.session.get(League, league_id) if len(league_id) <= 16 else None
    if row is None:
        raise NoSuchLeague(phrase("There is no such league: unconfirmed, it was forgotten at its "
                                  "start date."))
    return _terms(row)


def listing() -> list[Shown]:
    """Open leagues first (soonest start first), then running, then the last finished."""
    rows = db.session.scalars(select(League).where(League.status.in_((OPEN, RUNNING, FINISHED)))
                              .order_by(League.starts_at.desc()).limit(100))
    order = {OPEN: 0, RUNNING: 1, FINISHED: 2}
    chosen = sorted(rows, key=lambda r: (order[r.status], utc(r.starts_at) if r.status == OPEN
                                         else -utc(r.starts_at).timestamp()))
    return [_terms(r) for r in chosen]


def of_address(address: str) -> list[dict]:
    """The leagues an address is in, for its player page: name, link, status, and whether he
    won it (first place, alone or shared, in a finished league)."""
    rows = db.session.scalars(select(League).join(LeagueMember, LeagueMember.league_id == League.id)
                              .where(LeagueMember.address == address.strip().lower(),
                                     LeagueMember.joined.is_(True), League.status.in_(SHOWN))
                              .order_by(League.starts_at.desc()))
    listed = []
    mine = public.name_of(address)
    for row in rows:
        won = row.status == FINISHED and mine in league(row.id).winners
        listed.append({"name": row.name, "url": url_of(row.id), "status": row.status,
                       "winner": won})
    return listed


def install() -> None:
    """The player pages list their leagues (called by the app factory, once per process)."""
    if of_address not in playerview.LEAGUES:
        playerview.LEAGUES.append(of_address)
