"""A player's home: all the games of his address, and his settings.

    GET  /h/<token>                 the home: a page, or JSON (`Accept: application/json`)
    POST /h/<token>/settings        time zone, language, mail per turn or digest, confirmations
    POST /h/<token>/name            choose or change the public name (`name`): see pbem.players.public
    POST /h/<token>/vacation        go on vacation for N days (`days`), or come back (`action=end`;
                                    JSON `{"end": true}`): every clock of the address stops
    POST /h/<token>/rest            rest days (no clock of his runs) and quiet hours (no reminder)
    POST /h/<token>/webhook         the address's webhook URL (`url`), a new secret (`action=secret`)
                                    or none (`action=remove`): notices beside mail
    POST /h/<token>/push            this browser's push subscription (JSON `subscription`)
    POST /h/<token>/channel/remove  a channel no more (`channel`: its id)
    POST /h/<token>/replace         a new home link, mailed to the address (the old one dies)
    POST /h/<token>/rematch         a rematch of a finished game (form field `game`)
    POST /s/<token>/rematch         the same from a seat's page (a finished game's end)
    GET|POST /m/<token>             another player says yes to a rematch (the button: a POST)

The token in the path is the capability (like a seat link); every form also carries a CSRF
token derived from it, checked with the secret key, and the pages allow forms to post only
to this server (the Content-Security-Policy's `form-action 'self'`).
"""

from __future__ import annotations

from babel.dates import get_day_names
from flask import Blueprint, redirect, render_template, request
from sqlalchemy import select

from pbem import i18n
from pbem.errors import BadInput, NotFound, ServerError
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.mail.people import email_address
from pbem.play import challenges, home_link, rematch, turns
from pbem.players import channels, public, settings
from pbem.policy import links, small, vacation
from pbem.store import gamelog
from pbem.store.models import Seat
from pbem.views import challengeview, homeview
from pbem.views.words import listing
from pbem.web import security
from pbem.web.access import open_seat
from pbem.web.errors import wants_json
from pbem.web.lobby import start_csrf_refused
from pbem.web.pages import seat_path

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
    mine = home_link.open_home(token)
    i18n.use(settings.language_of(mine.address, default=i18n.browser_language()))
    return mine


def render(token: str, listed: homeview.Home, message: str | None = None, error: str | None = None,
           status: int = 200):
    shown = channels.shown(listed.address)
    if wants_json():
        return {**listed.to_json(), "channels": [_channel_json(c) for c in shown]}, status
    return render_template("home/home.html", home=listed, path=f"/h/{token}", csrf=csrf_token(token),
                           challenges=challengeview.of_poster(listed.address),
                           channels=shown,
                           message=message, error=error, zones=settings.zones(),
                           languages=settings.LANGUAGES, mail_modes=settings.MAIL_MODES,
                           listed=listing,
                           local=lambda moment: settings.local_deadline(moment, listed.settings),
                           weekdays=dict(sorted(get_day_names("wide", locale=i18n.current()).items()))
                           ), status


@bp.get("/h/<token>")
def show(token: str):
    mine = _open(token)
    return render(token, homeview.build(mine.address), message=_notice(request.args.get("saved"), mine))


def _saved(token: str, what: str, anchor: str = ""):
    """Post/redirect/get: a form's answer is the home again, a page the browser can reload,
    saying what was done (`?saved=`: the notice is told from the home as it stands now)."""
    return redirect(f"/h/{token}?saved={what}{anchor}", 303)


def _notice(saved: str | None, mine: settings.Settings) -> str | None:
    """The short notice of a form just sent (`_saved`); None for anything else."""
    if saved == "settings":
        return phrase("Your settings were saved.")
    if saved == "withdrawn":
        return phrase("Your challenge is withdrawn: nobody can take it up now.")
    if saved == "name":
        return phrase("Your public name was saved.")
    if saved == "rest":
        return phrase("Your rest days and quiet hours were saved: your deadlines and reminders "
                      "follow them now.")
    if saved == "webhook":
        return phrase("Your webhook was saved.")
    if saved == "back":
        return phrase("Welcome back: your vacation has ended and your clocks run again.")
    if saved == "not-away":
        return phrase("You were not on vacation.")
    if saved == "vacation":
        away = vacation.current(mine.address)
        if away is not None:
            return phrase("You are on vacation until {until}: the clocks of all your games "
                          "stand still until then.", until=settings.local_deadline(away.ends_at, mine))
    return None


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
        return render(token, homeview.build(mine.address), error=error.message, status=400)
    if wants_json():
        return render(token, homeview.build(mine.address))
    return _saved(token, "settings")   # (the home then speaks the language just chosen)


@bp.post("/h/<token>/name")
def choose_name(token: str):
    """The public name the address plays under; a refusal shows the home with why (400)."""
    mine = _open(token)
    _check_csrf(token)
    try:
        public.choose(mine.address, _text(_form(), "name", ""))
    except BadInput as error:
        if wants_json():
            raise
        return render(token, homeview.build(mine.address), error=error.message, status=400)
    if wants_json():
        return render(token, homeview.build(mine.address))
    return _saved(token, "name", "#h-name")


@bp.post("/h/<token>/vacation")
def take_vacation(token: str):
    """Vacation is the address's: `pbem.policy.vacation` starts or ends it (as from a seat's page)."""
    mine = _open(token)
    _check_csrf(token)
    form = _form()
    try:
        if form.get("action") == "end" or form.get("end") is True:
            saved = "back" if vacation.end(mine.address) else "not-away"
        else:
            raw = form.get("days", "")
            days = (raw if isinstance(raw, int) and not isinstance(raw, bool)
                    else small.small_int(str(raw)))
            if days is None:
                raise BadInput(phrase("days={days}: a vacation is a number of whole days.",
                                      days=repr(str(raw)[:20])))
            vacation.start(mine.address, days)
            saved = "vacation"
    except BadInput as error:
        if wants_json():
            raise
        return render(token, homeview.build(mine.address), error=error.message, status=400)
    if wants_json():
        return render(token, homeview.build(mine.address))
    return _saved(token, saved, "#vacation")


@bp.post("/h/<token>/rest")
def change_rest(token: str):
    """Rest days (form: a `rest_day` box per weekday, 0 Monday; JSON: `rest_days`, a list) and
    quiet hours (`quiet_from`, `quiet_until`: "22:00", or both empty)."""
    mine = _open(token)
    _check_csrf(token)
    form = _form()
    days = form.get("rest_days", []) if request.is_json else request.form.getlist("rest_day")
    try:
        if not isinstance(days, list):
            raise BadInput(phrase("Rest days are weekdays, 0 (Monday) to 6 (Sunday)."))
        settings.change_rest(mine.address, days, _text(form, "quiet_from", ""),
                             _text(form, "quiet_until", ""))
    except BadInput as error:
        if wants_json():
            raise
        return render(token, homeview.build(mine.address), error=error.message, status=400)
    if wants_json():
        return render(token, homeview.build(mine.address))
    return _saved(token, "rest", "#rest")


def _channel_json(channel: channels.Shown) -> dict:
    def moment(when):
        return when.isoformat() if when else None
    return {"kind": channel.kind, "target": channel.target, "secret": channel.secret,
            "on": channel.on, "delivered_at": moment(channel.delivered_at),
            "failed_at": moment(channel.failed_at), "error": channel.last_error,
            "failures": channel.failures}


@bp.post("/h/<token>/webhook")
def change_webhook(token: str):
    """The address's webhook: set (on again, if it was turned off), a new secret, or removed."""
    mine = _open(token)
    _check_csrf(token)
    form = _form()
    action = _text(form, "action", "set")
    try:
        if action == "remove":
            channels.remove_webhook(mine.address)
        else:
            url = _text(form, "url", "")
            if action == "secret" and not url and (current := channels.webhook_of(mine.address)):
                url = current.target
            channels.set_webhook(mine.address, url, new_key=action == "secret")
    except BadInput as error:
        if wants_json():
            raise
        return render(token, homeview.build(mine.address), error=error.message, status=400)
    if wants_json():
        return render(token, homeview.build(mine.address))
    return _saved(token, "webhook", "#channels")


@bp.post("/h/<token>/push")
def subscribe_browser(token: str):
    """'Notify this browser': its push subscription (sent by static/push.js) is a channel."""
    mine = _open(token)
    _check_csrf(token)
    channels.add_push(mine.address, _form().get("subscription"))
    return render(token, homeview.build(mine.address))   # (JSON: the script asked for it)


@bp.post("/h/<token>/channel/remove")
def remove_channel(token: str):
    mine = _open(token)
    _check_csrf(token)
    raw = _form().get("channel", "")
    number = small.small_int(str(raw))
    if number is None or not channels.remove(mine.address, number):
        raise BadInput(phrase("There is no such channel on your home."))
    if wants_json():
        return render(token, homeview.build(mine.address))
    return _saved(token, "webhook", "#channels")


@bp.post("/h/<token>/challenges/<challenge_id>/withdraw")
def withdraw_challenge(token: str, challenge_id: str):
    """The address takes down one of its open challenges (`pbem.play.challenges.withdraw`)."""
    mine = _open(token)
    _check_csrf(token)
    challenges.withdraw(challenge_id, poster=mine.address)
    if wants_json():
        return {"challenge": challenge_id, "status": challengeview.WITHDRAWN}
    return _saved(token, "withdrawn", "#h-challenges")


@bp.post("/h/<token>/replace")
def replace(token: str):
    mine = _open(token)
    _check_csrf(token)
    home_link.replace_home(mine.address)
    message = phrase("Your home link was replaced: this one no longer works. The new one is on "
                     "its way to your mailbox.")
    if wants_json():
        return {"message": message}, 200
    return render_template("errors/error.html", status=200, title=phrase("Home link replaced"),
                           message=message)


# -- rematch -------------------------------------------------------------------------------
#
# Asking (from the home or a finished game's seat page) and saying yes (a rematch link) are
# POSTs that go on to a page of their own (post/redirect/get): the rematch as it stands, with
# the way back to the game and to the player's home.

def _rematch_words(row) -> str:
    spec = turns.Spec.from_json(row.kind, row.spec)
    waiting = [spec.players[s][0] for s in rematch.people(spec) if s not in row.confirmed]
    if row.started:
        return phrase("The rematch has started: the invitations are on their way to every player.")
    if len(waiting) == 1:
        return phrase("The rematch is asked for: it starts when {who} says yes (they were "
                      "mailed a link).", who=waiting[0])
    return phrase("The rematch is asked for: it starts when {who} say yes (they were mailed a "
                  "link).", who=listing(waiting))


def _rematch_asked(row, there: str):
    """The answer to asking (or saying yes): JSON, or on to the rematch's page at `there`."""
    if wants_json():
        return {"rematch": row.id, "started": row.started, "message": _rematch_words(row)}, 200
    return redirect(there, 303)


def _rematch_page(row, game_path: str | None, home_path: str | None):
    """The rematch as it stands, and the way back to the finished game and to the home. The
    home's link only where the viewer holds it already (his home's page): a seat or rematch link
    shown to somebody else must not lead to all of the player's games."""
    return render_template("home/rematch_asked.html", message=_rematch_words(row),
                           game_path=game_path, home_path=home_path)


def _seat_of(address: str, game_id: str) -> int | None:
    """The (first) seat the address plays in a game; None: none (or no id a game has)."""
    if not gamelog.GAME_ID.fullmatch(game_id):   # (PostgreSQL refuses a NUL in a query)
        return None
    return db.session.scalar(select(Seat.seat).where(Seat.game_id == game_id,
                                                     Seat.email == address).limit(1))


def _seat_path(game_id: str, seat: int) -> str | None:
    nonce = gamelog.current_nonce(game_id, seat)
    return links.path(links.SEAT, game_id, seat, nonce) if nonce else None


@bp.route("/h/<token>/rematch", methods=["GET", "POST"])
def rematch_from_home(token: str):
    mine = _open(token)
    if request.method == "POST":
        _check_csrf(token)
    game_id = _text(_form() if request.method == "POST" else request.args, "game", "")
    seat = _seat_of(mine.address, game_id)
    if seat is None:
        raise NotFound(phrase("{address} plays no game {game}.", address=mine.address,
                              game=repr(game_id[:20])))
    if request.method == "POST":
        return _rematch_asked(rematch.ask(game_id, seat), f"/h/{token}/rematch?game={game_id}")
    row = rematch.of_game(game_id)
    if row is None:   # nothing asked (yet): the home, where it is asked for
        return redirect(f"/h/{token}", 303)
    return _rematch_page(row, _seat_path(game_id, seat), f"/h/{token}")


@bp.route("/s/<token>/rematch", methods=["GET", "POST"])
def rematch_from_seat(token: str):
    access = open_seat(token)
    seat_page = seat_path(access)
    if request.method == "POST":
        return _rematch_asked(rematch.ask(access.loaded.id, access.seat), seat_page + "/rematch")
    row = rematch.of_game(access.loaded.id)
    if row is None:
        return redirect(seat_page, 303)
    return _rematch_page(row, seat_page, None)


@bp.route("/m/<token>", methods=["GET", "POST"])
def rematch_confirm(token: str):
    """A player's yes to a rematch: the GET shows the button, the POST says yes (a mail
    scanner opening the link says nothing) and goes back to the GET, which shows the rematch
    as it stands once he said yes."""
    row, seat, spec = rematch.read_link(token)
    if seat < len(spec.languages) and spec.languages[seat]:
        i18n.use(spec.languages[seat])   # the asked player's language in the finished game
    if request.method == "POST":
        return _rematch_asked(rematch.confirm(row.id, seat), request.path)
    if row.started or seat in row.confirmed:
        if wants_json():
            return _rematch_asked(row, request.path)
        return _rematch_page(row, _seat_path(row.source, seat), None)
    waiting = [spec.players[s][0] for s in rematch.people(spec) if s not in row.confirmed and s != seat]
    return render_template("home/rematch.html", title=spec.engine().title, listed=listing,
                           names=[n for n, _ in spec.players], waiting=waiting, path=request.path)


RECORD_CSRF_REFUSED = phrase("This form is not from this game's record, or it is too old: open the "
                             "record again and send it from there.")


@bp.post("/games/<game_id>/rematch")
def rematch_from_record(game_id: str):
    """The public record cannot tell who asks: the address gets its home link by mail. Its form
    carries a token made for the client, as the start page's do: another site's form, posted by
    its visitor's browser, mails nobody."""
    if not request.is_json and start_csrf_refused(_form()):
        return render_template("errors/error.html", status=403, title=phrase("Rematch"),
                               message=RECORD_CSRF_REFUSED), 403
    address = email_address(_text(_form(), "email", ""))
    rematch.mail_home_for(game_id, address, request.remote_addr or "")
    if wants_json():
        return {"message": phrase("If {address} played this game, a mail with the link to ask for "
                                  "the rematch is on its way to that address.",
                                  address=address)}, 202
    # Post/redirect/get: back to the record, which says the mail is on its way (no address in
    # the URL).
    return redirect(f"/games/{game_id}/record?sent=rematch#rematch", 303)
