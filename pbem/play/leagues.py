"""Leagues by mail: slow tournaments whose games are ordinary games.

A league has a game, a size (at least `least`, at most `most` players), a clock, rated or not,
a start date and, if its creator wants, a minimum on-time record (`pbem.players.record`). Each
decision below owns its transaction; the web, the command line and the worker only translate.

- **Created** by the operator (`create`, open at once) or by a player with a public name from
  his home (`propose`: he confirms from the mail, `confirm`, and is its first member).
- **Joined** from its public page until it starts: `ask` mails the address a one-use link
  (`links.LEAGUE_JOIN`, a ticket in `league_members`); `join` spends it (the address must have
  a public name, chosen there if it has none, and meet the league's minimum); `leave` before
  the start. Asking and proposing are counted like games asked for on the start page.
- **Started** at its start date by the worker's round (`tend`, from `reminders.run`; also
  `flask league tend`): with enough members, its games are created through the new-game path
  (`turns.start_confirmed`: the usual invitations), pairings from `pbem.play.pairings`, and each
  member gets one mail listing his games; with too few it is cancelled and its members told.
  Invitations to a league's games are not counted against INVITES_PER_ADDRESS_PER_DAY: the
  player asked for them by joining.
- **Finished** by the same round once every game of it has ended: every member gets the table
  (`pbem.views.standings`). A player who leaves a game loses it (the game's own rules: he is
  placed last); an aborted game counts for nobody.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import delete, exists, func, select

from pbem import games
from pbem.errors import BadInput, LinkTampered, NotFound, ServerError
from pbem.extensions import db
from pbem.games.errors import GameError
from pbem.games.phrases import phrase
from pbem.mail import leagues as mails
from pbem.mail.compose import clean
from pbem.mail.people import email_address
from pbem.play import pairings, turns
from pbem.players import public, ratings, record
from pbem.policy import clocks, limits, links
from pbem.policy.deadlines import utc
from pbem.store import gamelog
from pbem.store.models import GameResult, League, LeagueGame, LeagueMember, utcnow
from pbem.store.transaction import transaction
from pbem.views.leagueview import CANCELLED, FINISHED, OPEN, PROPOSED, RUNNING

MOST_PLAYERS = 12          # a round robin of 12: 66 games, 11 each at once
LONGEST_WAIT = timedelta(days=180)   # the latest start date, from today


class LeagueClosed(ServerError):
    """Joining or leaving a league that has started (or ended)."""
    status, title = 409, phrase("Joining is closed")


class TicketGone(NotFound):
    """A join link spent (he left) or replaced (he asked again)."""
    status, title = 410, phrase("This link is used up")


@dataclass(frozen=True)
class Terms:
    """A league as asked for: checked by `checked`."""
    name: str
    kind: str
    least: int
    most: int
    starts_at: datetime
    clock: str = "none"
    rated: bool = False
    min_on_time: int | None = None
    options: dict | None = None


def start_of(text: str) -> datetime:
    """A start date as typed (2026-12-01, or a moment in ISO form): midnight UTC of a date."""
    text = (text or "").strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(), tzinfo=utc(utcnow()).tzinfo)
        return utc(datetime.fromisoformat(text))
    except ValueError:
        raise BadInput(phrase("The start date {date} is not a date: write it as 2026-12-01.",
                              date=repr(text[:30]))) from None


def checked(terms: Terms, now: datetime | None = None) -> Terms:
    """The terms with the name cleaned, the options filled in and the clock spelled; BadInput
    naming what is refused."""
    name = clean(terms.name, 60)
    if len(name) < 2:
        raise BadInput(phrase("A league needs a name of at least 2 characters."))
    try:
        engine = games.get(terms.kind)
        options = engine.normalize_options(terms.options or {})
    except games.UnknownGame:
        raise BadInput(phrase("There is no such game.")) from None
    except GameError as error:
        raise BadInput(error.said()) from None
    fewest = 3 if engine.max_seats > 2 else 2
    if not fewest <= terms.least <= terms.most <= MOST_PLAYERS:
        raise BadInput(phrase("A league of {game} takes {fewest} to {most} players, its least "
                              "no more than its most.", game=engine.title, fewest=fewest,
                              most=MOST_PLAYERS))
    if terms.min_on_time is not None and not 0 <= terms.min_on_time <= 100:
        raise BadInput(phrase("A minimum on-time record is a percentage, 0 to 100."))
    now = now or utcnow()
    starts = utc(terms.starts_at)
    if not now < starts <= now + LONGEST_WAIT:
        raise BadInput(phrase("A league starts after today and within {days} days.",
                              days=LONGEST_WAIT.days))
    return Terms(name, engine.name, terms.least, terms.most, starts,
                 clocks.parse(terms.clock).spelled(), terms.rated, terms.min_on_time, options)


def _row(terms: Terms, status: str, creator: str | None, client: str) -> League:
    row = League(id=gamelog.new_id(), name=terms.name, kind=terms.kind, options=terms.options or {},
                 least=terms.least, most=terms.most, clock=terms.clock, rated=terms.rated,
                 min_on_time=terms.min_on_time, starts_at=terms.starts_at, status=status,
                 creator=creator, client=client[:64])
    db.session.add(row)
    db.session.flush()
    return row


# -- created ------------------------------------------------------------------------------

def create(terms: Terms) -> League:
    """The operator's league: open at once (he is no member of it)."""
    terms = checked(terms)
    with transaction():
        return _row(terms, OPEN, None, "")


def propose(terms: Terms, creator: str, client: str) -> League:
    """A player's league, asked for from his home: he is mailed a link to confirm it. He needs
    a public name (his league shows it). Counted per client and per address."""
    terms, creator = checked(terms), email_address(creator)
    if public.name_of(creator) is None:
        raise BadInput(phrase("Choose a public name first: a league shows its players by it."))
    if terms.rated:
        _not_barred(creator)
    with transaction():
        limits.take_all([(limits.LEAGUES_CLIENT, client), (limits.LEAGUES_ADDRESS, creator)])
        row = _row(terms, PROPOSED, creator, client)
        mails.confirm_league(row)
    return row


def _locked(league_id: str) -> League:
    row = db.session.scalars(select(League).where(League.id == league_id).with_for_update()).first()
    if row is None:
        raise NotFound(phrase("There is no such league."))
    return row


def confirm(league_id: str, now: datetime | None = None) -> League:
    """The creator's yes: the league opens, with him as its first member."""
    now = now or utcnow()
    with transaction():
        row = _locked(league_id)
        if row.status != PROPOSED:
            return row    # (a second click: it is open already)
        if utc(row.starts_at) <= now:
            raise LeagueClosed(phrase("This league's start date has passed: start another one "
                                      "from your home."))
        row.status = OPEN
        assert row.creator is not None
        db.session.add(LeagueMember(league_id=row.id, address=row.creator, ticket=_ticket(),
                                    joined=True, asked_at=now, joined_at=now))
    return row


def _ticket() -> str:
    return secrets.token_urlsafe(12)


# -- joined, left -------------------------------------------------------------------------

def _still_open(row: League, now: datetime) -> None:
    if row.status != OPEN or utc(row.starts_at) <= now:
        raise LeagueClosed(phrase("This league has started (or ended): joining and leaving are "
                                  "closed."))


def ask(league_id: str, address: str, client: str, now: datetime | None = None) -> None:
    """Someone typed an address on the league's page: it is mailed a link to join (anew, with
    a new ticket, if it asked before; a member is mailed his link again). The answer is the
    same whoever the address is."""
    now, address = now or utcnow(), email_address(address)
    with transaction():
        row = db.session.get(League, league_id)
        if row is None or row.status == PROPOSED:
            raise NotFound(phrase("There is no such league."))
        _still_open(row, now)
        limits.take_all([(limits.LEAGUES_CLIENT, client), (limits.LEAGUES_ADDRESS, address)])
        member = db.session.get(LeagueMember, (league_id, address))
        if member is None:
            member = LeagueMember(league_id=league_id, address=address, ticket=_ticket(),
                                  joined=False, asked_at=now)
            db.session.add(member)
        elif not member.joined:
            member.ticket, member.asked_at = _ticket(), now   # the older link dies
        db.session.flush()
        mails.join_link(row, member, has_name=public.name_of(address) is not None)


def read_link(token: str) -> tuple[League, LeagueMember]:
    """The league and the member (or asker) a join link names; LinkTampered, TicketGone."""
    payload = links.unsign(links.LEAGUE_JOIN, token)
    if not (isinstance(payload, list) and len(payload) == 2
            and all(isinstance(p, str) for p in payload)):
        raise LinkTampered()
    row = db.session.get(League, payload[0])
    member = db.session.scalars(select(LeagueMember).where(
        LeagueMember.league_id == payload[0], LeagueMember.ticket == payload[1])).first()
    if row is None or member is None:
        raise TicketGone(phrase("This link is used up: you left the league, or asked to join "
                                "again (the newer mail has the link that works)."))
    return row, member


def join(token: str, name: str | None = None, now: datetime | None = None) -> League:
    """The asker's yes from his mail: he is in. Without a public name he chooses one here
    (`name`). Refused: the league closed or full, his on-time record below its minimum, a
    rated league while a loss on time bars him from rated play."""
    now = now or utcnow()
    row, member = read_link(token)
    if member.joined:
        return row
    _still_open(row, now)
    if public.name_of(member.address) is None:
        if not (name or "").strip():
            raise BadInput(phrase("Choose a public name to join: the league shows its players "
                                  "by it, never by their addresses."))
        public.choose(member.address, name or "", now)   # (its own decision, and transaction)
    if row.rated:
        _not_barred(member.address, now)
    share = record.on_time(member.address).percent
    if row.min_on_time is not None and share is not None and share < row.min_on_time:
        raise BadInput(phrase("This league asks for {least}% of decisions on time; your record "
                              "is {share}%.", least=row.min_on_time, share=share))
    with transaction():
        row = _locked(row.id)
        _still_open(row, now)
        joined = db.session.scalar(select(func.count()).select_from(LeagueMember).where(
            LeagueMember.league_id == row.id, LeagueMember.joined.is_(True))) or 0
        if joined >= row.most:
            raise BadInput(phrase("This league is full: it takes {most} players.", most=row.most))
        again = db.session.get(LeagueMember, (row.id, member.address), populate_existing=True)
        if again is None or again.ticket != member.ticket:   # he left (or asked anew) meanwhile
            raise TicketGone(phrase("This link is used up."))
        again.joined, again.joined_at = True, now
    return row


def _not_barred(address: str, now: datetime | None = None) -> None:
    """A loss on time bars rated leagues as it bars rated challenges (`RATED_BAN_DAYS`)."""
    until = record.barred_until(address, now)
    if until is not None:
        raise BadInput(phrase("A loss on time bars you from rated leagues until {date}.",
                              date=until.date().isoformat()))


def leave(token: str, now: datetime | None = None) -> League:
    """A member leaves before the start (his link is spent with it); afterwards he leaves a
    game by resigning it, which loses it."""
    now = now or utcnow()
    row, member = read_link(token)
    with transaction():
        row = _locked(row.id)
        if row.status == RUNNING:
            raise LeagueClosed(phrase("This league has started: to leave it, resign your games "
                                      "(each one counts as lost)."))
        _still_open(row, now)
        db.session.execute(delete(LeagueMember).where(LeagueMember.league_id == row.id,
                                                      LeagueMember.address == member.address))
    return row


# -- started, cancelled, finished: the worker's round -------------------------------------

@dataclass
class Tended:
    started: list[str]
    cancelled: list[str]
    finished: list[str]


def tend(now: datetime | None = None) -> Tended:
    """Leagues whose start date came start (or are cancelled), proposals never confirmed by
    then are forgotten, and leagues whose games have all ended finish."""
    now = now or utcnow()
    done = Tended([], [], [])
    with transaction():
        stale = select(League.id).where(League.status == PROPOSED, League.starts_at <= now)
        db.session.execute(delete(LeagueMember).where(LeagueMember.league_id.in_(stale)))
        db.session.execute(delete(League).where(League.status == PROPOSED, League.starts_at <= now))
    due = db.session.scalars(select(League.id).where(League.status == OPEN, League.starts_at <= now)
                             .order_by(League.starts_at)).all()
    for league_id in due:
        (done.started if start(league_id, now) else done.cancelled).append(league_id)
    unfinished = (select(LeagueGame.game_id).where(
        LeagueGame.league_id == League.id,
        ~exists().where(GameResult.game_id == LeagueGame.game_id)).exists())
    ended = db.session.scalars(select(League.id).where(League.status == RUNNING, ~unfinished)).all()
    for league_id in ended:
        if finish(league_id, now):
            done.finished.append(league_id)
    return done


def _ordered(row: League, members: list[str]) -> list[str]:
    """A game for more than two's members strongest first (their rating at it; unrated: a new
    player's)."""
    def strength(address: str) -> float:
        rated = ratings.rating_of(address, row.kind)
        return rated.rating if rated is not None else ratings.MU
    return sorted(members, key=lambda a: -strength(a))   # (stable: joined first among equals)


def _tables(row: League, members: list[str]) -> list[tuple[list[str], int | None]]:
    """(players seat by seat, who starts) of every game: a round robin, or groups of 3-4 for a
    game of more than two (who starts drawn)."""
    if games.get(row.kind).max_seats == 2:
        return [([first, second], 0) for first, second in pairings.round_robin(members)]
    return [(table, None) for table in pairings.groups(_ordered(row, members))]


def start(league_id: str, now: datetime | None = None) -> bool:
    """At the start date: its games created and everybody mailed (True), or, with fewer than
    its least, cancelled and its members told (False)."""
    now = now or utcnow()
    with transaction():
        row = _locked(league_id)
        if row.status != OPEN:
            return row.status == RUNNING
        members = [a for a in db.session.scalars(select(LeagueMember.address).where(
            LeagueMember.league_id == row.id, LeagueMember.joined.is_(True))
            .order_by(LeagueMember.joined_at, LeagueMember.address))]
        db.session.execute(delete(LeagueMember).where(LeagueMember.league_id == row.id,
                                                      LeagueMember.joined.is_(False)))
        if len(members) < row.least:
            row.status, row.ended_at = CANCELLED, now
            mails.cancelled(row, members)
            return False
        names = public.names_of(members)
        clock = clocks.parse(row.clock)
        made = []
        for players, first in _tables(row, members):
            spec = turns.Spec(row.kind, [(names.get(a, "?"), a) for a in players],
                              dict(row.options), first, clock.time_limit_days, bank=clock.bank,
                              rated=row.rated)
            game_id = gamelog.new_id()
            turns.start_confirmed(spec, game_id)   # the usual invitations
            db.session.add(LeagueGame(game_id=game_id, league_id=row.id, players=players))
            made.append((game_id, players))
        row.status = RUNNING
        db.session.flush()
        mails.started(row, members, made)
    return True


def finish(league_id: str, now: datetime | None = None) -> bool:
    """Every game ended: the league is finished and every member mailed the table."""
    with transaction():
        row = _locked(league_id)
        if row.status != RUNNING:
            return False
        row.status, row.ended_at = FINISHED, now or utcnow()
        db.session.flush()
        mails.final(row)
    return True
