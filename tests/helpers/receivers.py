"""Receiving ends for the notices' channels, started by a test on loopback: a webhook
receiver that records each POST (and answers with the status the test sets)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict
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
                    receiver.received.append(Received(self.path, dict(self.headers), raw, time.time()))
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
