"""Incoming mail used against the server and against people: replayed, and shown to fail.

- Backscatter: a reply with a forged From got a refusal mail (20 of 20 forged senders did).
  Now answers go only to the address that plays the seat the reply's token names, within a
  budget; a reply that names no seat is dropped unanswered.
- One mail stopped Maildir ingest for everyone: 58 KB of ~1,000 nested multipart parts raised
  RecursionError, was never marked seen, sorted first and blocked every later reply. Now any
  mail that cannot be read is quarantined (kept for the operator, moved out of the Maildir's
  way) and the next one is read.
- A 20 MB reply must not produce a 50 MB answer.
- `flask ingest` exits 75 (EX_TEMPFAIL) on a transient failure, printing one line and no
  traceback, so the MTA keeps the mail; 0 after any answer for good.
- Bounces were dropped as automatic mail and the game waited forever. Now every mail has its
  own envelope sender (VERP); a delivery status notification marks that mail failed, the
  game's pages show it, and the other players are told.
"""

from __future__ import annotations

import mailbox
import os
import re
import socket
import subprocess
import sys
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.store import gamelog
from pbem.store.models import FAILED, Inbound, Mail, Quarantined
from pbem_web import ANNA, BOB, create, deliver, reply_to, text_of  # tests/helpers

ROOT = Path(__file__).resolve().parents[2]
FLASK = str(Path(sys.executable).parent / "flask")
NAMES = {ANNA: "Anna", BOB: "Bob"}


def ingest(app, raw: bytes, recipients=()):
    from pbem.inbound.ingest import ingest_bytes
    with app.app_context():
        return ingest_bytes(raw, recipients)


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def mails(app) -> list[Mail]:
    with app.app_context():
        rows = db.session.scalars(select(Mail).order_by(Mail.id)).all()
        db.session.expunge_all()
        return rows


def nested(depth: int, steps: str = "settle A") -> bytes:
    """A message of `depth` multipart parts, each inside the last (about 58 bytes a level)."""
    head = (f"From: Anna <{ANNA}>\nTo: turns+x-y@pbem.test\nSubject: Re: your turn\n"
            f"Message-ID: {make_msgid(domain='mail.example.org')}\nMIME-Version: 1.0\n")
    body = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n' for i in range(depth))
    body += f"Content-Type: text/plain\n\n{steps}\n"
    body += "".join(f"--b{i}--\n" for i in reversed(range(depth)))
    return (head + body).encode()


@pytest.fixture
def game(app, client):
    game_id = create(client, first=0)
    deliver(app)
    return game_id


# -- backscatter -------------------------------------------------------------------------------

def test_twenty_forged_senders_get_nothing(app, smtp, game):
    invite = smtp.to(ANNA)[-1]
    before = len(smtp.messages)
    for i in range(20):   # the seat's own token, from twenty strangers
        raw = reply_to(invite, "pass", NAMES).replace(ANNA.encode(), f"victim{i}@example.net".encode(), 1)
        assert ingest(app, raw).status == "refused"
    for i in range(20):   # and tokens that name no seat at all
        raw = reply_to(invite, "pass", NAMES).replace(b"turns+", f"turns+x{i}".encode(), 1)
        assert ingest(app, raw).status == "dropped"
    deliver(app)
    strangers = [r for r, _ in smtp.messages[before:] if r != [ANNA]]
    assert strangers == []
    # Anna heard of the first few forgeries only: her address's budget.
    assert len(smtp.messages) - before == app.config["REFUSALS_PER_ADDRESS_PER_HOUR"] == 5


# -- a mail that cannot be read stops nothing ------------------------------------------------

def test_a_thousand_nested_parts_are_quarantined_and_the_maildir_goes_on(app, smtp, game, tmp_path):

    bomb = nested(1000)
    assert 50_000 < len(bomb) < 70_000
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path, create=True)
    box.add(bomb)
    box.add(reply_to(smtp.to(ANNA)[-1], first_turn(app, game), NAMES))
    result = app.test_cli_runner().invoke(args=["ingest", "--maildir", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] in ("quarantined: #1: nested too deeply to read",
                        "quarantined: #1: nested more than 20 levels deep"), lines
    assert lines[1].startswith(f"applied (game {game})")
    assert os.listdir(path / "new") == []
    assert len(os.listdir(path / ".Quarantine" / "new")) == 1
    with app.app_context():
        [kept] = db.session.scalars(select(Quarantined)).all()
        assert kept.size == len(bomb) and kept.raw == bomb
        assert (kept.sender, kept.subject) == (ANNA, "Re: your turn")   # read from its headers
    # The next run reads nothing again.
    again = app.test_cli_runner().invoke(args=["ingest", "--maildir", str(path)])
    assert again.exit_code == 0 and again.output == ""


def first_turn(app, game: str) -> str:
    from pbem.games.rng import Rng
    with app.app_context():
        loaded = gamelog.load(game)
        [decision] = loaded.engine.to_act(loaded.state)
        return loaded.engine.random_submission(loaded.state, decision.seat, Rng(1))


@pytest.mark.parametrize("depth", [25, 200, 990])
def test_deep_nesting_is_quarantined_on_standard_input_too(app, game, depth):
    result = app.test_cli_runner().invoke(args=["ingest"], input=nested(depth))
    assert result.exit_code == 0 and result.output.startswith("quarantined: #"), result.output
    assert count(app, Quarantined) == 1 and count(app, Inbound) == 0


def test_shallow_nesting_is_still_read(app, smtp, game):
    reply_to = str(smtp.to(ANNA)[-1]["Reply-To"]).encode()
    raw = nested(5, first_turn(app, game)).replace(b"turns+x-y@pbem.test", reply_to)
    assert ingest(app, raw).status == "applied"


def test_a_message_larger_than_the_limit_is_quarantined_unread(make_app, smtp):
    app = make_app(INGEST_MAX_BYTES=100_000)
    raw = b"From: a@example.org\nTo: turns@pbem.test\nSubject: x\n\n" + b"y" * 200_000
    result = app.test_cli_runner().invoke(args=["ingest"], input=raw)
    assert result.exit_code == 0 and "larger than 100000 bytes" in result.output
    with app.app_context():
        [kept] = db.session.scalars(select(Quarantined)).all()
        assert kept.size == 100_001 and len(kept.raw) <= 256 * 1024


def test_a_twenty_megabyte_reply_gets_a_small_answer(app, smtp, game):
    steps = "settle A\n" + "settle P\n" * (20 * 1024 * 1024 // 9)
    raw = reply_to(smtp.to(ANNA)[-1], steps, NAMES, quote="none")
    assert len(raw) > 20 * 1024 * 1024
    result = app.test_cli_runner().invoke(args=["ingest"], input=raw)
    assert result.exit_code == 0
    # Over INGEST_MAX_BYTES (10 MB by default): kept for the operator, not read, not answered.
    assert "quarantined" in result.output and count(app, Quarantined) == 1
    # Under it: read, refused with its step, and the answer quotes only what could be read.
    raw = reply_to(smtp.to(ANNA)[-1], "settle A\n" + "settle P\n" * (5 * 1024 * 1024 // 9), NAMES,
                   quote="none")
    assert ingest(app, raw).status == "failed"
    [answer] = [m for m in mails(app) if m.kind == "reply_failed"]
    assert len(answer.text) + len(answer.html) < 200_000


# -- exit codes an MTA understands -------------------------------------------------------------

def flask_ingest(database_url: str, raw: bytes, tmp_path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "FLASK_", "DATABASE_"))}
    env.update(DATABASE_URL=database_url, SECRET_KEY="k" * 40, BASE_URL="http://pbem.test",
               MAIL_URL="console:", PBEM_INSTANCE_PATH=str(tmp_path))
    return subprocess.run([FLASK, "--app", "pbem", "ingest"], input=raw, capture_output=True,
                          cwd=ROOT, env=env, timeout=120)


def test_a_database_that_cannot_be_reached_exits_75_with_one_line(tmp_path):
    with socket.socket() as s:   # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = flask_ingest(f"postgresql://postgres@127.0.0.1:{port}/none", nested(2), tmp_path)
    assert done.returncode == 75, done
    assert done.stdout == b""
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem ingest: not handled now, try again later")
    assert "Traceback" not in done.stderr.decode()


def test_an_answered_message_exits_0(app, database_url, tmp_path):
    done = flask_ingest(database_url, b"From: someone@example.org\nTo: turns@pbem.test\n"
                                      b"Subject: hello\nMessage-ID: <1@x>\n\nhi\n", tmp_path)
    assert done.returncode == 0, done
    assert done.stdout.decode().startswith("dropped") and done.stderr == b""


# -- bounces ------------------------------------------------------------------------------------

def bounce_of(app, mail_id: int, action: str = "failed", status: str = "5.1.1",
              to: str | None = None) -> bytes:
    """A delivery status notification (RFC 3464) as a remote mail server writes it, sent to
    the envelope sender the mail went out with."""
    from pbem.mail.bounces import bounce_address
    with app.app_context():
        address = to or bounce_address(mail_id)
        recipient = db.session.get(Mail, mail_id).to_addr
    return (f"From: Mail Delivery System <MAILER-DAEMON@mx.example.net>\n"
            f"To: {address}\nSubject: Undelivered Mail Returned to Sender\n"
            f"Message-ID: {make_msgid(domain='mx.example.net')}\nAuto-Submitted: auto-replied\n"
            f"MIME-Version: 1.0\n"
            f'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\n\n'
            f"--B\nContent-Type: text/plain\n\n"
            f"I'm sorry to have to inform you that your message could not be delivered.\n"
            f"--B\nContent-Type: message/delivery-status\n\n"
            f"Reporting-MTA: dns; mx.example.net\n\n"
            f"Final-Recipient: rfc822; {recipient}\nAction: {action}\nStatus: {status}\n"
            f"Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected\n\n"
            f"--B--\n").encode()


def parsed_dsn(raw: bytes):
    import email
    import email.policy
    return email.message_from_bytes(raw, policy=email.policy.default)


def test_every_mail_goes_out_with_its_own_bounce_address(app, client, smtp, game):
    from pbem.mail.bounces import bounce_address, bounced_mail_id
    with app.app_context():
        addresses = {m.id: bounce_address(m.id) for m in db.session.scalars(select(Mail))}
        assert len(set(addresses.values())) == len(addresses) == 2
        for mail_id, address in addresses.items():
            assert re.fullmatch(r"turns\+bounce-\d+-[a-z2-7]{16}@pbem\.test", address)
            msg = EmailMessage()
            msg["To"] = address
            assert bounced_mail_id(msg) == mail_id
            forged = EmailMessage()
            forged["To"] = address.replace(f"bounce-{mail_id}-", f"bounce-{mail_id + 7}-")
            assert bounced_mail_id(forged) is None


def test_a_bounce_marks_the_mail_failed_shows_it_and_tells_the_others(app, client, smtp, game):
    [bob_invite] = [m for m in mails(app) if m.to_addr == BOB]
    dsn = bounce_of(app, bob_invite.id)
    assert parsed_dsn(dsn).get_content_type() == "multipart/report"
    result = ingest(app, dsn)
    assert result.status == "bounce" and result.game_id == game, result
    with app.app_context():
        mail = db.session.get(Mail, bob_invite.id)
        assert mail.status == FAILED and mail.last_error.startswith("bounced (5.1.1)")
    record = client.get(f"/games/{game}/record").data.decode()
    assert "could not be delivered" in record and "Bob" in record
    deliver(app)
    [told] = [m for _, m in smtp.messages if "cannot be reached" in str(m["Subject"])]
    assert told["To"].addresses[0].addr_spec == ANNA
    assert "mail to Bob" in text_of(told)
    # A second bounce the same day tells nobody again; the same message twice is one.
    assert ingest(app, dsn).status == "duplicate"
    assert ingest(app, bounce_of(app, bob_invite.id)).status == "bounce"
    assert len([m for m in mails(app) if m.kind == "unreachable"]) == 1


def test_a_delay_notice_or_a_vacation_reply_to_a_bounce_address_changes_nothing(app, smtp, game):
    [bob_invite] = [m for m in mails(app) if m.to_addr == BOB]
    assert ingest(app, bounce_of(app, bob_invite.id, action="delayed", status="4.4.7")).status == "ignored"
    from pbem.mail.bounces import bounce_address
    with app.app_context():
        address = bounce_address(bob_invite.id)
    vacation = EmailMessage()
    vacation["From"] = formataddr(("Bob", BOB))
    vacation["To"] = address
    vacation["Subject"] = "Out of office"
    vacation["Auto-Submitted"] = "auto-replied"
    vacation["Message-ID"] = make_msgid(domain="example.org")
    vacation.set_content("I am away.")
    assert ingest(app, vacation.as_bytes()).status == "ignored"
    with app.app_context():
        assert db.session.get(Mail, bob_invite.id).status != FAILED


def test_a_forged_bounce_marks_nothing(app, smtp, game):
    [bob_invite] = [m for m in mails(app) if m.to_addr == BOB]
    forged = bounce_of(app, bob_invite.id, to=f"turns+bounce-{bob_invite.id}-aaaaaaaaaaaaaaaa@pbem.test")
    assert ingest(app, forged).status == "ignored"
    with app.app_context():
        assert db.session.get(Mail, bob_invite.id).status != FAILED


# -- answers stay in the game's thread ----------------------------------------------------------

def test_a_failed_reply_is_answered_in_the_games_thread(app, smtp, game):
    invite = smtp.to(ANNA)[-1]
    raw = reply_to(invite, "settle A", NAMES)
    assert ingest(app, raw).status == "failed"
    deliver(app)
    answer = smtp.to(ANNA)[-1]
    reply_id = parsed_dsn(raw)["Message-ID"]
    assert answer["In-Reply-To"] == reply_id
    assert answer["References"] == f"<{game}.0@pbem.test> {reply_id}"
