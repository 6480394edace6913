"""Spam complaints from providers' feedback loops (ARF, RFC 5965), through the real LMTP server.

A report names our mail by the bounce address it was sent from (the Return-Path of the copy it
carries, or the envelope it comes to); that address is signed, so a forged report silences
nobody. A real one stops all mail to the address, as an unsubscribe does, and the operator sees
it among the addresses never mailed.
"""

from __future__ import annotations

import smtplib
from email.utils import make_msgid

import pytest
from sqlalchemy import select

from pbem.extensions import db
from pbem.mail.bounces import bounce_address
from pbem.play import addresses
from pbem.store.models import SUPPRESSED, Mail
from pbem_web import ANNA, BOB, create, deliver  # tests/helpers


@pytest.fixture
def lmtp(app):
    from pbem.inbound.lmtp import Server
    server = Server(app, port=0).start()
    yield server.address
    server.stop()
    with app.app_context():
        db.engine.dispose()


def send(address, raw: bytes, recipients: list[str]) -> None:
    """As the MTA hands a message to pbem's LMTP server: every recipient accepted."""
    client = smtplib.LMTP(*address, timeout=60)
    try:
        assert client.sendmail("fbl@provider.example", recipients, raw) == {}
    finally:
        client.quit()


def report(copy: bytes, return_path: str | None, feedback_type: str = "abuse") -> bytes:
    """An ARF report as a feedback loop sends it, with a copy of the reported mail."""
    head = f"Return-Path: <{return_path}>\r\n".encode() if return_path else b""
    return (b"From: Feedback Loop <fbl@provider.example>\r\n"
            b"To: turns@pbem.test\r\n"
            b"Subject: FW: a complaint\r\n"
            b"Message-ID: " + make_msgid(domain="provider.example").encode() + b"\r\n"
            b"MIME-Version: 1.0\r\n"
            b'Content-Type: multipart/report; report-type=feedback-report; boundary="ARF"\r\n\r\n'
            b"--ARF\r\nContent-Type: text/plain\r\n\r\nThis is an email abuse report.\r\n\r\n"
            b"--ARF\r\nContent-Type: message/feedback-report\r\n\r\n"
            b"Feedback-Type: " + feedback_type.encode() + b"\r\nUser-Agent: Test-FBL/1.0\r\n"
            b"Version: 1\r\nOriginal-Rcpt-To: <anna@example.org>\r\n\r\n"
            b"--ARF\r\nContent-Type: message/rfc822\r\n\r\n" + head + copy + b"\r\n--ARF--\r\n")


def invitation(app, smtp, address: str) -> tuple[bytes, str]:
    """The invitation's bytes as received, and the bounce address it was sent from."""
    with app.app_context():
        mail = db.session.scalar(select(Mail).where(Mail.to_addr == address))
        bounce = bounce_address(mail.id)
    [raw] = [r for r, (rcpts, _) in zip(smtp.raw, smtp.messages) if address in rcpts]
    return raw, bounce


def play(app, seat: int) -> None:
    from pbem.games.rng import Rng
    from pbem.play import turns
    from pbem.store import gamelog
    with app.app_context():
        game_id = db.session.scalar(select(Mail.game_id).where(Mail.game_id.is_not(None)))
        loaded = gamelog.load(game_id)
        text = loaded.engine.random_submission(loaded.state, seat, Rng(seat))
        turns.submit(game_id, seat, loaded.seq, text, turns.Origin(turns.WEB))


def inbound(app) -> list[str]:
    from pbem.store.models import Inbound
    with app.app_context():
        return list(db.session.scalars(select(Inbound.result).order_by(Inbound.received_at)))


def suppressed(app) -> dict[str, str]:
    with app.app_context():
        return {s.address: s.reason for s in addresses.suppressions()}


@pytest.mark.parametrize("how", ["copy's Return-Path", "envelope"])
def test_a_complaint_stops_all_mail_to_its_address(app, client, smtp, lmtp, how):
    create(client)
    deliver(app)
    copy, bounce = invitation(app, smtp, ANNA)
    if how == "envelope":
        send(lmtp, report(copy, None), [bounce])
    else:
        send(lmtp, report(copy, bounce), ["turns@pbem.test"])
    assert inbound(app) == ["complaint"]
    assert suppressed(app) == {ANNA: "spam report (abuse)"}
    received = len(smtp.messages)
    play(app, 0)   # Bob's turn mail goes; then Anna's does not
    play(app, 1)
    deliver(app)
    with app.app_context():
        assert db.session.scalar(select(Mail.status).where(Mail.to_addr == ANNA)
                                 .order_by(Mail.id.desc())) == SUPPRESSED
    assert [rcpts for rcpts, _ in smtp.messages[received:]] == [[BOB]]


def test_a_forged_or_unsigned_report_silences_nobody(app, client, smtp, lmtp):
    create(client)
    deliver(app)
    copy, bounce = invitation(app, smtp, ANNA)
    forged = bounce.replace(bounce.split("-")[-1].split("@")[0], "a" * 16)
    send(lmtp, report(copy, forged), ["turns@pbem.test"])
    send(lmtp, report(copy, None), ["turns@pbem.test"])
    assert inbound(app) == ["ignored", "ignored"]
    assert suppressed(app) == {}


def test_the_pipe_says_what_a_complaint_did(app, client, smtp):
    create(client)
    deliver(app)
    copy, bounce = invitation(app, smtp, ANNA)
    result = app.test_cli_runner().invoke(args=["ingest"], input=report(copy, bounce, "fraud"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("complaint")
    assert f"{ANNA} reported mail #" in result.output and "as fraud" in result.output
    assert suppressed(app) == {ANNA: "spam report (fraud)"}
