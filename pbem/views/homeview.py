"""A player's home: every game his address plays, in one list, from one signed link (`/h/…`).

The home is one view (`Home`), rendered as a page, as JSON and in the "your links" mail:
- games waiting for him first, the most urgent deadline first (then the longest waiting);
- then games waiting for others (for whom, since when), the longest waiting first;
- then finished games, the latest first, with the result.
Each entry links to the turn he owes (a turn link) or to his standing seat link.

It is read in a few queries whatever the number of games: his seats with each game's last
event, live seat nonce and result (`game_results`, written with a game's last event); then
every seat of those games, for the opponents' names; and his vacations (the home starts and
ends them too), during which his deadlines stand still. Only a game finished before the results
table existed is replayed for its result, and only a game with a time bank where it is his turn
reads its log (for what is left in his bank).

Opening and replacing the home link are use cases (`pbem.play.home_link`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, or_, select

from pbem import games
from pbem.extensions import db
from pbem.games import phrases
from pbem.games.base import ABORTED_REASON
from pbem.games.phrases import Phrase, phrase, phrase_n
from pbem.players import public, settings
from pbem.players.settings import Settings
from pbem.policy import clocks, links, rest, vacation
from pbem.store import gamelog
from pbem.store.models import Clock, Event, Game, GameResult, Rematch, Seat, SeatNonce, Takeover, utcnow
from pbem.views.words import listing, match_title


@dataclass(frozen=True)
class Entry:
    """One game as its player's home lists it."""
    game: str
    kind: str
    title: str
    seat: int
    name: str                     # his name in that game
    your_turn: bool
    opponents: tuple[str, ...]
    waiting_for: tuple[str, ...]  # the names the game waits for (him included: "you")
    since: datetime | None        # since when it waits (None: finished)
    deadline: datetime | None     # his deadline (a time limit), when it is his turn
    outcome: str | None           # a finished game's result, in words
    ended: datetime | None
    url: str                      # his turn link, or his standing link
    left: bool = False            # a computer plays his seat now (he resigned or ran out of time)
    rematch: str | None = None    # a finished game's rematch: "asked" (he said yes), "offered"
                                  # (another player asks him) or "started"
    rematch_game: str | None = None
    deadline_local: str | None = None
    time_left: str | None = None
    since_words: str | None = None
    record_url: str = ""
    seat_url: str = ""
    players: tuple[str, ...] = ()   # every name, seat by seat
    after_rest: bool = False        # his deadline was moved on by his rest days

    def to_json(self) -> dict:
        return {"game": self.game, "kind": self.kind, "title": self.title, "seat": self.seat,
                "your_turn": self.your_turn,
                "deadline": _iso(self.deadline), "opponents": list(self.opponents),
                "outcome": self.outcome, "url": self.url}


@dataclass(frozen=True)
class Home:
    address: str
    settings: Settings
    yours: list[Entry] = field(default_factory=list)      # waiting for him
    others: list[Entry] = field(default_factory=list)     # waiting for others
    finished: list[Entry] = field(default_factory=list)
    away: vacation.Away | None = None   # the vacation he is on now (his address's, all games)
    vacation_days_left: int = 0         # vacation days left this calendar year
    public_name: str | None = None      # the name he plays under in public (pbem.players.public)
    name_changes_at: datetime | None = None   # the earliest he may change it; None: now
    rest: rest.Rest = field(default_factory=rest.Rest)   # his rest days and quiet hours

    @property
    def games(self) -> list[Entry]:
        return [*self.yours, *self.others, *self.finished]

    @property
    def vacation_until_local(self) -> str | None:
        return settings.local_deadline(self.away.ends_at, self.settings) if self.away else None

    def to_json(self) -> dict:
        return {"address": self.address, "public_name": self.public_name,
                "games": [e.to_json() for e in self.games],
                "vacation": {"until": _iso(self.away.ends_at) if self.away else None,
                             "days_left": self.vacation_days_left},
                "rest": {"days": sorted(self.rest.days),
                         "quiet": ([t.strftime("%H:%M") for t in self.rest.quiet]
                                   if self.rest.quiet else None)}}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else _utc(moment).replace(microsecond=0).isoformat()


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


# -- the listing -----------------------------------------------------------------------------

def _last(column):
    """`column` of the seat's game's last event (NULL before the first)."""
    return (select(column).where(Event.game_id == Seat.game_id).order_by(Event.seq.desc())
            .limit(1).correlate(Seat).scalar_subquery())


def _nonce():
    return (select(SeatNonce.nonce).where(SeatNonce.game_id == Seat.game_id,
                                          SeatNonce.seat == Seat.seat)
            .order_by(SeatNonce.id.desc()).limit(1).correlate(Seat).scalar_subquery())


def _turn_start():
    """When the seat's turn began: the last event by anybody else."""
    return (select(func.max(Event.created_at)).where(
        Event.game_id == Seat.game_id, or_(Event.seat != Seat.seat, Event.seat.is_(None)))
        .correlate(Seat).scalar_subquery())


def _rows(address: str):
    query = (select(Seat.game_id, Seat.seat, Seat.name, Seat.bot, Game.kind, Game.owed,
                    Game.created_at, Game.time_limit_days, _last(Event.seq), _last(Event.owed),
                    _last(Event.created_at), _nonce(), _turn_start(), GameResult.winners,
                    GameResult.reason, GameResult.description, GameResult.said, GameResult.ended_at,
                    Rematch.id, Rematch.started, Rematch.confirmed, Clock.game_id, GameResult.places,
                    Takeover.seq, Game.rest_days)
             .join(Game, Game.id == Seat.game_id)
             .outerjoin(Clock, Clock.game_id == Seat.game_id)
             .outerjoin(GameResult, GameResult.game_id == Seat.game_id)
             .outerjoin(Takeover, (Takeover.game_id == Seat.game_id) & (Takeover.seat == Seat.seat))
             .outerjoin(Rematch, Rematch.source == Seat.game_id)
             .where(Seat.email == address))
    return db.session.execute(query).all()


def _all_seats(address: str) -> dict[str, list[tuple[int, str, str | None]]]:
    mine = select(Seat.game_id).where(Seat.email == address).scalar_subquery()
    out: dict[str, list[tuple[int, str, str | None]]] = {}
    for game_id, seat, name, bot in db.session.execute(
            select(Seat.game_id, Seat.seat, Seat.name, Seat.bot).where(Seat.game_id.in_(mine))
            .order_by(Seat.game_id, Seat.seat)):
        out.setdefault(game_id, []).append((seat, name, bot))
    return out


def _title(kind: str) -> str:
    try:
        return games.get(kind).title
    except games.UnknownGame:
        return kind


YOU = phrase("you")


def result_words(winners: list[int], seat: int, names: list[str], description: str,
                 reason: str) -> str:
    """A result as its player reads it: "You won: …", "Anna won: …", "Drawn: …"."""
    if not isinstance(description, Phrase):
        # Stored as English (game_results): said in his language where the engine's sentence
        # had no parameters ("the opponent resigned"), else left in English.
        description = Phrase(description, {})
    if reason == ABORTED_REASON:
        return phrase("Called off: {description}", description=description)
    if not winners:
        return phrase("Drawn: {description}", description=description)
    if winners == [seat]:
        return phrase("You won: {description}", description=description)
    who = listing(YOU if w == seat else names[w] for w in winners)
    if isinstance(who, Phrase):
        return phrase("{who} won: {description}", who=who, description=description).capitalized()
    return phrase("{who} won: {description}", who=who[:1].upper() + who[1:], description=description)


def build(address: str, now: datetime | None = None) -> Home:
    """The address's home (see the module's doc): two queries for all his games, two for his
    vacations (whose time his deadlines do not count); a game with a time bank where it is his
    turn reads its log for his bank."""
    address = address.strip().lower()
    now = now or utcnow()
    mine = settings.of(address)
    seats = _all_seats(address)
    away, days_left = vacation.status(address, now)
    spans = vacation.spans(address)   # his clocks stand still during every one of them
    name, changes_at = public.on_home(address, now)
    resting = mine.rest               # and during his rest days, where a game allows them
    home = Home(address, mine, away=away, vacation_days_left=days_left, public_name=name,
                name_changes_at=changes_at, rest=resting)
    for row in _rows(address):
        (game_id, seat, name, bot, kind, start_to_act, created, days, seq, to_act, last_at, nonce,
         turn_start, winners, reason, description, said, ended, rematch_id, rematch_started,
         rematch_yes, banked, places, left_at, rest_allowed) = row
        if said:   # the engine's sentence as it made it, said in the reader's language
            description = phrases.from_data(said)
        names = [n for _, n, _ in seats.get(game_id, [])]
        bots = {s: b for s, _, b in seats.get(game_id, []) if b}
        seq = seq or 0
        to_act = start_to_act if not seq else to_act
        last_at = _utc(last_at or created)
        if to_act is None or (not to_act and winners is None):   # written before `owed`, or results
            loaded = gamelog.load(game_id)
            to_act = gamelog.seats_to_act(loaded.engine, loaded.state)
            outcome = loaded.engine.outcome(loaded.state)
            if outcome is not None:
                winners, reason, description = list(outcome.winners), outcome.reason, outcome.description
                places, ended = loaded.engine.places(loaded.state), last_at
        opponents = tuple(n for i, n in enumerate(names) if i != seat)
        seat_url = links.url(links.SEAT, game_id, seat, nonce)
        common = dict(game=game_id, kind=kind, title=_title(kind), seat=seat, name=name,
                      opponents=opponents, record_url=links.record_url(game_id), seat_url=seat_url,
                      players=tuple(names))
        if winners is not None:
            home.finished.append(Entry(
                **common, your_turn=False, waiting_for=(), since=None, deadline=None,
                outcome=(result_words(winners, seat, names, description or "", reason or "")
                         if left_at is None or reason == ABORTED_REASON
                         else gamelog.left_result(left_at + 1, places[seat] if places else None,
                                                len(names))),
                ended=_utc(ended or last_at), url=seat_url, left=bool(bot),
                rematch=_rematch_state(rematch_id, rematch_started, rematch_yes, seat),
                rematch_game=rematch_id))
            continue
        your_turn = seat in to_act and not bot
        since = _utc(turn_start or created) if your_turn and seq else last_at
        deadline = None
        his_rest = resting if rest_allowed is not False else resting.without_days()
        if your_turn and banked:   # a time bank: read from the game's log (one game at a time)
            deadline = clocks.deadline(game_id, days, seat, address, since)
        elif your_turn and days:   # a time per turn, standing still while he is away or resting
            deadline = vacation.pushed(rest.stops(spans, his_rest, since), since,
                                       timedelta(days=days))
        waiting_for = tuple(phrase("{name} (computer)", name=names[s]) if s in bots
                            else YOU if s == seat else names[s] for s in to_act)
        entry = Entry(**common, your_turn=your_turn, waiting_for=waiting_for, since=since,
                      deadline=deadline, outcome=None, ended=None,
                      url=links.url(links.TURN, game_id, seat, seq, nonce) if your_turn else seat_url,
                      left=bool(bot), deadline_local=settings.local_deadline(deadline, mine),
                      after_rest=deadline is not None and his_rest.rests_between(since, deadline),
                      time_left=settings.time_left(deadline, now),
                      since_words=_ago(since, now))
        (home.yours if your_turn else home.others).append(entry)
    far = datetime.max.replace(tzinfo=UTC)
    home.yours.sort(key=lambda e: (e.deadline or far, e.since or far, e.game))
    home.others.sort(key=lambda e: (e.since or far, e.game))
    home.finished.sort(key=lambda e: (e.ended or far, e.game), reverse=True)
    return home


def links_entry(entry: Entry) -> dict:
    """A running game as the "your links" mail lists it."""
    return {"title": entry.title, "names": match_title(list(entry.players)),
            "name": entry.name, "seat_url": entry.seat_url,
            "turn_url": entry.url if entry.your_turn else None,
            "deadline_local": entry.deadline_local, "time_left": entry.time_left,
            "waiting_for": listing(entry.waiting_for)}


def _rematch_state(rematch_id: str | None, started: bool | None, confirmed: list | None,
                   seat: int) -> str | None:
    if rematch_id is None:
        return None
    if started:
        return "started"
    return "asked" if seat in (confirmed or []) else "offered"


def _ago(since: datetime, now: datetime) -> str:
    """How long a game has waited, in words: "3 days", "5 hours", "a few minutes"."""
    seconds = int((_utc(now) - since).total_seconds())
    if seconds >= 2 * 86400:
        return phrase_n("{n} day", "{n} days", seconds // 86400)
    if seconds >= 2 * 3600:
        return phrase_n("{n} hour", "{n} hours", seconds // 3600)
    if seconds >= 3600:
        return phrase("an hour")
    return phrase("a few minutes")
