"""The start page: create a game for two (or more) players by name and address."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, current_app, redirect, render_template, request
from sqlalchemy import func, select

from .. import games, links, ratelimit, store
from ..errors import BadInput, RateLimited
from ..extensions import db
from ..games.errors import GameError
from ..mail import notify
from ..mail.words import match_title
from ..models import Mail, utcnow
from ..people import email_address, player_name
from .errors import wants_json

bp = Blueprint("lobby", __name__)

INVITES_PER_ADDRESS_PER_DAY = 20


def page(form=None, error=None, links_message=None, status=200):
    hosted = games.all_games()
    return render_template("lobby/index.html", games=hosted, form=form or {},
                           seats=max(g.max_seats for g in hosted), error=error,
                           time_limits=TIME_LIMITS, links_message=links_message), status


@bp.get("/")
def index():
    return page()


def field(form, key: str, default: str = "") -> str:
    value = form.get(key, default)
    if not isinstance(value, str):
        raise BadInput(f"The field {key} must be text.")
    return value.strip()


#: The most player rows a form may send (the start page shows as many as its largest game seats).
ROWS = 8


def _players(form, engine) -> list[tuple[str, str]]:
    for i in range(engine.max_seats, ROWS):   # a row the chosen game has no seat for
        if field(form, f"name{i}") or field(form, f"email{i}"):
            raise BadInput(f"{engine.title} is a game for {_seats(engine)}: "
                           f"leave player {i + 1} empty.")
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


def _seats(engine) -> str:
    if engine.min_seats == engine.max_seats:
        return f"{engine.max_seats} players"
    return f"{engine.min_seats} to {engine.max_seats} players"


def _first(form, seats: int) -> int | None:
    value = field(form, "first", "random")
    if value == "random":
        return None
    if not (value.isascii() and value.isdigit()) or int(value) >= seats:   # int("²") fails
        raise BadInput("Choose who starts: at random, or one of the players.")
    return int(value)


TIME_LIMITS = (None, 3, 7, 14, 30)


def _time_limit(form) -> int | None:
    value = field(form, "time_limit", "")
    if value in ("", "none"):
        return None
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 365:
        raise BadInput("A time limit is a number of days from 1 to 365, or none.")
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
    time_limit = _time_limit(form)
    _check_invite_rate(addr for _, addr in players)
    try:
        loaded = store.create_game(engine, players, options, first, time_limit_days=time_limit)
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
        return page(form, error.message, status=400)
    if wants_json():
        return {"game": loaded.id, "record": f"/games/{loaded.id}/record"}, 201
    return redirect(f"/games/{loaded.id}/record?created=1", 303)


LINKS_SENT = ("If {addr} plays a game here, a mail with fresh links to its running games is on "
              "its way to that address.")


@bp.post("/links")
def request_links():
    """Fresh links to every running game of an address, mailed only to that address.

    The answer is the same whether or not the address plays here. Asking is
    limited per client and per address, so nobody can mail-bomb a stranger.
    """
    form = request.get_json(silent=True) if request.is_json else request.form
    if not isinstance(form, dict) and not hasattr(form, "getlist"):
        raise BadInput('Send {"email": "..."}.')
    addr = email_address(field(form, "email"))
    config = current_app.config
    if not ratelimit.allow(f"links-client:{request.remote_addr}",
                           config["LINK_REQUESTS_PER_CLIENT_PER_HOUR"], timedelta(hours=1)):
        db.session.commit()
        raise RateLimited("Too many requests for links from here; please try again in an hour.")
    interval = timedelta(seconds=config["LINK_REQUEST_INTERVAL_SECONDS"])
    if ratelimit.allow(f"links-address:{addr}", 1, interval):
        entries = [entry for game_id, seat in store.games_of(addr)
                   if (entry := fresh_links(game_id, seat)) is not None]
        if entries:
            notify.seat_links(addr, entries)
    db.session.commit()
    message = LINKS_SENT.format(addr=addr)
    if wants_json():
        return {"message": message}, 202
    return page(links_message=message, status=202)


def fresh_links(game_id: str, seat: int) -> dict | None:
    """A new seat nonce (the old link dies) and the links to mail, for a running game."""
    loaded = store.load(game_id)
    if loaded.engine.outcome(loaded.state) is not None:
        return None
    nonce = store.reissue_nonce(game_id, seat)
    decision = loaded.owed(seat)
    return {
        "title": loaded.engine.title,
        "names": match_title(loaded.names),
        "name": loaded.names[seat],
        "seat_url": links.url(links.SEAT, game_id, seat, nonce),
        "turn_url": links.url(links.TURN, game_id, seat, loaded.seq) if decision else None,
    }
