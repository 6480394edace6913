"""The web layer: thin blueprints over the store, the links and the engines.

- `lobby`: the start page, asking for games and confirming them;
- `play`: turn and seat links (pages and JSON): view, preview, submit, resign, renew;
- `talk`: a seat's messages, private notes and vacation;
- `address_pages`: links mailed to an address, replacing leaked links, unsubscribing;
- `record`: a game's record with its score chart;
- `home`: a player's home: all his games, his settings, his public name, rematches;
- `players`: a player page per public name, each game's ladder;
- `challenges`: open challenges: posting, the list, confirming, taking a seat;
- `leagues`: leagues by mail: proposing, joining, leaving, the standings;
- `feeds`: the home's Atom feed of notices and iCalendar feed of deadlines;
- `outbox`: the local outbox page (only when OUTBOX_PAGE is on);
- `admin`: the operator's page (only when ADMIN_EMAIL is set);
- `gamestatic`: each game's own stylesheet and script, kept beside its templates;
- `access`, `pages`, `chart`, `hexmap`: what a link opens, and the seat's pages drawn from its view;
- `errors`: one handler turning every error into a page or JSON;
- `security`: response headers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request

from pbem import games
from pbem.errors import NotFound
from pbem.games.phrases import phrase
from pbem.store import gamelog, reading
from pbem.views.words import listing, match_title, plural, step_lines
from pbem.web import (
    address_pages,
    admin,
    challenges,
    errors,
    feeds,
    gamestatic,
    home,
    leagues,
    lobby,
    outbox,
    play,
    players,
    record,
    security,
    talk,
)
from pbem.web.hexmap import hex_layout


def game_drawing(kind: str, view: Mapping[str, Any], last_step: str | None = None) -> Any:
    """What a game's board template draws `view` with (`Engine.drawing`): geometry computed in
    Python, not in the template."""
    return games.get(kind).drawing(view, last_step)


def init_app(app) -> None:
    # Names in words, for pages and mails alike: "Anna, Bob and Carl"; "Anna vs Bob".
    app.add_template_filter(listing, "listing")
    app.add_template_filter(match_title, "match_title")
    app.add_template_filter(plural, "plural")
    app.add_template_filter(step_lines, "step_lines")
    app.add_template_global(hex_layout, "hex_layout")   # where a hex map's hexes are drawn
    app.add_template_global(game_drawing, "game_drawing")   # a game's own picture geometry

    @app.before_request
    def read_only_without_a_transaction():
        """Pages and previews only read: outside any transaction (`pbem.store.reading`)."""
        if request.method in ("GET", "HEAD") or request.endpoint == "play.preview":
            reading.reads_only()

    @app.url_value_preprocessor
    def game_ids_as_made(endpoint, values):
        """A game's id in a path (`/games/<game_id>/...`, the operator's pages) is one
        `gamelog.new_id` could have made, or no game: anything else never reaches the database
        (PostgreSQL refuses a NUL in a query; SQLite would look it up)."""
        game_id = (values or {}).get("game_id")
        if game_id is not None and not gamelog.GAME_ID.fullmatch(game_id):
            raise NotFound(phrase("There is no such game."))

    app.register_blueprint(lobby.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(talk.bp)
    app.register_blueprint(address_pages.bp)
    app.register_blueprint(record.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(challenges.bp)
    app.register_blueprint(leagues.bp)
    app.register_blueprint(feeds.bp)
    gamestatic.init_app(app)
    if app.config.get("OUTBOX_PAGE"):
        app.register_blueprint(outbox.bp)
    admin.init_app(app)
    errors.init_app(app)
    security.init_app(app)
