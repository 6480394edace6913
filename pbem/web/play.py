"""Turn links and seat links: the pages (and JSON) players reach from their mails.

    GET  /t/<token>            the turn page (JSON with Accept: application/json)
    POST /t/<token>            submit (or, without JavaScript, preview / add / remove a step);
                               a `message` beside the steps is said with the turn
    POST /t/<token>/preview    the draft's preview: JSON, or an HTML fragment for the page's script
    GET  /s/<token>            the seat's standing view of the game
    GET|POST /s/<token>/resign resigning, after a confirmation
    GET|POST /s/<token>/decline declining an invitation (before the seat's first decision)
    GET|POST /d/<token>        the same, from the invitation's decline link
    POST /s/<token>/replace    mail the seat a link that replaces its links (they leaked)
    POST /t|s/<token>/renew    an expired or replaced link: mail the seat its current links

A turn link acts only while its seat owes a decision at the point of the log
it names. What the seat sees is built in `seatview`; what a decision does is
the turn service's (`pbem.play.turns`): these routes translate forms into calls
and results into pages.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request

from pbem.errors import AlreadySubmitted, BadInput, LinkExpired
from pbem.games.errors import GameError
from pbem.games.phrases import phrase
from pbem.play import addresses, turns
from pbem.policy import limits, links
from pbem.store.gamelog import Loaded
from pbem.web.access import (
    Access,
    edited,
    load_seat,
    message_text,
    open_decline,
    open_seat,
    open_turn,
    steps_text,
)
from pbem.web.errors import wants_json
from pbem.web.pages import (
    ALREADY,
    confirm_page,
    draft_fragment,
    preview_json,
    render_page,
    seat_form,
    seat_path,
)
from pbem.web.talk import saved_notice

bp = Blueprint("play", __name__)


@bp.get("/t/<token>")
def turn(token: str):
    access = open_turn(token)
    if wants_json():
        return jsonify(access.seat_view.to_json())
    message = None if access.live or access.loaded.over else ALREADY
    return render_page(access, message=message)


@bp.post("/t/<token>")
def submit(token: str):
    access = open_turn(token)
    text = steps_text()
    if not access.live:
        return _already(access)
    action = request.form.get("action")
    if request.is_json or action in ("confirm", "submit"):
        text = _ending(access, text)
    if not request.is_json and action == "confirm":
        return confirm_page(access, text)
    if not request.is_json and action != "submit":
        return render_page(access, edited(access.loaded.engine, text))   # without JavaScript
    origin = turns.Origin(turns.WEB, client=request.remote_addr)
    try:
        # A live turn link names the point of the log it was opened at: the log's end.
        after = turns.submit(access.loaded.id, access.seat, access.loaded.seq, text, origin,
                             message=message_text(), loaded=access.loaded)
    except GameError as error:
        if wants_json():
            return jsonify(error.to_json()), 422
        return render_page(access, text, status=422)
    except AlreadySubmitted:
        return _already(open_turn(token))
    except turns.TooLate as late:
        return _too_late(access.after(late.context["loaded"]))
    return _after_submit(access, after)


def _ending(access: Access, text: str) -> str:
    """An empty draft, when the seat may end its decision with no step, is that ending: the
    engine's submission of no steps (Babel's `pass`), as the page's "End your turn" offers.
    (A mail reply with no steps stays an error: an empty answer is more likely a slip.)"""
    engine, state = access.loaded.engine, access.loaded.state
    try:
        if engine.split_steps(text):
            return text
    except GameError:
        return text
    if any(o.ends for o in engine.legal_steps(state, access.seat)):
        return engine.submission([])
    return text


def _already(access: Access):
    if wants_json():
        return jsonify({"error": phrase("This turn was already submitted.")}), 409
    return render_page(access, message=ALREADY, status=409)


@bp.post("/t/<token>/preview")
def preview(token: str):
    limits.take_preview(request.remote_addr or "")
    access = open_turn(token, list_steps=False)
    if not access.live:
        return _already(access)
    text = steps_text() if request.is_json else edited(access.loaded.engine, steps_text())
    if wants_json():
        answer = preview_json(access, text)
        ending = _ending(access, text)
        if ending != text:   # an empty draft that may end: submitting it ends, in these words
            said = preview_json(access, ending)
            answer.update(done=True, todo=None, explain=said["explain"], sentence=said["sentence"])
        return jsonify(answer)
    return draft_fragment(access, text)


@bp.get("/s/<token>")
def seat(token: str):
    access = open_seat(token)
    if wants_json():
        return jsonify(access.seat_view.to_json())
    return render_page(access, message=saved_notice(request.args.get("saved")))


@bp.route("/s/<token>/resign", methods=["GET", "POST"])
def resign(token: str):
    """Resigning asks first: a GET (or a POST without `confirm`) shows what it means."""
    access = open_seat(token)
    if access.loaded.over:
        raise BadInput(phrase("The game is already over."))
    if access.seat_view.bot:
        raise turns.SeatLeft(turns.LEFT)
    taken = turns.takes_over(access.loaded, access.seat)
    if not _confirmed():
        if wants_json():
            said = (phrase('Resigning hands your seat to a computer; send {confirm} to resign.',
                           confirm='{"confirm": true}') if taken else
                    phrase('Resigning loses the game; send {confirm} to resign.',
                           confirm='{"confirm": true}'))
            return jsonify({"error": said}), 400
        return seat_form(access, "play/resign.html", takes_over=taken)
    after = turns.resign(access.loaded.id, access.seat)
    if wants_json():
        return jsonify(access.after(after).seat_view.to_json())
    return redirect(seat_path(access), 303)


@bp.route("/s/<token>/decline", methods=["GET", "POST"])
def decline(token: str):
    return _decline(open_seat(token))


@bp.route("/d/<token>", methods=["GET", "POST"])
def decline_invitation(token: str):
    """The invitation's own decline link (it works while the seat's link is the live one)."""
    return _decline(open_decline(token))


def _decline(access: Access):
    """Declining an invitation calls the game off (no winner); it asks first, like resigning."""
    if access.loaded.over:
        raise BadInput(phrase("The game is already over."))
    if not _confirmed():
        if wants_json():
            return jsonify({"error": phrase("Declining calls the game off; send {confirm} to decline.",
                                            confirm='{"confirm": true}')}), 400
        return seat_form(access, "play/decline.html")
    after = turns.decline(access.loaded.id, access.seat)
    if wants_json():
        return jsonify(access.after(after).seat_view.to_json())
    return redirect(seat_path(access), 303)


def _confirmed() -> bool:
    body = request.get_json(silent=True) if request.is_json else None
    return request.method == "POST" and (
        request.form.get("confirm") == "yes" or (isinstance(body, dict) and body.get("confirm") is True))


@bp.post("/s/<token>/replace")
def ask_to_replace(token: str):
    """The seat's links leaked: mail its own address a link that replaces them."""
    access = open_seat(token)
    addresses.ask_to_replace(access.loaded.id, access.seat)
    message = phrase("A mail with a link that replaces your links is on its way to your address. "
                     "Until you open it, your links keep working.")
    if wants_json():
        return jsonify({"message": message}), 202
    return render_template("errors/error.html", status=202, title=phrase("Check your mailbox"),
                           message=message), 202


@bp.post("/t/<token>/renew")
def renew_turn(token: str):
    return _renew(links.TURN, token)


@bp.post("/s/<token>/renew")
def renew_seat(token: str):
    return _renew(links.SEAT, token)


def _renew(kind: str, token: str):
    """Mail the seat's current links to its own address: for expired or replaced links."""
    try:
        link = links.read(kind, token)
    except LinkExpired as expired:
        link = expired.context["link"]
    load_seat(link)
    addresses.mail_seat_links(link.game_id, link.seat)
    message = phrase("The player's current links are on their way to the player's mail address.")
    if wants_json():
        return jsonify({"message": message}), 202
    return render_template("errors/error.html", status=202, title=phrase("Link sent"), message=message), 202


# -- after submitting ------------------------------------------------------------------

def _too_late(late: Access):
    """A submission after the deadline ended the game by time, even before `remind` ran."""
    if wants_json():
        return jsonify({"error": turns.TOO_LATE, **late.seat_view.to_json()}), 409
    return render_page(late, message=turns.TOO_LATE, status=409)


def _after_submit(before: Access, loaded: Loaded):
    """Post/redirect/get: on to the seat's next decision, or its standing view. (A decision
    replaces no seat link: the links carry the nonce the submission's page read.)"""
    seat, nonce = before.seat, before.facts.nonce
    next_path = (links.path(links.TURN, loaded.id, seat, loaded.seq, nonce)
                 if loaded.decision_of(seat) else links.path(links.SEAT, loaded.id, seat, nonce))
    if wants_json():
        data = before.after(loaded).seat_view.to_json()   # (read anew: a message said with it)
        data["next"] = current_app.config["BASE_URL"] + next_path
        return jsonify(data), 200
    return redirect(next_path, 303)
