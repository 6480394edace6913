"""Settings, from the environment, with defaults that run on one machine with nothing installed.

| variable             | default                              | meaning                                  |
|----------------------|--------------------------------------|------------------------------------------|
| SECRET_KEY           | (required unless debug or testing)   | signs links; keep it secret               |
| SECRET_KEY_FALLBACKS | (none)                               | older keys, comma-separated: still verify |
| DATABASE_URL         | sqlite:///<instance>/pbem.sqlite3    | SQLite or postgresql://...               |
| BASE_URL             | http://127.0.0.1:5000                | the server's address, for links in mails |
| MAIL_URL             | console:                             | smtp://, smtp+starttls://, smtps://      |
| MAIL_FROM            | pbem <pbem@localhost>                | sender of every mail                     |
| OUTBOX_PAGE          | on in debug, else off                | the local outbox page at /outbox         |
| LINK_MAX_AGE_DAYS    | 90                                   | after this, a link offers a fresh one    |
| REPLY_ADDRESS        | the MAIL_FROM address                | replies go to local+TOKEN@domain         |
| REMIND_AFTER_HOURS   | 48                                   | remind a player waited on this long      |
| REMIND_BEFORE_HOURS  | 24                                   | ... and this long before his time is up  |
| DIGEST_INTERVAL_HOURS| 24                                   | at most one reminder digest per address  |
| PROXY_FIX            | 0                                    | reverse proxies in front (X-Forwarded-*) |
| SUBMISSIONS_PER_*    | 60 per client, 30 per address /min   | turns submitted                          |
| PREVIEWS_PER_CLIENT_PER_MINUTE | 600                        | previews, counted per process            |
| REPLAY_CACHE_SIZE    | 2000                                 | replayed games kept per process          |
| SNAPSHOT_EVERY       | 16                                   | events between stored state snapshots    |
| PROPOSALS_PER_*_PER_DAY | 20 per client, 10 per address     | games asked for on the start page        |
| GAMES_PER_*_PER_DAY  | 20 per client, 20 per address        | games confirmed by their creators        |
| INVITES_PER_ADDRESS_PER_DAY | 20                            | invitations to one address               |
| PROPOSAL_HOURS       | 24                                   | an unconfirmed game is forgotten then    |
| REFUSALS_PER_*       | 5 per address an hour, 30 in all     | answers to mail replies that cannot act  |
| ADMIN_EMAIL          | (none: no operator page)             | the operator's address, for /admin       |
| STALLED_AFTER_DAYS   | 14                                   | a game without a time limit waiting this long is stalled |
| INGEST_MAX_BYTES     | 10485760                             | a larger incoming mail is quarantined    |
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

TRUE = {"1", "true", "yes", "on"}


class ConfigError(RuntimeError):
    """The server cannot start with these settings."""


def _flag(value: str | None, default: bool) -> bool:
    return default if value in (None, "") else value.strip().lower() in TRUE


def database_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL whatever spelling the URL has."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def from_environment(instance_path: str, env=os.environ) -> dict:
    debug = _flag(env.get("FLASK_DEBUG"), False)
    keys = [k.strip() for k in env.get("SECRET_KEY_FALLBACKS", "").split(",") if k.strip()]
    return {
        "SECRET_KEY": env.get("SECRET_KEY") or None,
        "SECRET_KEY_FALLBACKS": keys,
        "SQLALCHEMY_DATABASE_URI": database_url(
            env.get("DATABASE_URL") or f"sqlite:///{Path(instance_path) / 'pbem.sqlite3'}"),
        "BASE_URL": env.get("BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        "MAIL_URL": env.get("MAIL_URL", "console:"),
        "MAIL_FROM": env.get("MAIL_FROM", "pbem <pbem@localhost>"),
        "OUTBOX_PAGE": _flag(env.get("OUTBOX_PAGE"), debug),
        "LINK_MAX_AGE_DAYS": int(env.get("LINK_MAX_AGE_DAYS", "90")),
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "MAIL_RETRY_LIMIT": int(env.get("MAIL_RETRY_LIMIT", "8")),
        "LINK_REQUEST_INTERVAL_SECONDS": 600,
        "REPLY_ADDRESS": env.get("REPLY_ADDRESS", ""),
        "REMIND_AFTER_HOURS": float(env.get("REMIND_AFTER_HOURS", "48")),
        "REMIND_BEFORE_HOURS": float(env.get("REMIND_BEFORE_HOURS", "24")),
        "DIGEST_INTERVAL_HOURS": float(env.get("DIGEST_INTERVAL_HOURS", "24")),
        "PROXY_FIX": int(env.get("PROXY_FIX", "0")),
        "SUBMISSIONS_PER_CLIENT_PER_MINUTE": int(env.get("SUBMISSIONS_PER_CLIENT_PER_MINUTE", "60")),
        "SUBMISSIONS_PER_ADDRESS_PER_MINUTE": int(env.get("SUBMISSIONS_PER_ADDRESS_PER_MINUTE", "30")),
        "PREVIEWS_PER_CLIENT_PER_MINUTE": int(env.get("PREVIEWS_PER_CLIENT_PER_MINUTE", "600")),
        "SNAPSHOT_EVERY": int(env.get("SNAPSHOT_EVERY", "16")),
        "REPLAY_CACHE_SIZE": int(env.get("REPLAY_CACHE_SIZE", "2000")),
        "LINK_REQUESTS_PER_CLIENT_PER_HOUR": int(env.get("LINK_REQUESTS_PER_CLIENT_PER_HOUR", "10")),
        "PROPOSALS_PER_CLIENT_PER_DAY": int(env.get("PROPOSALS_PER_CLIENT_PER_DAY", "20")),
        "PROPOSALS_PER_ADDRESS_PER_DAY": int(env.get("PROPOSALS_PER_ADDRESS_PER_DAY", "10")),
        "GAMES_PER_CLIENT_PER_DAY": int(env.get("GAMES_PER_CLIENT_PER_DAY", "20")),
        "GAMES_PER_ADDRESS_PER_DAY": int(env.get("GAMES_PER_ADDRESS_PER_DAY", "20")),
        "INVITES_PER_ADDRESS_PER_DAY": int(env.get("INVITES_PER_ADDRESS_PER_DAY", "20")),
        "PROPOSAL_HOURS": float(env.get("PROPOSAL_HOURS", "24")),
        "REFUSALS_PER_ADDRESS_PER_HOUR": int(env.get("REFUSALS_PER_ADDRESS_PER_HOUR", "5")),
        "REFUSALS_PER_HOUR": int(env.get("REFUSALS_PER_HOUR", "30")),
        "ADMIN_EMAIL": env.get("ADMIN_EMAIL", "").strip().lower(),
        "STALLED_AFTER_DAYS": float(env.get("STALLED_AFTER_DAYS", "14")),
        "INGEST_MAX_BYTES": int(env.get("INGEST_MAX_BYTES", str(10 * 1024 * 1024))),
    }


def ensure_secret_key(app) -> None:
    """Refuse to run without a SECRET_KEY, except in debug or testing.

    In debug a key is made once and kept in the instance folder, so links in
    the local outbox survive a restart.
    """
    if app.config.get("SECRET_KEY"):
        return
    if app.config.get("TESTING"):
        app.config["SECRET_KEY"] = "testing-" + secrets.token_hex(16)
        return
    if not app.debug:
        raise ConfigError("SECRET_KEY is not set: links could be forged. Set SECRET_KEY in the "
                          "environment (for example: python -c 'import secrets; "
                          "print(secrets.token_hex(32))'), or run with FLASK_DEBUG=1 on your own "
                          "machine.")
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    app.config["SECRET_KEY"] = path.read_text().strip()


def mail_domain(app) -> str:
    """The domain for Message-IDs: the host of BASE_URL."""
    return urlsplit(app.config["BASE_URL"]).hostname or "localhost"
