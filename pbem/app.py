"""The application factory: settings, extensions, blueprints, commands."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, Request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem import i18n, web
from pbem.commands import cli
from pbem.config import (
    ConfigError,
    ensure_dkim_key,
    ensure_instance_folder,
    ensure_secret_key,
    ensure_vapid_key,
    exit_refusing,
    from_environment,
    production_server,
    refuse_unsafe_serving,
    warn_about,
)
from pbem.extensions import db, migrate
from pbem.jobs import engine as job_engine
from pbem.mail import wakeup
from pbem.players import ratings
from pbem.policy import due
from pbem.store import waits
from pbem.store.reading import Session
from pbem.store.replaycache import ReplayCache
from pbem.views import leagueview

ROOT = Path(__file__).resolve().parent.parent


class JSONProvider(DefaultJSONProvider):
    """JSON too deeply nested to parse is malformed JSON (a 400), not a RecursionError (a 500);
    the engines' sentences in JSON are said in the reader's language."""

    def loads(self, s, **kwargs):
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None

    def dumps(self, obj, **kwargs):
        """Phrases said in the reader's language (English ones are English already)."""
        if i18n.current() != i18n.ENGLISH:
            obj = i18n.say_all(obj)
        return super().dumps(obj, **kwargs)


class StrictFormRequest(Request):
    """A form body that cannot be read (a multipart body without its boundary, or broken; bytes
    that are not UTF-8) raises ValueError, which web/security.py answers 400, instead of being
    read as an empty form."""

    def make_form_data_parser(self):
        parser = super().make_form_data_parser()
        parser.silent = False
        return parser


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions (only the operator's pages keep one), with the signing
    serializer made once per set of keys instead of on every request: making one costs as
    much as using it (itsdangerous tries its JSON), and every request opens the session."""

    def get_signing_serializer(self, app):
        keys = (tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()), app.secret_key)
        made = self.__dict__.get("_made")
        if made is None or made[0] != keys:
            made = self._made = (keys, super().get_signing_serializer(app))
        return made[1]


def make_app(test_config: dict | None = None, server: str | None = None) -> Flask:
    """The app. `server` names the production server that will serve it (wsgi.py says so);
    under gunicorn it is found by itself. A production server refuses debug and the outbox
    page, and stops its process with one line instead of a traceback (see config.py)."""
    server = production_server(server)
    try:
        return _make_app(test_config, server)
    except ConfigError as error:
        if server is None:
            raise   # the flask command line prints it (ConfigError is a click exception)
        exit_refusing(error, server)


def _make_app(test_config: dict | None, server: str | None) -> Flask:
    instance = os.environ.get("PBEM_INSTANCE_PATH") or str(ROOT / "instance")
    app = Flask("pbem", instance_path=instance, instance_relative_config=True,
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.json = JSONProvider(app)
    app.request_class = StrictFormRequest
    app.session_interface = CookieSessions()
    app.config.from_mapping(from_environment(app.instance_path))
    if test_config:
        app.config.update(test_config)
    ensure_instance_folder(app)   # (the debug key is kept there)
    ensure_secret_key(app)
    ensure_dkim_key(app)
    ensure_vapid_key(app)   # (Web Push's key, made at the first start)
    if server is not None:
        refuse_unsafe_serving(app, server)
    warn_about(app)
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", waits.engine_options(app.config))
    app.extensions["pbem.replay_cache"] = ReplayCache(app.config.get("REPLAY_CACHE_SIZE", 2000))
    db.init_app(app)
    due.install(Session)   # every commit keeps the index of what is due (pbem.policy.due)
    ratings.install(Session)   # a game's result moves its ratings (pbem.players.ratings)
    leagueview.install()   # player pages list their leagues (pbem.views.playerview.LEAGUES)
    wakeup.install(Session)   # and one that queues mail wakes the senders (pbem.mail.wakeup)
    job_engine.install()   # on PostgreSQL, carrying its jobs (pbem.jobs.engine)
    with app.app_context():
        waits.guard(db.engine, app.config)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    if app.config["PROXY_FIX"]:   # behind N reverse proxies: trust their X-Forwarded-* headers
        hops = app.config["PROXY_FIX"]
        # Werkzeug's documented way to wrap the app; mypy sees a method assigned to.
        app.wsgi_app = ProxyFix(app.wsgi_app,  # type: ignore[method-assign]
                                x_for=hops, x_proto=hops, x_host=hops)
    i18n.init_app(app)
    web.init_app(app)
    cli.init_app(app)
    return app
