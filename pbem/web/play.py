"""Turn links and seat links: the pages (and JSON) players reach from their mails.

    GET  /t/<token>            the turn page (JSON with Accept: application/json)
    POST /t/<token>            submit (or, without JavaScript, preview / add / remove a step)
    POST /t/<token>/preview    the draft's preview: JSON, or an HTML fragment for the page's script
    GET  /s/<token>            the seat's standing view of the game
    GET|POST /s/<token>/resign resigning, after a confirmation
    POST /t|s/<token>/renew    an expired or replaced link: mail a fresh one to the seat

A turn link acts only while its seat owes a decision at the point of the log
it names. What the seat sees is built in `seatview`.
"""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, current_app, jsonify, redirect, render_template, request
from sqlalchemy import func, select

from .. import links, ratelimit, reminders, store
from ..errors import (
    AlreadySubmitted,
    BadInput,
    LinkExpired,
    RateLimited,
)
from ..extensions import db
from ..games.errors import GameError
from ..mail import notify
from ..models import Mail, utcnow
from .errors import wants_json
from .seatview import (
    ALREADY,
    Access,
    common,
    confirm_page,
    draft_context,
    edited,
    load_seat,
    open_seat,
    open_turn,
    payload,
    render_page,
    seat_path,
    sentence,
    steps_text,
)

bp = Blueprint("play", __name__)


@bp.get("/t/<token>")
def turn(token: str):
    access = open_turn(token)
    if wants_json():
        return jsonify(payload(access))
    message = None if access.live or access.loaded.engine.outcome(access.loaded.state) else ALREADY
    return render_page(access, message=message)


@bp.post("/t/<token>")
def submit(token: str):
    access = open_turn(token)
    text = steps_text()
    if not access.live:
        if wants_json():
            return jsonify({"error": "This turn was already submitted."}), 409
        return render_page(access, message=ALREADY, status=409)
    action = request.form.get("action")
    if not request.is_json and action == "confirm":
        return confirm_page(access, text)
    if not request.is_json and action != "submit":
        return render_page(access, edited(access.loaded.engine, text))   # without JavaScript
    _limit_submissions(access)
    if reminders.expired(access.loaded, access.seat):
        return _too_late(access)
    try:
        event = access.loaded.engine.decide(access.loaded.state, access.seat, text)
    except GameError as error:
        if wants_json():
            return jsonify(error.to_json()), 422
        return render_page(access, text, status=422)
    try:
        after = store.append(access.loaded, event)
        notify.event_appended(after, access.seat)
        store.commit()
    except AlreadySubmitted:
        if wants_json():
            return jsonify({"error": "This turn was already submitted."}), 409
        return render_page(open_turn(token), message=ALREADY, status=409)
    return _after_submit(Access(access.link, after, None))


@bp.post("/t/<token>/preview")
def preview(token: str):
    if not PREVIEWS.allow(f"preview:{request.remote_addr}",
                          current_app.config["PREVIEWS_PER_CLIENT_PER_MINUTE"]):
        raise RateLimited("Too many previews in a minute; please wait a little.")
    access = open_turn(token)
    if not access.live:
        if wants_json():
            return jsonify({"error": "This turn was already submitted."}), 409
        return render_page(access, message=ALREADY, status=409)
    text = steps_text() if request.is_json else edited(access.loaded.engine, steps_text())
    if wants_json():
        draft = access.loaded.engine.draft(access.loaded.state, access.seat, text)
        data = payload(access, draft)
        data["explain"] = access.loaded.engine.explain(access.loaded.state, access.seat, text)
        data["sentence"] = sentence(data["explain"])
        return jsonify(data)
    context = common(access)
    context.update(draft_context(access, text), access=access)
    return render_template("play/_draft.html", **context)


@bp.get("/s/<token>")
def seat(token: str):
    access = open_seat(token)
    if wants_json():
        return jsonify(payload(access))
    return render_page(access)


@bp.route("/s/<token>/resign", methods=["GET", "POST"])
def resign(token: str):
    """Resigning asks first: a GET (or a POST without `confirm`) shows what it means."""
    access = open_seat(token)
    loaded, seat = access.loaded, access.seat
    if loaded.engine.outcome(loaded.state) is not None:
        raise BadInput("The game is already over.")
    body = request.get_json(silent=True) if request.is_json else None
    confirmed = request.method == "POST" and (
        request.form.get("confirm") == "yes" or (isinstance(body, dict) and body.get("confirm") is True))
    if not confirmed:
        if wants_json():
            return jsonify({"error": 'Resigning loses the game; send {"confirm": true} to resign.'}), 400
        context = common(access)
        context.update(access=access, seat_path=seat_path(access))
        return render_template("play/resign.html", **context)
    after = None
    while after is None:   # a resignation may come at any point of the log: retry a lost race
        try:
            after = store.append(loaded, loaded.engine.resign_event(seat))
            notify.event_appended(after, None)
            store.commit()
        except AlreadySubmitted:
            loaded = store.load(loaded.id)
            if loaded.engine.outcome(loaded.state) is not None:
                raise BadInput("The game is already over.") from None
    if wants_json():
        return jsonify(payload(Access(access.link, after, None)))
    return redirect(seat_path(access), 303)


@bp.post("/t/<token>/renew")
def renew_turn(token: str):
    return _renew(links.TURN, token)


@bp.post("/s/<token>/renew")
def renew_seat(token: str):
    return _renew(links.SEAT, token)


def _renew(kind: str, token: str):
    """Mail fresh links to the seat's own address: for expired or replaced links."""
    try:
        link = links.read(kind, token)
    except LinkExpired as expired:
        link = expired.context["link"]
    loaded = load_seat(link)
    interval = timedelta(seconds=current_app.config["LINK_REQUEST_INTERVAL_SECONDS"])
    recent = db.session.scalar(select(func.count()).select_from(Mail).where(
        Mail.game_id == loaded.id, Mail.seat == link.seat, Mail.kind == "links",
        Mail.created_at >= utcnow() - interval))
    if recent:
        raise RateLimited("A fresh link was mailed to this seat a few minutes ago; please look "
                          "for it in the player's mailbox.")
    store.reissue_nonce(loaded.id, link.seat)
    notify.links_reissued(loaded, link.seat)
    db.session.commit()
    message = "A fresh link is on its way to the player's mail address."
    if wants_json():
        return jsonify({"message": message}), 202
    return render_template("errors/error.html", status=202, title="Link sent", message=message), 202


# -- submitting ---------------------------------------------------------------

PREVIEWS = ratelimit.ProcessLimiter()


TOO_LATE = "Your time for this turn ran out before you submitted it, so the game is lost on time."


def _limit_submissions(access: Access) -> None:
    """Submissions per client and per seat address, in the database (every process counts)."""
    config, minute = current_app.config, timedelta(minutes=1)
    address = access.loaded.seats[access.seat].email
    allowed = (ratelimit.allow(f"submit-client:{request.remote_addr}",
                               config["SUBMISSIONS_PER_CLIENT_PER_MINUTE"], minute)
               and ratelimit.allow(f"submit-address:{address}",
                                   config["SUBMISSIONS_PER_ADDRESS_PER_MINUTE"], minute))
    db.session.commit()   # counted now: illegal submissions, which are never committed, count too
    if not allowed:
        raise RateLimited("Too many submissions in a minute; please wait a little.")


def _too_late(access: Access):
    """A submission after the deadline ends the game by time, even before `remind` has run."""
    try:
        after = reminders.time_out(access.loaded, access.seat)
        store.commit()
    except AlreadySubmitted:
        after = store.load(access.loaded.id)
    late = Access(access.link, after, None)
    if wants_json():
        return jsonify({"error": TOO_LATE, **payload(late)}), 409
    return render_page(late, message=TOO_LATE, status=409)


def _after_submit(access: Access):
    """Post/redirect/get: on to the seat's next decision, or its standing view."""
    loaded, seat = access.loaded, access.seat
    decision = loaded.owed(seat)
    next_path = links.path(links.TURN, loaded.id, seat, loaded.seq) if decision else seat_path(access)
    if wants_json():
        data = payload(Access(access.link, loaded, None))
        data["next"] = current_app.config["BASE_URL"] + next_path
        return jsonify(data), 200
    return redirect(next_path, 303)
