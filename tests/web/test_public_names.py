"""Public names chosen on the home (`pbem.players.public`): cleaned like a seat's name, unique
case-insensitively, changeable once in 30 days; a refusal says why and writes nothing."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.players import public, settings
from pbem.store.models import PublicName
from pbem.store.transaction import transaction
from pbem_web import at_once  # tests/helpers

ANNA, BOB = "Anna@Example.org", "bob@example.org"


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def rows(app) -> list[tuple]:
    with app.app_context():
        return [tuple(r) for r in db.session.execute(
            select(PublicName.address, PublicName.name, PublicName.folded).order_by(PublicName.address))]


def post_name(client, path: str, name: str):
    page = client.get(path).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    return client.post(path + "/name", data={"csrf": csrf, "name": name})


def test_a_name_chosen_on_the_home_is_stored_lower_cased_address_and_shown_there(app, client):
    path = home_path(app, ANNA)
    response = post_name(client, path, "  Anna\u202e  the\tGreat ")
    assert response.status_code == 303 and response.headers["Location"].startswith(path)
    assert rows(app) == [("anna@example.org", "Anna the Great", "anna the great")]
    page = client.get(path).get_data(as_text=True)
    assert "Anna the Great" in page and "/p/Anna%20the%20Great" in page
    with app.app_context():
        assert public.name_of("ANNA@example.org") == "Anna the Great"
        assert public.address_of("anna THE great") == "anna@example.org"
        assert public.address_of("nobody") is None and public.name_of("x@example.org") is None


@pytest.mark.parametrize("bad, said", [
    ("", "at least 2"), ("A", "at least 2"), ("x" * 41, "at most 40"),
    ("anna@example.org", "mail address"), ("a/b", "letters, digits"), ("<b>hi</b>", "letters, digits"),
    ("---", "letters, digits"), ("\u200b\u200b", "at least 2"),
])
def test_a_bad_name_is_refused_with_why_and_nothing_written(app, client, bad, said):
    response = post_name(client, home_path(app, ANNA), bad)
    assert response.status_code == 400
    assert said in response.get_data(as_text=True)
    assert rows(app) == []


def test_names_are_unique_whatever_their_case(app, client):
    assert post_name(client, home_path(app, ANNA), "Anna").status_code == 303
    response = post_name(client, home_path(app, BOB), "ANNA")
    assert response.status_code == 400 and "taken" in response.get_data(as_text=True)
    assert rows(app) == [("anna@example.org", "Anna", "anna")]
    with app.app_context(), pytest.raises(BadInput):
        public.choose(BOB, "anna")


def test_a_name_changes_once_in_thirty_days_but_its_case_at_any_time(app):
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with app.app_context():
        public.choose(ANNA, "Anna", now=start)
        assert public.choose(ANNA, "ANNA", now=start + timedelta(days=1)) == "ANNA"
        with pytest.raises(BadInput, match="once in 30 days"):
            public.choose(ANNA, "Annabel", now=start + timedelta(days=29))
        assert public.name_of(ANNA) == "ANNA"
        assert public.choose(ANNA, "Annabel", now=start + timedelta(days=30, seconds=1)) == "Annabel"
        with pytest.raises(BadInput, match="once in 30 days"):
            public.choose(ANNA, "Anna", now=start + timedelta(days=31))
        # The old name is free again for another address.
        assert public.choose(BOB, "Anna", now=start + timedelta(days=31)) == "Anna"


def test_the_home_hides_the_form_until_the_name_may_change(app, client):
    path = home_path(app, ANNA)
    assert post_name(client, path, "Anna").status_code == 303
    with app.app_context(), transaction():
        db.session.execute(update(PublicName).values(changed_at=datetime.now(UTC) - timedelta(days=3)))
    page = client.get(path).get_data(as_text=True)
    assert 'action="' + path + '/name"' not in page and "change it again" in page
    assert client.get(path, headers={"Accept": "application/json"}).get_json()["public_name"] == "Anna"


def test_the_name_form_wants_the_home_s_csrf_token(app, client):
    path = home_path(app, ANNA)
    assert client.post(path + "/name", data={"csrf": "wrong", "name": "Anna"}).status_code == 403
    assert rows(app) == []


def test_two_addresses_asking_for_one_name_at_once_one_gets_it_the_other_is_told(app):
    def ask(i: int) -> str:
        with app.app_context():
            try:
                return public.choose(f"player{i}@example.org", "Anna" if i % 2 else "ANNA")
            except BadInput as error:
                return "refused: " + error.message
    answers = at_once(4, ask)
    assert sum(not a.startswith("refused") for a in answers) == 1, answers
    assert all("is taken" in a for a in answers if a.startswith("refused")), answers
    assert len(rows(app)) == 1
