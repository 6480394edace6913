"""The start page: ask for a game for two (or more) players by name and address, and the
creator's link that confirms it.

The first player is the creator: only he is mailed until he confirms the game from his
mailbox, so the start page cannot be used to mail strangers. Any other seat may be a
computer (`botN`: its level), which has no address and is never mailed.

The start page's forms (a new game, lost links) carry a CSRF token made for the client that
fetched the page, for a day (`start_csrf`; no cookie), so another site cannot make its
visitors' browsers ask for games or mails from their addresses. JSON needs none: a browser
sends JSON to another site only after asking it (CORS), and this server allows none."""

from __future__ import annotations

import time

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from pbem import bots, games, i18n
from pbem.errors import BadInput, LinkTampered
from pbem.games.phrases import phrase, phrase_n
from pbem.mail.people import email_address, player_name
from pbem.play import challenges, turns
from pbem.players import ratings, settings
from pbem.policy import clocks, links
from pbem.policy.small import small_int
from pbem.views import challengeview
from pbem.web import security
from pbem.web.errors import wants_json

bp = Blueprint("lobby", __name__)

#: The computers' levels in words (the form sends the level itself: `bots.LEVELS`).
#: How strong each is, roughly (the arena's ladder measures them: docs/bots.md).
LEVEL_WORDS = {
    "random": phrase("random: any legal move"),
    "easy": phrase("easy: plays like a beginner"),
    "greedy": phrase("greedy: plays like a casual player, one turn ahead"),
    "normal": phrase("normal: plays like a casual player who plans a little"),
    "strong": phrase("strong: plays like a regular player"),
}


#: How long a start page's form may be filled in before its token is too old.
START_FORM_HOURS = 24


def _start_holder(issued: int) -> str:
    """What a start page's token is made for: the client that fetched the page, and when."""
    return f"{request.remote_addr or ''}@{issued}"


def start_csrf() -> str:
    """The token of the start page's forms: made for this client, now (no cookie: players'
    pages set none)."""
    issued = int(time.time())
    return f"{issued}.{security.csrf_token('start', _start_holder(issued))}"


def start_csrf_refused(form) -> bool:
    """Whether a form posted from the start page lacks a token made for this client in the
    last START_FORM_HOURS: another site's form, posted by its visitor's browser, has none (a
    token that site fetched for itself is its own address's)."""
    given = form.get("csrf", "")
    issued, _, token = given.partition(".") if isinstance(given, str) else ("", "", "")
    if not (issued.isascii() and issued.isdigit() and len(issued) <= 12):
        return True
    age = time.time() - int(issued)
    return not (-60 <= age <= START_FORM_HOURS * 3600
                and security.csrf_matches(token, "start", _start_holder(int(issued))))


CSRF_REFUSED = phrase("This form is not from this site's start page, or it is too old: check it "
                      "and send it again.")


def page(form=None, error=None, links_message=None, status=200, links_error=None,
         challenge=False):
    """The start page (a form sent back with what is wrong, `challenge`: the challenge's form),
    with this client's CSRF token."""
    hosted = games.all_games()
    return render_template(
        "lobby/index.html", games=hosted, form=form or {}, seats=max(g.max_seats for g in hosted),
        error=None if challenge else error, challenge_error=error if challenge else None,
        levels=bots.LEVELS, level_words=LEVEL_WORDS, computer_ratings=computer_ratings(hosted),
        challenge_days=challenges.DAYS, default_days=challengeview.DEFAULT_DAYS,
        default_takeover=turns.DEFAULT_TAKEOVER, time_limits=TIME_LIMITS, banks=BANKS,
        languages=i18n.LANGUAGES, browser_language=i18n.browser_language(),
        links_message=links_message, links_error=links_error,
        csrf=start_csrf()), status


def computer_ratings(hosted) -> dict[str, list[tuple[str, int]]]:
    """{level: [(game's title, rating)]} of the computers rated at each game (`computer:<level>`
    on the ladders), for the start page to say how strong each level plays."""
    known = ratings.computers()
    rated: dict[str, list[tuple[str, int]]] = {}
    for engine in hosted:
        for level in bots.LEVELS:
            if (level, engine.name) in known:
                rated.setdefault(level, []).append((engine.title, known[level, engine.name].rating))
    return rated


@bp.get("/")
def index():
    # `?sent=links`: where the "Lost your links?" form lands (redirect after POST).
    # `?against=computer`: "Play the computer" (from the challenges): player 2 is one.
    sent = request.args.get("sent") == "links"
    preset = {"bot1": turns.DEFAULT_TAKEOVER} if request.args.get("against") == "computer" else None
    return page(preset, links_message=phrase("If that address plays a game here, a mail with fresh links "
                                     "to its running games is on its way to it.") if sent else None)


def field(form, key: str, default: str = "") -> str:
    value = form.get(key, default)
    if not isinstance(value, str):
        raise BadInput(phrase("The field {field} must be text.", field=key))
    return value.strip()


#: The most player rows a form may send (the start page shows as many as its largest game seats).
ROWS = 8


def _level(form, i: int) -> str | None:
    """Row i's computer level (`botN`); None (or "person", as the form says): a person."""
    value = field(form, f"bot{i}").lower()
    return None if value in ("", "person") else value


def _players(form, engine) -> tuple[list[tuple[str, str]], tuple[str | None, ...]]:
    """The players (name, address) and, seat by seat, the level of each computer."""
    for i in range(engine.max_seats, ROWS):   # a row the chosen game has no seat for
        if field(form, f"name{i}") or field(form, f"email{i}") or _level(form, i):
            raise BadInput(phrase("{game} is a game for {players}: leave player {row} empty.",
                                  game=engine.title, players=_seats(engine), row=i + 1))
    players, levels = [], []
    for i in range(engine.max_seats):
        name, addr, level = field(form, f"name{i}"), field(form, f"email{i}"), _level(form, i)
        if not name and not addr and not level and i >= engine.min_seats:
            continue
        if level:   # a computer: named by the service unless named here; no address
            players.append((player_name(name) if name else "", ""))
        elif not addr:
            raise BadInput(phrase("Player {row} needs a mail address.", row=i + 1))
        else:
            players.append((player_name(name or addr.split("@")[0]), email_address(addr)))
        levels.append(level)
    if not engine.min_seats <= len(players) <= engine.max_seats:
        raise BadInput(phrase("{game} needs {fewest} to {most} players.", game=engine.title,
                              fewest=engine.min_seats, most=engine.max_seats))
    return players, tuple(levels)


def _seats(engine) -> str:
    if engine.min_seats == engine.max_seats:
        return phrase_n("{n} player", "{n} players", engine.max_seats)
    return phrase("{fewest} to {most} players", fewest=engine.min_seats, most=engine.max_seats)


def _first(form, seats: int) -> int | None:
    value = field(form, "first", "random")
    if value == "random":
        return None
    first = small_int(value)
    if first is None or first >= seats:
        raise BadInput(phrase("Choose who starts: at random, or one of the players."))
    return first


TIME_LIMITS = (None, 3, 7, 14, 30)


def _time_limit(form) -> int | None:
    value = field(form, "time_limit", "")
    if value in ("", "none"):
        return None
    days = small_int(value)
    if days is None or not 1 <= days <= 365:
        raise BadInput(phrase("A time limit is a number of days from 1 to 365, or none."))
    return days


#: The time banks the start page offers (any other `bank:START+INCREMENT/CAP` by JSON).
BANKS = (("", phrase("no time bank")),
         ("bank:3+1/7", phrase("{start} days, {more} more a turn, at most {cap}", start=3, more=1, cap=7)),
         ("bank:7+1/14", phrase("{start} days, {more} more a turn, at most {cap}", start=7, more=1, cap=14)),
         ("bank:14+2/30", phrase("{start} days, {more} more a turn, at most {cap}", start=14, more=2,
                                 cap=30)))


def _clock(form) -> clocks.Choice:
    """The game's clock: `clock` (none, move:DAYS, bank:START+INCREMENT/CAP), or the time per
    turn of `time_limit`; not both."""
    days = _time_limit(form)
    spelled = field(form, "clock", "")
    if not spelled:
        return clocks.move(days) if days else clocks.Choice()
    choice = clocks.parse(spelled)
    if days and choice != clocks.move(days):
        raise BadInput(phrase("Choose one clock: a time per turn or a time bank, not both."))
    return choice


clock_of = _clock   # (the challenges' form offers the same clocks)


def spec_from(form) -> turns.Spec:
    """The game a form (or JSON object) asks for; BadInput names what is wrong."""
    try:
        engine = games.get(field(form, "game"))
    except games.UnknownGame:
        raise BadInput(phrase("Choose a game this server hosts.")) from None
    players, levels = _players(form, engine)
    options = {o.name: field(form, f"option.{o.name}") for o in engine.options
               if f"option.{o.name}" in form}
    clock = _clock(form)
    return turns.Spec(engine.name, players, options, _first(form, len(players)),
                      clock.time_limit_days, None, levels,
                      field(form, "takeover", turns.DEFAULT_TAKEOVER).lower(), clock.bank,
                      _languages(form, players), rated=_rated(form), rest_days=_rest_days(form))


def _rated(form) -> bool:
    """Whether the game's result moves its players' ratings (the form's box `rated`)."""
    return form.get("rated") in ("on", "1", "true", True)


def _rest_days(form) -> bool:
    """Whether the players' rest days stop their clocks: yes unless the creator forbids them
    (the form's box `no_rest_days`; JSON: `"rest_days": false`)."""
    if form.get("rest_days") is False:
        return False
    return form.get("no_rest_days") not in ("on", "1", "true", True)


def _languages(form, players: list[tuple[str, str]]) -> tuple[str | None, ...]:
    """Seat by seat, the language chosen for it (`lang0`, `lang1`...); else the creator's is
    his own (his games', his home's) or his browser's, the others' their own, else English."""
    chosen = tuple(field(form, f"lang{i}") or None for i in range(len(players)))
    if not chosen or chosen[0]:
        return chosen
    creator = players[0][1]
    own = settings.language_of(creator, default=i18n.browser_language()) if creator else None
    return (own or i18n.browser_language(),) + chosen[1:]


def _form():
    form = request.get_json(silent=True) if request.is_json else request.form
    if not isinstance(form, dict) and not hasattr(form, "getlist"):
        raise BadInput(phrase("Send the game as a form or a JSON object."))
    return form


@bp.post("/games")
def create():
    """A game asked for: only its creator (the first player) is mailed, to confirm it."""
    form = _form()
    if not request.is_json and start_csrf_refused(form):
        return page(form, CSRF_REFUSED, status=403)   # filled in again, with a fresh token
    try:
        proposal = turns.propose(spec_from(form), request.remote_addr or "")
    except BadInput as error:
        if wants_json():
            raise
        return page(form, error.message, status=400)
    if wants_json():
        return {"game": proposal.id, "status": "unconfirmed",
                "message": proposed_words(proposal.creator)}, 202
    return redirect(url_for("lobby.proposed", game_id=proposal.id), 303)


def proposed_words(creator: str):
    return phrase("A mail with a link to confirm the game went to {addr}. Nobody else is mailed "
                  "before the game is confirmed from that mail.", addr=creator)


@bp.get("/games/<game_id>/proposed")
def proposed(game_id: str):
    proposal, spec = turns.proposal_of(game_id)
    return render_template("lobby/proposed.html", message=proposed_words(proposal.creator),
                           hours=current_app.config["PROPOSAL_HOURS"])


@bp.route("/c/<token>", methods=["GET", "POST"])
def confirm(token: str):
    """The creator's link: a GET shows the game as asked for, the button (a POST) starts it.
    (A GET must not: mail scanners open every link in a mail.)"""
    game_id = links.unsign(links.CONFIRM, token)
    if not isinstance(game_id, str):
        raise LinkTampered()
    if request.method == "GET":
        _, spec = turns.proposal_of(game_id)
        return render_template("lobby/confirm.html", spec=spec, engine=spec.engine(),
                               names=[name for name, _ in spec.players], path=request.path,
                               level_words=LEVEL_WORDS,
                               time_limits=TIME_LIMITS, banks=BANKS)
    loaded = turns.confirm(game_id)
    if wants_json():
        return {"game": loaded.id, "record": url_for("record.record", game_id=loaded.id)}, 201
    return redirect(url_for("record.record", game_id=loaded.id, created=1), 303)
