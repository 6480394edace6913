"""Hostile requests, by name: forged, truncated, replayed and misused links; script and header
injection in names and addresses; oversized and malformed bodies; path tricks.

Every hostile request is answered 4xx (a forged or broken link: 403, byte for byte the answer
any garbage gets), writes nothing (the row count of every table but the rate-limit counters is
unchanged) and leaks nothing (no other seat's hand or links, no stack trace, no SQL, no secret
key, no seed). Script in names is accepted as text and escaped everywhere it is shown: pages,
JSON (as data), the HTML part of every mail. And every answer, page or error, carries the
security headers and sets no cookie. tests/web/test_fuzz.py throws random input at the same
doors; this file names the attacks one by one.
"""

from __future__ import annotations

import io
import json
import re
import time
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from itsdangerous import URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode, int_to_bytes

from pbem.extensions import db
from pbem.games import INSTALLED
from pbem.games.rng import Rng
from pbem.mail.deliver import deliver_due
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import FAILED, Game, Mail, RateEvent
from pbem_web import started  # tests/helpers

ROOT = Path(__file__).resolve().parents[2]
JSON = {"Accept": "application/json"}
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
ESCAPED = {SCRIPT: "&lt;script&gt;alert(1)&lt;/script&gt;",
           IMG: "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"}
STATIC_SCRIPT = '<script src="/static/pbem.js" defer></script>'
# The server's own scripts: the shared one, the record's, and each game's own beside its templates.
OWN_SCRIPTS = ({"src": "/static/pbem.js", "defer": None},
               {"src": "/static/record.js", "defer": None}) + tuple(
    {"src": f"/static/games/{name}/{name}.js", "defer": None} for name in INSTALLED)
LEAKS = re.compile(r"Traceback|File \"|sqlalchemy|psycopg|sqlite|IntegrityError|OperationalError|"
                   r"itsdangerous|BadSignature|BadPayload|SignatureExpired|RecursionError|werkzeug|"
                   r"jinja|(?-i:\b(SELECT|INSERT|UPDATE|DELETE)\b)", re.IGNORECASE)


# -- the world under attack ----------------------------------------------------------------

def create(client, names, emails, as_json=False) -> str:
    data = {"game": "babel", "first": "0", "option.sumerians": "top-run",
            "name0": names[0], "email0": emails[0], "name1": names[1], "email1": emails[1]}
    if as_json:
        response = client.post("/games", json=data)
        assert response.status_code == 202, response.data
        return started(client, response)
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.data
    return started(client, response)


def table_counts(app) -> dict:
    """Rows in every table but the rate-limit counters: what "nothing written" is measured by."""
    from sqlalchemy import func, select
    with app.app_context():
        return {table.name: db.session.scalar(select(func.count()).select_from(table))
                for table in db.metadata.sorted_tables if table.name != RateEvent.__tablename__}


def legal_text(app, game: str) -> tuple[int, str]:
    """The seat that owes a decision now, and a random legal one."""
    with app.app_context():
        loaded = gamelog.load(game)
        [decision] = loaded.engine.to_act(loaded.state)
        return decision.seat, loaded.engine.random_submission(loaded.state, decision.seat,
                                                              Rng(loaded.seq + 7))


class World:
    """Two running games with everything an attacker must not learn: keys, seeds, nonces,
    links and hands; and the checks every hostile answer must pass."""

    def __init__(self, app, client):
        self.app, self.client = app, client
        self.games = [create(client, ("Anna", "Bob"), ("anna@example.org", "bob@example.org")),
                      create(client, ("Carol", "Dave"), ("carol@example.org", "dave@example.org"))]
        self.a, self.b = self.games
        self.names = ["Anna", "Bob", "Carol", "Dave"]
        with app.app_context():
            self.seeds = {g: db.session.get(Game, g).seed for g in self.games}
            self.nonces = {(g, s): gamelog.current_nonce(g, s) for g in self.games for s in (0, 1)}
            self.turn = {g: links.path(links.TURN, g, 0, 0) for g in self.games}
            self.seat = {(g, s): links.path(links.SEAT, g, s, self.nonces[g, s])
                         for g in self.games for s in (0, 1)}
            self.key = app.config["SECRET_KEY"]
        self.forbidden = {False: client.get("/t/garbage").data,
                          True: client.get("/t/garbage", headers=JSON).data}

    def tokens_except(self, own) -> list[str]:
        """Every link's token but those of the seat `own` = (game, seat), if any."""
        out = [path.split("/")[2] for (g, s), path in self.seat.items() if (g, s) != own]
        return out + [path.split("/")[2] for g, path in self.turn.items() if (g, 0) != own]

    def hostile(self, method: str, path: str, statuses=None, own=None, **kwargs):
        """Send it; it must be refused (4xx), change nothing and leak nothing."""
        before = table_counts(self.app)
        response = self.client.open(path, method=method, **kwargs)
        assert 400 <= response.status_code < 500, (method, path[:80], response.status_code,
                                                   response.data[:300])
        if statuses is not None:
            assert response.status_code in statuses, (method, path[:80], response.status_code)
        assert table_counts(self.app) == before, (method, path[:80])
        assert_security_headers(response)
        self.assert_no_leak(response, own)
        return response

    def forged(self, method: str, path: str, **kwargs):
        """A forged or broken link: 403, and exactly what garbage gets."""
        response = self.hostile(method, path, {403}, **kwargs)
        assert response.data == self.forbidden[response.is_json], (method, path[:80])
        return response

    def assert_no_leak(self, response, own=None) -> None:
        body = response.get_data(as_text=True)
        assert not LEAKS.search(body), LEAKS.search(body).group(0)
        assert self.key not in body
        for seed in self.seeds.values():
            assert str(seed) not in body
        for nonce in self.nonces.values():
            assert nonce not in body
        for token in self.tokens_except(own):
            assert token not in body
        if own is None:                       # a refusal names no game and no player
            for word in self.games + self.names:
                assert word not in body, word
            assert "Your hand" not in body
        if response.is_json:
            assert_hands_hidden(response.get_json(), own[1] if own else None)


def assert_hands_hidden(data, seat) -> None:
    """In any view in the JSON, only `seat`'s own hand is shown."""
    if isinstance(data, dict):
        if isinstance(data.get("players"), list):
            for player in data["players"]:
                if player.get("seat") != seat:
                    assert player.get("hand") is None, player
        for value in data.values():
            assert_hands_hidden(value, seat)
    elif isinstance(data, list):
        for value in data:
            assert_hands_hidden(value, seat)


def assert_security_headers(response) -> None:
    csp = response.headers.get("Content-Security-Policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}
    assert directives.get("frame-ancestors") == ["'none'"], csp
    assert "'self'" in directives.get("script-src", directives.get("default-src", [])), csp
    assert directives.get("default-src") and directives.get("object-src") == ["'none'"], csp
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp, csp
    assert response.headers.get("Referrer-Policy") == "no-referrer"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert "Set-Cookie" not in response.headers


@pytest.fixture
def world(app, client, smtp):
    return World(app, client)


def token_of(path: str) -> str:
    return path.split("/")[2]


def sign(key: str, kind_salt: str, payload) -> str:
    return URLSafeTimedSerializer(key, salt=kind_salt).dumps(payload)


def b64json(value) -> str:
    return base64_encode(json.dumps(value, separators=(",", ":")).encode()).decode()


TURN_ROUTES = [("GET", ""), ("POST", ""), ("POST", "/preview"), ("POST", "/renew")]
SEAT_ROUTES = [("GET", ""), ("POST", "/renew"), ("GET", "/resign"), ("POST", "/resign")]


def each_route(world, path: str, check) -> None:
    """Every route of a link, as a page and as JSON, with bodies that would act if they could."""
    routes = TURN_ROUTES if path.startswith("/t/") else SEAT_ROUTES
    for method, suffix in routes:
        if method == "GET":
            check("GET", path + suffix)
            check("GET", path + suffix, headers=JSON)
            continue
        check("POST", path + suffix, data={"steps": "pass", "action": "submit", "confirm": "yes"})
        check("POST", path + suffix, json={"steps": "pass", "confirm": True})


# -- forged, truncated, re-signed, misused links --------------------------------------------

def forgeries(world) -> dict[str, str]:
    """Links an attacker can make from links he has, or from nothing."""
    a, b = world.a, world.b
    turn, seat, seat_b = token_of(world.turn[a]), token_of(world.seat[a, 0]), token_of(world.seat[b, 0])
    payload, stamp, signature = turn.split(".")
    s_payload, s_stamp, s_signature = seat.split(".")
    flip = lambda text, i: text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1:]   # noqa: E731
    future = base64_encode(int_to_bytes(int(time.time()) + 10 ** 7)).decode()
    return {
        "signature changed": f"/t/{payload}.{stamp}.{flip(signature, 5)}",
        "timestamp moved on": f"/t/{payload}.{future}.{signature}",
        "payload names another seat": f"/t/{b64json([a, 1, 0])}.{stamp}.{signature}",
        "payload names a later point": f"/t/{b64json([a, 0, 1])}.{stamp}.{signature}",
        "another game's payload, this signature": f"/s/{seat_b.split('.')[0]}.{s_stamp}.{s_signature}",
        "seat payload names another game":
            f"/s/{b64json([b, 0, world.nonces[a, 0]])}.{s_stamp}.{s_signature}",
        "signed with another key": "/t/" + sign("not-the-key", "pbem-turn-link", [a, 0, 0]),
        "seat link signed with another key": "/s/" + sign("not-the-key", "pbem-seat-link",
                                                          [a, 0, world.nonces[a, 0]]),
        "right key, no salt": "/t/" + URLSafeTimedSerializer(world.key).dumps([a, 0, 0]),
        "right key, reply salt": "/t/" + sign(world.key, "pbem-reply", [a, 0, 0]),
        "a turn token as a seat token": "/s/" + turn,
        "a seat token as a turn token": "/t/" + seat,
        "no signature": f"/t/{payload}.{stamp}",
        "payload only": f"/t/{payload}",
        "empty signature": f"/t/{payload}.{stamp}.",
        "unsigned JWT": "/t/eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + b64json([a, 0, 0]) + ".",
        "upper-cased": "/t/" + turn.upper(),
        "doubled": "/t/" + turn + turn,
        "too long": "/t/" + turn + "A" * 400,
        "dots": "/t/...",
        "a reply token": "/t/" + "mfrggzdf-mfrggzdfmfrggzdf",
    }


FORGERIES = ["signature changed", "timestamp moved on", "payload names another seat",
             "payload names a later point", "another game's payload, this signature",
             "seat payload names another game", "signed with another key",
             "seat link signed with another key", "right key, no salt", "right key, reply salt",
             "a turn token as a seat token", "a seat token as a turn token", "no signature",
             "payload only", "empty signature", "unsigned JWT", "upper-cased", "doubled", "too long",
             "dots", "a reply token"]


@pytest.mark.parametrize("forgery", FORGERIES)
def test_forged_links_are_403_with_no_detail_and_write_nothing(world, forgery):
    made = forgeries(world)
    assert set(made) == set(FORGERIES)
    each_route(world, made[forgery], world.forged)


@pytest.mark.parametrize("which", ["turn", "seat"])
def test_truncated_links_are_403(world, which):
    token = token_of(world.turn[world.a] if which == "turn" else world.seat[world.a, 0])
    prefix = "/t/" if which == "turn" else "/s/"
    signature = token.rsplit(".", 1)[1]
    for keep in sorted({1, 8, len(token) // 2, len(token) - len(signature) - 1,
                        len(token) - len(signature), len(token) - 5, len(token) - 1}):
        each_route(world, prefix + token[:keep], world.forged)


def test_a_key_removed_from_the_fallbacks_no_longer_opens_links(app, world):
    old = world.turn[world.a]
    app.config.update(SECRET_KEY="the-next-key", SECRET_KEY_FALLBACKS=[world.key])
    try:
        assert world.client.get(old, headers=JSON).get_json()["can_act"] is True
        app.config["SECRET_KEY_FALLBACKS"] = []
        each_route(world, old, world.forged)
    finally:
        app.config.update(SECRET_KEY=world.key, SECRET_KEY_FALLBACKS=[])


def test_genuine_signatures_over_the_wrong_game_seat_or_nonce_do_not_open_it(app, world):
    """What only the server could sign is still checked against the game: nonces are per seat
    and per game, and a turn link acts only for the seat that owes that decision."""
    a, b = world.a, world.b
    for payload in ([a, 0, world.nonces[b, 0]], [a, 1, world.nonces[a, 0]], [b, 1, world.nonces[b, 0]]):
        path = "/s/" + sign(world.key, "pbem-seat-link", payload)
        for method, suffix in [r for r in SEAT_ROUTES if r[1] != "/renew"]:   # renew: by design
            response = world.hostile(method, path + suffix, {410}, headers=JSON,
                                     **({"json": {"confirm": True}} if method == "POST" else {}))
            assert set(response.get_json()) == {"error"} and "replaced" in response.get_json()["error"]
    for payload in ([a, 1, 0], [b, 1, 0], [a, 0, 5]):                 # not owed, or not now
        path = "/t/" + sign(world.key, "pbem-turn-link", payload)
        for body in ({"json": {"steps": "pass"}}, {"data": {"steps": "pass", "action": "submit"}}):
            world.hostile("POST", path, {409}, own=(payload[0], payload[1]), **body)
            world.hostile("POST", path + "/preview", {409}, own=(payload[0], payload[1]), **body)
    for payload in ([a, 2, 0], [a, -1, 0], [a, "0", 0], [b, True, 0], [[a], 0, 0], {"game": a}):
        world.forged("GET", "/t/" + sign(world.key, "pbem-turn-link", payload))
        world.forged("POST", "/t/" + sign(world.key, "pbem-turn-link", payload), json={"steps": "pass"})


def test_a_used_turn_link_replayed_is_409_and_writes_nothing(app, world):
    a, client = world.a, world.client
    seat, text = legal_text(app, a)
    link = world.turn[a]
    assert client.post(link, json={"steps": text}).status_code == 200
    replays = [dict(json={"steps": text}), dict(data={"steps": text, "action": "submit"}),
               dict(data={"steps": text, "action": "confirm"}), dict(data={"steps": text}),
               dict(data={"steps": text, "add": "pass"}), dict(json={"steps": text}, headers=JSON)]
    for round_ in range(2):
        for body in replays:
            response = world.hostile("POST", link, {409}, own=(a, 0), **body)
            assert "already submitted" in response.get_data(as_text=True)
            world.hostile("POST", link + "/preview", {409}, own=(a, 0), **body)
        if round_ == 0:                                     # the game moves on: still stale
            seat, text_b = legal_text(app, a)
            with app.app_context():
                loaded = gamelog.load(a)
                nxt = links.path(links.TURN, a, seat, loaded.seq)
            assert client.post(nxt, json={"steps": text_b}).status_code == 200
            world.hostile("POST", nxt, {409}, own=(a, seat), json={"steps": text_b})


# -- script in names and addresses -----------------------------------------------------------

class Tags(HTMLParser):
    """Every start tag of a document with its attributes, as a browser would parse them."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.scripts.append(data)


def assert_no_active_content(text: str, scripts_allowed=OWN_SCRIPTS) -> None:
    """No element a name could have smuggled in: no script but the server's own files, no handler
    attribute, no image, frame or object."""
    parsed = Tags(text)
    assert not parsed.scripts, parsed.scripts
    for tag, attrs in parsed.tags:
        assert tag not in ("img", "iframe", "frame", "object", "embed", "base"), (tag, attrs)
        assert tag != "meta" or set(attrs) <= {"charset", "name", "content"}, attrs   # no refresh
        assert tag != "script" or attrs in scripts_allowed, attrs
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        for name in ("href", "src", "action"):
            assert not (attrs.get(name) or "").strip().lower().startswith("javascript:"), (tag, attrs)


def assert_safe_html(body: str, names=(SCRIPT, IMG), shows_names=True) -> None:
    """No active content; the names never raw, and escaped where the page shows them."""
    assert_no_active_content(body)
    for name in names:
        assert name not in body
        if shows_names:
            assert ESCAPED[name] in body, name


def mails_of(smtp, app) -> list:
    with app.app_context():
        deliver_due()
    return [msg for _, msg in smtp.messages]


def assert_safe_mail(msg, names=(SCRIPT, IMG)) -> None:
    html = msg.get_body(("html",)).get_content()
    assert_no_active_content(html, scripts_allowed=())
    text = msg.get_body(("plain",)).get_content()
    for name in names:
        assert name not in html
        if name in text:                      # the text part may hold it literally: it is text
            assert ESCAPED[name] in html, (msg["Subject"], name)
    assert len(msg["To"].addresses) == 1 and len(msg["From"].addresses) == 1
    assert msg["From"].addresses[0].addr_spec == "turns@pbem.test"


@pytest.mark.parametrize("as_json", [False, True])
def test_script_in_names_is_escaped_in_every_page_json_and_mail(app, client, smtp, monkeypatch,
                                                                  as_json):
    game = create(client, (SCRIPT, IMG), ("anna@example.org", "bob@example.org"), as_json=as_json)
    with app.app_context():
        turn = links.path(links.TURN, game, 0, 0)
        seats = [links.path(links.SEAT, game, s, gamelog.current_nonce(game, s)) for s in (0, 1)]
    pages = {}

    def page(key, method, path, status=200, **kwargs):
        response = client.open(path, method=method, **kwargs)
        assert response.status_code == status, (key, response.status_code, response.data[:300])
        assert_security_headers(response)
        pages[key] = response.get_data(as_text=True)
        return response

    def json_names(path, method="GET", **kwargs):
        response = client.open(path, method=method, headers=JSON, **kwargs)
        assert response.mimetype == "application/json"
        assert response.get_json()["names"] == [SCRIPT, IMG]        # data, as typed
        assert_security_headers(response)

    _, text = legal_text(app, game)
    page("record", "GET", f"/games/{game}/record?created=1")
    page("turn", "GET", turn)
    page("seat 0", "GET", seats[0])
    page("seat 1", "GET", seats[1])
    page("resign", "GET", seats[1] + "/resign")
    page("preview", "POST", turn + "/preview", data={"steps": text})
    page("confirm", "POST", turn, data={"steps": text, "action": "confirm"})
    for path in (turn, seats[0], seats[1], f"/games/{game}/record"):
        json_names(path)
    json_names(turn + "/preview", "POST", json={"steps": text})
    assert client.post(turn, json={"steps": text}).status_code == 200     # Anna has played
    page("replayed", "POST", turn, 409, data={"steps": text, "action": "submit"})
    page("seat 1 after", "GET", seats[1])
    page("record after", "GET", f"/games/{game}/record?turn=1")
    page("outbox", "GET", "/outbox")
    with app.app_context():
        first = db.session.scalars(db.select(Mail).where(Mail.game_id == game).order_by(Mail.id)).first()
        mail_id = first.id
    page("outbox mail", "GET", f"/outbox/{mail_id}")
    # A mail that could not be delivered is named on the game's pages.
    with app.app_context():
        db.session.get(Mail, mail_id).status = FAILED
        db.session.commit()
    page("record undelivered", "GET", f"/games/{game}/record")
    page("seat undelivered", "GET", seats[0])
    with app.app_context():
        db.session.get(Mail, mail_id).status = "sent"
        db.session.commit()
    # An expired link's page, and the one after asking for a fresh link.
    monkeypatch.setitem(app.config, "LINK_MAX_AGE_DAYS", -1)
    page("expired", "GET", seats[1], 410)
    page("renewed", "POST", seats[1] + "/renew", 202)
    monkeypatch.setitem(app.config, "LINK_MAX_AGE_DAYS", 90)
    with app.app_context():
        seats[1] = links.path(links.SEAT, game, 1, gamelog.current_nonce(game, 1))
    # Bob answers his turn mail with script instead of steps: the failure mail quotes it.
    from pbem.inbound.ingest import ingest_bytes
    from pbem.mail.replies import reply_address
    with app.app_context():
        loaded = gamelog.load(game)
        [decision] = loaded.engine.to_act(loaded.state)
        address = reply_address(game, decision.seat, loaded.seq)
        sender = gamelog.address_of(game, decision.seat)
        reply = (f"From: {sender}\r\nTo: {address}\r\nSubject: Re: your turn\r\n"
                 f"Message-ID: <hostile.1@example.org>\r\n\r\n{SCRIPT}\r\n{IMG}\r\n").encode()
        assert ingest_bytes(reply).status == "failed"
        # Reminders name the games' players too; and fresh links asked for by address.
        from pbem.jobs import reminders
        reminders.run(loaded.row.created_at + timedelta(hours=49))
    assert client.post("/links", data={"email": "bob@example.org"}).status_code == 303
    with app.app_context():                         # (asking for links replaced Bob's seat link)
        seats[1] = links.path(links.SEAT, game, 1, gamelog.current_nonce(game, 1))
    # Bob resigns: the game-over pages and mails name the winner.
    assert client.post(seats[1] + "/resign", data={"confirm": "yes"}).status_code == 303
    page("seat 0 over", "GET", seats[0])
    page("record over", "GET", f"/games/{game}/record")
    for key, body in pages.items():
        assert_safe_html(body, shows_names=key not in ("preview", "expired", "renewed"))
    assert ESCAPED[SCRIPT] + " wins" in pages["record over"]

    mails = mails_of(smtp, app)
    subjects = [str(msg["Subject"]) for msg in mails]
    for kind in ("you are invited", "your turn", "Reminder:", "your links", "Your links to your games",
                 "your reply was not applied", "the game is over"):
        assert any(kind in subject for subject in subjects), (kind, subjects)
    for msg in mails:
        assert_safe_mail(msg)
    failed = next(m for m in mails if "not applied" in m["Subject"])
    assert ESCAPED[SCRIPT] in failed.get_body(("html",)).get_content()


HOSTILE_ADDRESSES = [
    "<script>alert(1)</script>@example.org", '"><img src=x onerror=alert(1)>@example.org',
    "anna@example.org<script>alert(1)</script>", "javascript:alert(1)@example.org",
    "anna@example.org\r\nBcc: evil@attacker.org", "anna@example.org\nBcc: evil@attacker.org",
    "anna@example.org%0d%0aBcc:evil@attacker.org", "anna@example.org, evil@attacker.org",
    "Zoe <zoe@example.org>", "anna@example.org\x00evil@attacker.org", "anna@exa mple.org",
]


@pytest.mark.parametrize("address", HOSTILE_ADDRESSES)
def test_hostile_addresses_are_refused_and_escaped_in_the_answer(world, address):
    form = {"game": "babel", "first": "0", "name0": SCRIPT, "email0": address,
            "name1": "Zed", "email1": "zed@example.org"}
    response = world.hostile("POST", "/games", {400}, data=form)
    body = response.get_data(as_text=True)
    assert "is not a mail address" in body
    assert_safe_html(body, names=[SCRIPT], shows_names=True)    # the form is shown again, escaped
    response = world.hostile("POST", "/games", {400}, json=form)
    assert "is not a mail address" in response.get_json()["error"]
    response = world.hostile("POST", "/games", {400}, data={**form, "email0": "anna@example.org",
                                                            "email1": address})
    assert_safe_html(response.get_data(as_text=True), names=[SCRIPT])
    for body in (dict(data={"email": address}), dict(json={"email": address})):
        response = world.hostile("POST", "/links", {400}, **body)
        assert "is not a mail address" in response.get_data(as_text=True)
        if not response.is_json:
            assert_safe_html(response.get_data(as_text=True), names=[], shows_names=False)


# -- header injection in names ----------------------------------------------------------------

INJECTIONS = [
    "Anna\r\nBcc: evil@attacker.org",
    "Bob\nSubject: pwned\n\nevil body",
    "=?utf-8?q?x_=3Cevil=40attacker=2Eorg=3E?=",
    "=?utf-8?b?ZXZpbEBhdHRhY2tlci5vcmc=?= <evil@attacker.org>",
    "Carol\x85Bcc: evil@attacker.org",
    "Dave\u2028Cc: evil@attacker.org",
    '"evil@attacker.org ' + "x" * 70 + '"',
    "Eve\r\n To: evil@attacker.org",
    "Frank\x00\rCc: evil@attacker.org",
    "evil@attacker.org",
]
ALLOWED_HEADERS = {"from", "to", "subject", "date", "message-id", "in-reply-to", "references",
                   "reply-to", "auto-submitted", "x-auto-response-suppress", "list-id",
                   "mime-version", "content-type",
                   "content-transfer-encoding", "list-unsubscribe", "list-unsubscribe-post"}


def assert_no_injected_headers(rcpts, msg, legit: set) -> None:
    keys = [k.lower() for k in msg.keys()]
    assert set(keys) <= ALLOWED_HEADERS, keys
    assert len(keys) == len(set(keys)), keys                      # no header twice
    assert set(rcpts) <= legit, rcpts
    [to] = msg["To"].addresses
    assert to.addr_spec in rcpts and to.addr_spec in legit
    [sender] = msg["From"].addresses
    assert sender.addr_spec == "turns@pbem.test"
    for header in ("To", "From", "Reply-To"):
        for addr in getattr(msg[header], "addresses", ()):
            assert "attacker" not in addr.addr_spec, (header, str(msg[header]))
    assert "\n" not in str(msg["Subject"]) and "\r" not in str(msg["Subject"])
    assert str(msg["Subject"]).lstrip().startswith(
        ("Babel with ", "Reminder: ", "Your ", "Confirm your game")), str(msg["Subject"])


@pytest.mark.parametrize("how", ["form", "json", "cli"])
def test_header_injection_in_names_never_makes_a_header(app, client, smtp, how):
    """Each hostile name plays a game against Zed to its end (invitations, a turn mail naming
    the player, the game-over mails, From names listing both players); every mail delivered
    goes to its seat's address alone and has no header but ours. On the command line, where a
    player is written `Name <address>`, a name with an address in it is refused instead."""
    legit, created = set(), 0
    for i, name in enumerate(INJECTIONS):
        emails = (f"p{i}@example.org", f"zed{i}@example.org")
        legit |= set(emails)
        if how == "cli":
            result = app.test_cli_runner().invoke(args=[
                "new-game", "--game", "babel", "--first", "0",
                "--player", f"{name} <{emails[0]}>", "--player", f"Zed <{emails[1]}>"])
            if "evil@attacker.org" in name and not name.startswith('"'):   # a second address
                assert result.exit_code == 2 and "write a player as Name <address>" in result.output, \
                    (name, result.output)
            if result.exit_code != 0:
                assert "Traceback" not in result.output
                continue
            game = result.output.strip().splitlines()[-1]
        else:
            game = create(client, (name, "Zed"), emails, as_json=how == "json")
        created += 1
        seat, text = legal_text(app, game)
        with app.app_context():
            path = links.path(links.TURN, game, seat, 0)
            seat_path = links.path(links.SEAT, game, 1, gamelog.current_nonce(game, 1))
        assert client.post(path, json={"steps": text}).status_code == 200
        assert client.post(seat_path + "/resign", data={"confirm": "yes"}).status_code == 303
    assert created >= (3 if how == "cli" else len(INJECTIONS))
    mails_of(smtp, app)
    assert len(smtp.messages) >= 5 * created
    for rcpts, msg in smtp.messages:
        assert_no_injected_headers(rcpts, msg, legit)


# -- oversized and malformed bodies ---------------------------------------------------------

BIG = "move A\n" * 10_000            # 70 KB: over MAX_CONTENT_LENGTH (64 KB)


def json_bytes(raw: bytes) -> dict:
    return dict(data=raw, content_type="application/json")


# (name, the request's body as keyword arguments of client.open, the statuses allowed)
MALFORMED = [
    ("bad JSON", lambda: json_bytes(b'{"steps": '), {400}),
    ("not UTF-8", lambda: json_bytes(b'{"steps": "\xff\xfe"}'), {400}),
    ("arrays nested 30000 deep", lambda: json_bytes(b"[" * 30_000 + b"]" * 30_000), {400}),
    ("objects nested 6000 deep", lambda: json_bytes(b'{"steps":' * 6_000 + b"1" + b"}" * 6_000), {400}),
    ("a JSON list", lambda: dict(json=[{"steps": "pass", "confirm": True}]), {400}),
    ("a JSON number", lambda: dict(json=5), {400}),
    ("JSON null", lambda: json_bytes(b"null"), {400}),
    ("steps as a list", lambda: dict(json={"steps": ["pass"], "confirm": "true"}), {400}),
    ("steps as an object", lambda: dict(json={"steps": {"pass": 1}, "confirm": 1}), {400}),
    ("steps as infinity", lambda: json_bytes(b'{"steps": 1e999}'), {400}),
    ("a 5000-digit integer", lambda: json_bytes(b'{"steps": ' + b"9" * 5000 + b"}"), {400}),
    ("text/plain", lambda: dict(data=b"steps=pass&action=submit&confirm=yes", content_type="text/plain"),
     {415}),
    ("XML", lambda: dict(data=b"<steps>pass</steps>", content_type="application/xml"), {415}),
    ("octet-stream", lambda: dict(data=b"\x00\x01\x02", content_type="application/octet-stream"), {415}),
    ("almost JSON", lambda: dict(data=b'{"steps": "pass"}', content_type="application/x-json"), {415}),
    ("multipart without a boundary", lambda: dict(data=b"steps=pass", content_type="multipart/form-data"),
     {400}),
    ("a form that is not UTF-8", lambda: dict(data=b"steps=\xff\xfe&action=submit&confirm=yes",
                                               content_type="application/x-www-form-urlencoded"), {400}),
    ("broken multipart", lambda: dict(
        data=b'--x\r\nContent-Disposition: form-data; name="steps"\r\n\r\npass',
        content_type="multipart/form-data; boundary=x"), {400}),
    ("oversized form", lambda: dict(data={"steps": BIG, "action": "submit", "confirm": "yes"}), {413}),
    ("oversized JSON", lambda: dict(json={"steps": BIG, "confirm": True}), {413}),
    ("oversized octet-stream", lambda: dict(data=BIG.encode(), content_type="application/octet-stream"),
     {413}),
    ("oversized upload", lambda: dict(data={"steps": "pass", "file": (io.BytesIO(BIG.encode()), "x")},
                                      content_type="multipart/form-data"), {413}),
]


@pytest.mark.parametrize("body, statuses", [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_and_oversized_bodies_are_refused(world, body, statuses):
    """At every door that takes a body; as a page and as JSON. (A form without the fields a
    door needs is its own refusal: 400; the turn link's composer treats such a form as a draft.)"""
    a = world.a
    for path, own in ((world.turn[a], (a, 0)), (world.turn[a] + "/preview", (a, 0)),
                      (world.seat[a, 0] + "/resign", (a, 0)), ("/games", None), ("/links", None)):
        for headers in ({}, JSON):
            world.hostile("POST", path, statuses, own=own, headers=headers, **body())


def test_the_renew_routes_refuse_oversized_and_foreign_bodies_too(world):
    for path in (world.turn[world.a] + "/renew", world.seat[world.a, 0] + "/renew"):
        world.hostile("POST", path, {413}, data={"x": BIG})
        world.hostile("POST", path, {415}, data=b"<x/>", content_type="application/xml")


# -- path tricks ----------------------------------------------------------------------------

PATHS = ["/t/../games", "/t/..%2fgames", "/t/%2e%2e", "/t/%2e%2e/%2e%2e/games", "/s/%2e%2e%2f",
         "/games/%2e%2e/record", "/games/..%2f..%2f/record", "/%2e%2e/%2e%2e/etc/passwd",
         "/static/../pbem/config.py", "/static/%2e%2e/pbem/config.py", "/static/..%2fpbem%2fconfig.py",
         "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/static/../../wsgi.py", "/outbox/../games",
         "/t//x", "/s//x", "/games//record", "/t/x//preview", "//t/x", "/t/x/", "/t/x/y/z",
         "/t/" + "a" * 10_000, "/s/" + "A." * 5_000, "/games/" + "g" * 20_000 + "/record",
         "/" + "x/" * 2_000, "/t/%00", "/s/%00/renew", "/games/%00/record", "/static/pbem.css%00",
         "/static/pbem.css%00.js", "/t/x%00y", "/t/%ff%fe", "/games/%ff/record", "/t/%u002e",
         "/t/%252e%252e", "/t/\\..\\..\\games", "/games/;/record", "/games/x;y=1/record",
         "/outbox/-1", "/outbox/99999999999999999999", "/outbox/1%00"]


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("as_json", [False, True])
def test_path_tricks_are_4xx_and_reveal_nothing(world, method, as_json):
    for path in PATHS:
        headers = JSON if as_json else {}
        response = world.hostile(method, path, headers=headers,
                                 data={"steps": "pass", "action": "submit"}, follow_redirects=True)
        for earlier in response.history:               # "//" is merged by a redirect: same host
            assert urlsplit(earlier.headers["Location"]).netloc in ("", "localhost")
        assert b"SECRET" not in response.data and b"import " not in response.data


# -- headers on every kind of answer ----------------------------------------------------------

def test_every_kind_of_page_and_error_has_the_security_headers(app, client, world, monkeypatch):
    a = world.a
    turn, seat = world.turn[a], world.seat[a, 0]
    seat_no, text = legal_text(app, a)
    answers = {
        "start page": client.get("/"),
        "stylesheet": client.get("/static/pbem.css"),
        "script": client.get("/static/pbem.js"),
        "record": client.get(f"/games/{a}/record"),
        "record json": client.get(f"/games/{a}/record", headers=JSON),
        "turn page": client.get(turn),
        "turn json": client.get(turn, headers=JSON),
        "seat page": client.get(seat),
        "seat json": client.get(seat, headers=JSON),
        "resign page": client.get(seat + "/resign"),
        "preview fragment": client.post(turn + "/preview", data={"steps": text}),
        "preview json": client.post(turn + "/preview", json={"steps": text}),
        "confirm page": client.post(turn, data={"steps": text, "action": "confirm"}),
        "outbox": client.get("/outbox"),
        "created 303": client.post("/games", data={"game": "babel", "name0": "X", "email0": "x@example.org",
                                                   "name1": "Y", "email1": "y@example.org"}),
        "created 201": client.post("/games", json={"game": "babel", "name0": "X", "email0": "x2@example.org",
                                                   "name1": "Y", "email1": "y2@example.org"}),
        "links sent": client.get("/?sent=links"),
        "400": client.post("/games", data={"game": "chess"}),
        "400 json": client.post("/games", json={"game": "chess"}),
        "403": client.get("/t/garbage"),
        "403 json": client.get("/t/garbage", headers=JSON),
        "404": client.get("/nowhere"),
        "404 json": client.get("/games/nosuchgame/record", headers=JSON),
        "405": client.delete("/games"),
        "410": client.get("/s/" + sign(world.key, "pbem-seat-link", [a, 0, "old-nonce"])),
        "413": client.post(turn, data={"steps": BIG}),
        "415": client.post(turn, data=b"x", content_type="text/plain"),
        "422": client.post(turn, json={"steps": "settle Q Q Q"}),
        "422 page": client.post(turn, data={"steps": "settle Q Q Q", "action": "submit"}),
    }
    assert client.post(turn, json={"steps": text}).status_code == 200
    answers["409"] = client.post(turn, data={"steps": text, "action": "submit"})
    answers["409 json"] = client.post(turn, json={"steps": text})
    app.config["LINK_REQUESTS_PER_CLIENT_PER_HOUR"] = 0
    answers["429"] = client.post("/links", data={"email": "nobody@example.org"})
    app.config["LINK_MAX_AGE_DAYS"] = -1
    answers["410 expired"] = client.get(seat)
    app.config["LINK_MAX_AGE_DAYS"] = 90

    from sqlalchemy.exc import OperationalError

    from pbem.web import record
    secret = world.key

    def boom(*args, **kwargs):
        raise RuntimeError(f"SELECT seed FROM games; key {secret}")

    def away(*args, **kwargs):
        raise OperationalError(f"SELECT seed FROM games -- {secret}", {}, Exception(f"gone {secret}"))

    monkeypatch.setattr(record, "entries", boom)
    answers["500"] = client.get(f"/games/{a}/record")
    answers["500 json"] = client.get(f"/games/{a}/record", headers=JSON)
    monkeypatch.setattr(gamelog, "load", away)
    answers["503"] = client.get(turn)
    answers["503 json"] = client.get(turn, headers=JSON)

    for kind, response in answers.items():
        status = int(kind.split()[0]) if kind[0].isdigit() else None
        if status:
            assert response.status_code == status, (kind, response.status_code, response.data[:200])
        else:
            assert response.status_code < 400, (kind, response.status_code)
        assert_security_headers(response)
        if status and status >= 500:
            body = response.get_data(as_text=True)
            assert secret not in body and str(world.seeds[a]) not in body
            assert not LEAKS.search(body), body
    assert answers["503"].headers["Retry-After"]


# -- templates --------------------------------------------------------------------------------

def test_templates_have_no_inline_script_handlers_or_styles():
    """The CSP allows no inline script or style: the pages' templates must need none.
    (Mails are not pages: mail clients need inline styles, and mails carry no script.)"""
    templates = ROOT / "templates"
    checked = 0
    for path in sorted(templates.rglob("*")):
        if not path.is_file() or path.relative_to(templates).parts[0] == "mail":
            continue
        text = path.read_text()
        where = path.relative_to(ROOT)
        for tag, body in re.findall(r"(<script\b[^>]*>)(.*?)</script>", text, re.S | re.I):
            assert "src=" in tag and not body.strip(), (where, tag)
        assert not re.search(r"<script\b(?![^>]*\bsrc=)", text, re.I), where
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", text, re.I), where
        assert not re.search(r"<[^>]*\sstyle\s*=", text, re.I), where
        assert not re.search(r"<style\b", text, re.I), where
        assert "javascript:" not in text.lower(), where
        checked += 1
    assert checked >= 15
    for path in (templates / "mail").rglob("*"):
        assert "<script" not in path.read_text().lower(), path
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", path.read_text(), re.I), path
