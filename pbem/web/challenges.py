"""Open challenges on the web: the list, posting one, accepting one, and the poster's and the
accepting player's links. Every decision is `pbem.play.challenges`'; this only translates.

    GET  /challenges                the open challenges (page, or JSON): posters by public name
    POST /challenges                post one (the start page's form, or JSON): its poster is mailed
    POST /challenges/<id>/accept    {"address"}: that address is mailed the link that takes a seat
    GET/POST /ch/<token>            the poster confirms (the button, a POST)
    GET/POST /cw/<token>            the poster withdraws it
    GET/POST /ca/<token>            the accepting player takes his seat

The list and the forms are public: no address is ever in them (tests/web/test_players_public.py).
Forms carry the start page's CSRF token (`lobby.start_csrf`); JSON needs none (see lobby).
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request

from pbem import games, i18n
from pbem.errors import BadInput
from pbem.games.phrases import phrase
from pbem.play import challenges
from pbem.policy import links
from pbem.policy.small import small_int
from pbem.views import challengeview
from pbem.web import lobby
from pbem.web.errors import wants_json

bp = Blueprint("challenges", __name__)

JSON_ONLY = phrase("Send it as a form or a JSON object.")


def _number(form, key: str, what) -> int | None:
    value = lobby.field(form, key, "") if not isinstance(form.get(key), int) else str(form[key])
    if value == "":
        return None
    number = small_int(value)
    if number is None:
        raise BadInput(phrase("{what} is a whole number.", what=what))
    return number


def _ticked(form, key: str) -> bool:
    return form.get(key) in ("on", "1", "true", True)


def terms_from(form) -> challengeview.Terms:
    """The challenge a form (or JSON object) offers; BadInput names what is wrong."""
    kind = lobby.field(form, "game")
    options = {}
    if kind in games.INSTALLED:
        engine = games.get(kind)
        options = {o.name: lobby.field(form, f"option.{o.name}") for o in engine.options
                   if f"option.{o.name}" in form}
    clock = lobby.clock_of(form)
    seats = _number(form, "seats", phrase("The number of players"))
    days = _number(form, "days", phrase("The days it stays up"))
    return challengeview.Terms(
        kind, seats or 2, options, clock.time_limit_days, clock.bank,
        lobby.field(form, "language", "") or i18n.browser_language(), _ticked(form, "rated"),
        _number(form, "lowest", phrase("The least rating")),
        _number(form, "highest", phrase("The most rating")),
        _number(form, "on_time", phrase("The least on-time record")),
        days or challengeview.DEFAULT_DAYS)


def _form():
    form = request.get_json(silent=True) if request.is_json else request.form
    if not isinstance(form, dict) and not hasattr(form, "getlist"):
        raise BadInput(JSON_ONLY)
    return form


#: What the list says after a form sent there (`?sent=`), redirected after its POST.
SENT = {"accept": phrase("A mail went to the address you gave: open its link to take your seat."),
        "posted": phrase("A mail with a link to confirm your challenge went to the address you "
                         "gave. It is listed once you have confirmed it.")}


def _list_page(error=None, status=200, sent=None):
    return render_template("challenges/list.html", challenges=challengeview.listed(),
                           csrf=lobby.start_csrf(), error=error, sent=SENT.get(sent or ""),
                           title_of=lambda kind: games.get(kind).title,
                           languages=i18n.LANGUAGES), status


@bp.get("/challenges")
def listing():
    if wants_json():
        return {"challenges": [c.to_json() for c in challengeview.listed()],
                "play_the_computer": "/?against=computer"}
    return _list_page(sent=request.args.get("sent"))


@bp.post("/challenges")
def post():
    form = _form()
    if not request.is_json and lobby.start_csrf_refused(form):
        return lobby.page(form, lobby.CSRF_REFUSED, status=403, challenge=True)
    try:
        row = challenges.post(terms_from(form), lobby.field(form, "address"),
                              lobby.field(form, "name"), request.remote_addr or "")
    except BadInput as error:
        if wants_json():
            raise
        return lobby.page(form, error.message, status=400, challenge=True)
    if wants_json():
        return {"challenge": row.id, "status": row.status, "message": phrase(
            "A mail with a link to confirm your challenge went to {addr}. It is listed once you "
            "have confirmed it.", addr=row.poster)}, 202
    return redirect("/challenges?sent=posted", 303)   # (a reload posts nothing twice)


@bp.post("/challenges/<challenge_id>/accept")
def ask_to_accept(challenge_id: str):
    """Anybody's address: it is mailed the link that takes a seat (the same answer for any)."""
    form = _form()
    if not request.is_json and lobby.start_csrf_refused(form):
        return _list_page(lobby.CSRF_REFUSED, 403)
    try:
        challenges.ask_to_accept(challenge_id, lobby.field(form, "address"),
                                 lobby.field(form, "name"), lobby.field(form, "language") or None,
                                 request.remote_addr or "")
    except BadInput as error:
        if wants_json():
            raise
        return _list_page(error.message, 400)
    message = phrase("A mail went to the address you gave: open its link to take your seat.")
    if wants_json():
        return {"challenge": challenge_id, "status": "mailed", "message": message}, 202
    return redirect("/challenges?sent=accept", 303)


@bp.route("/ch/<token>", methods=["GET", "POST"])
def confirm(token: str):
    """The poster's link: a GET shows the challenge, its button (a POST) lists it."""
    row = challenges.read_link(links.CHALLENGE, token)
    i18n.use(challengeview.terms_of(row).language)
    if request.method == "GET":
        return render_template("challenges/confirm.html", row=row, terms=challengeview.terms_of(row),
                               path=request.path, action="confirm")
    row = challenges.confirm(row.id)
    if wants_json():
        return {"challenge": row.id, "status": row.status}
    return render_template("challenges/sent.html", message=phrase(
        "Your challenge is up until {date}; you get the game's mail when its seats are taken.",
        date=row.expires_at.date().isoformat() if row.expires_at else ""),
        listed=True)


@bp.route("/cw/<token>", methods=["GET", "POST"])
def withdraw(token: str):
    row = challenges.read_link(links.WITHDRAW, token)
    i18n.use(challengeview.terms_of(row).language)
    if request.method == "GET":
        return render_template("challenges/confirm.html", row=row, terms=challengeview.terms_of(row),
                               path=request.path, action="withdraw")
    row = challenges.withdraw(row.id)
    if wants_json():
        return {"challenge": row.id, "status": row.status}
    return render_template("challenges/sent.html",
                           message=phrase("Your challenge is withdrawn: nobody can take it up now."),
                           listed=True)


@bp.route("/ca/<token>", methods=["GET", "POST"])
def accept(token: str):
    """The accepting player's link: a GET shows the challenge and whether he meets its terms;
    its button (a POST) takes the seat."""
    taken = challenges.read_accept_link(token)
    if taken.language:
        i18n.use(taken.language)
    if request.method == "GET":
        row = taken.challenge
        shown = challengeview.one(row.id)
        return render_template("challenges/accept.html", challenge=shown, path=request.path,
                               refused=challenges.refusal(row, taken.address),
                               needs_name=not taken.name and challenges.needs_name(taken.address),
                               languages=i18n.LANGUAGES)
    name = taken.name or lobby.field(_form(), "name")   # (typed on the page: his link has none)
    row = challenges.accept(taken.challenge.id, taken.address, name, taken.language)
    started = row.status == challengeview.STARTED
    if wants_json():
        return {"challenge": row.id, "status": row.status,
                "game": row.id if started else None}, 201 if started else 200
    if started:
        return redirect(f"/games/{row.id}/record?created=1", 303)
    return render_template("challenges/sent.html", message=phrase(
        "Your seat is taken: the game starts when the others have taken theirs, and then you "
        "get its mail."), listed=True)
