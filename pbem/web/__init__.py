"""The web layer: thin blueprints over the store, the links and the engines.

- `lobby`: the start page and creating games;
- `play`: turn and seat links (pages and JSON): view, preview, submit, renew;
- `record`: a game's record with its score chart;
- `outbox`: the local outbox page (only when OUTBOX_PAGE is on);
- `errors`: one handler turning every error into a page or JSON;
- `security`: response headers.
"""

from __future__ import annotations

from . import errors, lobby, outbox, play, record, security


def init_app(app) -> None:
    app.register_blueprint(lobby.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(record.bp)
    if app.config.get("OUTBOX_PAGE"):
        app.register_blueprint(outbox.bp)
    errors.init_app(app)
    security.init_app(app)
