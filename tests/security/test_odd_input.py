"""Odd values that once made a 500 (issue 26): each is a clear 4xx now, and writes nothing.

- a vacation of 10**27 days in German or Czech (the error's number could not be formatted);
- a CSRF field that is not ASCII (the comparison raised);
- a game id with a NUL, or anything `store.new_id` never makes, in any route's path (PostgreSQL
  refuses a NUL in a query), and a NUL where the operator clears a suppression.

The route test walks the app's URL map: a route added later with a `<game_id>` is tried too.
Run with PBEM_TEST_DATABASE_URL set to see the PostgreSQL half (SQLite takes a NUL).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.play import addresses
from pbem.players import settings
from pbem.store.models import Event, Game, Mail, Proposal, Rematch, Seat, Suppression, Vacation
from pbem_web import ANNA, BOB, create, deliver, seat_path, text_of  # tests/helpers

OPERATOR = "op@example.org"
ODD_IDS = ["\x00", "a\x00b", "é", "ÄÖÜ", "x" * 17, "' OR 1=1 --", "\u2028", "🎲"]


@pytest.fixture
def app(make_app):
    return make_app(ADMIN_EMAIL=OPERATOR, VACATION_DAYS_PER_YEAR=3)


def counts(app) -> dict:
    with app.app_context():
        return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
                for model in (Game, Seat, Event, Mail, Proposal, Rematch, Suppression, Vacation)}


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def speaking(app, address: str, language: str) -> None:
    with app.app_context():
        settings.change(address, "Europe/Berlin", language, settings.EACH, False)


# -- a vacation of 10**27 days -------------------------------------------------------------

@pytest.mark.parametrize("language, words", [("de", "Urlaubstag"), ("cs", "dovolen")])
def test_a_vacation_too_long_to_write_is_refused_in_every_language(app, client, language, words):
    game = create(client)
    speaking(app, ANNA, language)
    home = home_path(app, ANNA)
    csrf = csrf_of(client.get(home).get_data(as_text=True))
    before = counts(app)
    for days in (10**27, 10**400):
        answer = client.post(home + "/vacation", json={"days": days, "csrf": csrf})
        assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
        assert str(days)[:20] in answer.get_json()["error"] and words in answer.get_json()["error"]
        answer = client.post(seat_path(app, game, 0) + "/vacation", json={"days": days})
        assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
        assert words in answer.get_json()["error"]
    assert counts(app) == before


# -- a CSRF field that is not ASCII ------------------------------------------------------------

@pytest.mark.parametrize("given", ["é", "ü" * 32, "\x00", "\ud800"])
def test_a_csrf_field_that_is_not_ascii_is_refused(app, client, given):
    create(client)
    home = home_path(app, ANNA)
    before = counts(app)
    for action, fields in (("/settings", {"time_zone": "UTC", "language": "de", "mail_mode": "each"}),
                           ("/vacation", {"days": "1"}), ("/replace", {}), ("/rematch", {"game": "x"})):
        if given != "\ud800":   # a form body is UTF-8: only JSON carries a lone surrogate
            answer = client.post(home + action, data={**fields, "csrf": given})
            assert answer.status_code == 403, (action, answer.status_code)
            assert "not from your home page" in answer.get_data(as_text=True)
        answer = client.post(home + action, json={**fields, "csrf": given})
        assert answer.status_code == 403, (action, answer.status_code)
    assert counts(app) == before
    with app.app_context():
        assert settings.of(ANNA).language == "en"


# -- odd game ids in every route --------------------------------------------------------------

def game_id_routes(app) -> list[tuple[str, str]]:
    """Every route with a game's id in its path, as (method, path pattern)."""
    found = []
    for rule in app.url_map.iter_rules():
        if "game_id" not in rule.arguments:
            continue
        path = re.sub(r"<(?:[^:>]+:)?game_id>", "{}", rule.rule)
        path = re.sub(r"<[^>]+>", "0", path)   # a seat's or a message's number
        found += [(method, path) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    return found


def test_the_route_walk_finds_the_routes_with_a_game_id(app):
    routes = game_id_routes(app)
    for expected in (("GET", "/games/{}/proposed"), ("POST", "/games/{}/rematch"),
                     ("GET", "/games/{}/record"), ("POST", "/admin/games/{}/abort"),
                     ("POST", "/admin/games/{}/seats/0/address")):
        assert expected in routes


@pytest.mark.parametrize("odd", ODD_IDS)
def test_odd_game_ids_are_404_in_every_route_and_write_nothing(app, client, odd):
    create(client)
    before = counts(app)
    for method, pattern in game_id_routes(app):
        for headers in ({}, {"Accept": "application/json"}):
            answer = client.open(pattern.format(quote(odd, safe="")), method=method, headers=headers,
                                 data={"email": ANNA, "why": "x", "address": BOB})
            assert answer.status_code == 404, (method, pattern, answer.status_code)
    assert counts(app) == before


def test_an_odd_game_in_the_homes_rematch_form_is_no_game_of_hers(app, client):
    create(client)
    home = home_path(app, ANNA)
    csrf = csrf_of(client.get(home).get_data(as_text=True))
    before = counts(app)
    for odd in ODD_IDS:
        answer = client.post(home + "/rematch", data={"game": odd, "csrf": csrf})
        assert answer.status_code == 404, (odd, answer.status_code)
        answer = client.get(home + "/rematch?game=" + quote(odd, safe=""))   # the page it leads to
        assert answer.status_code == 404, (odd, answer.status_code)
    assert counts(app) == before


# -- the operator's clear-suppression form --------------------------------------------------

def test_a_nul_in_the_address_to_clear_is_no_suppressed_address(app, client, smtp):
    assert client.post("/admin", data={"email": OPERATOR}).status_code == 200
    deliver(app)
    link = re.search(r"http://pbem\.test(/admin/in/\S+)", text_of(smtp.to(OPERATOR)[-1])).group(1)
    assert client.post(link).status_code == 303
    csrf = csrf_of(client.get("/admin").get_data(as_text=True))
    with app.app_context():
        addresses.suppress(ANNA)
    before = counts(app)
    answer = client.post("/admin/suppressions/clear", data={"csrf": csrf, "address": ANNA + "\x00"},
                         follow_redirects=True)
    assert answer.status_code == 200
    assert "is not on the suppression list" in answer.get_data(as_text=True)
    assert counts(app) == before


# -- the net under them all -------------------------------------------------------------------

def test_a_nul_no_check_caught_is_a_400_not_a_500(app, client):
    """A route that forgot its check (one added here for the test) is still the request's
    fault: PostgreSQL's refusal of a NUL answers 400 (SQLite takes it: nothing to refuse)."""
    def forgetful():
        found = db.session.scalar(select(Game.id).where(Game.id == "a\x00b"))
        return {"found": found}
    app.add_url_rule("/forgetful", view_func=forgetful)
    answer = client.get("/forgetful", headers={"Accept": "application/json"})
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        assert answer.status_code == 200
        return
    assert answer.status_code == 400
    assert answer.get_json() == {"error": "The request holds a character this server does not take (NUL)."}
