"""The channels' sender: works the notices' outbox (`Notice`) as `deliver` works the mail's.

Each notice is claimed in its own transaction (on PostgreSQL `FOR UPDATE SKIP LOCKED`; on
SQLite a lease moved by one conditional UPDATE), sent, and marked in the same transaction: a
notice is sent by one worker, once. (A worker killed between the receiver's answer and the
commit sends it again later; the `X-Pbem-Notice` header lets a receiver see the repeat.)

A failed delivery is retried with the mail's backoff; a notice that still fails after
`NOTICE_RETRY_LIMIT` attempts is given up (its mail went all the same), and a channel whose
deliveries failed `CHANNEL_FAILURE_LIMIT` times in a row is turned off, with why, for its
home to show.

A webhook gets the body as JSON, signed: `X-Pbem-Signature: sha256=<hex>`, the HMAC-SHA256 of
the body's bytes under the channel's secret. It is never redirected (a redirect could lead the
server to an address the URL's check refused), goes through no proxy of the environment, and
connects to the address the check resolved (`targets.checked_address`; the URL's name still
goes in the Host header and, over TLS, in SNI and the certificate's check). A push goes to its
push service's address the same way (`_PinnedAdapter`, requests' transport under pywebpush).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import http.client
import json
import socket
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

import requests
from flask import current_app
from requests.adapters import HTTPAdapter
from sqlalchemy import select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.mail.deliver import backoff, claim
from pbem.policy import targets
from pbem.policy.deadlines import utc
from pbem.store.models import FAILED, PENDING, PUSH, SENT, WEBHOOK, Channel, Notice, utcnow
from pbem.store.transaction import transaction

SIGNATURE = "X-Pbem-Signature"
NOTICE_ID = "X-Pbem-Notice"


class Undelivered(Exception):
    """A delivery that did not arrive; `permanent`: trying again would not help."""

    def __init__(self, why: str, permanent: bool = False):
        super().__init__(why)
        self.permanent = permanent


@dataclass
class Report:
    sent: int = 0
    retrying: int = 0
    failed: int = 0


def signature(secret: str, raw: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args, **_kwargs):
        return None   # (the 3xx is then an HTTPError: a failure, said as such)


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to a checked address, whatever its host name resolves to now."""

    def __init__(self, *args, address: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """The same over TLS: the name is still the one sent (SNI) and checked (the certificate)."""

    def __init__(self, *args, address: str, context: ssl.SSLContext | None = None, **kwargs):
        self.tls = context or ssl.create_default_context()
        super().__init__(*args, context=self.tls, **kwargs)
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def _opener(address: str) -> urllib.request.OpenerDirector:
    """An opener that calls every URL at `address`, with no proxy and no redirect."""
    class Plain(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(functools.partial(_PinnedHTTP, address=address), req)

    class Secure(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(functools.partial(_PinnedHTTPS, address=address), req)

    return urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect(), Plain(),
                                       Secure())


def post_webhook(channel: Channel, notice: Notice) -> None:
    """POST the notice's body to the channel's URL, at the address its check resolved;
    Undelivered unless it answers 2xx."""
    try:
        address = targets.checked_address(urlsplit(channel.target).hostname or "")
    except BadInput as refused:
        raise Undelivered(str(refused.message), permanent=True) from None
    raw = json.dumps({**notice.body, "id": notice.id}, ensure_ascii=False).encode()
    request = urllib.request.Request(channel.target, data=raw, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "pbem-notices",
        SIGNATURE: signature(channel.secret, raw), NOTICE_ID: str(notice.id)})
    try:
        with _opener(address).open(request,
                               timeout=current_app.config["NOTICE_TIMEOUT_SECONDS"]) as answer:
            answer.read(1024)
    except urllib.error.HTTPError as error:
        # A client error but for "too many" or "timeout" will not change by trying again.
        permanent = 400 <= error.code < 500 and error.code not in (408, 429)
        raise Undelivered(f"HTTP {error.code} {error.reason}", permanent) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise Undelivered(str(getattr(error, "reason", error))) from None


class _PinnedAdapter(HTTPAdapter):
    """requests' transport to a checked address, as `_opener` is urllib's: the URL's name still
    goes in the Host header and, over TLS, in SNI and the certificate's check."""

    def __init__(self, address: str, host: str):
        self.address, self.host = address, host
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        # (urllib3 passes these to TLS pools only)
        super().init_poolmanager(*args, server_hostname=self.host, assert_hostname=self.host,
                                 **kwargs)

    def send(self, request, *args, **kwargs):
        parts = urlsplit(request.url)
        at = f"[{self.address}]" if ":" in self.address else self.address
        request.headers["Host"] = parts.netloc
        request.url = urlunsplit(parts._replace(netloc=at + (f":{parts.port}" if parts.port else "")))
        return super().send(request, *args, **kwargs)


def _pinned_session(address: str, host: str) -> requests.Session:
    session = requests.Session()
    session.trust_env = False           # no proxy of the environment, as for webhooks
    adapter = _PinnedAdapter(address, host)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def post_push(channel: Channel, notice: Notice) -> None:
    """Push the notice to a browser (pywebpush: encrypted for the subscription's keys, RFC
    8291, and signed with the server's VAPID key, RFC 8292); its service worker
    (static/sw.js) shows it and opens its link. A subscription the push service no longer
    knows (404, 410) is turned off at once: that browser unsubscribed."""
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]
    host = urlsplit(channel.target).hostname or ""
    try:
        address = targets.checked_address(host)
    except BadInput as refused:
        raise Undelivered(str(refused.message), permanent=True) from None
    config = current_app.config
    shown = {"title": notice.body["notice"]["subject"], "url": notice.body["notice"]["url"],
             "id": notice.id}
    try:
        webpush({"endpoint": channel.target, "keys": json.loads(channel.secret)},
                data=json.dumps(shown, ensure_ascii=False), vapid_private_key=config["VAPID_KEY_PATH"],
                vapid_claims={"sub": _contact(config)}, timeout=config["NOTICE_TIMEOUT_SECONDS"],
                ttl=24 * 3600, requests_session=_pinned_session(address, host))
    except WebPushException as error:
        code = error.response.status_code if error.response is not None else None
        if code in (404, 410):
            channel.off_at = utcnow()
        raise Undelivered(f"push service: {code or error.message}",
                          permanent=code is not None and 400 <= code < 500 and code != 429) from None
    except (OSError, ValueError) as error:
        raise Undelivered(f"push service: {error}") from None


def _contact(config) -> str:
    """Who the push services may write to about this server's pushes (VAPID's `sub`)."""
    subject = config.get("VAPID_SUBJECT") or config.get("ADMIN_EMAIL") or "pbem@localhost"
    return subject if subject.startswith(("mailto:", "https:")) else f"mailto:{subject}"


SENDERS = {WEBHOOK: post_webhook, PUSH: post_push}


def deliver_notices(now: datetime | None = None, limit: int = 1000) -> Report:
    """Send every notice that is due; what happened."""
    report, tried = Report(), set[int]()
    for _ in range(limit):
        if not _deliver_next(now or utcnow(), tried, report):
            break
    db.session.remove()
    return report


def _claim(now: datetime, skip: set[int]) -> Notice | None:
    query = (select(Notice).where(Notice.status == PENDING, Notice.next_attempt_at <= now)
             .order_by(Notice.id).limit(1))
    if skip:
        query = query.where(Notice.id.not_in(skip))
    notice: Notice | None = claim(Notice, query, now, skip)
    return notice


def _deliver_next(moment: datetime, tried: set[int], report: Report) -> bool:
    with transaction():
        notice = _claim(moment, tried)
        if notice is None:
            return False
        tried.add(notice.id)
        _send(notice, moment, report)
    return True


def _send(notice: Notice, moment: datetime, report: Report) -> None:
    channel = db.session.get(Channel, notice.channel_id)
    if channel is None or channel.off_at is not None:
        notice.status, notice.last_error = FAILED, "the channel is off"
        report.failed += 1
        return
    notice.attempts += 1
    try:
        SENDERS[channel.kind](channel, notice)
    except Undelivered as failure:
        _failed(channel, notice, str(failure)[:2000], failure.permanent, moment, report)
    else:
        notice.status, notice.sent_at, notice.last_error = SENT, utcnow(), None
        channel.delivered_at, channel.failures, channel.last_error = notice.sent_at, 0, None
        report.sent += 1


def _failed(channel: Channel, notice: Notice, why: str, permanent: bool, moment: datetime,
            report: Report) -> None:
    config = current_app.config
    notice.last_error = channel.last_error = why
    channel.failed_at = utcnow()
    channel.failures += 1
    if channel.failures >= config["CHANNEL_FAILURE_LIMIT"]:
        channel.off_at = channel.failed_at   # its other notices fail when their turn comes
    if permanent or channel.off_at or notice.attempts >= config["NOTICE_RETRY_LIMIT"]:
        notice.status = FAILED
        report.failed += 1
    else:
        notice.next_attempt_at = utc(moment) + backoff(notice.attempts)
        report.retrying += 1
