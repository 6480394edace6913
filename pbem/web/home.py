"""A player's home: all the games of his address, and his settings.

    GET  /h/<token>                 the home: a page, or JSON (`Accept: application/json`)
    POST /h/<token>/settings        time zone, language, mail per turn or digest, confirmations
    POST /h/<token>/replace         a new home link, mailed to the address (the old one dies)

The token in the path is the capability (like a seat link); every form also carries a CSRF
token derived from it, checked with the secret key, and the pages allow forms to post only
to this server (the Content-Security-Policy's `form-action 'self'`).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, current_app, render_template, request

from .. import home, settings
from ..errors import BadInput, ServerError
from .errors import wants_json

bp = Blueprint("home", __name__)


class CsrfRefused(ServerError):
    status, title = 403, "Form refused"


def csrf_token(token: str) -> str:
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, b"home-csrf:" + token.encode(), hashlib.sha256).hexdigest()[:32]


def _check_csrf(token: str) -> None:
    given = request.form.get("csrf", "") if not request.is_json else (
        (request.get_json(silent=True) or {}).get("csrf", "") if isinstance(
            request.get_json(silent=True), dict) else "")
    if not isinstance(given, str) or not hmac.compare_digest(given, csrf_token(token)):
        raise CsrfRefused("This form is not from your home page; reload the page and try again.")


def render(token: str, listed: home.Home, message: str | None = None, error: str | None = None,
           status: int = 200):
    if wants_json():
        return listed.to_json(), status
    return render_template("home/home.html", home=listed, path=f"/h/{token}", csrf=csrf_token(token),
                           message=message, error=error, zones=settings.zones(),
                           languages=settings.LANGUAGES, mail_modes=settings.MAIL_MODES,
                           local=lambda moment: settings.local_deadline(moment, listed.settings)
                           ), status


@bp.get("/h/<token>")
def show(token: str):
    mine = home.open_home(token)
    return render(token, home.build(mine.address))


@bp.post("/h/<token>/settings")
def change_settings(token: str):
    mine = home.open_home(token)
    _check_csrf(token)
    form = request.form
    try:
        settings.change(mine.address, form.get("time_zone", "UTC"), form.get("language", "en"),
                        form.get("mail_mode", settings.EACH), form.get("confirm_replies") == "on")
    except BadInput as error:
        if wants_json():
            raise
        return render(token, home.build(mine.address), error=error.message, status=400)
    return render(token, home.build(mine.address), message="Your settings were saved.")


@bp.post("/h/<token>/replace")
def replace(token: str):
    mine = home.open_home(token)
    _check_csrf(token)
    home.replace_home(mine.address)
    message = ("Your home link was replaced: this one no longer works. The new one is on its way "
               "to your mailbox.")
    if wants_json():
        return {"message": message}, 200
    return render_template("errors/error.html", status=200, title="Home link replaced",
                           message=message)
