"""A seat's words and time beside its turns: messages, private notes, vacation.

    POST /s/<token>/messages   say something to the other players: {"message": "..."}
    POST /s/<token>/notes      replace the seat's private notes: {"notes": "..."}
    POST /s/<token>/vacation   go on vacation for N days ({"days": N}), or come back
                               ({"end": true}; the form's action=end)
    POST /s/<token>/language   the language this seat's pages and mails speak: {"language": "de"}
    POST /s/<token>/webhook    the game's webhook, for its group: {"url": "https://..."} sets it,
                               {"action": "secret"} gives it a new secret, {"action": "remove"}

Forms answer by going back to the seat's page (post/redirect/get; the page's anchor), which
says what was saved (`?saved=`);
JSON answers with the seat's view. What each does is its service's: `pbem.players.messages`,
`pbem.players.notes`, `pbem.policy.vacation`, `pbem.players.channels` (the game's webhook).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, request

from pbem.errors import BadInput
from pbem.games.phrases import phrase
from pbem.players import channels, messages, notes, settings
from pbem.policy import small, vacation
from pbem.store import gamelog
from pbem.web.access import Access, open_seat
from pbem.web.errors import wants_json
from pbem.web.pages import seat_path

bp = Blueprint("talk", __name__)


def _field(name: str) -> str:
    """A text field of a form or a JSON body; BadInput naming it when it is no text."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get(name, ""), str):
            raise BadInput(phrase('Send a JSON object like {example}.', example=f'{{"{name}": "..."}}'))
        return str(body.get(name, ""))
    return str(request.form.get(name, ""))


#: The seat page's short notice after each of these forms (`?saved=`), by what was saved.
SAVED = {"talk": phrase("Your message was posted."), "notes": phrase("Your notes were saved."),
         "vacation": phrase("Your vacation has started: the clocks of all your games stand still."),
         "back": phrase("Welcome back: your vacation has ended and your clocks run again."),
         "not-away": phrase("You were not on vacation."),
         "language": phrase("The language was saved."),
         "hook": phrase("The game's webhook was saved; every player of the game sees it."),
         "hook-secret": phrase("The game's webhook has a new secret."),
         "hook-gone": phrase("The game's webhook was removed.")}


def saved_notice(saved: str | None) -> str | None:
    """The notice a seat page shows after a form of this module (None: no such form)."""
    return SAVED.get(saved or "")


def _back(access: Access, anchor: str, saved: str | None = None):
    if wants_json():
        loaded = gamelog.load(access.loaded.id)   # with what was just written
        return jsonify(access.after(loaded).seat_view.to_json())
    return redirect(f"{seat_path(access)}?saved={saved or anchor}#{anchor}", 303)


@bp.post("/s/<token>/messages")
def say(token: str):
    access = open_seat(token)
    messages.say(access.loaded.id, access.seat, _field("message"))
    return _back(access, "talk")


@bp.post("/s/<token>/notes")
def save_notes(token: str):
    access = open_seat(token)
    notes.save(access.loaded.id, access.seat, _field("notes"))
    return _back(access, "notes")


@bp.post("/s/<token>/vacation")
def go_away(token: str):
    """Vacation is the address's, not the game's: it stops the clocks of all his games."""
    access = open_seat(token)
    gamelog.still_his(access.loaded.id, access.seat)   # (his home's vacation form still acts)
    address = gamelog.address_of(access.loaded.id, access.seat)
    if not address:
        raise BadInput(phrase("A computer plays this seat: it takes no vacation."))
    body = request.get_json(silent=True) if request.is_json else None
    if request.form.get("action") == "end" or (isinstance(body, dict) and body.get("end") is True):
        return _back(access, "vacation", "back" if vacation.end(address) else "not-away")
    else:
        raw = body.get("days") if isinstance(body, dict) else request.form.get("days", "")
        days = raw if isinstance(raw, int) and not isinstance(raw, bool) else small.small_int(str(raw))
        if days is None:
            raise BadInput(phrase("days={days}: a vacation is a number of whole days.",
                                  days=repr(str(raw)[:20])))
        vacation.start(address, days)
    return _back(access, "vacation")


@bp.post("/s/<token>/language")
def choose_language(token: str):
    access = open_seat(token)
    settings.change_seat_language(access.loaded.id, access.seat, _field("language"))
    return _back(access, "language")


@bp.post("/s/<token>/webhook")
def game_webhook(token: str):
    """Any player of the game sets, renews or removes its one webhook (the group's channel)."""
    access = open_seat(token)
    game, seat = access.loaded.id, access.seat
    action = _field("action")
    if action == "remove":
        channels.remove_game_hook(game, seat)
        return _back(access, "hook", "hook-gone")
    if action == "secret":
        channels.set_game_hook(game, seat, new_key=True)
        return _back(access, "hook", "hook-secret")
    channels.set_game_hook(game, seat, _field("url"))
    return _back(access, "hook")
