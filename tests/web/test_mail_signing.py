"""DKIM signatures (`pbem.mail.signing`) and the headers that keep robots from answering.

The key is made by openssl for each test; the signature is checked by dkimpy on the bytes the
real SMTP server received, against the public key as its DNS record would publish it.
"""

from __future__ import annotations

import base64
import re
import subprocess

import dkim
import pytest

from pbem.config import ConfigError
from pbem_web import ANNA, create, deliver  # tests/helpers

SELECTOR = "pbem2026"
COVERED = {"from", "to", "subject", "date", "message-id", "auto-submitted", "list-id",
           "list-unsubscribe", "list-unsubscribe-post", "mime-version", "content-type"}


@pytest.fixture
def key(tmp_path):
    """(path of a new private key's PEM file, its public key's DNS record)."""
    path = tmp_path / "dkim.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(path), "2048"], check=True,
                   capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(path), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return path, f"v=DKIM1; k=rsa; p={base64.b64encode(public).decode()}".encode()


def dns(record: bytes):
    """dkimpy's lookup, answering only the selector's record of pbem.test."""
    def lookup(name, timeout=5):
        return record if name == f"{SELECTOR}._domainkey.pbem.test.".encode() else None
    return lookup


def test_every_mail_is_signed_and_the_signature_holds_until_a_byte_changes(make_app, smtp, key):
    path, record = key
    app = make_app(DKIM_KEY=str(path), DKIM_SELECTOR=SELECTOR)
    create(app.test_client())
    deliver(app)
    assert len(smtp.raw) == 2
    for raw in smtp.raw:
        assert dkim.verify(raw, dnsfunc=dns(record))
        signature = re.search(rb"^DKIM-Signature:(.*?)\r?\n(?!\s)", raw, re.M | re.S).group(1)
        fields = dict(part.strip().split("=", 1) for part in
                      re.sub(rb"\s+", b"", signature).decode().split(";") if part)
        assert fields["d"] == "pbem.test" and fields["s"] == SELECTOR and fields["c"] == "relaxed/relaxed"
        assert COVERED <= set(fields["h"].lower().split(":"))
        forged = raw.replace(b"Subject: Babel", b"Subject: Babe1", 1)
        assert forged != raw and not dkim.verify(forged, dnsfunc=dns(record))
        body = raw.rindex(b"Hello")
        assert not dkim.verify(raw[:body] + b"J" + raw[body + 1:], dnsfunc=dns(record))


def test_without_a_key_nothing_is_signed(app, client, smtp):
    create(client)
    deliver(app)
    assert smtp.raw and not any(b"DKIM-Signature" in raw for raw in smtp.raw)


@pytest.mark.parametrize("settings, says", [
    ({"DKIM_KEY": "/nonexistent/dkim.pem", "DKIM_SELECTOR": SELECTOR}, "cannot be read"),
    ({"DKIM_KEY": "KEY"}, "DKIM_KEY is set without DKIM_SELECTOR"),
    ({"DKIM_SELECTOR": SELECTOR}, "DKIM_SELECTOR is set without DKIM_KEY"),
    ({"DKIM_KEY": "NOT_A_KEY", "DKIM_SELECTOR": SELECTOR}, "holds no PEM private key"),
])
def test_a_key_that_cannot_sign_stops_the_server_with_one_line(make_app, key, tmp_path, settings, says):
    path, _ = key
    other = tmp_path / "notes.txt"
    other.write_text("not a key")
    named = {name: str(path) if value == "KEY" else str(other) if value == "NOT_A_KEY" else value
             for name, value in settings.items()}
    with pytest.raises(ConfigError, match=says):
        make_app(**named)


def test_notices_and_answers_say_no_robot_should_answer_them(app, client, smtp):
    from pbem.mail.compose import to_message
    from pbem.store.models import Mail
    create(client)
    deliver(app)
    invitation = smtp.to(ANNA)[0]
    assert invitation["Auto-Submitted"] == "auto-generated"
    assert invitation["X-Auto-Response-Suppress"] == "All"
    assert invitation["List-Id"] == "pbem <pbem.pbem.test>"
    with app.app_context():
        from pbem.extensions import db
        row = db.session.query(Mail).first()
        row.kind = "reply_refused"   # (not committed: the message as an answer would be)
        assert to_message(row)["Auto-Submitted"] == "auto-replied"
        db.session.rollback()
