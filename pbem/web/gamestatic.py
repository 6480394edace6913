"""A game's own stylesheet and script, kept beside its templates and served like static files.

`templates/games/<name>/` holds a game's templates; its styles and scripts live there too, so
the shared `static/pbem.css` and `static/pbem.js` name no game. Only `.css` and `.js` files of
an installed game are served (`/static/games/<name>/<file>`); anything else is 404.

Pages that show a game set `game` to the engine's name (`{% set game = ... %}`); `base.html`
links that game's `<name>.css` and `<name>.js` after the shared files, when they exist, through
the template global `game_files`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, current_app, send_from_directory, url_for

from pbem import games

bp = Blueprint("gamestatic", __name__)

SUFFIXES = (".css", ".js")
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")   # no path, no hidden file


def game_folder(name: str) -> Path:
    return Path(current_app.root_path, current_app.template_folder or "templates", "games", name)


@bp.get("/static/games/<game>/<filename>")
def file(game: str, filename: str):
    if game not in games.INSTALLED or not FILE_NAME.fullmatch(filename) \
            or not filename.endswith(SUFFIXES):
        abort(404)
    # As Flask serves static/: conditional requests, and the app's max age for files.
    return send_from_directory(game_folder(game), filename,
                               max_age=current_app.get_send_file_max_age(filename))


def game_files(name, suffix: str) -> list[str]:
    """The URLs of a game's own `<name>.css` or `<name>.js` (suffix "css" or "js"): one, or
    none when the game has no such file (or `name` is not an installed game's name)."""
    if "." + suffix not in SUFFIXES:
        raise ValueError(f"not a kind of game file: {suffix!r}")
    if not isinstance(name, str) or name not in games.INSTALLED:
        return []
    filename = f"{name}.{suffix}"
    if not _exists(game_folder(name) / filename):
        return []
    return [url_for("gamestatic.file", game=name, filename=filename)]


@lru_cache(maxsize=64)
def _exists(path: Path) -> bool:
    """Whether a game's file is there, looked up once per process (files come with a deploy)."""
    return path.is_file()


def init_app(app) -> None:
    app.add_template_global(game_files, "game_files")
    app.register_blueprint(bp)
