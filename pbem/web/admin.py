"""The operator's page: registered only when ADMIN_EMAIL is set (without it, /admin is a 404).

    GET  /admin                              the dashboard, or (signed out) the sign-in form
    POST /admin                              mail a sign-in link, if the address is ADMIN_EMAIL
    GET|POST /admin/in/<token>               the mailed link: its button (a POST) signs in
    POST /admin/out                          sign out
    GET  /admin/games/<id>                   one game, with its actions
    POST /admin/games/<id>/abort             end it with no winner (field `why`)
    POST /admin/games/<id>/seats/<n>/address correct a seat's address (field `address`)
    POST /admin/games/<id>/seats/<n>/resend  mail a seat its turn mail again (else its links)
    GET|POST /admin/games/<id>/delete        what deleting would delete; its button deletes
    POST /admin/mail/retry                   queue every failed mail again
    POST /admin/jobs/retry                   put failed jobs back in their queues (field `job`: one)
    POST /admin/suppressions/clear           mail an address again (field `address`)
    GET  /admin/quarantine/<n>               a quarantined incoming mail

Nobody has a password: the operator signs in with a link mailed to ADMIN_EMAIL (valid an
hour; a mail scanner opening it signs nobody in, the button does). Signing in sets a session
cookie limited to /admin (HttpOnly, SameSite=Strict, Secure when BASE_URL is https) that
ends SESSION_HOURS after signing in. Every action is a POST carrying the session's CSRF token.
What the page shows comes from `pbem.play.operations`, as the commands' output does; what it does
is the same use cases the commands call.
"""

from __future__ import annotations

import hmac
import secrets
import time
from datetime import datetime, timedelta

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for

from pbem import i18n
from pbem.errors import NotFound, ServerError
from pbem.mail import deliver
from pbem.mail.people import email_address
from pbem.play import addresses, inbox, operations, turns
from pbem.players import messages
from pbem.policy import clocks
from pbem.store import gamelog
from pbem.store.models import utcnow

bp = Blueprint("admin", __name__, url_prefix="/admin")

SESSION_HOURS = 12
RECENT_FINISHED = 20
QUARANTINE_SHOWN = 50
#: What the page shows of a quarantined message (the command writes all that is kept).
QUARANTINE_TEXT = 64 * 1024


class SignInNeeded(ServerError):
    status, title = 403, "Sign in first"


class CsrfRefused(ServerError):
    """A POST without this session's token: another site's form, or a page from before."""
    status, title = 403, "Forbidden"


def init_app(app) -> None:
    """The operator's page, only when there is an operator to sign in."""
    if not app.config.get("ADMIN_EMAIL"):
        return
    app.config.update(
        SESSION_COOKIE_NAME="pbem_operator",
        SESSION_COOKIE_PATH="/admin",          # players' pages never carry it
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=app.config["BASE_URL"].startswith("https://"),
        PERMANENT_SESSION_LIFETIME=timedelta(hours=SESSION_HOURS),
    )
    app.register_blueprint(bp)


# -- who may act -----------------------------------------------------------------------------

def signed_in() -> bool:
    """A session made by signing in as today's ADMIN_EMAIL, less than SESSION_HOURS ago."""
    operator = session.get("operator")
    if not isinstance(operator, dict):
        return False
    admin = current_app.config["ADMIN_EMAIL"]
    since = operator.get("since")
    return (isinstance(operator.get("address"), str)
            and hmac.compare_digest(operator["address"].encode(), admin.encode())
            and isinstance(since, (int, float)) and 0 <= time.time() - since < SESSION_HOURS * 3600)


OPEN = {"admin.index", "admin.request_sign_in", "admin.sign_in"}


@bp.before_request
def in_english():
    """The operator's pages are English (not translated): what they show of games (clocks,
    names in words) too, whatever his browser prefers."""
    i18n.use(i18n.ENGLISH)


@bp.before_request
def guard():
    """Pages need a session (a page asked for without one goes to the sign-in form); actions
    need one and its CSRF token."""
    if request.endpoint in OPEN:
        return None
    if not signed_in():
        if request.method == "GET":
            return redirect(url_for("admin.index"), 303)
        raise SignInNeeded("Sign in first: this needs the operator's session.")
    if request.method == "POST":
        token, expected = request.form.get("csrf", ""), session["operator"].get("csrf")
        if not (isinstance(token, str) and isinstance(expected, str) and expected
                and hmac.compare_digest(token.encode(), expected.encode())):
            raise CsrfRefused("This form is not from this session's page; reload the page and try again.")
    return None


@bp.context_processor
def page_context():
    operator = session.get("operator") if signed_in() else None
    return {"csrf": operator["csrf"] if operator else None, "signed_in": operator is not None,
            "when": when, "age": age, "session_hours": SESSION_HOURS,
            "stalled_days": current_app.config.get("STALLED_AFTER_DAYS", 14)}


def when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "-"


def age(moment: datetime, now: datetime | None = None) -> str:
    """How long ago, roughly: "3 days", "5 hours", "12 minutes", "less than a minute"."""
    seconds = ((now or utcnow()) - moment).total_seconds()
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return "less than a minute"


# -- signing in and out ------------------------------------------------------------------------

SIGN_IN_SENT = ("If that is the operator's address, a sign-in link is on its way to it. It works "
                "for {minutes} minutes.")


@bp.get("")
def index():
    if not signed_in():
        return render_template("admin/sign_in.html")
    return dashboard()


@bp.post("")
def request_sign_in():
    """The same answer whatever the address: a stranger learns nothing, and mails nobody."""
    address = request.form.get("email", "")
    operations.mail_sign_in(address if isinstance(address, str) else "")
    return render_template("admin/sign_in.html",
                           message=SIGN_IN_SENT.format(minutes=operations.SIGN_IN_MAX_AGE // 60))


@bp.route("/in/<token>", methods=["GET", "POST"])
def sign_in(token: str):
    """The mailed link shows a button; its POST signs in (a mail scanner only GETs)."""
    address = operations.signed_in_address(token)   # 403 / 410 before anything
    if request.method == "GET":
        return render_template("admin/sign_in_link.html", path=request.path)
    session.clear()
    session.permanent = True
    session["operator"] = {"address": address, "since": time.time(), "csrf": secrets.token_urlsafe(24)}
    return redirect(url_for("admin.index"), 303)


@bp.post("/out")
def sign_out():
    session.clear()
    return render_template("admin/sign_in.html", message="You are signed out.")


# -- the dashboard and a game --------------------------------------------------------------------

def dashboard():
    running = operations.summaries(operations.WAITING)
    outbox, backlog = operations.background(utcnow())
    return render_template(
        "admin/dashboard.html",
        outbox=outbox, backlog=backlog,
        queues=operations.job_queues(), failed_jobs=operations.failed_jobs(),
        stalled=[s for s in running if s.stalled],
        waiting=running,
        finished=operations.summaries(operations.FINISHED, limit=RECENT_FINISHED),
        failed=deliver.status()["failed"],
        quarantined=inbox.quarantined(QUARANTINE_SHOWN),
        suppressions=addresses.suppressions(),
        now=utcnow())


@bp.get("/games/<game_id>")
def game(game_id: str):
    d = operations.detail(game_id)
    said = messages.of_game(game_id, gamelog.load(game_id).names, hidden=True)
    clock = clocks.of_game(game_id, d.time_limit_days).describe()
    return render_template("admin/game.html", d=d, said=said, clock=clock, now=utcnow())


def _back(game_id: str):
    return redirect(url_for("admin.game", game_id=game_id), 303)


def _field(name: str) -> str:
    value = request.form.get(name, "")
    return value.strip() if isinstance(value, str) else ""


@bp.post("/games/<game_id>/abort")
def abort(game_id: str):
    why = _field("why")
    if not why:
        flash("Give a reason: the players are mailed it.", "error")
        return _back(game_id)
    return _acting(game_id, lambda: turns.abort(game_id, why),
                   "The game is aborted; its players are mailed why.")


@bp.post("/games/<game_id>/seats/<int:seat>/address")
def set_address(game_id: str, seat: int):
    def act():
        address = email_address(_field("address"))
        addresses.set_address(game_id, seat, address)
        return address
    return _acting(game_id, act, "Seat {seat} now plays from {result}; the old links no longer work, "
                   "and the game is mailed there.", seat=seat)


@bp.post("/games/<game_id>/messages/<int(max=2147483647):message_id>/hide")
def hide_message(game_id: str, message_id: int):
    return _acting(game_id, lambda: messages.hide(message_id, game_id),
                   "Message #{message_id} is hidden from the players' pages, mails and the record.",
                   message_id=message_id)


@bp.post("/games/<game_id>/seats/<int:seat>/resend")
def resend(game_id: str, seat: int):
    return _acting(game_id, lambda: addresses.resend(game_id, seat),
                   "Seat {seat} is mailed again.", seat=seat)


def _acting(game_id: str, act, done: str, **words):
    """Do it, then back to the game's page saying what happened, or why not (the game itself
    missing is a 404)."""
    operations.summary(game_id)
    try:
        result = act()
    except ServerError as error:
        flash(error.message, "error")
    else:
        flash(done.format(result=result, **words), "ok")
    return _back(game_id)


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete(game_id: str):
    summary = operations.summary(game_id)
    try:
        rows = operations.deletion(game_id)
    except operations.NotDeletable as refused:
        flash(refused.message, "error")
        return _back(game_id)
    if request.method == "GET":
        return render_template("admin/delete.html", s=summary, rows=rows)
    operations.delete_game(game_id)
    flash(f"Game {game_id} is deleted.", "ok")
    return redirect(url_for("admin.index"), 303)


# -- mail ------------------------------------------------------------------------------------

@bp.post("/mail/retry")
def retry_failed():
    count = deliver.retry_failed()
    flash(f"{count} failed mail(s) queued again.", "ok")
    return redirect(url_for("admin.index", _anchor="mail"), 303)


@bp.post("/jobs/retry")
def retry_jobs():
    """Every failed job back in its queue, or the one named by the field `job`."""
    job = request.form.get("job", "")
    count = operations.retry_jobs([int(job)] if job.isdigit() else None)
    flash(f"{count} failed job(s) queued again.", "ok")
    return redirect(url_for("admin.index", _anchor="background"), 303)


@bp.post("/suppressions/clear")
def clear_suppression():
    address = _field("address").lower()
    if addresses.unsuppress(address):
        flash(f"{address} is mailed again.", "ok")
    else:
        flash(f"{address} is not on the suppression list.", "error")
    return redirect(url_for("admin.index", _anchor="suppressed"), 303)


@bp.get("/quarantine/<int(max=2147483647):message_id>")
def quarantined(message_id: int):
    row = inbox.quarantined_message(message_id)
    if row is None:
        raise NotFound("There is no such quarantined message.")
    text = row.raw[:QUARANTINE_TEXT].decode("utf-8", errors="replace")
    return render_template("admin/quarantined.html", m=row, text=text,
                           cut=len(row.raw) > QUARANTINE_TEXT)
