"""Turn links and seat links: the pages (and JSON) players reach from their mails.

    GET  /t/<token>            the turn page (JSON with Accept: application/json)
    POST /t/<token>            submit (or, without JavaScript, preview / add / remove a step)
    POST /t/<token>/preview    the draft's preview: JSON, or an HTML fragment for the page's script
    GET  /s/<token>            the seat's standing view of the game
    POST /t|s/<token>/renew    an expired or replaced link: mail a fresh one to the seat

A turn link acts only while its seat owes a decision at the point of the log
it names. Views are computed for the link's seat; templates never see a state.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property
from datetime import timedelta

from flask import Blueprint, current_app, jsonify, redirect, render_template, request
from sqlalchemy import func, select

from .. import links, ratelimit, reminders, store
from ..errors import (AlreadySubmitted, BadInput, LinkExpired, LinkReplaced, LinkTampered,
                      RateLimited)
from ..extensions import db
from ..games.base import Decision, Draft
from ..games.errors import GameError
from ..mail import deliver as delivery
from ..mail import notify
from ..models import FAILED, Mail, SeatNonce, utcnow
from ..store import Loaded
from .errors import wants_json

bp = Blueprint("play", __name__)

ALREADY = "This turn was already submitted; here is the game as it stands."
MAX_STEPS_TEXT = 20_000


@dataclass
class Access:
    """What a link opens: its seat in a loaded game, and whether it may act now."""
    link: links.Link
    loaded: Loaded
    decision: Decision | None     # the decision this link may answer now, if any

    @property
    def seat(self) -> int:
        return self.link.seat

    @property
    def live(self) -> bool:
        return self.decision is not None

    @cached_property
    def facts(self) -> tuple[str | None, int]:
        """The seat's live nonce and how many of the game's mails failed: one round trip."""
        nonce = (select(SeatNonce.nonce).where(SeatNonce.game_id == self.loaded.id,
                                               SeatNonce.seat == self.seat)
                 .order_by(SeatNonce.id.desc()).limit(1).scalar_subquery())
        failed = (select(func.count()).select_from(Mail)
                  .where(Mail.game_id == self.loaded.id, Mail.status == FAILED).scalar_subquery())
        return tuple(db.session.execute(select(nonce, failed)).one())

    def undelivered(self) -> list[dict]:
        if not self.facts[1]:
            return []
        return [{"name": m.to_name, "subject": m.subject}
                for m in delivery.failed_for_game(self.loaded.id)]


def _load(link: links.Link) -> Loaded:
    loaded = store.load(link.game_id)
    if not 0 <= link.seat < len(loaded.seats):
        raise LinkTampered()
    return loaded


def open_turn(token: str) -> Access:
    link = links.read(links.TURN, token)
    loaded = _load(link)
    decision = loaded.owed(link.seat) if link.mark == loaded.seq else None
    return Access(link, loaded, decision)


def open_seat(token: str) -> Access:
    link = links.read(links.SEAT, token)
    loaded = _load(link)
    access = Access(link, loaded, None)
    if access.facts[0] != link.mark:
        raise LinkReplaced("This link was replaced by a newer one, which was mailed to the player.",
                           renew_path=f"/s/{token}/renew")
    return access


# -- building what a seat sees -------------------------------------------

def steps_text() -> str:
    """The draft from a form or a JSON body. Form fields named `compose` are joined with spaces
    (a game's own form, such as Babel's discard form, spells its steps that way)."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("steps", ""), str):
            raise BadInput('Send a JSON object like {"steps": "move M"}.')
        text = body.get("steps", "")
    elif request.form.getlist("compose"):
        text = " ".join(request.form.getlist("compose"))
    else:
        text = request.form.get("steps", "")
    if len(text) > MAX_STEPS_TEXT:
        raise BadInput(f"The turn is too long ({len(text)} characters).")
    return text.replace("\r\n", "\n")


def edited(engine, text: str) -> str:
    """The draft after a step button: `add` appends a step, `remove` drops step N."""
    add, remove = request.form.get("add", ""), request.form.get("remove", "")
    if add:
        text = text.rstrip("\n") + ("\n" if text.strip() else "") + add + "\n"
    if remove.isascii() and remove.isdigit():   # not "²", which int() refuses
        try:
            pieces = engine.split_steps(text)
        except GameError:
            return text
        if 1 <= int(remove) <= len(pieces):
            del pieces[int(remove) - 1]
            text = "\n".join(pieces) + ("\n" if pieces else "")
    return text


def _common(access: Access) -> dict:
    loaded, seat = access.loaded, access.seat
    last = loaded.last_event_by_other(seat)
    outcome = loaded.engine.outcome(loaded.state)
    deadline = reminders.deadline(loaded, seat)
    return {
        "deadline": deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else None,
        "time_limit_days": loaded.row.time_limit_days,
        "undelivered": access.undelivered(),
        "game_id": loaded.id,
        "title": loaded.engine.title,
        "names": loaded.names,
        "seat": seat,
        "seq": loaded.seq,
        "last_turn": loaded.engine.notation(last) if last else None,
        "last_name": loaded.names[last["seat"]] if last else None,
        "outcome": outcome,
        "winner_name": loaded.names[outcome.winner] if outcome and outcome.winner is not None else None,
        "to_act": [{"seat": d.seat, "name": loaded.names[d.seat], "kind": d.kind, "label": d.label}
                   for d in loaded.engine.to_act(loaded.state)],
        "record_path": f"/games/{loaded.id}/record",
    }


def payload(access: Access, draft: Draft | None = None) -> dict:
    """The JSON a link answers: the seat's view, and its legal steps when it may act."""
    engine, seat = access.loaded.engine, access.seat
    state = draft.state if draft else access.loaded.state
    data = _common(access)
    data.pop("outcome"), data.pop("winner_name")
    outcome = engine.outcome(access.loaded.state)
    data.update({
        "game": data.pop("game_id"),
        "kind": engine.name,
        "decision": ({"kind": access.decision.kind, "label": access.decision.label}
                     if access.live else None),
        "can_act": access.live,
        "view": engine.view(state, seat),
        "legal_steps": [asdict(o) for o in engine.legal_steps(state, seat)] if access.live else [],
        "outcome": asdict(outcome) if outcome else None,
    })
    if draft is not None:
        data.update({"steps": draft.steps, "done": draft.done, "todo": draft.todo,
                     "error": str(draft.error) if draft.error else None,
                     "step": draft.error.step if draft.error else None})
    return data


def _draft_context(access: Access, text: str) -> dict:
    engine, seat = access.loaded.engine, access.seat
    draft = engine.draft(access.loaded.state, seat, text)
    legal = engine.legal_steps(draft.state, seat) if not draft.error or draft.steps else []
    return {
        "draft": draft,
        "draft_text": text,
        "view": engine.view(draft.state, seat),
        "legal": [o for o in legal if not o.ends],
        "can_end": any(o.ends for o in legal) or draft.done,
        "explained": engine.explain(access.loaded.state, seat, text) if draft.steps else [],
        "board_template": engine.board_template,
    }


def render_page(access: Access, text: str = "", message: str | None = None, status: int = 200,
                path: str | None = None):
    engine = access.loaded.engine
    context = _common(access)
    context.update(access=access, message=message, path=path or request.path,
                   seat_path=_seat_path(access), form_template=None)
    if access.live:
        context.update(_draft_context(access, text))
        context["form_template"] = engine.form_templates.get(access.decision.kind)
    else:
        context.update(view=engine.view(access.loaded.state, access.seat),
                       board_template=engine.board_template)
        decision = access.loaded.owed(access.seat)
        if decision is not None:   # the seat owes a decision: offer its live turn link
            context["turn_path"] = links.path(links.TURN, access.loaded.id, access.seat,
                                              access.loaded.seq)
    return render_template("play/page.html", **context), status


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
        context = _common(access)
        context.update(access=access, seat_path=_seat_path(access))
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
    return redirect(_seat_path(access), 303)


def _seat_path(access: Access) -> str:
    return links.path(links.SEAT, access.loaded.id, access.seat, access.facts[0])


# -- routes -----------------------------------------------------------------

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


PREVIEWS = ratelimit.ProcessLimiter()


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


TOO_LATE = "Your time for this turn ran out before you submitted it, so the game is lost on time."


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


def sentence(phrases: list[str]) -> str:
    """Steps in words as one sentence: "Move to the Medes, settle 2 Medes there, build level 4."."""
    if not phrases:
        return ""
    text = ", ".join(phrases)
    return text[0].upper() + text[1:] + "."


def confirm_page(access: Access, text: str):
    """Before a turn is submitted, it is shown in plain words (unless it cannot be submitted)."""
    engine = access.loaded.engine
    draft = engine.draft(access.loaded.state, access.seat, text)
    if not draft.done:
        return render_page(access, text, status=422)
    context = _common(access)
    context.update(access=access, path=request.path, draft_text=text, seat_path=_seat_path(access),
                   words=sentence(engine.explain(access.loaded.state, access.seat, text)))
    return render_template("play/confirm.html", **context)


def _after_submit(access: Access):
    """Post/redirect/get: on to the seat's next decision, or its standing view."""
    loaded, seat = access.loaded, access.seat
    decision = loaded.owed(seat)
    next_path = links.path(links.TURN, loaded.id, seat, loaded.seq) if decision else _seat_path(access)
    if wants_json():
        data = payload(Access(access.link, loaded, None))
        data["next"] = current_app.config["BASE_URL"] + next_path
        return jsonify(data), 200
    return redirect(next_path, 303)


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
    context = _common(access)
    context.update(_draft_context(access, text), access=access)
    return render_template("play/_draft.html", **context)


@bp.get("/s/<token>")
def seat(token: str):
    access = open_seat(token)
    if wants_json():
        return jsonify(payload(access))
    return render_page(access)


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
    loaded = _load(link)
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
