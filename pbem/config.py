"""Settings, from the environment, with defaults that run on one machine with nothing installed.

| variable             | default                              | meaning                                  |
|----------------------|--------------------------------------|------------------------------------------|
| SECRET_KEY           | (required unless debug or testing)   | signs links; at least 32 bytes           |
| SECRET_KEY_FALLBACKS | (none)                               | older keys, comma-separated: still verify |
| DATABASE_URL         | sqlite:///<instance>/pbem.sqlite3    | SQLite or postgresql://...               |
| DATABASE_CONNECT_TIMEOUT | 2                                | seconds to connect (PostgreSQL), and the |
|                      |                                      | longest the network may stay silent      |
| DATABASE_STATEMENT_TIMEOUT | 2                              | seconds a statement may take (0: none);  |
|                      |                                      | SQLite: how long to wait for a lock      |
| BASE_URL             | http://127.0.0.1:5000                | the server's address, for links in mails |
| MAIL_URL             | console:                             | smtp://, smtp+starttls://, smtps://      |
| MAIL_FROM            | pbem@localhost                       | sender of every mail (and its name)      |
| OUTBOX_PAGE          | on in debug, else off                | the local outbox page at /outbox         |
| LINK_MAX_AGE_DAYS    | 90                                   | after this, a link offers a fresh one    |
| DKIM_KEY, _SELECTOR  | (none: mail is not signed)           | a PEM key and its DKIM selector      |
| REPLY_ADDRESS        | the MAIL_FROM address                | replies go to local+TOKEN@domain         |
| REMIND_AFTER_HOURS   | 48                                   | remind a player waited on this long      |
| REMIND_BEFORE_HOURS  | 24                                   | ... and this long before his time is up  |
| DIGEST_INTERVAL_HOURS| 24                                   | at most one reminder digest per address  |
| PROXY_FIX            | 0                                    | reverse proxies in front (X-Forwarded-*) |
| SUBMISSIONS_PER_*    | 60 per client, 30 per address /min   | turns submitted                          |
| PREVIEWS_PER_CLIENT_PER_MINUTE | 600                        | previews, counted per process            |
| FEEDS_PER_ADDRESS_PER_HOUR | 60                             | an address's feeds read, per process     |
| REPLAY_CACHE_SIZE    | 2000                                 | replayed games kept per process          |
| SNAPSHOT_EVERY       | 16                                   | events between stored state snapshots    |
| RATED_BAN_DAYS       | 7                                    | days a time loss bars rated play (0: off) |
| PROPOSALS_PER_*_PER_DAY | 20 per client, 10 per address     | games asked for on the start page        |
| GAMES_PER_*_PER_DAY  | 20 per client, 20 per address        | games confirmed by their creators        |
| INVITES_PER_ADDRESS_PER_DAY | 20                            | invitations to one address               |
| PROPOSAL_HOURS       | 24                                   | an unconfirmed game is forgotten then    |
| REFUSALS_PER_*       | 5 per address an hour, 30 in all     | answers to mail replies that cannot act  |
| ADMIN_EMAIL          | (none: no operator page)             | the operator's address, for /admin       |
| STALLED_AFTER_DAYS   | 14                                   | waited this long (no time limit): stalled |
| INGEST_MAX_BYTES     | 10485760                             | larger mail: lmtp 552, ingest quarantine |
| MESSAGE_MAX_CHARS    | 1000                                 | characters in a message between players  |
| MESSAGES_PER_SEAT_PER_HOUR | 20                             | messages one seat may post in an hour    |
| NOTES_MAX_CHARS      | 10000                                | a player's private notes on a game       |
| VACATION_DAYS_PER_YEAR | 30                                 | days an address's clocks may stop a year |
| COMPUTER_CLAIM_SECONDS | 120                                | a computer's decision is one worker's |
| JOBS_HEARTBEAT_SECONDS | 5                                  | PostgreSQL: a worker says it lives     |
| JOBS_STALLED_SECONDS | 20                                   | silent this long: its jobs go to others |
| JOBS_POLL_SECONDS    | 2                                    | a worker looks for jobs NOTIFY missed  |
| JOBS_ROUND_SECONDS   | 30                                   | the round of what is due (reminders,    |
|                      |                                      | time-outs, digests), once per fleet    |
| JOBS_OUTBOX_SECONDS  | 10                                   | PostgreSQL: mail put off to later is   |
|                      |                                      | looked for again                       |
| JOBS_SWEEP_SECONDS   | 15                                   | PostgreSQL: computers' decisions owed  |
|                      |                                      | without a job are given one            |
| JOBS_RECOVER_SECONDS | 5                                    | PostgreSQL: a dead worker's jobs are   |
|                      |                                      | looked for                             |

The four periodic intervals are ticks of the clock, the same on every machine of a fleet (a
periodic job is deferred once per tick for the whole fleet): a whole number of seconds that
divides a minute, or of minutes that divides an hour, or of hours that divides a day.
JOBS_STALLED_SECONDS must be longer than JOBS_HEARTBEAT_SECONDS.

Refusals. Settings that would make the server unsafe stop it before it serves anything, with
one line on standard error (`pbem: ...`) and exit status 78 (EX_CONFIG), whatever the entry
point: a `flask --app pbem ...` command (ConfigError is a click exception: click prints it and
exits), gunicorn through wsgi.py (see `exit_refusing`), `serve-production`. In production (not
FLASK_DEBUG, not testing) SECRET_KEY must be set and at least 32 bytes long; the instance folder
must exist or be made, and a SQLite file's folder exist; a production server
(gunicorn, anything that loads wsgi.py, `serve-production`) refuses FLASK_DEBUG and OUTBOX_PAGE.
The local trial (`make run`: debug, with the outbox page) is never refused.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

import click

from pbem.store import waits

TRUE = {"1", "true", "yes", "on"}
MIN_SECRET_KEY_BYTES = 32
EX_CONFIG = 78                 # sysexits.h: a configuration error
GUNICORN_APP_LOAD_ERROR = 4    # a gunicorn worker exiting with this makes the master stop too


class ConfigError(click.ClickException):
    """The server cannot start with these settings.

    A click exception, so that every `flask --app pbem ...` command (the app is made while click
    resolves the command) prints it as `pbem: <message>` and exits 78 instead of a traceback.
    Each line of the message is one problem.
    """

    exit_code = EX_CONFIG

    def show(self, file=None) -> None:
        for line in self.message.splitlines():
            click.echo(f"pbem: {line}", file=file or sys.stderr)


def warn(message: str) -> None:
    """One loud line on standard error, for settings that are allowed but probably wrong."""
    print(f"pbem: warning: {message}", file=sys.stderr, flush=True)


def exit_refusing(error: ConfigError, server: str | None) -> NoReturn:
    """Stop a WSGI server's process with the refusal's line(s) and no traceback.

    Under gunicorn the app is loaded in each worker (or in the master with --preload): a worker
    that exits with gunicorn's APP_LOAD_ERROR makes the master stop ("App failed to load")
    instead of booting workers forever, and the master exits with that status too.
    """
    error.show()
    sys.stderr.flush()
    sys.exit(GUNICORN_APP_LOAD_ERROR if server == "gunicorn" else EX_CONFIG)


def production_server(declared: str | None = None) -> str | None:
    """The production server this process serves under, if any.

    gunicorn's master puts SERVER_SOFTWARE=gunicorn/<version> into its environment before it
    loads the app (in the master with --preload, else in each worker, which inherit it), so this
    sees gunicorn whatever it was told to load. wsgi.py declares itself for the other servers
    (uWSGI, mod_wsgi, waitress-serve), which do not set it; `serve-production` checks itself.
    """
    if os.environ.get("SERVER_SOFTWARE", "").lower().startswith("gunicorn"):
        return "gunicorn"
    return declared


def _flag(value: str | None, default: bool) -> bool:
    return default if value in (None, "") else value.strip().lower() in TRUE


def _number(env, name: str, default: str, kind=int, minimum: float | None = None):
    raw = env.get(name) or default
    try:
        value = kind(raw.strip())
    except ValueError:
        word = "a whole number" if kind is int else "a number"
        raise ConfigError(f"{name} must be {word}, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g}, not {raw!r}")
    return value


def tick_cron(seconds: int) -> str:
    """The cron line (croniter's, seconds last) of a tick every `seconds`, on the clock's
    minutes, hours or days; ValueError for an interval that does not divide one of them (every
    45 s would tick at :00 and :45 of each minute, 15 s apart once a minute)."""
    minutes, hours = seconds // 60, seconds // 3600
    if seconds < 1:
        pass
    elif 60 % seconds == 0:
        return f"* * * * * */{seconds}" if seconds < 60 else "* * * * * 0"
    elif seconds % 60 == 0 and 60 % minutes == 0:
        return f"*/{minutes} * * * * 0" if minutes < 60 else "0 * * * * 0"
    elif seconds % 3600 == 0 and 24 % hours == 0:
        return f"0 */{hours} * * * 0" if hours < 24 else "0 0 * * * 0"
    raise ValueError(f"{seconds} s does not divide a minute, an hour or a day")


def _interval(env, name: str, default: str) -> int:
    """A periodic job's interval in seconds (`tick_cron`)."""
    raw = env.get(name) or default
    try:
        seconds = int(raw.strip())
        tick_cron(seconds)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number of seconds that divides a minute, an "
                          f"hour or a day (e.g. 5, 15, 30, 60, 300, 3600), not {raw!r}") from None
    return seconds


def _jobs_timing(config: dict) -> dict:
    """A worker taken for dead between two of its heartbeats would have its jobs done twice."""
    heartbeat, stalled = config["JOBS_HEARTBEAT_SECONDS"], config["JOBS_STALLED_SECONDS"]
    if stalled <= heartbeat:
        raise ConfigError(f"JOBS_STALLED_SECONDS ({stalled:g}) must be longer than "
                          f"JOBS_HEARTBEAT_SECONDS ({heartbeat:g}): a live worker would be taken "
                          "for dead between its heartbeats")
    return config


def database_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL whatever spelling the URL has."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def from_environment(instance_path: str, env=os.environ) -> dict:
    debug = _flag(env.get("FLASK_DEBUG"), False)
    keys = [k.strip() for k in env.get("SECRET_KEY_FALLBACKS", "").split(",") if k.strip()]
    return _jobs_timing({
        "SECRET_KEY": env.get("SECRET_KEY") or None,
        "SECRET_KEY_FALLBACKS": keys,
        "SQLALCHEMY_DATABASE_URI": database_url(
            env.get("DATABASE_URL") or f"sqlite:///{Path(instance_path) / 'pbem.sqlite3'}"),
        # libpq counts whole seconds and waits at least 2. A request whose database does not
        # answer is answered 503 within 3 s of its start (`pbem.store.waits`).
        "DATABASE_CONNECT_TIMEOUT": _number(env, "DATABASE_CONNECT_TIMEOUT",
                                            str(waits.CONNECT_SECONDS), int, 2),
        "DATABASE_STATEMENT_TIMEOUT": _number(env, "DATABASE_STATEMENT_TIMEOUT",
                                              str(waits.STATEMENT_SECONDS), float, 0),
        "BASE_URL": env.get("BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        "MAIL_URL": env.get("MAIL_URL", "console:"),
        "MAIL_FROM": env.get("MAIL_FROM", "pbem@localhost"),
        "DKIM_KEY": env.get("DKIM_KEY", ""),             # a PEM file: pbem signs every mail
        "DKIM_SELECTOR": env.get("DKIM_SELECTOR", ""),
        "DKIM_DOMAIN": env.get("DKIM_DOMAIN", ""),       # default: MAIL_FROM's domain
        "MAIL_DNS_SERVER": env.get("MAIL_DNS_SERVER", ""),   # check-mail-dns asks it (host:port)
        "OUTBOX_PAGE": _flag(env.get("OUTBOX_PAGE"), debug),
        "LINK_MAX_AGE_DAYS": _number(env, "LINK_MAX_AGE_DAYS", "90"),
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "MAIL_RETRY_LIMIT": _number(env, "MAIL_RETRY_LIMIT", "8"),
        # Other channels (`pbem.mail.channel_send`): attempts per notice, failures in a row that
        # turn a channel off, seconds a webhook may take; private webhook targets (tests only).
        "NOTICE_RETRY_LIMIT": _number(env, "NOTICE_RETRY_LIMIT", "5", minimum=1),
        "CHANNEL_FAILURE_LIMIT": _number(env, "CHANNEL_FAILURE_LIMIT", "10", minimum=1),
        "NOTICE_TIMEOUT_SECONDS": _number(env, "NOTICE_TIMEOUT_SECONDS", "5", float, 0.1),
        "WEBHOOK_ALLOW_PRIVATE": _flag(env.get("WEBHOOK_ALLOW_PRIVATE"), False),
        # Web Push's VAPID key (a PEM file; made in the instance folder at the first start when
        # unset) and the contact the push services are given (default: ADMIN_EMAIL).
        "VAPID_KEY": env.get("VAPID_KEY", ""),
        "VAPID_SUBJECT": env.get("VAPID_SUBJECT", ""),
        "LINK_REQUEST_INTERVAL_SECONDS": 600,
        "REPLY_ADDRESS": env.get("REPLY_ADDRESS", ""),
        "REMIND_AFTER_HOURS": _number(env, "REMIND_AFTER_HOURS", "48", float),
        "COMPUTER_CLAIM_SECONDS": _number(env, "COMPUTER_CLAIM_SECONDS", "120", float, minimum=1),
        # The job engine on PostgreSQL (pbem.jobs.engine): a worker's heartbeat, how long a
        # silent one is taken for dead (its jobs retried by others), its look for missed jobs.
        "JOBS_HEARTBEAT_SECONDS": _number(env, "JOBS_HEARTBEAT_SECONDS", "5", float, minimum=0.2),
        "JOBS_STALLED_SECONDS": _number(env, "JOBS_STALLED_SECONDS", "20", float, minimum=1),
        "JOBS_POLL_SECONDS": _number(env, "JOBS_POLL_SECONDS", "2", float, minimum=0.1),
        # Its periodic jobs, each deferred once per tick for the whole fleet (`tick_cron`): the
        # round of what is due (also the SQLite loop's), the outbox's look for mail put off to
        # later, the computers' sweep, the recovery of a dead worker's jobs.
        "JOBS_ROUND_SECONDS": _interval(env, "JOBS_ROUND_SECONDS", "30"),
        "JOBS_OUTBOX_SECONDS": _interval(env, "JOBS_OUTBOX_SECONDS", "10"),
        "JOBS_SWEEP_SECONDS": _interval(env, "JOBS_SWEEP_SECONDS", "15"),
        "JOBS_RECOVER_SECONDS": _interval(env, "JOBS_RECOVER_SECONDS", "5"),
        "REMIND_BEFORE_HOURS": _number(env, "REMIND_BEFORE_HOURS", "24", float),
        "DIGEST_INTERVAL_HOURS": _number(env, "DIGEST_INTERVAL_HOURS", "24", float),
        "PROXY_FIX": _number(env, "PROXY_FIX", "0"),
        "SUBMISSIONS_PER_CLIENT_PER_MINUTE": _number(env, "SUBMISSIONS_PER_CLIENT_PER_MINUTE", "60"),
        "SUBMISSIONS_PER_ADDRESS_PER_MINUTE": _number(env, "SUBMISSIONS_PER_ADDRESS_PER_MINUTE", "30"),
        "PREVIEWS_PER_CLIENT_PER_MINUTE": _number(env, "PREVIEWS_PER_CLIENT_PER_MINUTE", "600"),
        "FEEDS_PER_ADDRESS_PER_HOUR": _number(env, "FEEDS_PER_ADDRESS_PER_HOUR", "60"),
        "SNAPSHOT_EVERY": _number(env, "SNAPSHOT_EVERY", "16"),
        "RATED_BAN_DAYS": _number(env, "RATED_BAN_DAYS", "7", minimum=0),
        "REPLAY_CACHE_SIZE": _number(env, "REPLAY_CACHE_SIZE", "2000"),
        "LINK_REQUESTS_PER_CLIENT_PER_HOUR": _number(env, "LINK_REQUESTS_PER_CLIENT_PER_HOUR", "10"),
        "PROPOSALS_PER_CLIENT_PER_DAY": _number(env, "PROPOSALS_PER_CLIENT_PER_DAY", "20"),
        "PROPOSALS_PER_ADDRESS_PER_DAY": _number(env, "PROPOSALS_PER_ADDRESS_PER_DAY", "10"),
        "GAMES_PER_CLIENT_PER_DAY": _number(env, "GAMES_PER_CLIENT_PER_DAY", "20"),
        "GAMES_PER_ADDRESS_PER_DAY": _number(env, "GAMES_PER_ADDRESS_PER_DAY", "20"),
        "INVITES_PER_ADDRESS_PER_DAY": _number(env, "INVITES_PER_ADDRESS_PER_DAY", "20"),
        "PROPOSAL_HOURS": _number(env, "PROPOSAL_HOURS", "24", float),
        "REFUSALS_PER_ADDRESS_PER_HOUR": _number(env, "REFUSALS_PER_ADDRESS_PER_HOUR", "5"),
        "REFUSALS_PER_HOUR": _number(env, "REFUSALS_PER_HOUR", "30"),
        "ADMIN_EMAIL": env.get("ADMIN_EMAIL", "").strip().lower(),
        "STALLED_AFTER_DAYS": _number(env, "STALLED_AFTER_DAYS", "14", float),
        "INGEST_MAX_BYTES": _number(env, "INGEST_MAX_BYTES", str(10 * 1024 * 1024)),
        "MESSAGE_MAX_CHARS": _number(env, "MESSAGE_MAX_CHARS", "1000", minimum=1),
        "MESSAGES_PER_SEAT_PER_HOUR": _number(env, "MESSAGES_PER_SEAT_PER_HOUR", "20"),
        "NOTES_MAX_CHARS": _number(env, "NOTES_MAX_CHARS", "10000"),
        "VACATION_DAYS_PER_YEAR": _number(env, "VACATION_DAYS_PER_YEAR", "30", minimum=0),
    })


NEW_KEY_HINT = "python3 -c 'import secrets; print(secrets.token_hex(32))'"


def ensure_instance_folder(app) -> None:
    """The instance folder (SQLite's file, the debug key) is made if missing; one that cannot be
    made (a read-only or missing parent, no permission), or a SQLite file whose folder is
    missing, is a configuration error: one line, not a traceback at the first statement."""
    folder = Path(app.instance_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"the instance folder {folder} is missing and cannot be made "
                          f"({error.strerror or error}): create it, writable by this user, or set "
                          "PBEM_INSTANCE_PATH to one") from None
    url = str(app.config.get("SQLALCHEMY_DATABASE_URI") or "")
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        database = folder / url[len("sqlite:///"):].split("?", 1)[0]   # (relative: to the folder)
        if database.name and not database.parent.is_dir():
            raise ConfigError(f"DATABASE_URL names a SQLite file in {database.parent}, a folder "
                              "that does not exist: create it, writable by this user")


def ensure_vapid_key(app) -> None:
    """Web Push signs each push with the server's VAPID key (RFC 8292): read from VAPID_KEY,
    or, unset, from `vapid_private.pem` in the instance folder, made there at the first start
    (the browsers' subscriptions are bound to its public key: keep the file). Its public key
    (VAPID_PUBLIC_KEY, base64url) is what the home gives a browser that subscribes."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    path = Path(app.config.get("VAPID_KEY") or Path(app.instance_path) / "vapid_private.pem")
    if not path.exists() and not app.config.get("VAPID_KEY"):
        made = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        draft.write_bytes(made)
        draft.chmod(0o600)
        try:
            os.link(draft, path)   # (two processes starting at once: the first key stays)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), None)
    except (OSError, ValueError, TypeError) as error:
        raise ConfigError(f"VAPID_KEY {path} holds no readable PEM private key ({error})") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ConfigError(f"VAPID_KEY {path} is not a P-256 (prime256v1) key")
    point = key.public_key().public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    app.config["VAPID_KEY_PATH"] = str(path)
    app.config["VAPID_PUBLIC_KEY"] = base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def ensure_dkim_key(app) -> None:
    """With DKIM_KEY, its PEM file is read once (DKIM_PRIVATE_KEY) and DKIM_SELECTOR is
    required; a file that cannot be read or holds no private key is a configuration error."""
    path, selector = app.config.get("DKIM_KEY"), app.config.get("DKIM_SELECTOR")
    if not path:
        if selector:
            raise ConfigError("DKIM_SELECTOR is set without DKIM_KEY: set both to sign mail, "
                              "or neither")
        return
    if not selector:
        raise ConfigError("DKIM_KEY is set without DKIM_SELECTOR (the name of its DNS record, "
                          "selector._domainkey.your.domain)")
    try:
        key = Path(path).read_bytes()
    except OSError as error:
        raise ConfigError(f"DKIM_KEY {path} cannot be read ({error.strerror or error})") from None
    if b"PRIVATE KEY-----" not in key:
        raise ConfigError(f"DKIM_KEY {path} holds no PEM private key (make one with "
                          "`openssl genrsa -out dkim.pem 2048`)")
    app.config["DKIM_PRIVATE_KEY"] = key


def ensure_secret_key(app) -> None:
    """Refuse to run without a SECRET_KEY of at least 32 bytes, except in debug or testing.

    In debug a key is made once and kept in the instance folder, so links in the local outbox
    survive a restart. Keys in SECRET_KEY_FALLBACKS are not measured: moving a short key there
    is how a server that had one keeps its links working while it switches to a long one.
    """
    key = app.config.get("SECRET_KEY")
    if key:
        size = len(key.encode()) if isinstance(key, str) else len(key)
        if size < MIN_SECRET_KEY_BYTES and not (app.debug or app.config.get("TESTING")):
            raise ConfigError(
                f"SECRET_KEY is {size} bytes long; it must be at least {MIN_SECRET_KEY_BYTES}, or "
                f"links could be forged. Make one with {NEW_KEY_HINT} (put the old key in "
                "SECRET_KEY_FALLBACKS to keep its links working).")
        return
    if app.config.get("TESTING"):
        app.config["SECRET_KEY"] = "testing-" + secrets.token_hex(16)
        return
    if not app.debug:
        raise ConfigError(f"SECRET_KEY is not set: links could be forged. Set SECRET_KEY in the "
                          f"environment (make one with {NEW_KEY_HINT}), or run with FLASK_DEBUG=1 "
                          "on your own machine.")
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    app.config["SECRET_KEY"] = path.read_text().strip()


def refuse_unsafe_serving(app, server: str) -> None:
    """A production server does not serve in debug, nor the outbox page (it shows every link)."""
    problems = []
    if app.debug:
        problems.append(f"FLASK_DEBUG is on under {server}: a production server does not run in "
                        "debug. Unset FLASK_DEBUG (`make run` is the local trial).")
    # In debug the outbox page is on by default: that is the debug line's to say, unless the
    # environment turned it on itself.
    if app.config.get("OUTBOX_PAGE") and (not app.debug or _flag(os.environ.get("OUTBOX_PAGE"), False)):
        problems.append(f"OUTBOX_PAGE is on under {server}: /outbox would show every mail and "
                        "link to anyone. Unset OUTBOX_PAGE.")
    if problems:
        raise ConfigError("\n".join(problems))


def warn_about(app) -> None:
    """Settings allowed outside a production server, but worth a line on standard error."""
    if app.config.get("TESTING"):
        return
    if app.config.get("OUTBOX_PAGE") and not app.debug:
        warn("OUTBOX_PAGE is on without FLASK_DEBUG: /outbox shows every mail and link to anyone "
             "who can reach this server (production servers refuse it).")


def mail_domain(app) -> str:
    """The domain for Message-IDs: the host of BASE_URL."""
    return urlsplit(app.config["BASE_URL"]).hostname or "localhost"
