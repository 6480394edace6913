"""A player's feeds (`/h/<token>/feed.atom`, `/h/<token>/deadlines.ics`), read as a feed reader
and a calendar read them: feedparser and icalendar parse what the server wrote. They hold exactly
the address's notices and deadlines (never another address's, checked for every address in
play), carry no signed link but the home's, die with a replaced home link, and are rate-limited.

Runs on SQLite, and on PostgreSQL too when PBEM_TEST_DATABASE_URL is set."""

from __future__ import annotations

import re
from datetime import UTC

import feedparser
import icalendar
from sqlalchemy import select
from tests.web.test_home import ANNA, BOB, CARL, DAVE, anna_s_games, home_path  # its helpers

from pbem.extensions import db
from pbem.policy import limits
from pbem.store.models import Mail
from pbem.views import homeview

SIGNED = re.compile(r"/(?:[tsdmu])/[A-Za-z0-9_.\-]{8,}")   # a turn, seat, decline... link


def read(client, path: str, kind: str):
    answer = client.get(f"{path}/{kind}")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer


def test_the_feeds_hold_exactly_each_address_s_notices_and_deadlines(app, client):
    anna_s_games(app)
    limits.FEEDS._hits.clear()
    for address in (ANNA, BOB, CARL, DAVE):
        path = home_path(app, address)
        atom = read(client, path, "feed.atom")
        assert atom.mimetype == "application/atom+xml"
        parsed = feedparser.parse(atom.data)
        assert not parsed.bozo, parsed.get("bozo_exception")
        with app.app_context():
            mine = db.session.scalars(select(Mail.message_id).where(
                Mail.to_addr == address, Mail.kind.not_in(("sign_in", "home_link")))).all()
            home = homeview.build(address)
        assert mine and {e.id for e in parsed.entries} == {"mid:" + m.strip("<>") for m in mine}
        assert all(e.link.endswith(path) for e in parsed.entries)   # each points at his home

        ics = read(client, path, "deadlines.ics")
        assert ics.mimetype == "text/calendar"
        events = icalendar.Calendar.from_ical(ics.data).walk("VEVENT")
        # the home's deadlines, to the second (iCalendar keeps whole seconds)
        due = {f"{e.game}.{e.seat}": e.deadline.replace(microsecond=0) for e in home.yours
               if e.deadline}
        assert {str(ev["uid"]).split("@")[0]: ev.decoded("dtstart").astimezone(UTC)
                for ev in events} == due
        for body in (atom.get_data(as_text=True), ics.get_data(as_text=True)):
            assert SIGNED.findall(body.replace(path, "")) == []   # no link but the home's


def test_anna_s_calendar_has_her_two_deadlines_and_nobody_else_s_games(app, client):
    g = anna_s_games(app)
    limits.FEEDS._hits.clear()
    events = icalendar.Calendar.from_ical(
        read(client, home_path(app, ANNA), "deadlines.ics").data).walk("VEVENT")
    assert sorted(str(ev["uid"]).split(".")[0] for ev in events) == sorted([g["urgent"], g["later"]])
    assert all(ev.walk("VALARM") for ev in events)          # the reminder, in the calendar
    assert "Bob" in str(events[0]["summary"])


def test_a_replaced_home_link_kills_its_feeds(app, client):
    anna_s_games(app)
    limits.FEEDS._hits.clear()
    old = home_path(app, ANNA)
    page = client.get(old).get_data(as_text=True)
    assert f'href="{old}/deadlines.ics"' in page and f'href="{old}/feed.atom"' in page
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    assert client.post(old + "/replace", data={"csrf": csrf}).status_code == 200
    for kind in ("feed.atom", "deadlines.ics"):
        assert client.get(f"{old}/{kind}").status_code == 410
        assert client.get(f"{home_path(app, ANNA)}/{kind}").status_code == 200
    forged = old[:-3] + ("AAA" if not old.endswith("AAA") else "BBB")
    assert client.get(f"{forged}/feed.atom").status_code == 403
    for kind in ("feed.atom", "deadlines.ics"):   # read-only: nothing a feed's link may change
        assert client.post(f"{home_path(app, ANNA)}/{kind}").status_code == 405


def test_feeds_are_rate_limited_per_address(app, client):
    anna_s_games(app)
    limits.FEEDS._hits.clear()
    app.config["FEEDS_PER_ADDRESS_PER_HOUR"] = 3
    path = home_path(app, ANNA)
    codes = [client.get(f"{path}/{k}").status_code for k in ("feed.atom", "deadlines.ics") * 2]
    assert codes == [200, 200, 200, 429]
    assert client.get(f"{home_path(app, BOB)}/feed.atom").status_code == 200   # his own count
