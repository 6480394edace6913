"""DKIM: every mail signed by pbem itself when DKIM_KEY and DKIM_SELECTOR are set (dkimpy).

Big providers file unsigned bulk mail as spam, and honour one-click unsubscribe only when the
signature covers List-Unsubscribe and List-Unsubscribe-Post; so those are signed with From,
Subject, Date and Message-ID and the rest of what a reader relies on. Relaxed canonicalization
of both header and body, so that an MTA refolding a header does not break the signature. The
other way, signing in the MTA (OpenDKIM with Postfix), is in the operators' guide; then these
settings stay unset.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import parseaddr

import dkim  # type: ignore[import-untyped]
from flask import current_app

SIGNED = ("From", "To", "Subject", "Date", "Message-ID", "Reply-To", "In-Reply-To", "References",
          "Auto-Submitted", "List-Id", "List-Unsubscribe", "List-Unsubscribe-Post",
          "MIME-Version", "Content-Type")


def domain() -> str:
    """The signing domain: DKIM_DOMAIN, else MAIL_FROM's (DMARC aligns it with From)."""
    config = current_app.config
    return config.get("DKIM_DOMAIN") or parseaddr(config["MAIL_FROM"])[1].rpartition("@")[2]


def sign(msg: EmailMessage) -> None:
    """Add a DKIM-Signature to the message, as it will be sent (nothing without DKIM_KEY)."""
    config = current_app.config
    key = config.get("DKIM_PRIVATE_KEY")
    if not key:
        return
    raw = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))   # (fixes the MIME boundary too)
    header = dkim.sign(raw, config["DKIM_SELECTOR"].encode(), domain().encode(), key,
                       canonicalize=(b"relaxed", b"relaxed"),
                       include_headers=[name.encode() for name in SIGNED if name in msg])
    value = header.decode().split(":", 1)[1].replace("\r\n", "").strip()
    msg.set_raw("DKIM-Signature", value)
