"""Receiving ends for the notices' channels, started by a test on loopback: a webhook
receiver that records each POST (and answers with the status the test sets)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: Any   # (an email.message.Message: its names are read case-insensitively)
    body: bytes
    at: float   # time.time() when it arrived


class WebhookReceiver:
    """`url` takes POSTs; `received` holds them; `status` is what it answers."""

    def __init__(self, status: int = 204):
        self.status = status
        self.received: list[Received] = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.arrived:
                    receiver.received.append(Received(self.path, self.headers, raw, time.time()))
                    receiver.arrived.notify_all()
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout)
        return list(self.received)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def b64url(raw: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps of its push subscription (RFC 8291): its own P-256 key and auth
    secret; `subscription(endpoint)` is what `PushSubscription.toJSON()` would give."""

    def __init__(self):
        import os

        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "keys": {"p256dh": b64url(self.public), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        """The push's plain text (aes128gcm, RFC 8188/8291): only this browser can read it."""
        import http_ece
        return http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                version="aes128gcm")


def vapid_claims(authorization: str, server_key: str) -> dict:
    """The VAPID JWT's claims (RFC 8292), once its ES256 signature is checked against the key
    the header names, which must be the server's (`VAPID_PUBLIC_KEY`)."""
    import json

    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    scheme, _, fields = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(f.strip().split("=", 1) for f in fields.split(","))
    assert parts["k"] == server_key
    head, claims, signed = parts["t"].split(".")
    raw = unb64url(signed)
    signature = utils.encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    key.verify(signature, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims))
