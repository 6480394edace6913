"""Replies over LMTP: `flask --app pbem lmtp`, a warm process an MTA hands each reply to.

The server runs in-process (a thread of its own, on a free loopback port) or as the real
command in a subprocess, on both databases; the tests talk to it with `smtplib.LMTP` as an MTA
would. LMTP answers once per accepted recipient after DATA (RFC 2033), and smtplib reads only
the first of those answers, so `deliver` reads the others itself: a wrong count would leave the
connection out of step, which the tests that go on in the same connection would see.
Replies are built from the very turn mails the `smtp` fixture's server received.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import signal
import smtplib
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid, parseaddr
from pathlib import Path

import pytest

from pbem.games.babel import GAME
from pbem_web import text_of  # tests/helpers

ANNA, BOB = "anna@example.org", "bob@example.org"
PLAYERS = {ANNA: "Anna", BOB: "Bob"}
FLASK = str(Path(sys.executable).with_name("flask"))


# -- replies --------------------------------------------------------------------------

def answer(mail, steps: str, *, sender: str | None = None, to: str | None = None) -> bytes:
    """A reply to `mail` as a mail client writes it: steps on top, the original quoted below."""
    sender = sender or parseaddr(str(mail["To"]))[1]
    reply = EmailMessage()
    reply["From"] = formataddr((PLAYERS.get(sender, "Somebody"), sender))
    reply["To"] = to or str(mail["Reply-To"])
    reply["Subject"] = "Re: " + str(mail["Subject"])
    reply["Date"] = formatdate(localtime=True)
    reply["Message-ID"] = make_msgid(domain="mail.example.org")
    reply["In-Reply-To"] = str(mail["Message-ID"])
    quoted = "\n".join(("> " + line).rstrip() for line in text_of(mail).splitlines())
    reply.set_content(f"{steps}\n\nOn {mail['Date']}, {mail['From']} wrote:\n{quoted}\n")
    return reply.as_bytes()


def first_turn(state, seat: int) -> str:
    hand = GAME.view(state, seat)["players"][seat]["hand"]
    return f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"


def nested(depth: int) -> bytes:
    """A message of `depth` multipart parts, each inside the one before."""
    head = (b"From: Anna <anna@example.org>\r\nTo: turns@pbem.test\r\nSubject: deep\r\n"
            b"Message-ID: <deep@mail.example.org>\r\nMIME-Version: 1.0\r\n")
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
                       for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\npass\r\n" + closing


# -- talking LMTP ---------------------------------------------------------------------

class Client:
    """An MTA's side of one LMTP connection."""

    def __init__(self, address):
        host, port = address
        self.lmtp = smtplib.LMTP(host, port, timeout=60)
        code, features = self.lmtp.ehlo()   # smtplib.LMTP sends LHLO here
        assert code == 250, features

    def deliver(self, raw: bytes, recipients, sender: str = ANNA, size: bool = False) -> list:
        """MAIL, one RCPT per recipient, DATA: the answers, one per recipient (or the MAIL
        command's refusal). Lines end in CRLF on the wire, as an MTA sends them (smtplib
        leaves bytes as they are)."""
        raw = re.sub(rb"\r?\n", b"\r\n", raw)
        code, text = self.lmtp.mail(sender, [f"SIZE={len(raw)}"] if size else [])
        if code != 250:
            self.lmtp.rset()
            return [(code, text.decode())]
        for recipient in recipients:
            code, text = self.lmtp.rcpt(recipient)
            assert code == 250, (recipient, code, text)
        answers = [self.lmtp.data(raw)]
        answers += [self.lmtp.getreply() for _ in recipients[1:]]
        return [(code, text.decode()) for code, text in answers]

    def noop(self) -> int:
        return self.lmtp.noop()[0]

    def close(self):
        try:
            self.lmtp.quit()
        except smtplib.SMTPServerDisconnected:
            pass


def deliver(address, raw: bytes, recipients, **kwargs) -> list:
    client = Client(address)
    try:
        return client.deliver(raw, recipients, **kwargs)
    finally:
        client.close()


@pytest.fixture
def serve():
    """Start LMTP servers for apps; each is stopped after the test, and its app's
    connections closed."""
    from pbem.extensions import db
    from pbem.inbound.lmtp import Server
    started = []

    def start(app, **kwargs) -> Server:
        server = Server(app, port=0, **kwargs).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
        with server.app.app_context():
            db.engine.dispose()


@pytest.fixture
def lmtp(app, serve):
    return serve(app)


@pytest.fixture
def game(app, actions):
    """A game where Anna acts first; her invitation (it asks for her turn) is in her inbox."""
    game = actions.create(first=0)
    actions.deliver()
    return game


def reply_to(actions, game, addr: str, steps: str | None = None):
    """The last mail to `addr`, and a reply to it (his first turn unless `steps`)."""
    mail = actions.last_mail(addr)
    loaded = actions.state(game)
    seat = 0 if addr == ANNA else 1
    return mail, answer(mail, first_turn(loaded.state, seat) if steps is None else steps)


def inbound(app) -> list[str]:
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.store.models import Inbound
    with app.app_context():
        return sorted(db.session.scalars(select(Inbound.result)))


def quarantined(app) -> list:
    from pbem.play import inbox
    with app.app_context():
        return [(row.reason, row.size) for row in inbox.quarantined()]


def applied(game):
    return (250, f"2.0.0 applied (game {game})")


# -- applying replies -----------------------------------------------------------------

def test_a_valid_reply_is_applied_and_the_other_player_gets_his_turn(app, actions, smtp, lmtp, game):
    invite, raw = reply_to(actions, game, ANNA)
    assert deliver(lmtp.address, raw, [str(invite["Reply-To"])]) == [applied(game)]
    [event] = actions.state(game).events
    assert event["type"] == "turn" and event["seat"] == 0
    assert inbound(app) == ["applied"]
    bob = actions.last_mail(BOB)
    assert bob["Subject"] == "Babel with Anna: your turn, Bob"
    assert GAME.notation(event) in text_of(bob)
    assert "+" in str(bob["Reply-To"])   # his turn is answered the same way


def test_an_invalid_reply_is_answered_with_its_failing_step(app, actions, smtp, lmtp, game):
    invite, raw = reply_to(actions, game, ANNA, "settle A\nbuild mine")
    assert deliver(lmtp.address, raw, [str(invite["Reply-To"])]) == \
        [(250, f"2.0.0 failed (game {game})")]
    assert actions.event_count(game) == 0 and inbound(app) == ["failed"]
    failed = actions.last_mail(ANNA)
    assert failed["Subject"] == "Babel with Bob: your reply was not applied"
    assert "step 1 (settle A): your figure is still on the quarry" in text_of(failed)
    assert failed["In-Reply-To"] == email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"]


def test_the_same_reply_twice_is_250_and_applies_once(app, actions, smtp, lmtp, game):
    invite, raw = reply_to(actions, game, ANNA)
    rcpt = [str(invite["Reply-To"])]
    assert deliver(lmtp.address, raw, rcpt) == [applied(game)]
    actions.deliver()
    received = len(smtp.messages)
    assert deliver(lmtp.address, raw, rcpt) == [(250, "2.0.0 duplicate")]
    assert actions.event_count(game) == 1 and inbound(app) == ["applied"]
    actions.deliver()
    assert len(smtp.messages) == received


def test_a_whole_exchange_in_one_connection(app, actions, smtp, lmtp, game):
    """An MTA keeps its connection: Anna's turn, then Bob's answer to the mail it caused,
    then a forged reply, each answered in turn on the same connection."""
    client = Client(lmtp.address)
    try:
        invite, raw = reply_to(actions, game, ANNA)
        assert client.deliver(raw, [str(invite["Reply-To"])]) == [applied(game)]
        bob_turn, raw = reply_to(actions, game, BOB)
        assert client.deliver(raw, [str(bob_turn["Reply-To"])], sender=BOB) == [applied(game)]
        forged = answer(bob_turn, "pass", to="turns+aaaa-bbbb@pbem.test")
        assert client.deliver(forged, ["turns+aaaa-bbbb@pbem.test"], sender=BOB) == \
            [(250, "2.0.0 dropped")]
        assert client.noop() == 250
    finally:
        client.close()
    assert actions.event_count(game) == 2
    assert inbound(app) == ["applied", "applied", "dropped"]


def test_several_recipients_get_one_answer_each_and_the_reply_applies_once(app, actions, smtp, lmtp, game):
    invite, raw = reply_to(actions, game, ANNA)
    token_address = str(invite["Reply-To"])
    recipients = ["turns@pbem.test", token_address, "someone.else@pbem.test"]
    client = Client(lmtp.address)
    try:
        assert client.deliver(raw, recipients) == [applied(game)] * 3
        # The connection is still in step: the next message's answers are its own.
        again = client.deliver(raw, [token_address, token_address])
        assert again == [(250, "2.0.0 duplicate")] * 2
    finally:
        client.close()
    assert actions.event_count(game) == 1 and inbound(app) == ["applied"]


def test_the_token_may_be_only_in_the_envelope(app, actions, smtp, lmtp, game):
    """Sent by Bcc or forwarded: the To header names no turn; the RCPT does."""
    invite = actions.last_mail(ANNA)
    raw = answer(invite, first_turn(actions.state(game).state, 0), to="Babel <turns@pbem.test>")
    assert deliver(lmtp.address, raw, [str(invite["Reply-To"])]) == [applied(game)]


def test_a_bounce_with_the_null_sender_is_never_answered(app, actions, smtp, lmtp, game):
    """MAIL FROM:<> becomes `Return-Path: <>` on top, as a final delivery writes it: ingest
    knows automatic mail by it, and answers nothing."""
    invite, raw = reply_to(actions, game, ANNA, "settle A")
    mails = actions.mail_count()
    assert deliver(lmtp.address, raw, [str(invite["Reply-To"])], sender="") == \
        [(250, "2.0.0 ignored")]
    assert actions.mail_count() == mails and actions.event_count(game) == 0


# -- what must not stop the server ----------------------------------------------------------

def test_a_message_that_breaks_the_parser_is_quarantined_and_the_server_goes_on(
        app, actions, smtp, lmtp, game):
    deep = nested(1000)
    client = Client(lmtp.address)
    try:
        assert client.deliver(deep, ["turns@pbem.test"]) == [(250, "2.0.0 quarantined")]
        assert client.deliver(deep, ["turns@pbem.test"]) == [(250, "2.0.0 quarantined")]
        invite, raw = reply_to(actions, game, ANNA)
        assert client.deliver(raw, [str(invite["Reply-To"])]) == [applied(game)]
    finally:
        client.close()
    [(reason, size), _] = quarantined(app)
    assert "nested" in reason and size > 50_000
    assert actions.event_count(game) == 1


@pytest.fixture
def small(app, make_app, serve):
    """An app (with the test app's key) and its server that take messages of at most
    20,000 bytes."""
    small = make_app(INGEST_MAX_BYTES=20_000, SECRET_KEY=app.config["SECRET_KEY"])
    return small, serve(small)


def test_a_message_too_large_is_refused_before_its_data_when_its_size_is_declared(
        actions, smtp, small):
    app, server = small
    client = Client(server.address)
    try:
        assert client.lmtp.has_extn("size") and client.lmtp.esmtp_features["size"] == "20000"
        small = b"From: anna@example.org\r\nSubject: small\r\n\r\npass\r\n"
        assert client.deliver(small, ["turns@pbem.test"], size=True) == [(250, "2.0.0 dropped")]
        [(code, text)] = client.deliver(b"Subject: big\r\n\r\n" + (b"x" * 76 + b"\r\n") * 400,
                                        ["turns@pbem.test"], size=True)
        assert code == 552 and "size exceeds" in text
        assert client.noop() == 250
    finally:
        client.close()
    assert quarantined(app) == []


def test_a_message_too_large_is_refused_after_its_data_once_per_recipient(actions, smtp, small):
    """Without SIZE its data is read and thrown away (not kept), then refused for each
    recipient: the MTA returns it to its sender. Nothing is stored."""
    app, server = small
    game = actions.create(first=0)
    actions.deliver()
    invite, raw = reply_to(actions, game, ANNA)
    big = raw.replace(b"\n\nOn ", b"\n\n" + (b"y" * 70 + b"\n") * 400 + b"\nOn ", 1)
    assert len(big) > 20_000 > len(raw)
    client = Client(server.address)
    try:
        answers = client.deliver(big, [str(invite["Reply-To"]), "turns@pbem.test"])
        assert [code for code, _ in answers] == [552, 552], answers
        assert client.deliver(raw, [str(invite["Reply-To"])]) == [applied(game)]
    finally:
        client.close()
    assert quarantined(app) == [] and inbound(app) == ["applied"]


def test_long_lines_are_read_as_the_pipe_reads_them(app, actions, smtp, lmtp, game):
    """RFC 5321's 1,000 characters are not enforced: such a reply would otherwise be refused
    (500) and bounced, though the pipe applies it."""
    invite, raw = reply_to(actions, game, ANNA)
    raw = b"X-Long: " + b"x" * 5000 + b"\n" + raw
    assert deliver(lmtp.address, raw, [str(invite["Reply-To"])]) == [applied(game)]


def unreachable_url(database_url: str, tmp_path) -> str:
    """The test's kind of database, where nothing answers."""
    if database_url.startswith("sqlite"):   # a folder where the file should be: it cannot open
        (tmp_path / "a-folder").mkdir()
        return f"sqlite:///{tmp_path / 'a-folder'}"
    with socket.socket() as s:   # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/test?connect_timeout=2"


def test_a_message_while_the_database_is_unreachable_is_answered_451(
        database_url, tmp_path, app, actions, smtp, serve, game, caplog):
    """The MTA keeps it and tries again: once the database answers, it is applied."""
    from pbem import create_app
    away = create_app({"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"],
                       "SQLALCHEMY_DATABASE_URI": unreachable_url(database_url, tmp_path),
                       "BASE_URL": app.config["BASE_URL"], "MAIL_URL": app.config["MAIL_URL"],
                       "MAIL_FROM": app.config["MAIL_FROM"]})
    invite, raw = reply_to(actions, game, ANNA)
    rcpt = [str(invite["Reply-To"]), "turns@pbem.test"]
    server = serve(away)
    client = Client(server.address)
    try:
        for _ in range(2):   # and again: the server is still there
            assert client.deliver(raw, rcpt) == [(451, "4.3.0 Not handled now, try again later")] * 2
        assert client.noop() == 250
    finally:
        client.close()
    assert "the database cannot be reached" in caplog.text
    assert actions.event_count(game) == 0
    # The MTA's next try reaches a server whose database answers.
    assert deliver(serve(app).address, raw, rcpt) == [applied(game)] * 2
    assert actions.event_count(game) == 1


def test_a_database_restart_costs_one_451_and_the_server_recovers(database_url, make_app, actions, smtp,
                                                                   serve):
    """The pooled connections die with the restart: the message that meets one is answered
    451; the pool is then renewed, and the MTA's next try applies it, with no restart of ours."""
    if database_url.startswith("sqlite"):
        pytest.skip("a database server restart: PostgreSQL only")
    import psycopg
    name = "pbem-lmtp-" + os.urandom(4).hex()
    app = make_app(database_url + f"&application_name={name}")
    actions.app = app
    game = actions.create(first=0)
    actions.deliver()
    server = serve(app, workers=1)
    invite, raw = reply_to(actions, game, ANNA, "settle A")
    assert deliver(server.address, raw, [str(invite["Reply-To"])])[0][0] == 250   # failed: warm
    invite, raw = reply_to(actions, game, ANNA)   # answering the failure mail, rightly
    rcpt = [str(invite["Reply-To"])]
    admin = database_url.split("?")[0].replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        killed = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                              "WHERE application_name = %s", (name,)).fetchone()[0]
    assert killed >= 1
    assert deliver(server.address, raw, rcpt) == [(451, "4.3.0 Not handled now, try again later")]
    assert deliver(server.address, raw, rcpt) == [applied(game)]
    assert actions.event_count(game) == 1


def test_a_database_never_upgraded_is_answered_451_and_logged(
        database_url, tmp_path, app, actions, smtp, serve, game, caplog):
    """An operator's mistake, not the message's: the MTA keeps every message until it is fixed."""
    from pbem import create_app
    if database_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    else:
        url = database_url.replace("search_path%3Dt_", "search_path%3Dempty_t_")
    empty = create_app({"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"],
                        "SQLALCHEMY_DATABASE_URI": url})
    invite, raw = reply_to(actions, game, ANNA)
    server = serve(empty)
    for _ in range(2):
        assert deliver(server.address, raw, [str(invite["Reply-To"])]) == \
            [(451, "4.3.0 Not handled now, try again later")]
    if database_url.startswith("sqlite"):   # "no such table" is an OperationalError
        assert "not handled now (the MTA tries again): the database cannot be reached" in caplog.text
    else:                                   # "relation does not exist": not one
        assert "ingest failed; answered 451 so that the MTA tries again" in caplog.text
        assert "ProgrammingError" in caplog.text


@contextmanager
def database_locked(app):
    """Hold a lock every reply waits on: SQLite's write lock, PostgreSQL's on the games."""
    from sqlalchemy import text

    from pbem.extensions import db
    with app.app_context():
        with db.engine.connect() as conn:
            if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.execute(text("LOCK TABLE games IN ACCESS EXCLUSIVE MODE"))
            try:
                yield
            finally:
                conn.rollback()


def in_background(address, raw: bytes, recipients) -> tuple[threading.Thread, list]:
    answers = []
    thread = threading.Thread(target=lambda: answers.extend(deliver(address, raw, recipients)))
    thread.start()
    return thread, answers


def test_a_slow_message_does_not_stop_the_server(app, actions, smtp, serve, game):
    """While one message is being ingested (here: waiting on a database lock), the server
    still accepts connections, greets and answers."""
    server = serve(app)
    invite, raw = reply_to(actions, game, ANNA)
    with database_locked(app):
        slow, answers = in_background(server.address, raw, [str(invite["Reply-To"])])
        time.sleep(0.5)
        assert not answers   # still waiting on the lock
        other = Client(server.address)
        assert other.noop() == 250
        other.close()
    slow.join(30)
    assert answers == [applied(game)]


# -- the command --------------------------------------------------------------------------

def command_env(app, database_url: str) -> dict:
    env = dict(os.environ)
    env.update(SECRET_KEY=app.config["SECRET_KEY"], DATABASE_URL=database_url,
               BASE_URL=app.config["BASE_URL"], MAIL_URL=app.config["MAIL_URL"],
               MAIL_FROM=app.config["MAIL_FROM"])
    env.pop("FLASK_DEBUG", None)
    return env


def start_command(app, database_url: str, *args) -> tuple[subprocess.Popen, tuple]:
    proc = subprocess.Popen([FLASK, "--app", "pbem", "lmtp", "--port", "0", *args],
                            env=command_env(app, database_url), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    found = re.fullmatch(r"pbem lmtp: listening on (127\.0\.0\.1):(\d+) \(messages up to "
                         r"10485760 bytes\)\n", line)
    if not found:
        proc.kill()
        raise AssertionError(line + proc.stderr.read())
    return proc, (found.group(1), int(found.group(2)))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_command_serves_until_a_signal_stops_it(database_url, app, actions, smtp, game, sig):
    proc, address = start_command(app, database_url)
    try:
        invite, raw = reply_to(actions, game, ANNA)
        assert deliver(address, raw, [str(invite["Reply-To"])]) == [applied(game)]
        assert actions.last_mail(BOB)["Subject"] == "Babel with Anna: your turn, Bob"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out == "pbem lmtp: stopped\n"
    assert f"applied (game {game})" in err and "<- anna@example.org to turns+" in err
    with pytest.raises(OSError):
        Client(address)


def test_the_command_finishes_the_message_it_is_ingesting_before_it_stops(
        database_url, app, actions, smtp, game):
    proc, address = start_command(app, database_url)
    try:
        invite, raw = reply_to(actions, game, ANNA)
        with database_locked(app):
            slow, answers = in_background(address, raw, [str(invite["Reply-To"])])
            time.sleep(1)
            proc.terminate()   # SIGTERM while the reply waits on the lock
            time.sleep(0.5)
            assert proc.poll() is None and not answers
        slow.join(30)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert answers == [applied(game)]
    assert proc.returncode == 0 and out == "pbem lmtp: stopped\n", err
    assert actions.event_count(game) == 1


def test_the_command_says_so_when_its_port_is_taken(app, lmtp):
    host, port = lmtp.address
    result = app.test_cli_runner().invoke(args=["lmtp", "--host", host, "--port", str(port)])
    assert result.exit_code == 1
    assert result.output == f"Error: cannot listen on {host}:{port}: Address already in use\n"


def test_the_command_listens_on_a_unix_socket(database_url, app, actions, smtp, game, tmp_path):
    path = str(tmp_path / "lmtp.sock")
    proc = subprocess.Popen([FLASK, "--app", "pbem", "lmtp", "--socket", path],
                            env=command_env(app, database_url), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == f"pbem lmtp: listening on {path} (messages up to 10485760 bytes)\n"
        assert os.stat(path).st_mode & 0o777 == 0o660
        invite, raw = reply_to(actions, game, ANNA)
        client = smtplib.LMTP(path)   # smtplib.LMTP connects to a path starting with "/"
        client.ehlo()
        client.mail(ANNA)
        client.rcpt(str(invite["Reply-To"]))
        assert client.data(raw) == (250, f"2.0.0 applied (game {game})".encode())
        client.quit()
        proc.terminate()
        proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and not os.path.exists(path)


# -- idle connections and too many ----------------------------------------------------------

def banner(address) -> tuple[socket.socket, bytes]:
    """A raw connection, as an MTA (or anybody) opens one, and the server's first line."""
    conn = socket.create_connection(address, timeout=10)
    return conn, conn.recv(1024)


def closed_by_server(conn: socket.socket, within: float) -> bool:
    """Whether the server closes the connection within `within` seconds (EOF read)."""
    conn.settimeout(within)
    try:
        while conn.recv(1024):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


@pytest.mark.serial   # 0.2 s of slack: another test's load would make the busy one look idle
def test_idle_connections_are_closed_and_busy_ones_are_not(app, serve):
    server = serve(app, idle_seconds=0.5)
    idle, hello = banner(server.address)
    busy, _ = banner(server.address)
    assert hello.startswith(b"220 ")
    started = time.monotonic()
    for _ in range(8):          # a command every 0.2 s: never idle for 0.5 s
        busy.sendall(b"NOOP\r\n")
        assert busy.recv(1024).startswith(b"250")
        time.sleep(0.2)
    assert time.monotonic() - started > 1.5
    assert closed_by_server(idle, within=0.1)           # closed long ago
    assert closed_by_server(busy, within=1.5)           # idle now: closed in turn
    busy.close()
    idle.close()


def test_connections_over_the_cap_are_answered_421_and_closed(app, actions, smtp, serve, game):
    server = serve(app, max_connections=3, idle_seconds=1.0)
    held = [banner(server.address) for _ in range(3)]
    assert all(line.startswith(b"220 ") for _, line in held)
    extra, line = banner(server.address)
    assert line.startswith(b"421 4.3.2"), line
    assert closed_by_server(extra, within=2)
    extra.close()
    for conn, _ in held:        # the idle ones are closed after a second, freeing their places
        assert closed_by_server(conn, within=3)
        conn.close()
    time.sleep(0.1)
    # A real delivery goes through again.
    invite, raw = reply_to(actions, game, ANNA)
    assert deliver(server.address, raw, [str(invite["Reply-To"])]) == [applied(game)]


def test_three_hundred_idle_connections_do_not_stay_open(app, serve):
    server = serve(app, idle_seconds=5, max_connections=50)
    started = time.monotonic()
    conns = [socket.create_connection(server.address, timeout=10) for _ in range(300)]
    lines = [c.recv(1024) for c in conns]
    assert time.monotonic() - started < 5          # (else some were closed for idling already)
    assert sum(x.startswith(b"220 ") for x in lines) == 50
    assert sum(x.startswith(b"421 ") for x in lines) == 250
    assert all(closed_by_server(c, within=7) for c in conns)
    for c in conns:
        c.close()
