"""The start page's forms (issue 26): their CSRF token, and what they refuse before a game is
asked for (the server's half; the page's script is tested in tests/e2e/test_start_page_browser.py).
"""

from __future__ import annotations

import re
import time
from html import unescape

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.store.models import Game, Mail, Proposal
from pbem_web import ANNA, BOB, START_CSRF  # tests/helpers

CAROL = "carol@example.org"


def form(**changes):
    data = {"game": "babel", "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB,
            "first": "random", "option.sumerians": "top-run"}
    data.update(changes)
    return data


def written(app) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(db.session.scalar(select(func.count()).select_from(model))
                     for model in (Proposal, Game, Mail))


def page_of(response) -> str:
    return unescape(response.get_data(as_text=True))


def token_of(response) -> str:
    return START_CSRF.search(response.get_data(as_text=True)).group(1)


# -- the CSRF token ------------------------------------------------------------------------

def test_the_start_page_gives_its_forms_a_token_and_sets_no_cookie(client):
    page = client.get("/")
    assert "Set-Cookie" not in page.headers   # players' pages set none
    tokens = re.findall(r'name="csrf" value="([0-9]+\.[0-9a-f]{32})"', page.get_data(as_text=True))
    # the new game's form, a challenge's and lost links'
    assert len(tokens) == 3 and len(set(tokens)) == 1


def test_a_form_without_the_token_is_sent_back_filled_in_and_asks_for_nothing(app, client):
    before = written(app)
    refused = client.post("/games", data=form(csrf=None, name1="Bobby"))
    assert refused.status_code == 403
    said = page_of(refused)
    assert "This form is not from this site's start page" in said
    assert 'value="Bobby"' in said   # filled in as it was sent, with this browser's token
    assert written(app) == before
    again = client.post("/games", data=form(csrf=token_of(refused), name1="Bobby"))
    assert again.status_code == 303 and again.headers["Location"].endswith("/proposed")


@pytest.mark.parametrize("token", ["", "0" * 32, "1.", "é", "١٢.x", "99999999999999999999.a",
                                   "1." + "ü" * 32, "x" * 10_000])
def test_a_wrong_token_is_refused(app, client, token):
    client.get("/")
    before = written(app)
    assert client.post("/games", data=form(csrf=token)).status_code == 403
    assert client.post("/links", data={"email": ANNA, "csrf": token}).status_code == 403
    assert written(app) == before


def test_a_token_fetched_by_another_client_or_too_long_ago_is_refused(app, client, monkeypatch):
    """Another site can fetch a token from the start page, but for its own address only: its
    visitors' browsers post from theirs."""
    attacker = {"REMOTE_ADDR": "203.0.113.9"}
    stolen = token_of(client.get("/", environ_base=attacker))
    before = written(app)
    assert client.post("/games", data=form(csrf=stolen)).status_code == 403
    assert client.post("/links", data={"email": ANNA, "csrf": stolen}).status_code == 403
    assert written(app) == before
    # The attacker's own address may use it (its posts are counted against it anyway).
    assert client.post("/games", data=form(csrf=stolen), environ_base=attacker).status_code == 303
    # A day later the page's token is too old; the form comes back with a fresh one.
    import pbem.web.lobby as lobby
    token = token_of(client.get("/"))
    now = time.time()
    monkeypatch.setattr(lobby.time, "time", lambda: now + 24 * 3600 + 5)
    refused = client.post("/games", data=form(csrf=token, email0=CAROL))
    assert refused.status_code == 403
    assert client.post("/games", data=form(csrf=token_of(refused), email0=CAROL)).status_code == 303
    # Its time changed, the token is no longer the server's.
    issued, _, mac = token.partition(".")
    assert client.post("/games", data=form(csrf=f"{int(issued) + 1}.{mac}")).status_code == 403


def test_json_needs_no_token(app, client):
    answer = client.post("/games", json=form())
    assert answer.status_code == 202 and answer.get_json()["status"] == "unconfirmed"
    assert client.post("/links", json={"email": ANNA}).status_code == 202


def test_the_lost_links_form_refused_says_so_beside_it(app, client):
    refused = client.post("/links", data={"email": ANNA, "csrf": None})
    assert refused.status_code == 403
    lost = page_of(refused).split('class="lostlinks"')[1]
    assert "This form is not from this site's start page" in lost
    assert written(app) == (0, 0, 0)


# -- what the server refuses before anything is asked for -----------------------------------

@pytest.mark.parametrize("as_json", [False, True])
def test_the_same_address_in_two_seats_is_refused_clearly(app, client, as_json):
    data = form(game="babylonia", email1="Anna@Example.org ", name2="Carol", email2=CAROL)
    before = written(app)
    answer = client.post("/games", json=data) if as_json else client.post("/games", data=data)
    assert answer.status_code == 400
    said = answer.get_json()["error"] if as_json else page_of(answer)
    assert ("Players 1 and 2 have the same mail address, anna@example.org: each player needs "
            "one of his own.") in said
    assert written(app) == before
    # Computers have no address: any number of them is fine.
    answer = client.post("/games", data=form(game="babylonia", email1="", bot1="easy", bot2="easy"))
    assert answer.status_code == 303


@pytest.mark.parametrize("as_json", [False, True])
def test_a_time_per_turn_and_a_time_bank_together_are_refused(app, client, as_json):
    data = form(time_limit="7", clock="bank:7+1/14")
    before = written(app)
    answer = client.post("/games", json=data) if as_json else client.post("/games", data=data)
    assert answer.status_code == 400
    said = answer.get_json()["error"] if as_json else page_of(answer)
    assert "Choose one clock: a time per turn or a time bank, not both." in said
    assert written(app) == before
    if not as_json:   # sent back as it was
        assert re.search(r'<option value="bank:7\+1/14"\s+selected', said)
