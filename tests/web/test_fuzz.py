"""Bad input never makes a 500 and never writes anything.

Hypothesis throws malformed notation, bodies, tokens, paths and new-game forms
at the server. Each test has one app (and database) for all its examples, so
what must not change is measured as row counts before and after each request:
games, seats, seat links, events and mails.
"""

from __future__ import annotations

import json
import re
from itertools import count
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from itsdangerous import URLSafeTimedSerializer

from pbem.games.rng import Rng
from pbem_web import started  # tests/helpers

FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
JSON = {"Accept": "application/json"}
OK_OR_REFUSED = {200, 400, 404, 409, 413, 422}


# -- helpers ---------------------------------------------------------------------

def counts(app) -> dict:
    """Rows in every table: what "nothing written" is measured by."""
    from sqlalchemy import func, select

    from pbem.extensions import db
    from pbem.store.models import Event, Game, Mail, Proposal, Seat, SeatNonce
    with app.app_context():
        return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
                for model in (Game, Seat, SeatNonce, Event, Mail, Proposal)}


def new_game(client, first=0) -> str:
    response = client.post("/games", data={
        "game": "babel", "first": str(first), "option.sumerians": "top-run",
        "name0": "Anna", "email0": "anna@example.org", "name1": "Bob", "email1": "bob@example.org"})
    return started(client, response)


class Live:
    """A game whose first turn is open, with its links; `reset()` starts another one."""

    def __init__(self, app, client):
        self.app, self.client = app, client
        self.reset()

    def reset(self):
        from pbem.policy import links
        from pbem.store import gamelog
        self.game = new_game(self.client)
        with self.app.app_context():
            self.turn = links.path(links.TURN, self.game, 0, 0)
            self.seats = [links.path(links.SEAT, self.game, s, gamelog.current_nonce(self.game, s))
                          for s in (0, 1)]
        self.before = counts(self.app)

    def check(self, response) -> None:
        """Never a server error; nothing written unless the turn happened to be legal."""
        if currently_in_test_context():
            event(f"status {response.status_code}")          # for --hypothesis-show-statistics
        assert response.status_code < 500, response.data[:500]
        after = counts(self.app)
        if after["events"] != self.before["events"]:       # a legal turn: the only write allowed
            assert response.status_code in (200, 303)
            assert after["events"] == self.before["events"] + 1
            self.reset()
        else:
            assert after == self.before


@pytest.fixture
def live(app, client):
    return Live(app, client)


def signed(app, kind: str, payload, key: str | None = None) -> str:
    """A token as the server would sign it (or with another key)."""
    with app.app_context():
        secret = key or app.config["SECRET_KEY"]
    token = URLSafeTimedSerializer(secret, salt=f"pbem-{kind}-link").dumps(payload)
    return f"/{'t' if kind == 'turn' else 's'}/{token}"


WORDS = ["move", "settle", "build", "mine", "theirs", "pass", "discard", "migrate", "destroy",
         "rob", "emigrate", "switch", "jump", "halve", "A", "H", "M", "P", "S", "SSA", "assyrians",
         "medes", ";", ",", "#", "> ", "x", "0", "-1", "99", "\x00", "\t", "\r", "\n", "é", "🎲",
         "move\nmove", "build  mine", "MOVE", "settle A A A A A A A A A"]
notation_like = st.lists(st.sampled_from(WORDS), max_size=30).flatmap(
    lambda words: st.sampled_from([" ", "\n", "; ", "\r\n"]).map(lambda sep: sep.join(words)))
steps_text = st.one_of(
    notation_like,
    st.text(max_size=300),
    st.text(alphabet=st.characters(max_codepoint=0x9f), max_size=200),    # controls, NUL, C1
    st.text(alphabet=st.sampled_from("\x00\r\n\t\x0b\x0c\x1c\x85\u2028\u2029 mA;"), max_size=60),
)
# Only JSON can carry lone surrogates ("\ud800"); a form body is UTF-8 by construction.
surrogate_text = st.lists(st.sampled_from(["\ud800", "\udfff", "\udc80", "move A", "\x00", "é", " "]),
                          min_size=1, max_size=8).map("".join)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20) | surrogate_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


# -- malformed notation at a live turn link ----------------------------------------------

@FUZZ
@given(text=steps_text,
       action=st.one_of(st.just("submit"), st.sampled_from([None, "preview", "", "bogus"])),
       add=st.one_of(st.none(), steps_text),
       remove=st.one_of(st.none(), st.integers(-3, 40).map(str), st.text(max_size=6)),
       compose=st.one_of(st.none(), st.lists(st.sampled_from(WORDS), max_size=6)),
       endpoint=st.sampled_from(["", "/preview"]),
       fragment=st.booleans())
@example(text="move A\x00", action="submit", add=None, remove=None, compose=None, endpoint="",
         fragment=False)
@example(text="move A", action=None, add=None, remove="²", compose=None, endpoint="",
         fragment=False)
@example(text="x", action=None, add="move A", remove="٣", compose=None, endpoint="/preview",
         fragment=True)
def test_malformed_notation_in_a_form_never_breaks_the_turn_link(live, client, text, action, add,
                                                                 remove, compose, endpoint, fragment):
    data = {"steps": text}
    for key, value in (("action", action), ("add", add), ("remove", remove), ("compose", compose)):
        if value is not None:
            data[key] = value
    headers = {"X-Fragment": "1"} if fragment else {}
    response = client.post(live.turn + endpoint, data=data, headers=headers)
    assert response.status_code in OK_OR_REFUSED | {303}, response.status_code
    live.check(response)


@FUZZ
@given(body=st.one_of(st.fixed_dictionaries({"steps": st.one_of(steps_text, surrogate_text)}),
                      st.dictionaries(st.sampled_from(["steps", "action", "x"]), json_value, max_size=3),
                      json_value),
       endpoint=st.sampled_from(["", "/preview"]))
@example(body={"steps": 5}, endpoint="")
@example(body=[{"steps": "pass"}], endpoint="")
@example(body=5, endpoint="/preview")
@example(body={"steps": None}, endpoint="")
@example(body={"steps": ["move A"]}, endpoint="/preview")
def test_malformed_json_never_breaks_the_turn_link(live, client, body, endpoint):
    response = client.post(live.turn + endpoint, data=json.dumps(body), content_type="application/json")
    assert response.status_code in OK_OR_REFUSED, response.status_code
    assert response.is_json
    if not (isinstance(body, dict) and isinstance(body.get("steps", ""), str)):
        assert response.status_code == 400
        assert "JSON object" in response.get_json()["error"]
    live.check(response)


@FUZZ
@given(raw=st.one_of(st.binary(max_size=200),
                     st.text(max_size=100).map(lambda s: s.encode("utf-8", "surrogatepass")),
                     st.sampled_from([b"{", b"{\"steps\": ", b"[1, 2", b"\xff\xfe{}", b"null",
                                      b"{\"steps\": \"\\ud800\"}", b"NaN", b"{\"steps\": 1e999}"])),
       endpoint=st.sampled_from(["", "/preview"]))
def test_broken_json_bodies_are_refused(live, client, raw, endpoint):
    response = client.post(live.turn + endpoint, data=raw, content_type="application/json")
    assert response.status_code in OK_OR_REFUSED, response.status_code
    live.check(response)


@pytest.mark.parametrize("endpoint", ["", "/preview"])
def test_oversized_bodies_are_refused_with_413(live, client, app, endpoint):
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    big = "move A\n" * 10_000                                   # 70 KB
    cases = [dict(data={"steps": big, "action": "submit"}),
             dict(json={"steps": big}),
             dict(data=big.encode(), content_type="application/json"),
             dict(data=big.encode(), content_type="application/octet-stream"),
             dict(data={"steps": "move A", "compose": ["x" * 70_000]})]
    for case in cases:
        response = client.post(live.turn + endpoint, **case)
        assert response.status_code == 413, case.keys()
        live.check(response)
    response = client.post("/games", data={"name0": "x" * 70_000})
    assert response.status_code == 413
    response = client.post("/games", json={"name0": "x" * 70_000})
    assert response.status_code == 413
    live.check(response)


def test_long_but_allowed_bodies_are_refused_as_too_long_turns(live, client):
    text = "move A\n" * 3000                                    # 21 KB: under the body limit
    response = client.post(live.turn, data={"steps": text, "action": "submit"})
    assert response.status_code == 400 and "too long" in response.data.decode()
    live.check(response)
    response = client.post(live.turn, json={"steps": text})
    assert response.status_code == 400 and "too long" in response.get_json()["error"]
    live.check(response)


# -- unknown games, forged tokens, path tricks ----------------------------------------------

URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."


@FUZZ
@given(game=st.one_of(st.text(min_size=1, max_size=40),
                      st.text(alphabet=URLSAFE, min_size=1, max_size=30),
                      st.sampled_from(["\x00", "a\x00b", "..", "%00", "x" * 17, "x" * 5000,
                                       "' OR 1=1 --", "ÄÖÜ", "\ud7ff"])),
       as_json=st.booleans())
def test_unknown_games_are_404(live, client, game, as_json):
    response = client.get(f"/games/{quote(game, safe='')}/record", headers=JSON if as_json else {},
                          follow_redirects=True)
    assert response.status_code == 404, response.status_code
    live.check(response)


def assert_forbidden_without_detail(response, *secrets_) -> None:
    assert response.status_code == 403, response.status_code
    body = response.data.decode()
    if response.is_json:
        assert response.get_json() == {"error": "Forbidden."}
    else:
        assert "This link does not work" in body and "Lost your links?" in body
        assert not re.search(r"signature|BadSignature|expired|payload|Traceback", body, re.I)
    for secret in secrets_:
        assert secret not in body


ROUTES = [("GET", "/t/{}"), ("POST", "/t/{}"), ("POST", "/t/{}/preview"), ("POST", "/t/{}/renew"),
          ("GET", "/s/{}"), ("POST", "/s/{}/renew")]


@FUZZ
@given(token=st.one_of(st.text(alphabet=URLSAFE, min_size=1, max_size=300),
                       st.text(min_size=1, max_size=100),
                       st.text(alphabet=URLSAFE, min_size=401, max_size=2000)),
       route=st.sampled_from(ROUTES), as_json=st.booleans())
def test_random_tokens_are_forbidden_and_say_nothing(live, client, token, route, as_json):
    method, pattern = route
    path = pattern.format(quote(token, safe=""))
    response = client.open(path, method=method, data={"steps": "pass", "action": "submit"},
                           headers=JSON if as_json else {}, follow_redirects=True)
    if "/" in token:                       # %2F is a path separator to the router: no such page
        assert response.status_code in (403, 404, 405)
    else:
        assert_forbidden_without_detail(response)
    live.check(response)


@FUZZ
@given(cut=st.integers(min_value=1, max_value=200), which=st.sampled_from(["turn", "seat"]),
       route=st.sampled_from(ROUTES), as_json=st.booleans())
def test_truncated_tokens_are_forbidden(live, client, cut, which, route, as_json):
    method, pattern = route
    token = (live.turn if which == "turn" else live.seats[0]).split("/")[2]
    short = token[:max(1, len(token) - cut)]
    response = client.open(pattern.format(short), method=method, data={"steps": "pass"},
                           headers=JSON if as_json else {})
    assert_forbidden_without_detail(response, live.game)
    live.check(response)


def test_tokens_signed_with_another_key_or_for_the_other_kind_are_forbidden(live, client, app):
    from pbem.store import gamelog
    with app.app_context():
        nonce = gamelog.current_nonce(live.game, 0)
    forged = [signed(app, "turn", [live.game, 0, 0], key="not-the-key"),
              signed(app, "seat", [live.game, 0, nonce], key="not-the-key"),
              "/s/" + live.turn.split("/")[2],                    # a turn token as a seat token
              "/t/" + live.seats[0].split("/")[2]]                # a seat token as a turn token
    for path in forged:
        for method, suffix in (("GET", ""), ("POST", ""), ("POST", "/preview"), ("POST", "/renew")):
            if path.startswith("/s/") and (method, suffix) in (("POST", ""), ("POST", "/preview")):
                continue                                          # no such routes for seats
            for headers in ({}, JSON):
                response = client.open(path + suffix, method=method, headers=headers,
                                       data={"steps": "pass", "action": "submit"})
                assert_forbidden_without_detail(response, live.game, nonce)
                live.check(response)


@pytest.mark.parametrize("kind", ["turn", "seat"])
def test_well_signed_tokens_for_seats_or_games_that_do_not_exist_are_refused(live, client, app, kind):
    game = live.game
    bad = {403: [[game, 2, 0], [game, -1, 0], [game, 99, 0], [game, 2 ** 70, 0], [game, True, 0],
                 [game, "0", 0], [game, 0.0, 0], [game, None, 0], [game, 0], [game, 0, 0, 0],
                 {"game": game}, "just a string", 5, None, [None, 0, 0], [[game], 0, 0]],
           404: [["nogame", 0, 0], ["", 0, 0], ["a\x00b", 0, 0], [game + "x" * 10, 0, 0],
                 ["é" * 16, 0, 0]]}
    for status, payloads in bad.items():
        for payload in payloads:
            path = signed(app, kind, payload)
            routes = [("GET", ""), ("POST", "/renew")] + ([("POST", ""), ("POST", "/preview")]
                                                         if kind == "turn" else [])
            for method, suffix in routes:
                response = client.open(path + suffix, method=method, data={"steps": "pass"})
                assert response.status_code == status, (payload, method, suffix)
                live.check(response)


def test_turn_tokens_for_another_point_of_the_log_do_not_act(live, client, app):
    for mark in (1, 5, -1, "0", None, [0], 0.5):
        path = signed(app, "turn", [live.game, 0, mark])
        assert client.get(path).status_code == 200                 # read-only view
        for data in ({"steps": "pass", "action": "submit"}, {"steps": "move A"}):
            response = client.post(path, data=data)
            assert response.status_code == 409, mark
            live.check(response)
        response = client.post(path, json={"steps": "pass"})
        assert response.status_code == 409 and "already submitted" in response.get_json()["error"]
        live.check(response)
        assert client.post(path + "/preview", json={"steps": "pass"}).status_code == 409
    # The other seat's turn link, at the right point of the log: Bob owes nothing yet.
    path = signed(app, "turn", [live.game, 1, 0])
    assert client.post(path, json={"steps": "pass"}).status_code == 409
    live.check(client.post(path, data={"steps": "pass", "action": "submit"}))


def test_seat_tokens_with_a_stale_nonce_are_gone(live, client, app):
    for nonce in ("", "x" * 16, None, 0):
        response = client.get(signed(app, "seat", [live.game, 0, nonce]), headers=JSON)
        assert response.status_code == 410
        assert "replaced" in response.get_json()["error"]
        live.check(response)


PATHS = ["/t/../..", "/t/%2e%2e/%2e%2e", "/t/..%2f..%2fetc%2fpasswd", "/s/..%2F..%2F",
         "/t/.", "/t/", "/s/", "/t", "/games/%2e%2e/record",
         "/games/..%2f..%2f/record", "/static/../pbem/config.py", "/static/%2e%2e/pbem/config.py",
         "/static/..%2fpbem%2fconfig.py", "/t/" + "a" * 10_000, "/s/" + "A." * 5_000,
         "/games/" + "g" * 20_000 + "/record", "/" + "x/" * 2_000, "/t/%00", "/s/%00/renew",
         "/games/%00/record", "/t/%ff%fe", "/games/%ff/record", "/%2e%2e/%2e%2e/etc/passwd",
         "/games//record", "/t//preview", "/t/x/y/z"]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_path_tricks_are_refused(live, client, method):
    for path in PATHS:
        response = client.open(path, method=method, data={"steps": "pass", "action": "submit"},
                               follow_redirects=True)      # "//" is merged by a redirect first
        assert 400 <= response.status_code < 500, (path, response.status_code)
        assert b"SECRET" not in response.data and b"import" not in response.data
        live.check(response)


# -- the new-game form ---------------------------------------------------------------

VALID = "\x01valid"
serial = count()
NAMES = ["", " ", "\x00", "\r\n", "A" * 101, "Anna\r\nBcc: evil@attacker.org", "<script>x</script>",
         "=?utf-8?q?x_=3Cevil=40attacker=2Eorg=3E?=", "Ä" * 100, "\u2028"]
ADDRESSES = ["", "nope", "a@", "@example.org", "a@b..org", "a b@example.org", "a@-b.org",
             "anna@example.org\r\nBcc: evil@attacker.org", "x" * 300 + "@example.org",
             "ä@example.org", "a@example.org, c@example.org", "<a@example.org>", "a\x00@b.org",
             "Anna <anna@example.org>", "a@b.org\n", "a@[127.0.0.1]", "\"a b\"@example.org"]
GAMES = ["", "chess", "BABEL", " babel ", "babel\x00", "../babel", "__init__", "INSTALLED"]
FIRSTS = ["", "random", "0", "1", "2", "-1", "²", "١", "٣", "0x1", " 1", "1.0",
          "99999999999999999999999", "𝟙"]
OPTIONS = ["", "top-run", "all", "ALL", "none", "\x00", "top-run; drop table games"]


def field(values, valid):
    return st.one_of(st.none(), st.just(valid), st.sampled_from(values), st.text(max_size=30))


lobby_form = st.fixed_dictionaries({
    "game": field(GAMES, "babel"),
    "name0": field(NAMES, "Anna"), "email0": field(ADDRESSES, VALID),
    "name1": field(NAMES, "Bob"), "email1": field(ADDRESSES, VALID),
    "first": field(FIRSTS, "0"), "option.sumerians": field(OPTIONS, "top-run"),
})


def filled(form: dict, keep_none: bool = False) -> dict:
    """Drop missing fields; valid addresses are fresh ones (the invitation rate is per address)."""
    out = {}
    for key, value in form.items():
        if value == VALID:
            value = f"p{next(serial)}@example.org"
        if value is not None or keep_none:
            out[key] = value
    return out


def assert_created(app, client, response, before: dict, created_status: int) -> None:
    """Asked for: only the creator's confirmation is mailed; confirmed: the game and its
    invitations."""
    assert response.status_code == created_status
    after = counts(app)
    assert after["proposals"] == before["proposals"] + 1 and after["games"] == before["games"]
    assert after["mails"] == before["mails"] + 1
    started(client, response)
    after = counts(app)
    assert after["games"] == before["games"] + 1 and after["seats"] == before["seats"] + 2
    assert after["mails"] == before["mails"] + 3 and after["events"] == before["events"]
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.store.models import Seat
    with app.app_context():
        names = db.session.scalars(select(Seat.name)).all()
    for name in names:
        assert name and len(name) <= 100 and len(name.splitlines()) == 1
        assert not re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]", name)


@FUZZ
@given(form=lobby_form)
@example(form={"game": "babel", "name0": "Anna", "email0": VALID, "name1": "Bob", "email1": VALID,
               "first": "²", "option.sumerians": None})
def test_new_game_form_refuses_bad_fields_clearly_and_writes_nothing(app, client, form):
    before = counts(app)
    response = client.post("/games", data=filled(form))
    event(f"status {response.status_code}")
    assert response.status_code in (303, 400, 429), response.status_code
    if response.status_code == 303:
        assert re.fullmatch(r"/games/[A-Za-z0-9_-]+/proposed", response.headers["Location"])
        assert_created(app, client, response, before, 303)
        return
    assert counts(app) == before
    if response.status_code == 429:
        assert "try tomorrow" in response.data.decode()
        return
    message = re.search(r'<p class="error" role="alert">([^<]+)</p>', response.data.decode())
    assert message and message.group(1).strip(), response.data[:300]


@FUZZ
@given(body=st.one_of(
    lobby_form.map(filled),
    st.dictionaries(st.sampled_from(["game", "name0", "email0", "name1", "email1", "first",
                                     "option.sumerians"]), st.one_of(json_value, st.just(VALID)))
    .map(lambda d: filled(d, keep_none=True)),
    json_value))
@example(body={"game": "babel", "name0": "Anna", "email0": "e0@example.org", "name1": "Bob",
               "email1": "e1@example.org", "first": 0})
@example(body=[{"game": "babel"}])
@example(body={"game": "babel", "name0": "A\ud800", "email0": "e2@example.org", "name1": "B\udc80",
               "email1": "e3@example.org"})
@example(body={"game": ["babel"], "name0": {"a": 1}})
def test_new_game_json_of_wrong_types_is_refused_clearly(app, client, body):
    before = counts(app)
    response = client.post("/games", data=json.dumps(body), content_type="application/json")
    event(f"status {response.status_code}")
    assert response.status_code in (202, 400, 422, 429), response.status_code
    assert response.is_json
    if response.status_code == 202:
        assert_created(app, client, response, before, 202)
        return
    assert counts(app) == before
    assert isinstance(response.get_json()["error"], str) and response.get_json()["error"]


@FUZZ
@given(raw=st.one_of(st.binary(max_size=200),
                     st.sampled_from([b"{", b"[]", b"5", b"null", b"\"babel\"", b"{\"game\": ",
                                      b"\xff", b"true"])),
       content_type=st.sampled_from(["application/json", "application/x-www-form-urlencoded",
                                     "multipart/form-data; boundary=x", "text/plain",
                                     "multipart/form-data"]))
def test_new_game_broken_bodies_are_refused(app, client, raw, content_type):
    before = counts(app)
    response = client.post("/games", data=raw, content_type=content_type)
    assert 400 <= response.status_code < 500, response.status_code
    assert counts(app) == before


def test_valid_new_game_form_is_created_and_redirects(app, client):
    before = counts(app)
    response = client.post("/games", data={"game": "babel", "name0": "Anna", "email0": "anna@example.org",
                                           "name1": "Bob", "email1": "bob@example.org", "first": "1",
                                           "option.sumerians": "all"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/proposed")
    assert_created(app, client, response, before, 303)
    # The same as JSON: 202 with the game's id, to be confirmed.
    before = counts(app)
    response = client.post("/games", json={"game": "babel", "name0": "Carol", "email0": "c@example.org",
                                           "name1": "Dave", "email1": "d@example.org"})
    assert response.status_code == 202 and response.get_json()["status"] == "unconfirmed"
    assert_created(app, client, response, before, 202)


@pytest.mark.parametrize("field_name, value, words", [
    ("game", "chess", "Choose a game"),
    ("email0", "nope", "is not a mail address"),
    ("email0", "anna@example.org\r\nBcc: evil@attacker.org", "is not a mail address"),
    ("email1", "", "needs a mail address"),
    ("name0", "A" * 101, "at most 100 characters"),
    ("name0", "\x00\r\n", "needs a name"),
    ("first", "²", "Choose who starts"),
    ("first", "2", "Choose who starts"),
    ("option.sumerians", "bogus", "is not one of"),
])
def test_each_bad_field_has_a_clear_message(app, client, field_name, value, words):
    form = {"game": "babel", "name0": "Anna", "email0": "anna@example.org", "name1": "Bob",
            "email1": "bob@example.org", field_name: value}
    before = counts(app)
    response = client.post("/games", data=form)
    assert response.status_code == 400
    assert words in response.data.decode()
    response = client.post("/games", json=form)
    assert response.status_code in (400, 422) and words in response.get_json()["error"]
    assert counts(app) == before


# -- stale links ------------------------------------------------------------------------

@pytest.fixture
def used_link(app, client) -> str:
    """A turn link that was used: Anna played her first turn through it."""
    from pbem.policy import links
    from pbem.store import gamelog
    game = new_game(client)
    with app.app_context():
        loaded = gamelog.load(game)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
        path = links.path(links.TURN, game, 0, 0)
    assert client.post(path, json={"steps": text}).status_code == 200
    again = client.post(path, json={"steps": text})
    assert again.status_code == 409
    again = client.post(path, data={"steps": text, "action": "submit"})
    assert again.status_code == 409
    return path


@FUZZ
@given(text=steps_text, how=st.sampled_from(["form", "json", "preview-json", "preview-form",
                                             "no-action"]))
def test_a_used_turn_link_is_stale_whatever_is_posted(app, client, used_link, text, how):
    before = counts(app)
    if how == "form":
        response = client.post(used_link, data={"steps": text, "action": "submit"})
    elif how == "json":
        response = client.post(used_link, json={"steps": text})
    elif how == "preview-json":
        response = client.post(used_link + "/preview", json={"steps": text})
    elif how == "preview-form":
        response = client.post(used_link + "/preview", data={"steps": text})
    else:
        response = client.post(used_link, data={"steps": text, "add": "pass"})
    assert response.status_code == 409
    assert "already submitted" in response.data.decode()
    assert counts(app) == before
