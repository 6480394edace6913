"""Phrases stay phrases on their way to a reader: as a template's gettext parameter, in a list
of names, in a mail's dates; and each mail and page speaks the language it should (the fixes
of a review of the translation: each test failed before its fix)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask import render_template_string

from pbem import i18n
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.play import home_link, turns
from pbem.players import settings
from pbem.store.models import Mail
from pbem.views.words import listing, match_title
from pbem_web import ANNA, BOB  # tests/helpers

CARL = "carl@example.org"


def test_a_template_s_gettext_says_its_parameters(app):
    with app.test_request_context(headers={"Accept-Language": "de"}):
        said = render_template_string(
            "{{ _('%(players)s', players=names|match_title) }}|"
            "{% trans who=names|listing %}{{ who }}{% endtrans %}|"
            "{{ ngettext('%(num)d x %(who)s', '%(num)d xs %(who)s', 2, who=names|listing) }}",
            names=["Anna", "Bob", "<Carl>"])
    assert said == "Anna, Bob und &lt;Carl&gt;|Anna, Bob und &lt;Carl&gt;|2 xs Anna, Bob und &lt;Carl&gt;"


def test_a_list_of_names_keeps_each_name_a_phrase(app):
    bot = phrase("{name} (bot from turn {turn})", name="Carl", turn=12)
    with app.app_context(), i18n.speaking("de"):
        assert i18n.say(listing(["Anna", bot, "Dora"])) == "Anna, Carl (Computer ab Zug 12) und Dora"
        assert i18n.say(match_title(["Anna", "Bob"])) == "Anna gegen Bob"
    assert listing(["Anna", bot, "Dora"]) == "Anna, Carl (bot from turn 12) and Dora"


def test_moments_are_written_as_each_language_writes_them(app):
    at = datetime(2026, 5, 1, 14, 30, tzinfo=UTC)
    with app.app_context():
        assert i18n.moment(at) == "2026-05-01 14:30 UTC"
        with i18n.speaking("de"):
            assert i18n.moment(at) == "01.05.26, 14:30 UTC"
        with i18n.speaking("cs"):
            assert re.fullmatch(r"0?1\. ?0?5\. ?26 14:30 UTC", i18n.moment(at)), i18n.moment(at)


def test_capital_raises_the_first_letter_only(app):
    with app.app_context(), i18n.speaking("de"):
        assert i18n.capital("einen Würfel") == "Einen Würfel"


def test_the_confirmation_mail_speaks_the_language_chosen_for_the_creator(app, client):
    form = {"game": "babel", "first": "0", "option.sumerians": "top-run", "name0": "Anna",
            "email0": ANNA, "lang0": "cs", "name1": "Bob", "email1": BOB}
    assert client.post("/games", data=form, headers={"Accept-Language": "de"}).status_code == 303
    with app.app_context():
        mail = db.session.scalars(db.select(Mail).where(Mail.kind == "confirm")).one()
    assert mail.subject == "Potvrďte svou hru Babel"
    assert "Confirm" not in mail.text and 'lang="cs"' in mail.html


def test_a_new_home_link_keeps_the_address_s_language(app):
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"}, 0,
                          languages=("de", "en"))
        turns.create_game(spec)
        assert settings.language_of(ANNA) == "de"
        home_link.replace_home(ANNA)   # writes the address's settings row (English by default)
        assert settings.language_of(ANNA) == "de"
        mail = db.session.scalars(db.select(Mail).where(Mail.kind == "home_link")).one()
    assert 'lang="de"' in mail.html and "home link" not in mail.subject


def test_the_home_preselects_the_language_it_speaks(app, client):
    with app.app_context():
        turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"},
                                     0, languages=("cs", "en")))
        path = settings.home_url(ANNA).removeprefix("http://pbem.test")
    page = client.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="cs">' in page
    assert re.search(r'<option value="cs"[^>]*selected', page), page


def test_a_new_game_s_seat_speaks_the_address_s_language(app):
    from pbem.store.models import Seat
    with app.app_context():
        turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"},
                                    0, languages=("de", "cs")))
        home_link.replace_home(ANNA)   # a settings row, English by default, that she never chose
        game = turns.create_game(turns.Spec("babel", [("Bob", BOB), ("Anna", ANNA)],
                                            {"sumerians": "top-run"}, 0)).id
        other = turns.create_game(turns.Spec("babel", [("Carl", CARL), ("Anna", ANNA)],
                                             {"sumerians": "top-run"}, 0, languages=(None, "cs"))).id
        spoken = dict(db.session.execute(db.select(Seat.email, Seat.language)
                                         .where(Seat.game_id == game)).all())
        chosen = dict(db.session.execute(db.select(Seat.email, Seat.language)
                                         .where(Seat.game_id == other)).all())
    assert spoken == {BOB: "cs", ANNA: "de"}
    assert chosen == {CARL: "en", ANNA: "cs"}   # the creator's choice first
