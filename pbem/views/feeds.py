"""A player's feeds: his notices as Atom, his deadlines as iCalendar.

Both are read with his home link (`/h/<token>/feed.atom`, `/h/<token>/deadlines.ics`), so
they open exactly what the home opens and die with it when it is replaced. A feed reader or
a phone's calendar keeps what it fetched on other servers, so neither feed carries a signed
link other than the home's own (the token already in the feed's address): a notice is its
subject and time, pointing at the home, and a deadline is its game, opponents and moment.
The deadlines are the home's own (`homeview.build`: vacations and rest days counted), so the
calendar says what the home says. Built with feedgen and icalendar, well-kept libraries that
write the formats as their standards say (escaping, folding, time zones).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import icalendar
from feedgen.feed import FeedGenerator  # type: ignore[import-untyped]
from flask import current_app
from sqlalchemy import select

from pbem import i18n
from pbem.config import mail_domain
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.players import settings
from pbem.policy.deadlines import utc
from pbem.store.models import Mail, utcnow
from pbem.views import homeview
from pbem.views.words import match_title

NOTICES = 50   # the newest notices a feed holds: readers keep what they saw already
# Mails that are not notices about play: the sign-in mail is the operator's, and a new home
# link must reach only the mailbox (the feed would hand it to whoever holds the old one).
NOT_NOTICES = ("sign_in", "home_link")


def notices(address: str, limit: int = NOTICES) -> list[Mail]:
    """The address's newest notices, newest first (any status: a held digest mail too)."""
    return list(db.session.scalars(
        select(Mail).where(Mail.to_addr == address, Mail.kind.not_in(NOT_NOTICES))
        .order_by(Mail.id.desc()).limit(limit)))


def atom(address: str, feed_url: str) -> bytes:
    """The address's notices as an Atom feed (RFC 4287), in his language."""
    home_url = settings.home_url(address)
    found = notices(address)
    with i18n.speaking(settings.language_of(address)):
        feed = FeedGenerator()
        feed.id(feed_url)
        feed.title(i18n.say(phrase("Your notices on {server}", server=mail_domain(current_app))))
        feed.author({"name": mail_domain(current_app)})
        feed.link(href=home_url, rel="alternate")
        feed.link(href=feed_url, rel="self")
        feed.updated(utc(found[0].created_at) if found else utcnow())
        for mail in reversed(found):   # feedgen puts the last added first
            entry = feed.add_entry()
            entry.id("mid:" + mail.message_id.strip("<>"))   # RFC 2392: one id a notice
            entry.title(mail.subject)
            entry.link(href=home_url)
            entry.updated(utc(mail.created_at))
            entry.published(utc(mail.created_at))
    return bytes(feed.atom_str(pretty=True))


def calendar(address: str, now: datetime | None = None) -> bytes:
    """The address's deadlines (the games waiting for him that have one) as iCalendar
    (RFC 5545): one event at each deadline, with an alarm when the reminder would come."""
    now = now or utcnow()
    home = homeview.build(address, now)
    domain = mail_domain(current_app)
    remind = timedelta(hours=float(current_app.config.get("REMIND_BEFORE_HOURS", 24)))
    with i18n.speaking(settings.language_of(address)):
        cal = icalendar.Calendar()
        cal.add("prodid", "-//pbem//deadlines//EN")
        cal.add("version", "2.0")
        cal.add("x-wr-calname", i18n.say(phrase("Your deadlines on {server}", server=domain)))
        for entry in home.yours:
            if entry.deadline is None:
                continue
            event = icalendar.Event()
            # One event a seat: the next turn's deadline replaces this one in the calendar.
            event.add("uid", f"{entry.game}.{entry.seat}@{domain}")
            event.add("dtstamp", now)
            event.add("dtstart", entry.deadline)
            event.add("dtend", entry.deadline)
            event.add("summary", i18n.say(phrase(
                "Your time runs out: {game}, {players}", game=entry.title,
                players=match_title(list(entry.players)))))
            event.add("url", settings.home_url(address))
            alarm = icalendar.Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", i18n.say(phrase("Your turn: {game}", game=entry.title)))
            alarm.add("trigger", -remind)
            event.add_component(alarm)
            cal.add_component(event)
    return bytes(cal.to_ical())
