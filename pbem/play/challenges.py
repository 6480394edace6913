"""Open challenges: a game offered to strangers, taken up seat by seat.

- **Post** (`post`): a player offers a game (its kind, seats, clock, options, language, rated or
  not, optionally a rating range and a least on-time record, and how many days it stays up).
  Like a game asked for on the start page, only he is mailed, to confirm it; counted like one
  (`limits.PROPOSALS_*`), and forgotten unconfirmed after PROPOSAL_HOURS. A rated challenge
  needs a public name, and a poster whom a loss on time bars from rated play may not post one.
- **Confirm** (`confirm`): from his mail; counted like confirming a game (`limits.GAMES_*`).
  The challenge is listed (`pbem.views.challengeview`) from then until it expires, days
  later.
- **Accept** (`ask_to_accept`, then `accept`): anybody gives his address; he is mailed a link
  (counted like a proposal, per client and per address, so the form mails nobody much). The
  page it opens says whether he meets the challenge's terms; its button takes a seat. The last
  seat goes to exactly one of two players confirming at once: every accept of one challenge
  holds its lock (`limits.lock`, the first write of the transaction, so SQLite's writers queue
  as PostgreSQL's do), and the seat is counted by a conditional update.
- **Start**: the accept that fills the last seat starts the game (the challenge's id, rated if
  the challenge is) in its own transaction: every player is invited as in any new game,
  counted per invited address (`limits.INVITES_ADDRESS`).
- **Withdraw** (`withdraw`): the poster, from the link in his confirmation mail or his home,
  while it has not started.

Expiry is enforced where a challenge is read to act or to be shown: `challengeview.listed` (the
list) shows none past its `expires_at`, and `ask_to_accept` and `accept` (under the challenge's
lock) refuse one; nothing needs to run at the moment it expires.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, select, update

from pbem import games
from pbem.errors import BadInput, LinkTampered, ServerError
from pbem.extensions import db
from pbem.games.errors import GameError
from pbem.games.phrases import Phrase, phrase
from pbem.mail import notify
from pbem.mail.compose import queue
from pbem.mail.people import email_address, player_name
from pbem.play import turns
from pbem.players import public, ratings, record, settings
from pbem.policy import deadlines, limits, links
from pbem.store import gamelog
from pbem.store.models import Challenge, ChallengeSeat, utcnow
from pbem.store.transaction import changed, transaction
from pbem.views.challengeview import (
    OPEN,
    STARTED,
    UNCONFIRMED,
    WITHDRAWN,
    ChallengeGone,
    Terms,
    closed,
    is_open,
    terms_of,
)

#: How long a challenge may stay up, in days (the form offers a few of them).
LONGEST_DAYS = 30
DAYS = (1, 3, 7, 14, 30)


class NotForYou(ServerError):
    """A player who does not meet a challenge's terms (or is its poster)."""
    status = 403
    title: str = phrase("Not for you")


def checked(terms: Terms) -> Terms:
    """The terms with the game's options filled in; BadInput naming what is refused."""
    try:
        engine = terms.engine()
    except games.UnknownGame:
        raise BadInput(phrase("Choose a game this server hosts.")) from None
    if not max(2, engine.min_seats) <= terms.seats <= engine.max_seats:
        raise BadInput(phrase("{game} needs {fewest} to {most} players.", game=engine.title,
                              fewest=max(2, engine.min_seats), most=engine.max_seats))
    if terms.bank and terms.time_limit_days:
        raise BadInput(phrase("A game has one clock: a time per move or a time bank, not both."))
    clock = terms.clock   # checked: BadInput naming the figures
    try:
        options = engine.normalize_options(terms.options)
        engine.start(0, options, terms.seats, None)
    except GameError as error:
        raise BadInput(error.said()) from None
    if not 1 <= terms.days <= LONGEST_DAYS:
        raise BadInput(phrase("A challenge stays up for 1 to {most} days.", most=LONGEST_DAYS))
    lowest, highest = terms.lowest, terms.highest
    if lowest is not None and highest is not None and lowest > highest:
        raise BadInput(phrase("The least rating must not be above the most."))
    if terms.on_time is not None and not 0 <= terms.on_time <= 100:
        raise BadInput(phrase("An on-time record is a share from 0 to 100 percent."))
    return Terms(terms.kind, terms.seats, options, clock.time_limit_days, clock.bank,
                 settings.checked_language(terms.language, phrase("The challenge's language")),
                 terms.rated, lowest, highest, terms.on_time, terms.days)


def _terms_json(terms: Terms) -> dict:
    return {"options": terms.options, "time_limit_days": terms.time_limit_days,
            "bank": list(terms.bank) if terms.bank else None, "language": terms.language}


NAME_NEEDED = phrase("Give your name, or choose a public name on your home page.")


def _seat_name(address: str, typed: str) -> str:
    """The name a player sits under: his public name, else the name he typed (never a part of
    his address: a game's record is public); BadInput when he has neither."""
    name = public.name_of(address)
    if name:
        return name
    if not (typed or "").strip():
        raise BadInput(NAME_NEEDED)
    return player_name(typed)


# -- posting --------------------------------------------------------------------------

def post(terms: Terms, address: str, name: str, client: str) -> Challenge:
    """A challenge offered: only its poster is mailed, to confirm it. Counted as a game asked
    for (per client and per address); BadInput (nothing written) for refused terms."""
    terms, address = checked(terms), email_address(address)
    if terms.rated and public.name_of(address) is None:
        raise BadInput(phrase("A rated challenge needs a public name: choose one on your home "
                              "page first (the mail with your links has it)."))
    if terms.rated and not record.may_play_rated(address):
        raise NotForYou(_barred(address))
    seat_name = _seat_name(address, name)
    with transaction():
        limits.take_all([(limits.PROPOSALS_CLIENT, client), (limits.PROPOSALS_ADDRESS, address)])
        row = Challenge(id=gamelog.new_id(), kind=terms.kind, seats=terms.seats, taken=1,
                        terms=_terms_json(terms), rated=terms.rated, lowest=terms.lowest,
                        highest=terms.highest, on_time=terms.on_time, days=terms.days,
                        poster=address, poster_name=seat_name, client=client[:64],
                        status=UNCONFIRMED)
        db.session.add(row)
        db.session.flush()
        _mail_poster(row, terms)
    return row


def _mail_poster(row: Challenge, terms: Terms) -> None:
    engine = terms.engine()
    queue("challenge", row.poster_name, row.poster,
          phrase("Confirm your challenge at {game}", game=engine.title),
          {"title": engine.title, "seats": row.seats, "rated": row.rated, "days": row.days,
           "clock": terms.clock.describe(), "terms": terms, "engine": engine,
           "confirm_url": links.url_of(links.CHALLENGE, row.id),
           "withdraw_url": links.url_of(links.WITHDRAW, row.id),
           "hours": current_app.config["PROPOSAL_HOURS"]},
          from_name=notify.from_name(engine.title, [row.poster_name]), language=terms.language)


def _barred(address: str) -> Phrase:
    until = record.barred_until(address)
    return phrase("A loss on time bars you from rated challenges until {date}.",
                  date=until.date().isoformat() if until else "")


def _unconfirmed_too_old(row: Challenge, now: datetime) -> bool:
    hours = float(current_app.config["PROPOSAL_HOURS"])
    return now - deadlines.utc(row.created_at) > timedelta(hours=hours)


def read_link(kind: str, token: str) -> Challenge:
    """The challenge a poster's link (confirm, withdraw) names; LinkTampered, NotFound."""
    challenge_id = links.unsign(kind, token)
    if not isinstance(challenge_id, str):
        raise LinkTampered()
    row = db.session.get(Challenge, challenge_id)
    if row is None:
        raise ChallengeGone(phrase("This challenge is no longer there."))
    return row


def confirm(challenge_id: str, now: datetime | None = None) -> Challenge:
    """The poster confirms from his mail: listed from now until it expires. Confirming twice
    is harmless; an unconfirmed one older than PROPOSAL_HOURS is gone."""
    now = now or utcnow()
    with transaction():
        row = _locked(challenge_id, now)
        if row.status == OPEN:
            return row
        if row.status != UNCONFIRMED or _unconfirmed_too_old(row, now):
            raise ChallengeGone(closed(row, now))
        limits.take_all([(limits.GAMES_ADDRESS, row.poster), (limits.GAMES_CLIENT, row.client)])
        row.status, row.expires_at = OPEN, now + timedelta(days=row.days)
    return row


def forget_unconfirmed(now: datetime | None = None) -> int:
    """Delete challenges their posters did not confirm within PROPOSAL_HOURS (the worker's
    round, with the unconfirmed games): an address that never said yes is not kept."""
    before = (now or utcnow()) - timedelta(hours=float(current_app.config["PROPOSAL_HOURS"]))
    with transaction():
        gone = changed(db.session.execute(delete(Challenge).where(
            Challenge.status == UNCONFIRMED, Challenge.created_at < before)))
    return gone


def withdraw(challenge_id: str, poster: str | None = None) -> Challenge:
    """The poster takes his challenge down (before it has started). `poster`: the address a
    home asks for (a challenge of another address is not found there)."""
    with transaction():
        row = _locked(challenge_id, utcnow())
        if poster is not None and row.poster != poster.strip().lower():
            raise ChallengeGone(phrase("This challenge is no longer there."))
        if row.status == STARTED:
            raise ChallengeGone(phrase("This challenge has started: its game is in your mailbox."))
        row.status = WITHDRAWN
    return row


def _locked(challenge_id: str, now: datetime) -> Challenge:
    """The challenge, read after taking its lock (the transaction's first write): every use
    case on one challenge runs after the one before it has committed."""
    limits.lock(f"challenge:{challenge_id}", now)
    row = db.session.get(Challenge, challenge_id, with_for_update=True, populate_existing=True)
    if row is None:
        raise ChallengeGone(phrase("This challenge is no longer there."))
    return row


# -- accepting ------------------------------------------------------------------------

def ask_to_accept(challenge_id: str, address: str, name: str, language: str | None,
                  client: str) -> None:
    """Somebody offers to take a seat: his address is mailed the link that does. The answer
    is the same for any address (the terms are checked on the page that link opens: nobody
    learns another address's record here). Counted like a game asked for."""
    address = email_address(address)
    if language:
        language = settings.checked_language(language, phrase("Your language"))
    name = player_name(name) if (name or "").strip() else ""
    row = db.session.get(Challenge, challenge_id)
    now = utcnow()
    if row is None or not is_open(row, now):
        raise ChallengeGone(closed(row, now) if row is not None
                            else phrase("This challenge is no longer there."))
    terms = terms_of(row)
    engine = terms.engine()
    with transaction():
        limits.take_all([(limits.PROPOSALS_CLIENT, client), (limits.PROPOSALS_ADDRESS, address)])
        queue("challenge_accept", name or phrase("Player"), address,
              phrase("Take up {name}'s challenge at {game}", name=row.poster_name, game=engine.title),
              {"title": engine.title, "poster": row.poster_name, "seats": row.seats,
               "rated": row.rated, "clock": terms.clock.describe(),
               "accept_url": links.url_of(links.ACCEPT, [row.id, address, name, language or ""])},
              from_name=notify.from_name(engine.title, [row.poster_name]), language=language)


@dataclass(frozen=True)
class Acceptance:
    """What an accept link carries: the challenge, and who would take a seat in it."""
    challenge: Challenge
    address: str
    name: str
    language: str | None


def read_accept_link(token: str) -> Acceptance:
    payload = links.unsign(links.ACCEPT, token,
                           max_age_seconds=int(float(current_app.config["PROPOSAL_HOURS"]) * 3600))
    if not (isinstance(payload, list) and len(payload) == 4
            and all(isinstance(part, str) for part in payload)):
        raise LinkTampered()
    row = db.session.get(Challenge, payload[0])
    if row is None:
        raise ChallengeGone(phrase("This challenge is no longer there."))
    return Acceptance(row, payload[1], payload[2], payload[3] or None)


def needs_name(address: str) -> bool:
    """Whether a player must give a name to sit down (he has no public name)."""
    return public.name_of(address) is None


def refusal(row: Challenge, address: str, now: datetime | None = None) -> Phrase | None:
    """Why the address may not take a seat in the challenge; None: it may."""
    address = address.strip().lower()
    if address == row.poster:
        return phrase("This is your own challenge: wait for others to take it up.")
    if db.session.get(ChallengeSeat, (row.id, address)) is not None:
        return phrase("You have a seat in this challenge already.")
    if row.rated and public.name_of(address) is None:
        return phrase("A rated challenge is for players with a public name: choose one on your "
                      "home page first (the mail with your links has it).")
    if row.rated and not record.may_play_rated(address, now):
        return _barred(address)
    if row.lowest is not None or row.highest is not None:
        rated = ratings.rating_of(address, row.kind)
        mine = rated.rating if rated else round(ratings.MU)
        if row.lowest is not None and mine < row.lowest or row.highest is not None and mine > row.highest:
            return phrase("This challenge is for ratings from {lowest} to {highest}; yours is "
                          "{rating}.", lowest=row.lowest if row.lowest is not None else "",
                          highest=row.highest if row.highest is not None else "", rating=mine)
    if row.on_time:
        share = record.on_time(address).percent
        if share is None or share < row.on_time:
            yours = phrase("none yet") if share is None else phrase("{share} percent", share=share)
            return phrase("This challenge asks for decisions made on time in at least {least} "
                          "percent of turns; yours: {yours}.", least=row.on_time, yours=yours)
    return None


def accept(challenge_id: str, address: str, name: str, language: str | None,
           now: datetime | None = None) -> Challenge:
    """The accepting player's button: a seat is his, and the last seat starts the game.
    ChallengeGone when it is closed (full, expired, withdrawn), NotForYou when he does not
    meet its terms, BadInput when he has neither a public name nor gave a name (`name`: the
    one his link carries, or the one typed on its page); nothing written then."""
    now = now or utcnow()
    with transaction():
        row = _locked(challenge_id, now)
        if not is_open(row, now):
            raise ChallengeGone(closed(row, now))
        refused = refusal(row, address, now)
        if refused is not None:
            raise NotForYou(refused)
        taken = db.session.execute(update(Challenge).where(
            Challenge.id == challenge_id, Challenge.status == OPEN,
            Challenge.taken < Challenge.seats).values(taken=Challenge.taken + 1))
        if changed(taken) != 1:   # (the lock makes this the second line of defence)
            raise ChallengeGone(closed(row, now))
        db.session.add(ChallengeSeat(
            challenge_id=challenge_id, address=address.strip().lower(),
            name=_seat_name(address, name), language=language, position=row.taken,
            created_at=now))
        db.session.flush()
        db.session.refresh(row)
        if row.taken >= row.seats:
            _start(row)
    return row


def _start(row: Challenge) -> None:
    """Every seat taken: the game starts (in the caller's transaction) and everybody is
    invited, each invitation counted per address."""
    terms = terms_of(row)
    seats = list(db.session.scalars(select(ChallengeSeat).where(ChallengeSeat.challenge_id == row.id)
                                    .order_by(ChallengeSeat.position)))
    players = [(row.poster_name, row.poster)] + [(s.name, s.address) for s in seats]
    spec = turns.Spec(row.kind, players, terms.options, None, terms.time_limit_days, None,
                      bank=terms.bank, languages=(terms.language, *(s.language for s in seats)),
                      rated=row.rated)
    limits.take_all([(limits.INVITES_ADDRESS, address) for _, address in players])
    turns.start_confirmed(spec, row.id)
    row.status = STARTED
