"""`flask --app pbem lmtp`: receive mail replies over LMTP until SIGTERM or SIGINT.

The server (`pbem.inbound.lmtp`, with aiosmtpd) is imported when the command runs, so that the other
commands and the web processes do not pay for importing it at start-up.
"""

from __future__ import annotations

import logging
import os

import click
from flask.cli import with_appcontext

from pbem.extensions import this_app
from pbem.inbound.lmtp_defaults import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_WORKERS,
    IDLE_SECONDS,
    MAX_CONNECTIONS,
)


@click.command("lmtp")
@click.option("--host", default=DEFAULT_HOST, show_default=True)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="0: any free port (the line printed on start names it)")
@click.option("--socket", "unix_socket", type=click.Path(dir_okay=False), default=None,
              help="listen on this UNIX socket (mode 0660) instead of --host/--port")
@click.option("--workers", default=DEFAULT_WORKERS, show_default=True, type=click.IntRange(1, 64),
              help="messages ingested at once")
@click.option("--idle-timeout", default=IDLE_SECONDS, show_default=True,
              type=click.FloatRange(min=0.1), help="seconds an idle connection is kept open")
@click.option("--max-connections", default=MAX_CONNECTIONS, show_default=True,
              type=click.IntRange(1, 10_000), help="connections open at once (more: 421)")
@with_appcontext
def lmtp(host: str, port: int, unix_socket: str | None, workers: int, idle_timeout: float,
         max_connections: int):
    """Apply mail replies an MTA hands over by LMTP (one warm process, no start-up per mail).

    Answers 250 once a message is handled for good, 451 when it cannot be now (the MTA tries
    again), 552 when it is larger than INGEST_MAX_BYTES. Logs one line per message.
    """
    from pbem.inbound.lmtp import Server
    app = this_app()
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("mail.log").setLevel(logging.WARNING)   # aiosmtpd: every connection
    server = Server(app, host, port, unix_socket, workers, idle_seconds=idle_timeout,
                    max_connections=max_connections)

    def ready(address):
        where = address if isinstance(address, str) else f"{address[0]}:{address[1]}"
        click.echo(f"pbem lmtp: listening on {where} (messages up to {server.max_bytes} bytes)")

    try:
        server.run_forever(ready)
    except OSError as error:   # the address is taken, or not ours to bind
        where = unix_socket or f"{host}:{port}"
        why = os.strerror(error.errno) if error.errno else str(error)
        raise click.ClickException(f"cannot listen on {where}: {why}") from None
    click.echo("pbem lmtp: stopped")
