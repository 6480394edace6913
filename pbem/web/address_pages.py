"""A player's address and links: mail me my links, replace leaked links, never mail me again.

    POST     /links          mail an address its current links (nothing is invalidated)
    GET|POST /r/<token>      replace a seat's links (the link came to the seat's own mailbox)
    GET|POST /u/<token>      never mail this address again (or again, after all)

The links in mails act only through a button (a POST): mail scanners open every link in a
mail, and must not replace links or unsubscribe anybody. `/u/` also takes RFC 8058's
one-click POST (`List-Unsubscribe=One-Click`), which mail programs send for the player.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request

from pbem.errors import BadInput, LinkTampered
from pbem.games.phrases import phrase
from pbem.mail.people import email_address
from pbem.play import addresses
from pbem.policy import links
from pbem.web.errors import wants_json
from pbem.web.lobby import CSRF_REFUSED, field, page, start_csrf_refused

bp = Blueprint("addresses", __name__)


@bp.post("/links")
def request_links():
    """Current links to every running game of an address, mailed only to that address.

    The answer is the same whether or not the address plays here. Asking is limited per
    client and per address, so nobody can mail-bomb a stranger; nothing is invalidated, so
    nobody can kill a player's links by asking.
    """
    form = request.get_json(silent=True) if request.is_json else request.form
    if not isinstance(form, dict) and not hasattr(form, "getlist"):
        raise BadInput(phrase("Send {example}.", example='{"email": "..."}'))
    if not request.is_json and start_csrf_refused(form):
        return page(links_error=CSRF_REFUSED, status=403)
    addr = email_address(field(form, "email"))
    addresses.mail_links(addr, request.remote_addr or "")
    if wants_json():
        return {"message": phrase("If {addr} plays a game here, a mail with fresh links to its "
                                  "running games is on its way to that address.", addr=addr)}, 202
    # Post/redirect/get: the start page says the mail is on its way (the address stays out of
    # the URL, so it is in no history nor log).
    return redirect("/?sent=links#links", 303)


@bp.route("/r/<token>", methods=["GET", "POST"])
def replace(token: str):
    """Replace a seat's links: the old standing link dies, new links are mailed."""
    links.unsign(links.REPLACE, token, addresses.REPLACE_MAX_AGE)   # 403 / 410 before anything
    if request.method == "GET":
        return render_template("addresses/replace.html", path=request.path)
    loaded = addresses.replace_links(token)
    message = phrase("Your links were replaced: the old standing link no longer works. The new "
                     "links are on their way to your mailbox.")
    if wants_json():
        return {"message": message, "game": loaded.id}, 200
    return render_template("errors/error.html", status=200, title=phrase("Links replaced"),
                           message=message)


@bp.route("/u/<token>", methods=["GET", "POST"])
def unsubscribe(token: str):
    address = links.unsign(links.UNSUBSCRIBE, token)
    if not isinstance(address, str):
        raise LinkTampered()
    action = request.form.get("action", "stop") if not request.is_json else "stop"
    if request.method == "POST" and action == "again":
        addresses.unsuppress(address)
        return _unsubscribe_page(address, stopped=False, changed=True)
    if request.method == "POST":   # our button, or a mail program's one-click POST
        addresses.suppress(address)
        if wants_json():
            return {"message": phrase("No more mail goes to {address}.", address=address)}, 200
        return _unsubscribe_page(address, stopped=True, changed=True)
    return _unsubscribe_page(address, stopped=addresses.suppressed(address), changed=False)


def _unsubscribe_page(address: str, stopped: bool, changed: bool):
    return render_template("addresses/unsubscribe.html", address=address, stopped=stopped,
                           changed=changed, path=request.path)

