"""The start page's forms (issue 26): their CSRF token, and what they refuse before a game is
asked for (the server's half; the page's script is tested in tests/e2e/test_start_page_browser.py).
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.models import Game, Mail, Proposal
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

def test_the_start_page_gives_its_forms_a_token_bound_to_a_cookie_of_the_browser(client):
    page = client.get("/")
    cookie = page.headers["Set-Cookie"]
    assert cookie.startswith("pbem_start=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie   # (http://pbem.test)
    markup = page.get_data(as_text=True)
    tokens = re.findall(r'name="csrf" value="([0-9a-f]{32})"', markup)
    assert len(tokens) == 2 and tokens[0] == tokens[1]   # the new game's form and lost links'
    # The same browser keeps its key: a page opened again (another tab) has the same token.
    assert token_of(client.get("/")) == tokens[0]


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


@pytest.mark.parametrize("token", ["", "0" * 32, "é", "ü" * 32, "x" * 10_000])
def test_a_wrong_token_is_refused(app, client, token):
    client.get("/")
    before = written(app)
    assert client.post("/games", data=form(csrf=token)).status_code == 403
    assert client.post("/links", data={"email": ANNA, "csrf": token}).status_code == 403
    assert written(app) == before


def test_another_browsers_token_or_no_cookie_is_refused(app, make_app):
    """Another site can read a token from the start page, but not for its visitor's cookie."""
    attacker, visitor = app.test_client(), app.test_client()
    stolen = token_of(attacker.get("/"))
    visitor.get("/")   # the visitor has a cookie of his own
    before = written(app)
    assert visitor.post("/games", data=form(csrf=stolen)).status_code == 403
    # A cross-site form is posted without the (SameSite=Lax) cookie at all.
    cookieless = app.test_client(use_cookies=False)
    assert cookieless.post("/games", data=form(csrf=stolen)).status_code == 403
    assert cookieless.post("/links", data={"email": ANNA, "csrf": stolen}).status_code == 403
    assert written(app) == before


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
