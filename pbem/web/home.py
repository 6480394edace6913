"""A player's home: all the games of his address, and his settings.

    GET  /h/<token>                 the home: a page, or JSON (`Accept: application/json`)
    POST /h/<token>/settings        time zone, language, mail per turn or digest, confirmations
    POST /h/<token>/vacation        go on vacation for N days (`days`), or come back (`action=end`;
                                    JSON `{"end": true}`): every clock of the address stops
    POST /h/<token>/replace         a new home link, mailed to the address (the old one dies)
    POST /h/<token>/rematch         a rematch of a finished game (form field `game`)
    POST /s/<token>/rematch         the same from a seat's page (a finished game's end)
    GET|POST /m/<token>             another player says yes to a rematch (the button: a POST)

The token in the path is the capability (like a seat link); every form also carries a CSRF
token derived from it, checked with the secret key, and the pages allow forms to post only
to this server (the Content-Security-Policy's `form-action 'self'`).
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from sqlalchemy import select

from .. import home, i18n, rematch, settings, small, store, turns, vacation
from ..errors import BadInput, NotFound, ServerError
from ..extensions import db
from ..games.phrases import phrase
from ..mail.words import listing
from ..models import Seat
from ..people import email_address
from . import security
from .access import open_seat
from .errors import wants_json

bp = Blueprint("home", __name__)


class CsrfRefused(ServerError):
    status, title = 403, phrase("Form refused")


def csrf_token(token: str) -> str:
    return security.csrf_token("home", token)


def _form() -> dict:
    """The request's fields, from a form or a JSON object."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise BadInput(phrase("Send a JSON object."))
        return body
    return request.form.to_dict()


def _text(form: dict, key: str, default: str) -> str:
    value = form.get(key, default)
    if not isinstance(value, str):
        raise BadInput(phrase("The field {field} must be text.", field=key))
    return value


def _check_csrf(token: str) -> None:
    if not security.csrf_matches(_form().get("csrf", ""), "home", token):
        raise CsrfRefused(phrase("This form is not from your home page; reload the page and try "
                                 "again."))


def _open(token: str) -> settings.Settings:
    """The home a link opens, its pages in the address's language (the browser's while the
    address has neither games nor a choice)."""
    mine = home.open_home(token)
    i18n.use(settings.language_of(mine.address, default=i18n.browser_language()))
    return mine


def render(token: str, listed: home.Home, message: str | None = None, error: str | None = None,
           status: int = 200):
    if wants_json():
        return listed.to_json(), status
    return render_template("home/home.html", home=listed, path=f"/h/{token}", csrf=csrf_token(token),
                           message=message, error=error, zones=settings.zones(),
                           languages=settings.LANGUAGES, mail_modes=settings.MAIL_MODES,
                           listed=listing,
                           local=lambda moment: settings.local_deadline(moment, listed.settings)
                           ), status


@bp.get("/h/<token>")
def show(token: str):
    mine = _open(token)
    return render(token, home.build(mine.address))


@bp.post("/h/<token>/settings")
def change_settings(token: str):
    mine = _open(token)
    _check_csrf(token)
    form, current = _form(), mine
    # A form leaves an unticked box out; JSON leaves out what it does not change.
    confirm = form.get("confirm_replies", current.confirm_replies if request.is_json else None)
    try:
        settings.change(mine.address, _text(form, "time_zone", current.time_zone),
                        _text(form, "language", current.language),
                        _text(form, "mail_mode", current.mail_mode),
                        confirm is True or confirm == "on")
    except BadInput as error:
        if wants_json():
            raise
        return render(token, home.build(mine.address), error=error.message, status=400)
    i18n.use(settings.of(mine.address).language)   # the page says it in the new language
    return render(token, home.build(mine.address), message=phrase("Your settings were saved."))


@bp.post("/h/<token>/vacation")
def take_vacation(token: str):
    """Vacation is the address's: `pbem.vacation` starts or ends it (as from a seat's page)."""
    mine = _open(token)
    _check_csrf(token)
    form = _form()
    try:
        if form.get("action") == "end" or form.get("end") is True:
            back = vacation.end(mine.address)
            message = (phrase("Welcome back: your vacation has ended and your clocks run again.")
                       if back else phrase("You were not on vacation."))
        else:
            raw = form.get("days", "")
            days = (raw if isinstance(raw, int) and not isinstance(raw, bool)
                    else small.small_int(str(raw)))
            if days is None:
                raise BadInput(phrase("days={days}: a vacation is a number of whole days.",
                                      days=repr(str(raw)[:20])))
            away = vacation.start(mine.address, days)
            message = phrase("You are on vacation until {until}: the clocks of all your games "
                             "stand still until then.",
                             until=settings.local_deadline(away.ends_at, mine))
    except BadInput as error:
        if wants_json():
            raise
        return render(token, home.build(mine.address), error=error.message, status=400)
    return render(token, home.build(mine.address), message=message)


@bp.post("/h/<token>/replace")
def replace(token: str):
    mine = _open(token)
    _check_csrf(token)
    home.replace_home(mine.address)
    message = phrase("Your home link was replaced: this one no longer works. The new one is on "
                     "its way to your mailbox.")
    if wants_json():
        return {"message": message}, 200
    return render_template("errors/error.html", status=200, title=phrase("Home link replaced"),
                           message=message)


# -- rematch -------------------------------------------------------------------------------

RematchAnswer = tuple[dict, int] | tuple[str, int]


def _rematch_answer(row) -> RematchAnswer:
    spec = turns.Spec.from_json(row.kind, row.spec)
    waiting = [spec.players[s][0] for s in rematch.people(spec) if s not in row.confirmed]
    if row.started:
        message = phrase("The rematch has started: the invitations are on their way to every "
                         "player.")
    elif len(waiting) == 1:
        message = phrase("The rematch is asked for: it starts when {who} says yes (they were "
                         "mailed a link).", who=waiting[0])
    else:
        message = phrase("The rematch is asked for: it starts when {who} say yes (they were "
                         "mailed a link).", who=listing(waiting))
    if wants_json():
        return {"rematch": row.id, "started": row.started, "message": message}, 200
    return render_template("errors/error.html", status=200, title=phrase("Rematch"),
                           message=message), 200


@bp.post("/h/<token>/rematch")
def rematch_from_home(token: str):
    mine = _open(token)
    _check_csrf(token)
    game_id = _text(_form(), "game", "")
    seat = None if not store.GAME_ID.fullmatch(game_id) else db.session.scalar(   # no NUL asked
        select(Seat.seat).where(Seat.game_id == game_id, Seat.email == mine.address).limit(1))
    if seat is None:
        raise NotFound(phrase("{address} plays no game {game}.", address=mine.address,
                              game=repr(game_id[:20])))
    return _rematch_answer(rematch.ask(game_id, seat))


@bp.post("/s/<token>/rematch")
def rematch_from_seat(token: str):
    access = open_seat(token)
    return _rematch_answer(rematch.ask(access.loaded.id, access.seat))


@bp.route("/m/<token>", methods=["GET", "POST"])
def rematch_confirm(token: str):
    """A player's yes to a rematch: the GET shows the button, the POST says yes (a mail
    scanner opening the link says nothing)."""
    row, seat, spec = rematch.read_link(token)
    if seat < len(spec.languages) and spec.languages[seat]:
        i18n.use(spec.languages[seat])   # the asked player's language in the finished game
    if request.method == "POST":
        return _rematch_answer(rematch.confirm(row.id, seat))
    if row.started:
        return _rematch_answer(row)
    waiting = [spec.players[s][0] for s in rematch.people(spec) if s not in row.confirmed and s != seat]
    return render_template("home/rematch.html", title=spec.engine().title, listed=listing,
                           names=[n for n, _ in spec.players], waiting=waiting, path=request.path)


@bp.post("/games/<game_id>/rematch")
def rematch_from_record(game_id: str):
    """The public record cannot tell who asks: the address gets its home link by mail."""
    address = email_address(_text(_form(), "email", ""))
    rematch.mail_home_for(game_id, address, request.remote_addr or "")
    message = phrase("If {address} played this game, a mail with the link to ask for the rematch "
                     "is on its way to that address.", address=address)
    if wants_json():
        return {"message": message}, 202
    return render_template("errors/error.html", status=202, title=phrase("Rematch"),
                           message=message), 202
