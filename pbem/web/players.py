"""Players in public: a player page per public name, and each game's ladder.

    GET /p/<name>          the player page of a public name: a page, or JSON (`Accept:
                           application/json`); ratings, games, on-time record, current games
    GET /ratings/<game>    the game's ladder (page or JSON): public names, rating, deviation, games

Both are built by `pbem.views.playerview` and name players by their public names only: an
address is never in them (tests/web/test_players_public.py holds it as a property).
"""

from __future__ import annotations

from flask import Blueprint, render_template

from pbem.views import playerview
from pbem.web.errors import wants_json

bp = Blueprint("players", __name__)


@bp.get("/p/<name>")
def player(name: str):
    shown = playerview.player(name)
    if wants_json():
        return shown.to_json()
    return render_template("players/player.html", player=shown, title_of=playerview.title_of)


@bp.get("/ratings/<game>")
def ladder(game: str):
    shown = playerview.ladder(game)
    if wants_json():
        return shown.to_json()
    return render_template("players/ladder.html", ladder=shown)
