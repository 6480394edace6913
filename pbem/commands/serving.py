"""`flask --app pbem serve-production`: one machine in production, in one process.

`serve` is the local trial (Werkzeug's development server, debug, console mail, the outbox
page). This serves the same app without debug through waitress (a pure-Python production WSGI
server, threads in one process), after upgrading the database, with the background work
(mail delivery, reminders, time limits) in a thread as `serve` does: one systemd unit and no
separate worker. It refuses to start unless SECRET_KEY, BASE_URL and MAIL_URL are set in the
environment (the defaults are the local trial's, wrong for players), and, as any production
server, in debug or with the outbox page.
"""

from __future__ import annotations

import os
import signal
import sys
from urllib.parse import urlsplit, urlunsplit

import click
from flask.cli import with_appcontext
from flask_migrate import upgrade

from pbem.config import ConfigError, refuse_unsafe_serving, warn
from pbem.extensions import this_app
from pbem.jobs.worker import start_in_background

REQUIRED = {
    "SECRET_KEY": "signs the links in mails; make one with "
                  "python3 -c 'import secrets; print(secrets.token_hex(32))'",
    "BASE_URL": "the public address for links in mails, e.g. https://games.example.org",
    "MAIL_URL": "how mail is sent, e.g. smtp+starttls://user:password@mail.example.org:587",
}


def missing_settings(env=os.environ) -> list[str]:
    return [f"serve-production needs {name} in the environment: {why}."
            for name, why in REQUIRED.items() if not env.get(name, "").strip()]


def without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


@click.command("serve-production")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on (behind a reverse proxy: loopback)")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="requests served at once")
@with_appcontext
def serve_production(host: str, port: int, threads: int):
    """Upgrade the database, work in the background and serve without debug (waitress)."""
    from waitress.server import create_server

    app = this_app()
    problems = missing_settings()
    try:
        refuse_unsafe_serving(app, "serve-production")
    except ConfigError as error:
        problems.append(error.message)
    if problems:
        raise ConfigError("\n".join(problems))
    if app.config["MAIL_URL"].startswith("console:"):
        warn("MAIL_URL is console: mail is printed here, not sent to the players.")
    upgrade()
    # Waitress would drop X-Forwarded-* headers from proxies it was not told about; PROXY_FIX
    # (werkzeug's ProxyFix, as under gunicorn) is the one place that decides whom to trust.
    server = create_server(app, host=host, port=port, threads=threads, ident="pbem",
                           clear_untrusted_proxy_headers=False)
    stop = start_in_background(app)

    def terminate(signum, frame):   # systemd stops services with SIGTERM
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, terminate)
    click.echo(f"pbem: serving {app.config['BASE_URL']} on http://{host}:{port} "
               f"with {threads} threads (mail: {without_password(app.config['MAIL_URL'])}; "
               "delivering mail and reminders in a thread)")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.close()
    click.echo("pbem: stopped")
