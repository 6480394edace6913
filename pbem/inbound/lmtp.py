"""A long-running LMTP server: the MTA hands each reply over a socket to a warm process.

`flask --app pbem lmtp` listens on 127.0.0.1:8024 (or a UNIX socket) and gives every message
to `ingest.ingest_bytes`, exactly as the `ingest` pipe does, without starting Python for each.

- One message is at most one decision (ingest knows it by its Message-ID), so it is ingested
  once with all its envelope recipients, and every recipient gets the same answer: RFC 2033
  wants one reply per accepted RCPT after DATA, which aiosmtpd's LMTP class does not send
  (aio-libs/aiosmtpd#517): `ReplyLMTP` repeats the reply that ends DATA for each recipient.
- `250` once the message is handled for good (applied, failed, refused, dropped, ignored,
  bounce, quarantined, duplicate); `451 4.3.0` when the database is away (`Transient`), or on
  any other failure, which is logged: the MTA keeps the message and tries again, and the
  server goes on.
- A message larger than INGEST_MAX_BYTES is refused with `552`: at MAIL FROM when the MTA
  declares its SIZE (Postfix does; SIZE is offered in the LHLO answer), otherwise after its
  data was read and thrown away. The pipe quarantines such a message because a pipe cannot
  refuse one before reading it; here the MTA still holds it and returns it to its sender.
  Lines may be as long as the message may be large: the pipe reads those too.
- The server adds `Return-Path: <envelope sender>` on top, as a final delivery does (RFC 5321
  4.4): ingest reads `Return-Path: <>` as automatic mail, as it does behind a pipe with Postfix's
  `R` flag.
- Ingest blocks (database, mail composition), so it runs in a pool of threads, each message in
  an app context of its own (Flask-SQLAlchemy's session is per app context): a slow message
  never stops the server from reading the next connection.
- A connection idle for IDLE_SECONDS (no command; a message being ingested is not idle) is
  closed, and at most MAX_CONNECTIONS are open at once: one more is answered `421 4.3.2` and
  closed (the MTA tries again later). An MTA keeps an idle LMTP connection for seconds
  (Postfix: lmtp_connection_cache_time_limit, 2 s); left open, idle connections piled up (300
  stayed open, each holding a file descriptor and a session).
- On SIGTERM or SIGINT it stops listening, lets the messages being ingested finish (up to
  GRACE_SECONDS) and answer, and closes the connections: a message cut off in between is tried
  again by the MTA, and still applies once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from aiosmtpd.lmtp import LMTP

from pbem.extensions import db
from pbem.inbound.ingest import Transient, ingest_bytes
from pbem.inbound.lmtp_defaults import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_WORKERS,
    IDLE_SECONDS,
    MAX_CONNECTIONS,
)

log = logging.getLogger(__name__)

GRACE_SECONDS = 30.0   # on stop: how long messages being ingested may take to finish
TRY_LATER = "451 4.3.0 Not handled now, try again later"
BUSY = b"421 4.3.2 Too many connections, try again later\r\n"


class ReplyLMTP(LMTP):
    """aiosmtpd's LMTP session, with one reply per accepted recipient at the end of DATA."""

    def __init__(self, handler, *, line_length_limit: int, connections: set, max_connections: int,
                 **kwargs):
        self.line_length_limit = line_length_limit   # read by the base class's __init__
        self._connections, self._max_connections = connections, max_connections
        self._refused = False   # one connection too many: answered 421, no session
        self._replies_due: int | None = None   # replies due at the end of the current DATA
        super().__init__(handler, **kwargs)

    def connection_made(self, transport) -> None:
        if len(self._connections) >= self._max_connections:
            self._refused = True
            log.warning("refused a connection: %d are open already", len(self._connections))
            transport.write(BUSY)
            transport.close()
            return
        super().connection_made(transport)
        self._connections.add(self)

    def connection_lost(self, error) -> None:
        if self._refused:   # it never had a session to end
            return
        self._connections.discard(self)
        super().connection_lost(error)

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def eof_received(self) -> bool | None:
        return False if self._refused else super().eof_received()

    def hold_timeout(self) -> None:
        """A message being ingested is not idle: no idle timeout until it is answered."""
        if self._timeout_handle is not None:
            self._timeout_handle.cancel()

    def restart_timeout(self) -> None:
        if self.transport is not None:
            self._reset_timeout()

    async def smtp_DATA(self, arg) -> None:
        self._replies_due = 0   # armed: the 354 answer sets how many replies are due at the end
        try:
            await super().smtp_DATA(arg)
        finally:
            self._replies_due = None

    async def push(self, status) -> None:
        text = status.decode() if isinstance(status, bytes) else status
        if self._replies_due is None:
            await super().push(status)
        elif text.startswith("354") and self.envelope is not None:
            self._replies_due = len(self.envelope.rcpt_tos)
            await super().push(status)
        elif self._replies_due:
            # Whatever ends DATA (the handler's answer, or aiosmtpd's own 552 or 500) is
            # the answer for every recipient.
            due, self._replies_due = self._replies_due, None
            for _ in range(due):
                await super().push(status)
        else:   # DATA refused before 354 (no recipient yet, a syntax error): one reply
            self._replies_due = None
            await super().push(status)


class ReplyHandler:
    """The aiosmtpd handler: each message into `ingest_bytes`, in a worker thread."""

    def __init__(self, app, executor: ThreadPoolExecutor):
        self.app, self.executor = app, executor
        self.active = 0
        self.idle = asyncio.Event()
        self.idle.set()

    async def handle_DATA(self, server, session, envelope) -> str:
        recipients = list(envelope.rcpt_tos)
        raw = return_path(envelope.mail_from) + envelope.original_content
        started = time.perf_counter()
        self.active += 1
        self.idle.clear()
        server.hold_timeout()
        try:
            result = await asyncio.get_running_loop().run_in_executor(
                self.executor, self.ingest, raw, recipients)
        except Transient as failure:
            log.warning("not handled now (the MTA tries again): %s", failure)
            return TRY_LATER
        except Exception:   # a bug: the MTA keeps the message, the server goes on
            log.exception("ingest failed; answered 451 so that the MTA tries again")
            return TRY_LATER
        finally:
            server.restart_timeout()
            self.active -= 1
            if not self.active:
                self.idle.set()
        log.info("%s <- %s to %s (%.0f ms)", result, envelope.mail_from or "<>",
                 ", ".join(recipients), (time.perf_counter() - started) * 1000)
        return f"250 2.0.0 {result.status}" + (f" (game {result.game_id})" if result.game_id else "")

    def ingest(self, raw: bytes, recipients: list[str]):
        with self.app.app_context():
            try:
                return ingest_bytes(raw, recipients)
            finally:
                db.session.remove()


def return_path(sender: str | None) -> bytes:
    """The Return-Path line a final delivery adds: the envelope sender, `<>` for a bounce."""
    clean = "".join(c for c in (sender or "") if c.isprintable() and c not in "<>")
    return b"Return-Path: <" + clean.encode("utf-8", "surrogateescape") + b">\r\n"


class Server:
    """The LMTP server on an event loop of its own.

    `run_forever()` serves in the foreground until SIGTERM or SIGINT (the command);
    `start()` and `stop()` serve from a thread (tests, benchmarks). `address` is where it
    listens once started: (host, port), or the socket's path.
    """

    def __init__(self, app, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 unix_socket: str | None = None, workers: int = DEFAULT_WORKERS,
                 grace: float = GRACE_SECONDS, idle_seconds: float = IDLE_SECONDS,
                 max_connections: int = MAX_CONNECTIONS):
        self.app, self.host, self.port, self.unix_socket = app, host, port, unix_socket
        self.workers, self.grace = workers, grace
        self.idle_seconds, self.max_connections = idle_seconds, max_connections
        self.max_bytes = int(app.config["INGEST_MAX_BYTES"])
        self.hostname = socket.gethostname()   # not getfqdn() per connection: it may ask DNS
        self.address: str | tuple[str, int] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    # -- in the foreground ------------------------------------------------------------

    def run_forever(self, on_ready=None) -> None:
        """Serve until SIGTERM or SIGINT; `on_ready(address)` once listening."""
        import signal

        async def main():
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, self._request_stop)
            await self._serve(on_ready)

        asyncio.run(main())

    # -- from a thread --------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> Server:
        ready = threading.Event()

        def run():
            try:
                asyncio.run(self._serve(lambda address: ready.set()))
            except BaseException as error:   # reported by start()
                self._error = error
                ready.set()

        self._thread = threading.Thread(target=run, name="pbem-lmtp", daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            raise TimeoutError("the LMTP server did not start")
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._request_stop)
            self._thread.join()
            self._thread = None

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- the loop ----------------------------------------------------------------------------

    def _request_stop(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def _serve(self, on_ready) -> None:
        loop = self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        executor = ThreadPoolExecutor(self.workers, thread_name_prefix="pbem-lmtp-ingest")
        handler = ReplyHandler(self.app, executor)
        connections: set[ReplyLMTP] = set()

        def session():
            return ReplyLMTP(handler, line_length_limit=max(self.max_bytes, 1001),
                             connections=connections, max_connections=self.max_connections,
                             timeout=self.idle_seconds, data_size_limit=self.max_bytes,
                             enable_SMTPUTF8=True, hostname=self.hostname,
                             ident="pbem LMTP", loop=loop)

        try:
            if self.unix_socket:
                server = await loop.create_unix_server(session, path=self.unix_socket)
                os.chmod(self.unix_socket, 0o660)
                self.address = self.unix_socket
            else:
                server = await loop.create_server(session, host=self.host, port=self.port)
                self.address = server.sockets[0].getsockname()[:2]
        except BaseException:   # the address is taken, or not ours to bind
            executor.shutdown(wait=False)
            raise
        try:
            if on_ready is not None:
                on_ready(self.address)
            await self._stop.wait()
        finally:
            server.close()   # no new connections; the messages being ingested may finish
            try:
                await asyncio.wait_for(handler.idle.wait(), self.grace)
            except TimeoutError:
                log.warning("stopping with %d message(s) still being ingested", handler.active)
            for connection in list(connections):
                if connection.transport is not None:
                    connection.transport.close()
            await server.wait_closed()
            await asyncio.sleep(0)   # let the closed sessions end their tasks
            executor.shutdown(wait=True)
            if self.unix_socket:
                try:
                    os.unlink(self.unix_socket)
                except FileNotFoundError:
                    pass
