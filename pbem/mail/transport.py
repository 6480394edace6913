"""Sending one message: printed to the console, or over SMTP.

MAIL_URL chooses:
- `console:` prints each mail (the default on one machine);
- `smtp://user:pass@host:port` plain SMTP (port 25 by default);
- `smtp+starttls://...` SMTP upgraded with STARTTLS (port 587 by default);
- `smtps://...` SMTP over TLS from the start (port 465 by default).
A failure is either permanent (the server said 5xx: retrying cannot help) or
transient (anything else: 4xx, refused or dropped connections, timeouts).
"""

from __future__ import annotations

import smtplib
import ssl
import sys
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

DEFAULT_PORTS = {"smtp": 25, "smtp+starttls": 587, "smtp+tls": 587, "smtps": 465, "smtp+ssl": 465}
TIMEOUT = 30


class DeliveryFailure(Exception):
    permanent = False


class PermanentFailure(DeliveryFailure):
    permanent = True


class TransientFailure(DeliveryFailure):
    pass


class ConsoleTransport:
    def __init__(self, stream=None):
        self.stream = stream

    def send(self, msg: EmailMessage, envelope_from: str | None = None) -> None:
        out = self.stream or sys.stdout
        body = msg.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        print(f"--- mail to {msg['To']}\nSubject: {msg['Subject']}\n\n{text}---", file=out, flush=True)


class SmtpTransport:
    def __init__(self, url: str):
        parts = urlsplit(url)
        self.scheme = parts.scheme
        if self.scheme not in DEFAULT_PORTS:
            raise ValueError(f"MAIL_URL: unknown scheme {self.scheme!r}; use console:, smtp://, "
                             "smtp+starttls:// or smtps://")
        self.host = parts.hostname or "localhost"
        self.port = parts.port or DEFAULT_PORTS[self.scheme]
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None

    def _connect(self) -> smtplib.SMTP:
        if self.scheme in ("smtps", "smtp+ssl"):
            return smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT,
                                    context=ssl.create_default_context())
        smtp = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        if self.scheme in ("smtp+starttls", "smtp+tls"):
            smtp.starttls(context=ssl.create_default_context())
        return smtp

    def send(self, msg: EmailMessage, envelope_from: str | None = None) -> None:
        """Send one message; `envelope_from` is where bounces go (MAIL FROM), else From."""
        try:
            with self._connect() as smtp:
                if self.user:
                    smtp.login(self.user, self.password or "")
                smtp.send_message(msg, from_addr=envelope_from)
        except smtplib.SMTPRecipientsRefused as error:
            codes = [code for code, _ in error.recipients.values()]
            kind = PermanentFailure if codes and min(codes) >= 500 else TransientFailure
            raise kind(f"recipient refused: {error.recipients}") from None
        except smtplib.SMTPResponseException as error:
            kind = PermanentFailure if error.smtp_code >= 500 else TransientFailure
            raise kind(f"{error.smtp_code} {error.smtp_error!r}") from None
        except (smtplib.SMTPException, OSError) as error:
            raise TransientFailure(f"{type(error).__name__}: {error}") from None


def from_url(url: str):
    if url.startswith("console:"):
        return ConsoleTransport()
    return SmtpTransport(url)
