"""The start page: create a game for two (or more) players by name and address."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, redirect, render_template, request
from sqlalchemy import func, select

from .. import games, store
from ..errors import BadInput, RateLimited
from ..extensions import db
from ..games.errors import GameError
from ..mail import notify
from ..models import Mail, utcnow
from ..people import email_address, player_name
from .errors import wants_json

bp = Blueprint("lobby", __name__)

INVITES_PER_ADDRESS_PER_DAY = 20


@bp.get("/")
def index():
    return render_template("lobby/index.html", games=games.all_games(), form={}, error=None)


def field(form, key: str, default: str = "") -> str:
    value = form.get(key, default)
    if not isinstance(value, str):
        raise BadInput(f"The field {key} must be text.")
    return value.strip()


def _players(form, engine) -> list[tuple[str, str]]:
    players = []
    for i in range(engine.max_seats):
        name, addr = field(form, f"name{i}"), field(form, f"email{i}")
        if not name and not addr and i >= engine.min_seats:
            continue
        if not addr:
            raise BadInput(f"Player {i + 1} needs a mail address.")
        players.append((player_name(name or addr.split("@")[0]), email_address(addr)))
    if not engine.min_seats <= len(players) <= engine.max_seats:
        raise BadInput(f"{engine.title} needs {engine.min_seats} to {engine.max_seats} players.")
    return players


def _first(form, seats: int) -> int | None:
    value = field(form, "first", "random")
    if value == "random":
        return None
    if not (value.isascii() and value.isdigit()) or int(value) >= seats:   # int("²") fails
        raise BadInput("Choose who starts: at random, or one of the players.")
    return int(value)


def _check_invite_rate(addresses) -> None:
    since = utcnow() - timedelta(days=1)
    for addr in addresses:
        count = db.session.scalar(select(func.count()).select_from(Mail).where(
            Mail.to_addr == addr, Mail.kind == "invite", Mail.created_at >= since))
        if count >= INVITES_PER_ADDRESS_PER_DAY:
            raise RateLimited(f"{addr} was invited to {count} games today; please try tomorrow.")


def create_from(form):
    """Validate the form, create the game and queue its invitations (committed)."""
    try:
        engine = games.get(field(form, "game"))
    except games.UnknownGame:
        raise BadInput("Choose a game this server hosts.") from None
    players = _players(form, engine)
    options = {o.name: field(form, f"option.{o.name}") for o in engine.options
               if f"option.{o.name}" in form}
    first = _first(form, len(players))
    _check_invite_rate(addr for _, addr in players)
    try:
        loaded = store.create_game(engine, players, options, first)
    except GameError as error:   # options the game refuses
        raise BadInput(str(error)) from None
    notify.game_created(loaded)
    db.session.commit()
    return loaded


@bp.post("/games")
def create():
    form = request.get_json(silent=True) if request.is_json else request.form
    if not isinstance(form, dict) and not hasattr(form, "getlist"):
        raise BadInput("Send the game as a form or a JSON object.")
    try:
        loaded = create_from(form)
    except BadInput as error:
        if wants_json():
            raise
        return render_template("lobby/index.html", games=games.all_games(), form=form,
                               error=error.message), 400
    if wants_json():
        return {"game": loaded.id, "record": f"/games/{loaded.id}/record"}, 201
    return redirect(f"/games/{loaded.id}/record?created=1", 303)
