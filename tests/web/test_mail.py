"""Mail: what players receive, header safety, and delivery through real SMTP servers on loopback.

Every message here travels over a socket to an aiosmtpd server: the `smtp`
fixture's, or a small one written below whose answers a test chooses (a
recipient refused, a 4xx, a dropped connection). Nothing mocks smtplib.
Delivery runs are driven with `deliver_due(now=...)` instead of sleeping.
"""

from __future__ import annotations

import email
import email.policy
import random
import re
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from email.header import decode_header, make_header
from email.utils import formataddr, parsedate_to_datetime
from itertools import count

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.rng import Rng
from pbem_web import (  # tests/helpers
    create,
    deliver,
    free_port,
    html_of,
    outbox_rows,
    started,
    text_of,
)

ANNA, BOB = "anna@example.org", "bob@example.org"
DOMAIN = "pbem.test"
LINK = re.compile(r"http://pbem\.test(/[ts]/[A-Za-z0-9_.\-]+)")
HEADERS = {"from", "to", "subject", "date", "message-id", "auto-submitted", "mime-version",
           "content-type", "list-unsubscribe", "list-unsubscribe-post", "list-id", "x-auto-response-suppress"}
REPLY_HEADERS = HEADERS | {"in-reply-to", "references"}


def expected_headers(msg) -> set:
    """A mail that carries a turn link also carries Reply-To: answering it is a move."""
    return HEADERS | ({"reply-to"} if "/t/" in text_of(msg) else set())


# -- helpers ------------------------------------------------------------------


def parse(raw: bytes):
    return email.message_from_bytes(raw, policy=email.policy.default)


def paths_in(text: str) -> dict:
    paths = LINK.findall(text)
    return {"turn": [p for p in paths if p.startswith("/t/")],
            "seat": [p for p in paths if p.startswith("/s/")]}


def on_the_wire(msg, header: str) -> str:
    """A header as RFC 2047 decodes it from the raw message. (Python's address parser keeps a
    space between adjacent encoded words, which the RFC drops: the test reads the raw text.)"""
    raw = email.message_from_bytes(msg.as_bytes(), policy=email.policy.compat32)[header]
    return str(make_header(decode_header(re.sub(r"\r?\n(?=[ \t])", "", raw).strip())))


def shows(msg, header: str, name: str, addr: str) -> bool:
    """The header names exactly `name <addr>`: quoted, or as encoded words."""
    return on_the_wire(msg, header) in (formataddr((name, addr)), f"{name} <{addr}>")


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)



def play(app, client, game: str, rng: Rng) -> int:
    """The seat to act plays a random legal submission through its turn link; returns the seat."""
    from pbem.policy import links
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        decision = loaded.engine.to_act(loaded.state)[0]
        text = loaded.engine.random_submission(loaded.state, decision.seat, rng)
        path = links.path(links.TURN, game, decision.seat, loaded.seq)
    response = client.post(path, json={"steps": text})
    assert response.status_code == 200, response.get_json()
    return decision.seat


def last_event(app, game: str) -> tuple[dict, str]:
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        return loaded.events[-1], loaded.engine.notation(loaded.events[-1])


def assert_each_sent_mail_arrived_once(app, received) -> None:
    """The outbox and the servers agree: every sent row arrived exactly once, nothing else did."""
    rows = outbox_rows(app)
    arrived = Counter(msg["Message-ID"] for msg in received)
    assert all(n == 1 for n in arrived.values()), arrived
    assert set(arrived) == {r.message_id for r in rows if r.status == "sent"}


# -- small SMTP servers whose answers a test chooses ---------------------------

class Mailbox:
    """An aiosmtpd handler. `rcpt` maps an address to its RCPT reply (default accepted);
    `reply(rcpt_tos, msg)` answers DATA (default 250). Only mail answered 250 counts as received."""

    def __init__(self, rcpt=None, reply=None, drops: int = 0):
        self.rcpt = dict(rcpt or {})
        self.reply = reply or (lambda rcpts, msg: "250 OK")
        self.drops = drops            # DATA transfers to hang up on halfway (DroppingSMTP)
        self.received: list = []      # (rcpt_tos, parsed message)
        self.senders: list = []       # the envelope's MAIL FROM of each message received
        self.data_commands = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.rcpt:
            return self.rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        msg = parse(envelope.content)
        with self.lock:
            self.data_commands += 1
            answer = self.reply(list(envelope.rcpt_tos), msg)
            if answer.startswith("250"):
                self.received.append((list(envelope.rcpt_tos), msg))
                self.senders.append(envelope.mail_from)
        return answer

    def messages(self, addr: str | None = None) -> list:
        with self.lock:
            return [m for rcpts, m in self.received if addr is None or addr in rcpts]


class DroppingSMTP(SMTP):
    """Hangs up in the middle of the message while its handler has drops left."""

    async def smtp_DATA(self, arg):
        handler = self.event_handler
        if handler.drops > 0 and self.envelope is not None and self.envelope.rcpt_tos:
            handler.drops -= 1
            await self.push("354 End data with <CR><LF>.<CR><LF>")
            await self._reader.readuntil(b"\r\n")      # the first line of the message...
            self.transport.close()                     # ...and the line goes dead
            return
        await super().smtp_DATA(arg)


class DroppingController(Controller):
    def factory(self):
        return DroppingSMTP(self.handler, **self.SMTP_kwargs)


class Server:
    """Start/stop a Mailbox on a port of its own; `url` is its MAIL_URL, valid even while down."""

    def __init__(self, mailbox: Mailbox | None = None, port: int | None = None, dropping=False):
        self.mailbox = mailbox or Mailbox()
        self.port = port or free_port()
        self.url = f"smtp://127.0.0.1:{self.port}"
        self.dropping = dropping
        self.controller = None

    def start(self):
        kind = DroppingController if self.dropping else Controller
        self.controller = kind(self.mailbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self):
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def servers():
    """Servers a test starts; all stopped after it."""
    started: list[Server] = []

    def make(*args, **kwargs) -> Server:
        server = Server(*args, **kwargs)
        started.append(server)
        return server
    yield make
    for server in started:
        server.stop()


# -- what a player receives -----------------------------------------------------

@pytest.mark.parametrize("mail_from, shown", [
    ("Babel Club <games@example.org>", "Babel Club"),
    ('"Deskovky Žižkov, z.s." <games@example.org>', "Deskovky Žižkov, z.s."),
    ("games@example.org", "Babel: Anna vs Bob"),      # no name configured: the game's
])
def test_the_sender_shows_the_display_name_configured_in_mail_from(app, actions, smtp, mail_from, shown):
    app.config["MAIL_FROM"] = mail_from
    actions.create(first=0)
    assert actions.deliver().sent == 2
    for msg in smtp.to(ANNA) + smtp.to(BOB):
        [sender] = msg["From"].addresses
        assert (sender.display_name, sender.addr_spec) == (shown, "games@example.org")
        assert msg["Subject"].startswith("Babel with ")   # the game is still named, there


def test_invitations_have_both_parts_the_right_links_and_root_the_threads(actions, smtp, client):
    game = actions.create(first=0)
    report = actions.deliver()
    assert (report.sent, report.retrying, report.failed) == (2, 0, 0)
    [anna], [bob] = smtp.to(ANNA), smtp.to(BOB)
    assert [rcpts for rcpts, _ in smtp.messages] in ([[ANNA], [BOB]], [[BOB], [ANNA]])
    for msg, seat, to in ((anna, 0, "Anna"), (bob, 1, "Bob")):
        assert msg.get_content_type() == "multipart/alternative"
        assert {p.get_content_type() for p in msg.iter_parts()} == {"text/plain", "text/html"}
        assert {k.lower() for k in msg.keys()} == expected_headers(msg)
        assert msg["From"].addresses[0].display_name == "Babel: Anna vs Bob"   # (a bare MAIL_FROM)
        assert msg["From"].addresses[0].addr_spec == "turns@pbem.test"
        [addr] = msg["To"].addresses
        assert (addr.display_name, addr.addr_spec) == (to, [ANNA, BOB][seat])
        assert msg["Message-ID"] == f"<{game}.{seat}@{DOMAIN}>"        # the thread's root
        assert msg["Auto-Submitted"] == "auto-generated"
        sent = aware(parsedate_to_datetime(msg["Date"]))   # "-0000": UTC
        assert abs(sent - datetime.now(UTC)) < timedelta(minutes=2)
        assert f"Hello {to}," in text_of(msg) and f"Hello {to}," in html_of(msg)
        assert f"http://pbem.test/games/{game}/record" in text_of(msg)
    assert anna["Subject"] == "Babel with Bob: your turn"
    assert bob["Subject"] == "Babel with Anna: you are invited"
    # The turn link goes only to the seat to act; every seat gets its seat link, in both parts.
    a, b = paths_in(text_of(anna)), paths_in(text_of(bob))
    assert len(a["turn"]) == 1 and len(a["seat"]) == 1
    assert b["turn"] == [] and len(b["seat"]) == 1
    assert f'href="http://pbem.test{a["turn"][0]}"' in html_of(anna)
    assert f'href="http://pbem.test{a["seat"][0]}"' in html_of(anna)
    assert "/t/" not in html_of(bob) and f'href="http://pbem.test{b["seat"][0]}"' in html_of(bob)
    # The links open the right seats.
    turn = client.get(a["turn"][0], headers={"Accept": "application/json"}).get_json()
    assert turn["can_act"] and turn["seat"] == 0 and turn["game"] == game
    seat = client.get(b["seat"][0], headers={"Accept": "application/json"}).get_json()
    assert seat["seat"] == 1 and seat["can_act"] is False
    assert_each_sent_mail_arrived_once(actions.app, [m for _, m in smtp.messages])


def test_turn_mails_name_the_turn_carry_the_last_turn_and_stay_in_the_seats_thread(actions, smtp, client,
                                                                                    app):
    game = actions.create(first=0)
    actions.deliver()
    link = paths_in(text_of(smtp.to(ANNA)[-1]))["turn"][0]
    hand = client.get(link, headers={"Accept": "application/json"}).get_json()["view"]["players"][0]["hand"]
    steps = f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"
    assert client.post(link, json={"steps": steps}).status_code == 200
    actions.deliver()
    assert len(smtp.to(ANNA)) == 1                  # the seat that acted gets no mail
    [invite, turn] = smtp.to(BOB)
    assert turn["Subject"] == "Babel with Anna: your turn, Bob"
    assert {p.get_content_type() for p in turn.iter_parts()} == {"text/plain", "text/html"}
    assert {k.lower() for k in turn.keys()} == REPLY_HEADERS | {"reply-to"}
    assert re.fullmatch(r"turns\+[a-z2-7]+-[a-z2-7]+@pbem\.test", turn["Reply-To"])
    assert turn["From"].addresses[0].display_name == "Babel: Anna vs Bob"
    _, notation = last_event(app, game)
    assert notation == f"move {hand[0]}; settle {hand[1]}; build mine"
    assert f"Anna's last turn:\n  {notation}" in text_of(turn)
    assert "Anna's last turn" in html_of(turn) and notation in html_of(turn)
    # One thread per game and seat: the invitation is the root.
    root = f"<{game}.1@{DOMAIN}>"
    assert invite["Message-ID"] == root
    assert turn["In-Reply-To"] == root and turn["References"] == root
    assert turn["Message-ID"] != root and turn["Message-ID"].endswith(f"@{DOMAIN}>")
    links = paths_in(text_of(turn))
    # The same seat link (game, seat, nonce); its timestamp may differ by a second.
    unsigned = lambda paths: [p.rsplit(".", 2)[0] for p in paths]   # noqa: E731
    assert len(links["turn"]) == 1
    assert unsigned(links["seat"]) == unsigned(paths_in(text_of(invite))["seat"])
    data = client.get(links["turn"][0], headers={"Accept": "application/json"}).get_json()
    assert data["can_act"] and data["seat"] == 1 and data["seq"] == 1
    # A few more turns: each mail goes to the seat to act, in that seat's thread, with a fresh
    # id, and shows the opponent's last turn.
    from pbem.store import gamelog
    rng = Rng(11)
    for _ in range(4):
        before = len(smtp.messages)
        play(app, client, game, rng)
        actions.deliver()
        with app.app_context():
            loaded = gamelog.load(game)
            fresh = smtp.messages[before:]
            assert fresh
            for rcpts, msg in fresh:
                s = [ANNA, BOB].index(rcpts[0])
                assert loaded.decision_of(s) is not None
                assert msg["In-Reply-To"] == msg["References"] == f"<{game}.{s}@{DOMAIN}>"
                assert msg["Subject"] == f"Babel with {loaded.names[1 - s]}: your turn, {loaded.names[s]}"
                assert len(paths_in(text_of(msg))["turn"]) == 1
                last = loaded.last_event_by_other(s)
                # (a long turn is folded at 78 columns, its lines indented alike). One turn since his
                # own is "Anna's last turn"; more (a discard the deal forced, then her turn) are
                # listed under "Since your last turn".
                said = " ".join(text_of(msg).split())
                assert " ".join(loaded.engine.notation(last).split()) in said
                assert f"{loaded.names[last['seat']]}'s last turn:" in said or "Since your last turn:" in said
    messages = [m for _, m in smtp.messages]
    ids = [m["Message-ID"] for m in messages]
    assert len(ids) == len(set(ids)) == len(outbox_rows(app))
    assert_each_sent_mail_arrived_once(app, messages)


def test_message_ids_are_stored_unique_and_threads_never_mix_games(actions, smtp, app):
    one = actions.create(first=0)
    two = actions.create(first=1)
    actions.deliver()
    rows = outbox_rows(app)
    assert len({r.message_id for r in rows}) == len(rows) == 4
    roots = {f"<{g}.{s}@{DOMAIN}>" for g in (one, two) for s in (0, 1)}
    assert {m["Message-ID"] for _, m in smtp.messages} == roots
    assert {r.message_id for r in rows} == roots


@pytest.fixture
def local_time_not_utc():
    """The server's local time zone is not UTC (a POSIX TZ: no time zone database needed)."""
    import os
    old = os.environ.get("TZ")
    os.environ["TZ"] = "IST-05:30"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_date_header_is_the_real_time_whatever_the_local_time_zone(local_time_not_utc, actions, smtp):
    actions.create()
    actions.deliver()
    for _, msg in smtp.messages:
        sent = aware(parsedate_to_datetime(msg["Date"]))   # "-0000": UTC
        assert abs(sent - datetime.now(UTC)) < timedelta(minutes=2), msg["Date"]


# -- header safety ------------------------------------------------------------------

NASTY_NAMES = [
    "Anna\r\nBcc: evil@attacker.org",
    "Anna\nSubject: free money",
    "Anna\rX-Injected: yes",
    "Anna\x85Bcc: evil@attacker.org",               # NEL: a line break to str.splitlines()
    "Anna\u2028Bcc: evil@attacker.org",
    "Anna\x0bX-Injected:\x0cyes\x1c",
    "Anna\x00Nul",
    "Ännä Łódź 🎲 Straße",
    "Ä" * 100,                                       # the longest name allowed, all non-ASCII
    "Anna \"the <boss>\" <evil@attacker.org>",
    "Anna, Bob; <evil@attacker.org>, \\",
    "=?utf-8?q?x_=3Cevil=40attacker=2Eorg=3E=2C_y?=",   # an encoded word hiding an address
    "=?utf-8?b?YSA8ZXZpbEBhdHRhY2tlci5vcmc+LCBi?=",
]


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_player_names_never_inject_headers(name, client, smtp, app):
    game = create(client, names=(name, "Bob"))
    report = deliver(app)
    assert (report.sent, report.retrying, report.failed) == (2, 0, 0)
    assert sorted(rcpts[0] for rcpts, _ in smtp.messages) == [ANNA, BOB]
    assert all(len(rcpts) == 1 for rcpts, _ in smtp.messages)
    with app.app_context():
        from pbem.extensions import db
        from pbem.store.models import Seat
        stored = db.session.get(Seat, (game, 0)).name
    assert len(stored.splitlines()) == 1 and not re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", stored)
    assert "=?" not in stored
    for rcpts, msg in smtp.messages:
        counts = Counter(k.lower() for k in msg.keys())
        assert set(counts) == expected_headers(msg), counts
        assert all(n == 1 for n in counts.values()), counts
        [to] = msg["To"].addresses                     # exactly one recipient...
        assert to.addr_spec == rcpts[0]                 # ...the seat's own address
        [sender] = msg["From"].addresses
        assert sender.addr_spec == "turns@pbem.test"
        assert shows(msg, "From", f"Babel: {stored} vs Bob", "turns@pbem.test")
        assert "attacker" not in to.addr_spec and "attacker" not in sender.addr_spec
        if rcpts == [ANNA]:
            assert shows(msg, "To", stored, ANNA)
            assert on_the_wire(msg, "Subject") == "Babel with Bob: your turn"
        else:
            assert shows(msg, "To", "Bob", BOB)
            assert on_the_wire(msg, "Subject") == f"Babel with {stored}: you are invited"
        assert "\r" not in text_of(msg) and "\r" not in html_of(msg)
    # The clean name is the one shown in the mail bodies and pages.
    anna = smtp.to(ANNA)[0]
    assert " ".join(f"Hello {stored},".split()) in " ".join(text_of(anna).split())   # (folded at 78)
    assert stored.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;") \
        in html_of(anna)
    assert_each_sent_mail_arrived_once(app, [m for _, m in smtp.messages])


HEADERISH = st.sampled_from(list('"<>@,;:\\()[].=?_ \t\r\n\x00\x0b\x1c\x85\u2028\u2029') +
                            ["Bcc:", "To:", "=?utf-8?q?", "?=", "evil@attacker.org", "Ä", "🎲", "a", "B"])
serial = count()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.one_of(st.text(min_size=1, max_size=100),
                      st.lists(HEADERISH, min_size=1, max_size=30).map("".join)))
def test_any_name_makes_one_recipient_and_no_extra_headers(name, client, smtp, app):
    n = next(serial)
    emails = (f"a{n}@example.org", f"b{n}@example.org")
    response = client.post("/games", data={"game": "babel", "first": "0", "name0": name,
                                           "email0": emails[0], "name1": name[::-1], "email1": emails[1]})
    if response.status_code == 400:          # nothing left once cleaned, or too long: refused
        assert "name" in response.data.decode()
        return
    assert response.status_code == 303
    deliver(app)   # the creator's confirmation
    game = started(client, response)
    smtp.clear()
    assert deliver(app).sent == 2
    with app.app_context():
        from pbem.store import gamelog
        stored = gamelog.load(game).names
    assert sorted(rcpts[0] for rcpts, _ in smtp.messages) == list(emails)
    for rcpts, msg in smtp.messages:
        counts = Counter(k.lower() for k in msg.keys())
        assert set(counts) == expected_headers(msg) and all(v == 1 for v in counts.values()), counts
        [to] = msg["To"].addresses
        [sender] = msg["From"].addresses
        assert to.addr_spec == rcpts[0] and sender.addr_spec == "turns@pbem.test"
        seat = emails.index(rcpts[0])
        assert shows(msg, "To", stored[seat], rcpts[0])
        assert shows(msg, "From", f"Babel: {stored[0]} vs {stored[1]}", "turns@pbem.test")
        subject = f"Babel with {stored[1 - seat]}: " + ("your turn" if seat == 0 else "you are invited")
        # Python's folder can drop a space between two encoded words of a Subject: cosmetic.
        assert re.sub(r"\s", "", on_the_wire(msg, "Subject")) == re.sub(r"\s", "", subject)


def test_a_lone_surrogate_in_a_json_name_is_cleaned_and_the_mail_goes_out(client, smtp, app):
    body = b'{"game": "babel", "first": "0", "name0": "Anna\\ud800", "email0": "anna@example.org",' \
           b' "name1": "\\udc80Bob", "email1": "bob@example.org"}'
    response = client.post("/games", data=body, content_type="application/json")
    assert response.status_code == 202
    started(client, response)
    assert deliver(app).sent == 3   # the creator's confirmation, then both invitations
    anna = smtp.to(ANNA)[-1]
    assert shows(anna, "To", "Anna", ANNA) and shows(anna, "From", "Babel: Anna vs Bob", "turns@pbem.test")
    assert "Hello Anna," in text_of(anna)


def test_the_envelope_names_only_the_server_and_the_seat_whatever_the_names(app, client, servers):
    server = servers().start()
    app.config["MAIL_URL"] = server.url
    names = ('evil@attacker.org "x" <evil@attacker.org>, ' + "y" * 50, "Bob <bob@attacker.org>")
    create(client, names=names)
    assert deliver(app).sent == 2
    # The envelope sender is the server's own reply address, with each mail's bounce token
    # (VERP): a bounce names the mail that bounced.
    assert len(server.mailbox.senders) == 2
    assert all(re.fullmatch(r"turns\+bounce-\d+-[a-z2-7]{16}@pbem\.test", sender)
               for sender in server.mailbox.senders), server.mailbox.senders
    assert sorted(rcpts for rcpts, _ in server.mailbox.received) == [[ANNA], [BOB]]
    for rcpts, msg in server.mailbox.received:
        assert [a.addr_spec for a in msg["To"].addresses] == rcpts
        assert [a.addr_spec for a in msg["From"].addresses] == ["turns@pbem.test"]


def test_too_long_names_are_refused_and_nothing_is_written(client, actions):
    response = client.post("/games", data={"game": "babel", "name0": "A" * 101, "email0": ANNA,
                                           "name1": "Bob", "email1": BOB})
    assert response.status_code == 400
    assert "at most 100 characters" in response.data.decode()
    assert actions.mail_count() == 0


@pytest.mark.parametrize("addr", ["anna@example.org\r\nBcc: evil@attacker.org",
                                  "anna@example.org>, evil@attacker.org",
                                  "Anna <anna@example.org>", "anna@example.org,evil@attacker.org",
                                  "anna@exa\x00mple.org", "ännä@example.org"])
def test_addresses_that_could_inject_are_refused(addr, client, actions):
    response = client.post("/games", data={"game": "babel", "name0": "Anna", "email0": addr,
                                           "name1": "Bob", "email1": BOB})
    assert response.status_code == 400
    assert "is not a mail address" in response.data.decode()
    assert actions.mail_count() == 0


SCRIPT = '<script>alert("x")</script>'
IMG = '"><img src=x onerror=alert(1)>'


def test_script_in_names_is_escaped_in_html_mail_and_pages(client, smtp, app):
    game = create(client, names=(SCRIPT, IMG))
    deliver(app)
    for _, msg in smtp.messages:
        html = html_of(msg)
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
        assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
        assert SCRIPT in text_of(msg)                       # plain text stays as typed
    anna, bob = smtp.to(ANNA)[0], smtp.to(BOB)[0]
    pages = [paths_in(text_of(anna))["turn"][0], paths_in(text_of(anna))["seat"][0],
             paths_in(text_of(bob))["seat"][0], f"/games/{game}/record", "/outbox"]
    pages += [f"/outbox/{r.id}" for r in outbox_rows(app)]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        page = response.data.decode()
        assert "<script>alert" not in page and "<img src=x" not in page, path
        assert "&lt;script&gt;" in page, path
    # The lobby shows a refused form again: escaped too.
    response = client.post("/games", data={"game": "babel", "name0": SCRIPT, "email0": "nope",
                                           "name1": IMG, "email1": BOB})
    assert response.status_code == 400
    page = response.data.decode()
    assert "<script>alert" not in page and "<img src=x" not in page


# -- delivery robustness ---------------------------------------------------------------

def test_server_down_mail_stays_pending_and_goes_out_once_it_is_back(app, client, servers):
    server = servers()                      # a port where nothing listens (yet)
    app.config["MAIL_URL"] = server.url
    create(client)
    start = datetime.now(UTC)
    report = deliver(app, now=start)
    assert (report.sent, report.retrying, report.failed) == (0, 2, 0)
    rows = outbox_rows(app)
    assert [r.status for r in rows] == ["pending", "pending"]
    assert [r.attempts for r in rows] == [1, 1]
    assert all(aware(r.next_attempt_at) > start + timedelta(seconds=29) for r in rows)
    assert all("Refused" in r.last_error or "refused" in r.last_error for r in rows)
    # Not due yet: nothing is tried.
    report = deliver(app, now=start + timedelta(seconds=10))
    assert (report.sent, report.retrying, report.failed) == (0, 0, 0)
    # Still down at the next try: the wait doubles.
    second = start + timedelta(seconds=31)
    report = deliver(app, now=second)
    assert report.retrying == 2
    rows = outbox_rows(app)
    assert [r.attempts for r in rows] == [2, 2]
    assert all(aware(r.next_attempt_at) >= second + timedelta(seconds=59) for r in rows)
    # Back up, but the retry time has not come: still nothing.
    server.start()
    assert deliver(app, now=second + timedelta(seconds=30)).sent == 0
    assert server.mailbox.messages() == []
    report = deliver(app, now=second + timedelta(seconds=61))
    assert (report.sent, report.retrying, report.failed) == (2, 0, 0)
    rows = outbox_rows(app)
    assert [r.status for r in rows] == ["sent", "sent"] and [r.attempts for r in rows] == [3, 3]
    assert all(r.last_error is None and r.sent_at is not None for r in rows)
    assert deliver(app, now=second + timedelta(days=1)).sent == 0      # and never again
    assert_each_sent_mail_arrived_once(app, server.mailbox.messages())
    # The ids are stable across the retries: the root of each thread.
    assert {m["Message-ID"] for m in server.mailbox.messages()} == {r.message_id for r in rows}


def test_too_many_attempts_mark_the_mail_failed(app, client, servers):
    server = servers()
    app.config.update(MAIL_URL=server.url, MAIL_RETRY_LIMIT=3)
    create(client)
    now = datetime.now(UTC)
    for _ in range(2):
        assert deliver(app, now=now).retrying == 2
        now += timedelta(hours=3)
    report = deliver(app, now=now)
    assert (report.sent, report.retrying, report.failed) == (0, 0, 2)
    assert [(r.status, r.attempts) for r in outbox_rows(app)] == [("failed", 3), ("failed", 3)]
    server.start()
    assert deliver(app, now=now + timedelta(days=1)).sent == 0
    assert server.mailbox.messages() == []


@pytest.mark.parametrize("stage", ["RCPT", "DATA"])
def test_transient_4xx_is_retried_then_delivered(stage, app, client, servers):
    tried: set = set()

    def greylist(rcpts, msg):               # the first try of each message: come back later
        if msg["Message-ID"] in tried:
            return "250 OK"
        tried.add(msg["Message-ID"])
        return "451 4.7.1 Greylisted, please try again later"
    mailbox = Mailbox(reply=greylist) if stage == "DATA" else \
        Mailbox(rcpt={ANNA: "450 4.2.1 Mailbox busy, try again later"})
    server = servers(mailbox).start()
    app.config["MAIL_URL"] = server.url
    create(client)
    now = datetime.now(UTC)
    report = deliver(app, now=now)
    if stage == "DATA":
        assert (report.sent, report.retrying, report.failed) == (0, 2, 0)
    else:
        assert (report.sent, report.retrying, report.failed) == (1, 1, 0)
        mailbox.rcpt.clear()
    anna = next(r for r in outbox_rows(app) if r.to_addr == ANNA)
    assert anna.status == "pending" and anna.attempts == 1 and "45" in anna.last_error
    report = deliver(app, now=now + timedelta(seconds=31))
    assert report.sent == (2 if stage == "DATA" else 1) and report.retrying == report.failed == 0
    assert [r.status for r in outbox_rows(app)] == ["sent", "sent"]
    assert sorted(rcpts[0] for rcpts, _ in mailbox.received) == [ANNA, BOB]
    assert_each_sent_mail_arrived_once(app, mailbox.messages())


@pytest.mark.parametrize("stage", ["RCPT", "DATA"])
def test_permanent_5xx_marks_the_mail_failed_and_others_still_go(stage, app, client, servers):
    if stage == "RCPT":
        mailbox = Mailbox(rcpt={BOB: "550 5.1.1 No such user"})
    else:
        mailbox = Mailbox(reply=lambda rcpts, msg: "554 5.7.1 Rejected" if BOB in rcpts else "250 OK")
    server = servers(mailbox).start()
    app.config["MAIL_URL"] = server.url
    game = create(client)
    create(client, names=("Carol", "Dave"), emails=("carol@example.org", "dave@example.org"))
    now = datetime.now(UTC)
    report = deliver(app, now=now)
    assert (report.sent, report.retrying, report.failed) == (3, 0, 1)
    bob = next(r for r in outbox_rows(app) if r.to_addr == BOB)
    assert bob.status == "failed" and bob.attempts == 1 and "55" in bob.last_error
    # Never retried, however long we wait.
    assert deliver(app, now=now + timedelta(days=30)).failed == 0
    assert next(r for r in outbox_rows(app) if r.to_addr == BOB).attempts == 1
    # A later mail to that address is not held back by the failed one (and fails on its own).
    play(app, client, game, Rng(3))
    report = deliver(app, now=now + timedelta(days=30))
    assert (report.sent, report.failed) == (0, 1)
    assert {r.to_addr for r in outbox_rows(app) if r.status == "sent"} == {ANNA, "carol@example.org",
                                                                       "dave@example.org"}
    assert BOB not in [rcpts[0] for rcpts, _ in mailbox.received]
    assert_each_sent_mail_arrived_once(app, mailbox.messages())


def test_connection_dropped_mid_message_is_retried_and_delivered_once(app, client, servers):
    mailbox = Mailbox(drops=3)
    server = servers(mailbox, dropping=True).start()
    app.config["MAIL_URL"] = server.url
    create(client)
    now = datetime.now(UTC)
    report = deliver(app, now=now)
    assert (report.sent, report.retrying, report.failed) == (0, 2, 0)
    assert mailbox.messages() == [] and mailbox.drops == 1
    assert all(r.status == "pending" and r.attempts == 1 for r in outbox_rows(app))
    report = deliver(app, now=now + timedelta(seconds=31))    # one more drop, then through
    assert (report.sent, report.retrying) == (1, 1)
    report = deliver(app, now=now + timedelta(seconds=92))
    assert (report.sent, report.retrying) == (1, 0)
    assert [r.status for r in outbox_rows(app)] == ["sent", "sent"]
    assert sorted(r.attempts for r in outbox_rows(app)) == [2, 3]
    assert_each_sent_mail_arrived_once(app, mailbox.messages())


def test_mails_to_one_address_go_out_in_the_order_they_were_written(app, client, servers):
    held = {"anna": True}

    def hold_anna(rcpts, msg):               # Anna's server is busy until the test says so
        return "451 4.3.0 Try again later" if ANNA in rcpts and held["anna"] else "250 OK"
    mailbox = Mailbox(reply=hold_anna)
    server = servers(mailbox).start()
    app.config["MAIL_URL"] = server.url
    game = create(client, first=0)
    report = deliver(app)
    assert (report.sent, report.retrying) == (1, 1)          # Bob's invitation; Anna's waits
    rng = Rng(7)
    while not [r for r in outbox_rows(app) if r.to_addr == ANNA and r.kind != "invite"]:
        play(app, client, game, rng)
        deliver(app)                                          # Bob's turn mails go out
    waiting = [r for r in outbox_rows(app) if r.to_addr == ANNA]
    assert [r.kind for r in waiting][0] == "invite" and len(waiting) >= 2
    assert all(r.status == "sent" for r in outbox_rows(app) if r.to_addr == BOB)
    # The later mail is due, but an older one to Anna is pending: it is not even tried.
    now = datetime.now(UTC)
    attempts = mailbox.data_commands
    assert deliver(app, now=now + timedelta(seconds=5)).sent == 0
    assert mailbox.data_commands == attempts
    assert all(r.attempts == 0 for r in outbox_rows(app) if r.to_addr == ANNA and r.kind != "invite")
    held["anna"] = False
    report = deliver(app, now=now + timedelta(seconds=31))
    assert report.sent == len(waiting) and report.retrying == 0
    got = [m["Message-ID"] for m in mailbox.messages(ANNA)]
    assert got == [r.message_id for r in waiting]            # in the order they were written
    assert got[0] == f"<{game}.0@{DOMAIN}>"
    assert_each_sent_mail_arrived_once(app, mailbox.messages())


def test_no_mail_is_lost_or_doubled_on_a_flaky_server(app, client, servers):
    """A server that randomly greylists, refuses or hangs up: every mail ends sent or failed,
    and each sent one arrived exactly once."""
    chance = random.Random(2024)
    lock = threading.Lock()

    def flaky(rcpts, msg):
        with lock:
            roll = chance.random()
        if roll < 0.3:
            return "451 4.3.0 Try again later"
        if roll < 0.35:
            return "554 5.7.1 Refused"
        return "250 OK"
    mailbox = Mailbox(reply=flaky, drops=4)
    server = servers(mailbox, dropping=True).start()
    app.config.update(MAIL_URL=server.url, MAIL_RETRY_LIMIT=6)
    games = [create(client, names=(f"P{i}", f"Q{i}"), emails=(f"p{i}@example.org", f"q{i}@example.org"),
                    first=i % 2) for i in range(4)]
    rng = Rng(99)
    for game in games:
        for _ in range(3):
            play(app, client, game, rng)
        deliver(app)
    now = datetime.now(UTC)
    for _ in range(20):
        now += timedelta(hours=3)
        deliver(app, now=now)
    rows = outbox_rows(app)
    assert {r.status for r in rows} <= {"sent", "failed"}
    assert sum(r.status == "sent" for r in rows) > len(rows) // 2
    assert_each_sent_mail_arrived_once(app, mailbox.messages())
    # Per address, what arrived arrived in the order it was written.
    for addr in {r.to_addr for r in rows}:
        written = [r.message_id for r in rows if r.to_addr == addr and r.status == "sent"]
        assert [m["Message-ID"] for m in mailbox.messages(addr)] == written


# -- the console transport and the deliver command ------------------------------------------

def test_console_transport_prints_the_mail_and_marks_it_sent(app, client, smtp, capsys):
    app.config["MAIL_URL"] = "console:"
    create(client)
    capsys.readouterr()
    report = deliver(app)
    assert (report.sent, report.retrying, report.failed) == (2, 0, 0)
    out = capsys.readouterr().out
    assert "--- mail to Anna <anna@example.org>\nSubject: Babel with Bob: your turn" in out
    assert "--- mail to Bob <bob@example.org>\nSubject: Babel with Anna: you are invited" in out
    assert len(re.findall(r"http://pbem\.test/t/", out)) == 1
    assert len(re.findall(r"http://pbem\.test/s/", out)) == 2
    assert all(r.status == "sent" and r.sent_at is not None for r in outbox_rows(app))
    assert smtp.messages == []


def test_deliver_command_sends_what_is_due_and_reports_counts(app, client, smtp, servers):
    runner = app.test_cli_runner()
    create(client)
    result = runner.invoke(args=["deliver"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "sent 2, retrying 0, failed 0"
    assert sorted(rcpts[0] for rcpts, _ in smtp.messages) == [ANNA, BOB]
    result = runner.invoke(args=["deliver"])
    assert result.output.strip() == "sent 0, retrying 0, failed 0"
    # With the server down, the command says the mail will be retried, and keeps it.
    app.config["MAIL_URL"] = servers().url
    create(client, names=("Carol", "Dave"), emails=("carol@example.org", "dave@example.org"))
    result = runner.invoke(args=["deliver"])
    assert result.exit_code == 0
    assert result.output.strip() == "sent 0, retrying 2, failed 0"
    assert [r.status for r in outbox_rows(app)] == ["sent", "sent", "pending", "pending"]
    assert len(smtp.messages) == 2


# -- the local outbox page ------------------------------------------------------------

def test_outbox_page_lists_mails_with_their_links(actions, client, app):
    game = actions.create(first=0)
    rows = outbox_rows(app)
    page = client.get("/outbox")
    assert page.status_code == 200
    html = page.data.decode()
    for row in rows:
        assert f'<a href="/outbox/{row.id}">{row.subject}</a>' in html
        assert f"{row.to_name} &lt;{row.to_addr}&gt;" in html
    assert html.count("<td>pending</td>") == 2
    anna = next(r for r in rows if r.to_addr == ANNA)
    show = client.get(f"/outbox/{anna.id}")
    assert show.status_code == 200
    text = show.data.decode()
    turn = re.search(r'href="http://pbem\.test(/t/[^"]+)"', text).group(1)
    seat = re.search(r'href="http://pbem\.test(/s/[^"]+)"', text).group(1)
    assert client.get(turn, headers={"Accept": "application/json"}).get_json()["can_act"] is True
    assert client.get(seat, headers={"Accept": "application/json"}).get_json()["game"] == game
    actions.deliver()
    assert client.get("/outbox").data.decode().count("<td>sent</td>") == 2
    assert client.get("/outbox/999999").status_code == 404
    assert client.get("/outbox/abc").status_code == 404


@pytest.fixture
def app_without_outbox(make_app):
    return make_app(OUTBOX_PAGE=False)


def test_outbox_page_does_not_exist_when_off(app_without_outbox):
    client = app_without_outbox.test_client()
    create(client)
    ids = [r.id for r in outbox_rows(app_without_outbox)]
    assert len(ids) == 2
    for path in ["/outbox", "/outbox/", f"/outbox/{ids[0]}", f"/outbox/{ids[1]}"]:
        response = client.get(path)
        assert response.status_code == 404, path
        assert "Hello" not in response.data.decode()
