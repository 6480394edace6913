"""No English left (issue 18): every page and every kind of mail of played games of Babel, Babel
Tower and Babylonia (for two and for three), read in German and in Czech, holds none of the
English words of today's pages (tests/i18n/conftest.py: ENGLISH), matched as whole words.

Every address chose the language on its home before its games were made, so its seats, its
mails and the pages of its links speak it; the other pages are asked for with the browser's
Accept-Language. Pages are every link the mails hold (a GET acts on nothing), and the pages
only a form reaches: the start page and its answers, a step's preview, the confirmation, a
refused step, the resign page, a broken, an expired and an unknown link.

The JSON answers' fields meant for people are read too (not the names programs read).

A failure lists each page or mail (its kind, game and subject, or its path and title), the
English words found in it and their context.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from backends import BACKENDS  # tests/helpers
from league_mails import every_league_mail
from pbem_web import link_mails, outbox_rows, play, reply_to

from .conftest import Read, english_in, plain, report, speak, visible

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Anna", "Bob", "Carl")
EMAILS = ("anna@example.org", "bob@example.org", "carl@example.org")
LANGUAGES = ("de", "cs")
PATH = re.compile(r"http://pbem\.test(/[a-z]{1,2}/[A-Za-z0-9_.\-]+|/games/[A-Za-z0-9_\-]+/record)")
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
#: Mails that are not a player's: the operator's sign-in (his /admin pages stay English).
OPERATORS = {"sign_in"}


# -- games of every kind, played ---------------------------------------------------------------

def new_game(app, kind: str, players: int, options=None, first: int | None = 0) -> str:
    from pbem.play import turns
    with app.app_context():
        spec = turns.Spec(kind, list(zip(NAMES[:players], EMAILS[:players])), options or {}, first)
        return turns.create_game(spec).id



def kind_of(app, game: str | None) -> str:
    if game is None:
        return "no game"
    from pbem.store import gamelog
    with app.app_context():
        return gamelog.load(game).row.kind


def mailed_in(app, row, steps: str):
    """A reply to an outbox mail as a mail client writes it, ingested the real way."""
    from pbem.inbound.ingest import ingest_bytes
    from pbem.mail.compose import to_message
    with app.app_context():
        raw = reply_to(to_message(row), steps, dict(zip(EMAILS, NAMES)))
        return ingest_bytes(raw)


def newest_turn_mail(app, game: str, address: str):
    return [m for m in outbox_rows(app) if m.game_id == game and m.to_addr == address and m.reply_to][-1]


def owed(app, game: str):
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        assert loaded.events is not None
        return loaded, loaded.engine.to_act(loaded.state)[0]


def every_kind_of_game(app, client) -> dict[str, str]:
    """Games of every kind and in every state, and every kind of mail their players get."""
    from pbem.extensions import db
    from pbem.jobs import digest
    from pbem.mail import notify
    from pbem.play import challenges, home_link, rematch, turns
    from pbem.players import settings
    from pbem.policy import vacation
    from pbem.store import gamelog
    from pbem.views import homeview
    from pbem_web import create_by_form
    games = {"proposed": create_by_form(client, names=NAMES[:2], emails=EMAILS[:2])}
    games["babel"] = new_game(app, "babel", 2, {"sumerians": "top-run"})
    assert play(app, games["babel"], 1) > 10
    games["babel-tower"] = new_game(app, "babel-tower", 2, {"draft": "pick"})
    play(app, games["babel-tower"], 2)
    games["babylonia-3"] = new_game(app, "babylonia", 3)
    play(app, games["babylonia-3"], 3)
    games["babylonia-2"] = new_game(app, "babylonia", 2)
    play(app, games["babylonia-2"], 8)
    games["left"] = new_game(app, "babylonia", 3, first=0)      # a player leaves: a computer
    play(app, games["left"], 4, decisions=2)
    with app.app_context():
        turns.resign(games["left"], 2)
    games["babylonia-running"] = new_game(app, "babylonia", 3, first=1)
    play(app, games["babylonia-running"], 5, decisions=4)
    games["tower-running"] = new_game(app, "babel-tower", 2, {"draft": "pick"})
    play(app, games["tower-running"], 9, decisions=3)
    games["waiting"] = waiting = new_game(app, "babel", 2, {"sumerians": "top-run"})
    play(app, waiting, 6, decisions=3)

    # Moves mailed in: an illegal one, a legal one (confirmed), and one to an answered mail.
    loaded, decision = owed(app, waiting)
    address = EMAILS[decision.seat]
    mail = newest_turn_mail(app, waiting, address)
    held = loaded.state.players[decision.seat].hand_letters()
    missing = [t for t in "AHMPS" if t not in held]
    mailed_in(app, mail, f"move {missing[0]}" if missing
              else "settle " + " ".join("A" * (held.count("A") + 1)))
    from pbem.games.rng import Rng
    mailed_in(app, mail, loaded.engine.random_submission(loaded.state, decision.seat, Rng(3)))
    mailed_in(app, mail, "pass")                                  # stale: already answered

    now = datetime.now(UTC)
    with app.app_context():
        loaded = gamelog.load(waiting)
        link_mails(loaded)
        notify.vacation_started(loaded, 0, vacation.Away(now, now + timedelta(days=2), True), 3)
        listed = homeview.build(EMAILS[0])
        entries = [homeview.links_entry(e) for e in listed.yours + listed.others]
        notify.seat_links(EMAILS[0], entries, settings.home_url(EMAILS[0]), listed.games[0].name)
        db.session.commit()
        home_link.replace_home(EMAILS[1])
        rematch.ask(games["babel"], 0)
        rematch.mail_home_for(games["babel"], EMAILS[1], "192.0.2.9")
    later = (now + timedelta(days=3)).isoformat()
    assert app.test_cli_runner().invoke(args=["remind", "--now", later]).exit_code == 0
    with app.app_context():
        language = settings.of(EMAILS[1]).language
        settings.change(EMAILS[1], "Europe/Prague", language, settings.DIGEST, True)
    play(app, waiting, 7, decisions=2)       # Bob's next turn mail is held for his digest
    with app.app_context():
        assert EMAILS[1] in digest.run(datetime.now(UTC))
        db.session.commit()
    # An open challenge in the browser's language, and a stranger's offer to take it up.
    posted = client.post("/challenges", json={"game": "babylonia", "seats": 3, "address": EMAILS[0],
                                              "name": NAMES[0], "time_limit": "7", "on_time": 10},
                         headers={"Accept": "application/json"})
    assert posted.status_code == 202, posted.data
    games["challenge"] = posted.get_json()["challenge"]
    with app.app_context():
        challenges.confirm(games["challenge"])
        challenges.ask_to_accept(games["challenge"], EMAILS[2], "", None, "192.0.2.9")
    every_league_mail(app, EMAILS, NAMES)
    return games


# -- reading ------------------------------------------------------------------------------------

def mails_read(app) -> list[Read]:
    reads = []
    for m in outbox_rows(app):
        if m.kind in OPERATORS:
            continue
        where = f"mail {m.kind} ({kind_of(app, m.game_id)}) {m.subject!r} to {m.to_addr}"
        reads.append(Read(where + " [text]", f"{m.subject} {plain(m.text)}"))
        reads.append(Read(where + " [html]", visible(m.html)))
    return reads


def page_read(response, where: str) -> Read:
    html = response.data.decode()
    title = TITLE.search(html)
    said = f"{where} [{response.status_code}] {title.group(1).strip() if title else ''}"
    return Read(said, visible(html))


def pages_read(app, client, games: dict[str, str], language: str) -> list[Read]:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    reads = [page_read(client.get("/"), "start page /"),
             page_read(client.get("/challenges"), "open challenges /challenges")]
    # Of each kind of link a player got in a game, his first and his newest (the pages they
    # open in between read alike).
    firsts: dict[tuple, tuple[str, str]] = {}
    newest: dict[tuple, tuple[str, str]] = {}
    for m in outbox_rows(app):
        if m.kind in OPERATORS:
            continue
        for path in PATH.findall(m.text):
            key = (m.game_id, m.to_addr, path.split("/")[1])
            where = f"{m.kind} mail's link ({kind_of(app, m.game_id)}, to {m.to_addr})"
            firsts.setdefault(key, (path, where))
            newest[key] = (path, where)
    paths = dict(firsts.values()) | dict(newest.values())
    for path, where in paths.items():
        reads.append(page_read(client.get(path), f"{where} GET {path[:40]}…"))

    # What only a form reaches: a turn's preview, confirmation and refusal; the resign page.
    from pbem.games.rng import Rng
    from pbem_web import seat_path, turn_path
    for name in ("waiting", "babylonia-running", "tower-running"):
        game = games[name]
        loaded, decision = owed(app, game)
        turn = turn_path(app, game, decision.seat)
        steps = loaded.engine.legal_steps(loaded.state, decision.seat)
        step = next((o.notation for o in steps if not o.ends), "")
        reads.append(page_read(client.post(turn + "/preview", data={"steps": step}),
                               f"preview of {step!r} ({name})"))
        whole = loaded.engine.random_submission(loaded.state, decision.seat, Rng(1))
        reads.append(page_read(client.post(turn, data={"steps": whole, "action": "confirm"}),
                               f"confirmation of {whole!r} ({name})"))
        reads.append(page_read(client.post(turn, data={"steps": step, "action": "add"}),
                               f"page without JavaScript after adding {step!r} ({name})"))
        reads.append(page_read(client.post(turn, data={"steps": "nonsense 99", "action": "submit"}),
                               f"page refusing 'nonsense 99' ({name})"))
        reads.append(page_read(client.get(seat_path(app, game, decision.seat) + "/resign"),
                               f"resign page ({name})"))
    waiting_turn = turn_path(app, games["waiting"], owed(app, games["waiting"])[1].seat)
    loaded, decision = owed(app, games["waiting"])
    held = loaded.state.players[decision.seat].hand_letters()
    missing = [t for t in "AHMPS" if t not in held]
    wrong = f"move {missing[0]}" if missing else "settle " + " ".join("A" * (held.count("A") + 1))
    refused = client.post(waiting_turn, data={"steps": wrong, "action": "submit"})
    assert refused.status_code == 422, (wrong, refused.status_code)
    reads.append(page_read(refused, f"Babel page refusing {wrong!r}"))
    asked = client.post("/links", data={"email": EMAILS[0]})
    assert asked.status_code == 303
    reads.append(page_read(client.get(asked.headers["Location"]), "lost links answer"))
    reads.append(page_read(client.get(f"/games/{games['babylonia-running']}/record"), "record"))
    reads.append(page_read(client.get(f"/games/{games['babel']}/record?turn=3&step=1"), "record, turn 3"))
    reads.append(page_read(client.get(f"/games/{games['babel']}/record?sent=rematch"),
                           "record, rematch mailed"))
    reads.append(page_read(client.get("/t/garbage"), "broken link /t/garbage"))
    reads.append(page_read(client.get("/s/nothing-here"), "broken link /s/nothing-here"))
    reads.append(page_read(client.get("/no/such/page"), "unknown page (404)"))
    reads.append(page_read(client.get("/games/nosuchgame/record"), "record of no game (404)"))
    app.config["LINK_MAX_AGE_DAYS"] = -1           # every link is now past its age
    reads.append(page_read(client.get(waiting_turn), "expired turn link"))
    app.config["LINK_MAX_AGE_DAYS"] = 90
    return reads


#: Keys of the JSON answers whose values are names for programs, not words for people (an
#: engine's `view` is its data: tiles, kinds of hexes, cities as "city MP").
MACHINE_KEYS = {"kind", "tile", "game", "type", "reason", "notation", "steps", "status", "phase",
                "url", "seat", "address", "deadline", "lang", "language", "view"}


def said_in_json(value, path: str = ""):
    """The strings of a JSON answer meant for people, each with its path."""
    if path.rsplit(".", 1)[-1].split("[")[0] in MACHINE_KEYS:
        return
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from said_in_json(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from said_in_json(item, f"{path}[{i}]")


def json_read(app, client, games: dict[str, str], language: str) -> list[Read]:
    """The JSON answers' human-readable fields (issue 18: pages, mails and the JSON API):
    each running game's turn and seat, and each game's record."""
    from pbem_web import seat_path, turn_path
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    wanted = {"Accept": "application/json"}
    answers = {}
    for name in ("waiting", "babylonia-running", "tower-running"):
        seat = owed(app, games[name])[1].seat
        answers[f"turn JSON ({name})"] = client.get(turn_path(app, games[name], seat), headers=wanted)
        answers[f"seat JSON ({name})"] = client.get(seat_path(app, games[name], seat), headers=wanted)
    for name in ("babel", "babel-tower", "babylonia-3", "babylonia-running"):
        answers[f"record JSON ({name})"] = client.get(f"/games/{games[name]}/record", headers=wanted)
    reads = []
    for where, response in answers.items():
        assert response.status_code == 200, (where, response.status_code)
        reads += [Read(f"{where} {path}", text) for path, text in said_in_json(response.get_json())]
    return reads


def checked(reads: list[Read], what: str, language: str) -> None:
    found = report(reads, NAMES)
    failing = sum(1 for read in reads if english_in(read.text, NAMES))
    assert not found, f"English left in {failing} of {len(reads)} {language} {what}:\n{found}"


# -- the tests ------------------------------------------------------------------------------------

@pytest.fixture(ids="-".join, params=[(backend, language) for backend in BACKENDS
                                       for language in LANGUAGES])
def played(request, once, own_app):
    """The games of every kind, played once per test process, database and language for the four
    tests below, which read them (the pages' test also posts forms that change nothing they
    read: previews, refused steps, a lost-links request)."""
    backend, language = request.param

    @contextmanager
    def playing():
        with own_app(backend) as app:
            client = app.test_client()
            speak(app, EMAILS, language)
            # The creator's browser speaks it too: the start page's game gets its seats' language.
            client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
            yield app, client, language, every_kind_of_game(app, client)
    return once(("no-english", backend, language), playing)


def test_every_kind_of_mail_is_read(played):
    """The games above send every kind of mail a player gets (so the tests below read them all)."""
    app, _client, _language, _games = played
    kinds = {m.kind for m in outbox_rows(app)}
    templates = {p.stem for p in (ROOT / "templates" / "mail").glob("*.txt") if not p.stem.startswith("_")}
    assert templates - OPERATORS <= kinds, templates - OPERATORS - kinds
    games = {kind_of(app, m.game_id) for m in outbox_rows(app) if m.game_id}
    assert games == {"babel", "babel-tower", "babylonia"}


def test_no_mail_has_english_left(played):
    app, _client, language, _games = played
    checked(mails_read(app), "mails", language)


def test_no_page_has_english_left(played):
    app, client, language, games = played
    checked(pages_read(app, client, games, language), "pages", language)


def test_no_json_answer_has_english_left(played):
    app, client, language, games = played
    reads = json_read(app, client, games, language)
    assert len(reads) > 200 and any(".told" in read.where for read in reads)   # labels, last turns…
    checked(reads, "JSON fields", language)


def test_the_reading_finds_english_words_and_skips_notation_and_names():
    html = ('<p title="Your turn">Du bist am Zug, <b>Anna</b>: <code>move H; settle S S</code></p>'
            '<pre>build mine</pre><a href="/t/the-game">Spiel</a><input type="submit" value="Submit">')
    assert visible(html) == "Your turn Du bist am Zug, Anna : Spiel Submit"
    assert [w for w, _ in english_in(visible(html), NAMES)] == ["Your", "turn", "Submit"]
    assert english_in("Babel Tower: Würfel im Turm", ()) == []
    assert english_in("Zugriff, Karten, Spielerin; othello", ()) == []   # whole words only
    assert english_in("Gegner Kolonne HAS Punkte", ()) == []   # a column: its tribes' letters
    assert [w for w, _ in english_in("Anna has Karten", ())] == ["has"]
    assert english_in("Zeitzone America/Port_of_Spain, anna@the.example", ()) == []
