"""What each address chose on its home: its time zone, its language, how it wants mail, and
whether a move it mailed is confirmed by a short answer. Stored per address
(`address_settings`); an address without a row has the defaults.

- The time zone (an IANA name, read with zoneinfo) shows deadlines in the player's own time:
  `local_deadline(when, settings)` is the one function pages and mails call for that.
- The language: what every seat of the address speaks (pbem.i18n); changing it on the home
  changes it in all his games, and a new game's seat starts in it unless its creator chose one.
- Mail: a mail for every turn (EACH, the default), or one daily digest (DIGEST) of the games
  waiting for him. With DIGEST his turn mails are still written to the outbox, as HELD (never
  sent on their own); the digest (`pbem.jobs.digest`) lists his waiting games and marks them
  DIGESTED in the transaction that queues it. Going back to EACH releases the held ones.
- The home link signs (address, `home_nonce`); a new nonce kills the old link.
- Rest days and quiet hours (`change_rest`; what they do: `pbem.policy.rest`).
"""

from __future__ import annotations

import functools
import zoneinfo
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel.dates import format_datetime
from sqlalchemy import select, update

from pbem import i18n
from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase, phrase_n
from pbem.policy import links, rest
from pbem.store.gamelog import new_nonce, still_his
from pbem.store.models import PENDING, AddressSettings, Game, Mail, Seat, utcnow
from pbem.store.transaction import changed, transaction

EACH, DIGEST = "each", "digest"
MAIL_MODES = {EACH: phrase("A mail for every turn"),
              DIGEST: phrase("One daily digest of the games waiting for me")}
#: Languages a player may choose, each named in itself.
LANGUAGES = i18n.LANGUAGES
#: Mail statuses of a digest player's turn mails: kept in the outbox, never sent on their own.
HELD, DIGESTED = "held", "digested"
#: The kinds of mail a digest holds back (everything else goes out at once).
HELD_KINDS = ("turn",)


@dataclass(frozen=True)
class Settings:
    address: str
    time_zone: str = "UTC"
    language: str = "en"
    mail_mode: str = EACH
    confirm_replies: bool = False
    home_nonce: str = ""
    # His rest days and quiet hours (`pbem.policy.rest`), read with the rest of the row; as
    # they are kept in the time zone above, settings equal in the rest are equal.
    rest: rest.Rest = field(default=rest.Rest(), compare=False)

    @property
    def zone(self) -> ZoneInfo:
        return _zone(self.time_zone)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _of_row(row: AddressSettings) -> Settings:
    return Settings(row.address, row.time_zone, row.language, row.mail_mode,
                    bool(row.confirm_replies), row.home_nonce or "",
                    rest.stored(row.rest_days, row.quiet_from, row.quiet_until, row.time_zone))


def of(address: str) -> Settings:
    """The address's settings (the defaults without a row)."""
    address = address.strip().lower()
    row = db.session.get(AddressSettings, address)
    return _of_row(row) if row is not None else Settings(address)


#: A deadline as each language writes it (Babel's patterns; English keeps its own below):
#: "Di., 24. Nov. 2026, 18:00 MEZ", "út 24. listopadu 2026, 18:00 SEČ".
DEADLINE_FORMATS = {"de": "EEE, d. MMM y, HH:mm zzz", "cs": "EEE d. MMMM y, H:mm zzz"}


def local_deadline(when: datetime | None, settings: Settings | None) -> str | None:
    """A deadline in the player's own time zone and the language of the moment, for pages
    and mails: "Tue 24 Nov 2026, 18:00 CET". None stays None (no deadline)."""
    if when is None:
        return None
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    zone = settings.zone if settings is not None else ZoneInfo("UTC")
    pattern = DEADLINE_FORMATS.get(i18n.current())
    if pattern is not None:
        return format_datetime(when, format=pattern, tzinfo=zone, locale=i18n.current())
    # English as it always was (Babel would write "+0100" where the zone has no English name)
    local = when.astimezone(zone)
    return local.strftime("%a %d %b %Y, %H:%M ") + (local.tzname() or "")


def time_left(when: datetime | None, now: datetime | None = None) -> str | None:
    """How long until a deadline, in words: "2 days 5 hours", "40 minutes", "overdue"."""
    if when is None:
        return None
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    seconds = int((when - (now or utcnow())).total_seconds())
    if seconds <= 0:
        return phrase("overdue")
    days, hours, minutes = seconds // 86400, seconds % 86400 // 3600, seconds % 3600 // 60
    if days:
        counted = phrase_n("{n} day", "{n} days", days)
        return phrase("{days} {hours}", days=counted,
                      hours=phrase_n("{n} hour", "{n} hours", hours)) if hours else counted
    if hours:
        counted = phrase_n("{n} hour", "{n} hours", hours)
        return phrase("{hours} {minutes} min", hours=counted, minutes=minutes) if minutes else counted
    return phrase_n("{n} minute", "{n} minutes", max(minutes, 1))


#: The areas of the IANA zones of places (`Europe/Prague`); the others are old aliases kept for
#: compatibility (`US/Eastern`, `GB`, `Etc/GMT+5`, `SystemV/...`).
AREAS = ("Africa/", "America/", "Antarctica/", "Arctic/", "Asia/", "Atlantic/", "Australia/",
         "Europe/", "Indian/", "Pacific/")


@functools.cache
def _listed_zones() -> frozenset[str] | None:
    """The zones the time zone database lists by country (`zone.tab`: one name per place, no
    old alias such as `Asia/Calcutta` or `Europe/Kiev`); None where it has no such file."""
    for folder in zoneinfo.TZPATH:
        try:
            lines = (Path(folder) / "zone.tab").read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        return frozenset(line.split("\t")[2] for line in lines
                         if line and not line.startswith("#") and line.count("\t") >= 2)
    return None


def zones() -> list[str]:
    """The IANA zones the form lists, sorted: places only, no old alias. (Any zone the
    database knows is still accepted, `checked`: a choice made before stays valid.)"""
    known = available_timezones()
    listed = _listed_zones()
    return sorted(z for z in known if z.startswith(AREAS) and (listed is None or z in listed))


def checked(time_zone: str, language: str, mail_mode: str) -> tuple[str, str, str]:
    """The choices as stored; BadInput names the one refused."""
    time_zone = (time_zone or "").strip()
    if time_zone != "UTC" and time_zone not in available_timezones():
        raise BadInput(phrase("{zone} is not a time zone; choose one like Europe/Berlin.",
                              zone=repr(time_zone[:60])))
    language = checked_language(language)
    if mail_mode not in MAIL_MODES:
        raise BadInput(phrase("Choose a mail for every turn, or a daily digest."))
    return time_zone, language, mail_mode


def change(address: str, time_zone: str, language: str, mail_mode: str,
           confirm_replies: bool) -> Settings:
    """Store an address's choices. Going back from the digest to a mail per turn releases the
    turn mails held for the digest (due now), so none is lost. A new language is every one of
    his seats' language from now on."""
    time_zone, language, mail_mode = checked(time_zone, language, mail_mode)
    with transaction():
        row = _row(address, lock=True)
        if language_of(row.address) != language:   # what he read until now, in his newest game
            db.session.execute(update(Seat).where(Seat.email == row.address).values(language=language)
                               .execution_options(synchronize_session=False))
        row.time_zone, row.language, row.confirm_replies = time_zone, language, confirm_replies
        row.mail_mode, row.updated_at = mail_mode, utcnow()
        if mail_mode == EACH:
            _release(Mail.to_addr == row.address)
        settings = _of_row(row)
    return settings


def change_rest(address: str, days, quiet_from: str, quiet_until: str) -> None:
    """Store an address's rest days and quiet hours (`pbem.policy.rest`): its clocks and
    reminders follow them from the commit on (the dues of all its games are rewritten then)."""
    kept = rest.checked(days, quiet_from, quiet_until)   # (or nothing is written)
    with transaction():
        row = _row(address, lock=True)
        row.rest_days, row.quiet_from, row.quiet_until = kept
        row.updated_at = utcnow()


def seat_languages(players: list[tuple[str, str]], chosen: tuple[str | None, ...]) -> list[str]:
    """The language of each seat of a new game: the one its creator chose, else its address's
    own (`language_of`: his games', his home's), else English; a computer's is English."""
    return [(chosen[i] if i < len(chosen) and chosen[i] else None)
            or (language_of(address) if address else i18n.ENGLISH)
            for i, (_, address) in enumerate(players)]


def checked_language(language: str, what: str | None = None) -> str:
    """A language offered here, as stored ("de"); BadInput naming it (and `what` asked for it)."""
    code = (language or "").strip().lower()
    if code in LANGUAGES:
        return code
    if what:
        raise BadInput(phrase("{what}: {language} is not a language offered here; languages are "
                              "{languages}.", what=what, language=repr(language[:20]),
                              languages=", ".join(LANGUAGES)))
    raise BadInput(phrase("{language} is not a language offered here.", language=repr(language[:20])))


def change_seat_language(game_id: str, seat: int, language: str) -> str:
    """The language one seat's pages and mails speak from now on (his other games keep theirs)."""
    still_his(game_id, seat)
    language = checked_language(language)
    with transaction():
        db.session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat == seat)
                           .values(language=language).execution_options(synchronize_session=False))
    return language


def language_of(address: str, default: str = i18n.ENGLISH) -> str:
    """The language of an address where no one game decides it (its home, its links, its
    reminders and digest): its newest game's (a choice on the home is every game's, so this is
    it after any), else its home's choice, else `default`."""
    address = address.strip().lower()
    newest = db.session.execute(select(Seat.language).join(Game, Game.id == Seat.game_id)
                                .where(Seat.email == address)
                                .order_by(Game.created_at.desc()).limit(1)).scalar()
    if newest:
        return i18n.language_or_english(newest)
    row = db.session.get(AddressSettings, address)
    return i18n.language_or_english(row.language) if row is not None else default


def release_stale() -> int:
    """Send the held turn mails of addresses that no longer want a digest (the worker, every
    round): a turn mail written while its player went back to a mail per turn (its
    transaction did not see his change) is held by mistake and would wait for no digest."""
    digesting = select(AddressSettings.address).where(AddressSettings.mail_mode == DIGEST)
    with transaction():
        return changed(_release(Mail.to_addr.not_in(digesting)))


def _release(which):
    return db.session.execute(update(Mail).where(which, Mail.status == HELD)
                              .values(status=PENDING, next_attempt_at=utcnow())
                              .execution_options(synchronize_session=False))


def _row(address: str, lock: bool = False) -> AddressSettings:
    """The address's row, made with the defaults when it has none (not committed)."""
    address = address.strip().lower()
    query = select(AddressSettings).where(AddressSettings.address == address)
    row = db.session.scalars(query.with_for_update() if lock else query).first()
    if row is None:
        row = AddressSettings(address=address, home_nonce="", time_zone="UTC", language="en",
                              mail_mode=EACH, confirm_replies=False, updated_at=utcnow())
        db.session.add(row)
        db.session.flush()
    return row


def renew_home_nonce(address: str) -> Settings:
    """A new home link for the address: the old one stops working (not committed)."""
    row = _row(address, lock=True)
    row.home_nonce, row.updated_at = new_nonce(), utcnow()
    db.session.flush()
    return _of_row(row)


def home_url(address: str, nonce: str | None = None) -> str:
    """The address's home link (`pbem.views.homeview`; its live nonce read unless given)."""
    address = address.strip().lower()
    if nonce is None:
        nonce = of(address).home_nonce
    return links.url_of(links.HOME, [address, nonce])


def initial_status(kind: str, to_addr: str) -> str:
    """The status a mail is queued with: HELD for a turn mail to an address that wants a
    digest (the digest sends it, in words, with the others), else PENDING."""
    if kind not in HELD_KINDS:
        return PENDING
    return HELD if of(to_addr).mail_mode == DIGEST else PENDING
