"""The start page, the player's home and their services in German and Czech: the start page in
the browser's language with a language per player row, each seat created in the language chosen
for it (start page, JSON, `flask new-game`), the home in the address's language (and changing
it there changes every game of his), deadlines written as each language writes them.

Runs on SQLite, and on PostgreSQL too when PBEM_TEST_DATABASE_URL is set."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from pbem import i18n
from pbem.extensions import db
from pbem.play import turns
from pbem.players import settings
from pbem.policy import clocks
from pbem.store.models import Mail, Proposal, Seat
from pbem.views import homeview
from pbem.views.words import listing
from pbem_web import confirm, new_game, text_of  # tests/helpers

ANNA, BOB, CARL = (f"{n}@example.org" for n in ("anna", "bob", "carl"))
JSON = {"Accept": "application/json"}


def form(**changes):
    data = {"game": "babel", "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB,
            "first": "0", "option.sumerians": "top-run"}
    data.update(changes)
    return data


def languages_of(app, game_id: str) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Seat.language).where(Seat.game_id == game_id)
                                       .order_by(Seat.seat)))


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


# -- the start page ------------------------------------------------------------------------

@pytest.mark.parametrize("language, words, creator_option", [
    ("de", ["Ein Spiel beginnen", "Wer beginnt", "per Los", "Zeit pro Zug", "Links verloren?",
            "7 Tage (dann ist das Spiel verloren)", "(eigene Wahl des Spielers)",
            "7 Tage, 1 mehr pro Zug, höchstens 14"],
     '<option value="de" lang="de" selected>Deutsch</option>'),
    ("cs", ["Založit hru", "Kdo začíná", "náhodně", "Čas na tah", "Ztratili jste své odkazy?",
            "7 dní (pak je hra prohraná)", "3 dny (pak je hra prohraná)", "(podle volby hráče)"],
     '<option value="cs" lang="cs" selected>Čeština</option>'),
])
def test_the_start_page_speaks_the_browser_s_language(client, language, words, creator_option):
    page = client.get("/", headers={"Accept-Language": f"{language}, en;q=0.5"}).get_data(as_text=True)
    for word in words:
        assert word in page, word
    for english in ("Start a game", "Who starts", "Lost your links?", "Time per turn",
                    "Mail me my links", "(their own choice)", "a person (name and mail address below)"):
        assert english not in page, english
    # the creator's row reads his browser's language; every other row the player's own choice
    creator_row = page.split('name="lang0"')[1].split("</select>")[0]
    assert creator_option in creator_row and 'value=""' not in creator_row
    second_row = page.split('name="lang1"')[1].split("</select>")[0]
    assert '<option value="">' in second_row and "selected" not in second_row


def test_the_start_page_in_english_is_as_it_was(client):
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Start a game" in page and '<option value="random">at random</option>' in page
    assert '<option value="en" lang="en" selected>English</option>' in page
    assert "(their own choice)" in page and "7 days, 1 more a turn, at most 14" in page


def test_a_refused_form_is_answered_in_the_browser_s_language(client):
    answer = client.post("/games", data=form(email1=""), headers={"Accept-Language": "de"})
    assert answer.status_code == 400
    assert "Spieler 2 braucht eine Mailadresse." in answer.get_data(as_text=True)
    answer = client.post("/games", data=form(email1=""), headers={"Accept-Language": "cs"})
    assert "Hráč 2 potřebuje e-mailovou adresu." in answer.get_data(as_text=True)


def test_each_player_s_language_is_his_seat_s(app, client):
    answer = client.post("/games", data=form(lang0="de", lang1="cs"))
    assert answer.status_code == 303
    game = confirm(client, answer.headers["Location"].split("/")[2])
    assert languages_of(app, game) == ["de", "cs"]


def test_the_creator_s_language_defaults_to_his_browser_s_and_the_others_to_their_own(app, client):
    with app.app_context():   # Bob chose Czech on his home once
        settings.change(BOB, "UTC", "cs", settings.EACH, False)
    answer = client.post("/games", data=form(), headers={"Accept-Language": "de-DE,de;q=0.9"})
    game = confirm(client, answer.headers["Location"].split("/")[2])
    assert languages_of(app, game) == ["de", "cs"]


def test_json_names_the_languages(app, client):
    answer = client.post("/games", json=form(lang0="cs", lang1="de", first="1"))
    assert answer.status_code == 202, answer.get_json()
    game = confirm(client, answer.get_json()["game"])
    assert languages_of(app, game) == ["cs", "de"]


@pytest.mark.parametrize("send", ["form", "json"])
def test_a_language_not_offered_is_refused_by_name_and_nothing_is_written(app, client, send):
    fields = form(lang0="de", lang1="fr")
    answer = (client.post("/games", json=fields) if send == "json"
              else client.post("/games", data=fields))
    assert answer.status_code == 400
    said = answer.get_json()["error"] if send == "json" else answer.get_data(as_text=True)
    assert "Player 2" in said and "fr" in said
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Proposal)) == 0
        assert db.session.scalar(select(func.count()).select_from(Mail)) == 0
        assert db.session.scalar(select(func.count()).select_from(Seat)) == 0


def test_the_command_line_sets_a_player_s_language(app):
    result = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel", "--player", "Anna <anna@example.org> de",
        "--player", "Bob <bob@example.org>", "--first", "0"])
    assert result.exit_code == 0, result.output
    assert languages_of(app, result.output.strip()) == ["de", "en"]
    refused = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel", "--player", "Anna <anna@example.org> xx",
        "--player", "Bob <bob@example.org>"])
    assert refused.exit_code == 2 and "'xx'" in refused.output


def test_the_confirmation_page_speaks_the_browser_s_language(app, client):
    answer = client.post("/games", data=form(time_limit="7", lang0="de"))
    game = answer.headers["Location"].split("/")[2]
    from pbem.policy import links
    with app.app_context():
        path = links.path_of(links.CONFIRM, game)
    page = client.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Dieses Spiel Babel starten?" in page and "Spiel starten" in page
    assert "Jeder Zug darf 7 Tage dauern (dann ist das Spiel verloren)." in page
    assert "Start the game" not in page
    proposed = client.get(f"/games/{game}/proposed", headers={"Accept-Language": "cs"})
    text = proposed.get_data(as_text=True)
    assert "Zkontrolujte svou schránku" in text and "E-mail s odkazem k potvrzení hry odešel na" in text
    assert "Check your mailbox" not in text


# -- the home ------------------------------------------------------------------------------

def test_the_home_speaks_the_address_s_language(app, client):
    with app.app_context():
        settings.change(ANNA, "Europe/Prague", "cs", settings.EACH, False)
    new_game(app, [("Anna", ANNA), ("Bob", BOB)], 0, time_limit=3)
    new_game(app, [("Carl", CARL), ("Anna", ANNA)], 0)
    page = client.get(home_path(app, ANNA), headers={"Accept-Language": "de"}).get_data(as_text=True)
    for word in ("Vaše hry", "Jste na tahu", "Čeká se na ostatní", "Zahrát tah", "Nastavení",
                 "Uložit nastavení", "Babel – spoluhráči: Bob", "na tahu: Carl", "zbývá 2 dny 23 hodin"):
        assert word in page, word
    assert re.search(r"do (po|út|st|čt|pá|so|ne) \d+\. \w+ \d{4}, \d+:\d\d SEČ", page), page
    for english in ("Your games", "Your turn", "Waiting for others", "Save settings", "Kept for later",
                    "left · until"):
        assert english not in page, english


def test_a_home_speaks_the_language_of_his_games_else_the_browser_s(app, client):
    path = home_path(app, ANNA)
    page = client.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Deine Spiele" in page and "Your games" not in page   # no game yet: the browser's
    with app.app_context():
        turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"},
                                     1, languages=("de", "cs")))
    page = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Deine Spiele" in page and "Warten auf andere" in page and "am Zug: Bob" in page
    assert "Your games" not in page


def test_changing_the_language_on_the_home_changes_every_game_of_his(app, client):
    first = new_game(app, [("Anna", ANNA), ("Bob", BOB)])
    second = new_game(app, [("Carl", CARL), ("Anna", ANNA)])
    path = home_path(app, ANNA)
    page = client.get(path).get_data(as_text=True)
    assert "changes the language of every game you play" in page
    assert [code for code in re.findall(r'<option value="(\w\w)" lang=', page)] == ["en", "de", "cs"]
    answer = client.post(path + "/settings", data={"csrf": csrf_of(page), "time_zone": "UTC",
                                                   "language": "de", "mail_mode": "each"},
                         follow_redirects=True)
    assert answer.status_code == 200
    assert "Deine Einstellungen wurden gespeichert." in answer.get_data(as_text=True)
    assert languages_of(app, first) == ["de", "en"] and languages_of(app, second) == ["en", "de"]
    refused = client.post(path + "/settings", data={"csrf": csrf_of(page), "time_zone": "UTC",
                                                    "language": "fr", "mail_mode": "each"})
    assert refused.status_code == 400 and "&#39;fr&#39; ist keine Sprache" in refused.get_data(as_text=True)
    assert languages_of(app, first) == ["de", "en"]


def test_the_home_s_results_and_vacation_in_czech(make_app):
    app = make_app(VACATION_DAYS_PER_YEAR=3)
    client = app.test_client()
    game = new_game(app, [("Anna", ANNA), ("Bob", BOB)])
    with app.app_context():
        settings.change(ANNA, "UTC", "cs", settings.EACH, False)
        turns.resign(game, 1)
    path = home_path(app, ANNA)
    page = client.get(path).get_data(as_text=True)
    assert "Vyhráli jste:" in page and "Skončené" in page and "Hrát odvetu" not in page
    # the stored result (game_results keeps the engine's phrase) is said in Czech too
    assert "Vyhráli jste: soupeř se vzdal" in page and "resigned" not in page
    assert "Odveta" in page
    assert "Letos vám zbývají <strong>3 dny</strong>" in page
    answer = client.post(path + "/vacation", data={"csrf": csrf_of(page), "days": "4"})
    assert answer.status_code == 400
    assert "Zbývající dny dovolené letos: 3; požadováno: 4." in answer.get_data(as_text=True)
    answer = client.post(path + "/vacation", data={"csrf": csrf_of(page), "days": "2"},
                         follow_redirects=True)
    text = answer.get_data(as_text=True)
    assert "Jste na dovolené do" in text and "Jsem zpět: ukončit dovolenou" in text


def test_a_stored_result_with_parameters_is_said_in_the_home_s_language(app, client):
    from pbem.store.models import GameResult
    game = new_game(app, [("Anna", ANNA), ("Bob", BOB)])
    with app.app_context():
        settings.change(ANNA, "UTC", "de", settings.EACH, False)
        turns.resign(game, 1)
        row = db.session.get(GameResult, game)
        assert row.said is not None and row.description == "the opponent resigned"
        # a sentence with a parameter, as an engine's ending makes it
        row.said = {"msgid": "{n} hour", "plural": "{n} hours", "n": 3, "capital": False, "params": {"n": 3}}
        db.session.commit()
    page = client.get(home_path(app, ANNA)).get_data(as_text=True)
    assert "Du hast gewonnen: 3 Stunden" in page, page


# -- words of the services -----------------------------------------------------------------

def test_deadlines_are_written_as_each_language_writes_them(app):
    when = datetime(2026, 11, 24, 17, 0, tzinfo=UTC)
    berlin = settings.Settings(ANNA, "Europe/Berlin")
    with app.app_context():
        assert settings.local_deadline(when, berlin) == "Tue 24 Nov 2026, 18:00 CET"
        assert settings.local_deadline(when, None) == "Tue 24 Nov 2026, 17:00 UTC"
        with i18n.speaking("de"):
            assert settings.local_deadline(when, berlin) == "Di., 24. Nov. 2026, 18:00 MEZ"
            assert settings.local_deadline(when.replace(month=7), berlin) == "Fr., 24. Juli 2026, 19:00 MESZ"
        with i18n.speaking("cs"):
            assert settings.local_deadline(when, settings.Settings(ANNA, "Europe/Prague")) \
                == "út 24. listopadu 2026, 18:00 SEČ"
        with i18n.speaking("en"):
            assert settings.local_deadline(when, berlin) == "Tue 24 Nov 2026, 18:00 CET"
        assert settings.local_deadline(None, berlin) is None


def test_clocks_time_left_and_refusals_in_each_language(app):
    now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    bank, move = clocks.parse("bank:7+1/14"), clocks.parse("move:3")
    with app.app_context():
        assert bank.describe() == "a time bank of 7 days, 1 day added a turn, at most 14 days"
        assert settings.time_left(now + timedelta(days=2, hours=1), now) == "2 days 1 hour"
        with i18n.speaking("de"):
            assert i18n.say(bank.describe()) == \
                "ein Zeitkonto: Start 7 Tage, 1 Tag mehr pro Zug, höchstens 14 Tage"
            assert i18n.say(move.describe()) == "3 Tage pro Zug"
            assert i18n.say(settings.time_left(now + timedelta(days=2, hours=1), now)) == "2 Tage 1 Stunde"
            assert i18n.say(settings.time_left(now - timedelta(minutes=1), now)) == "überfällig"
            assert i18n.say(settings.MAIL_MODES[settings.DIGEST]) == \
                "Eine tägliche Übersicht der Spiele, die auf mich warten"
        with i18n.speaking("cs"):
            assert i18n.say(move.describe()) == "3 dny na tah"
            assert i18n.say(clocks.parse("move:5").describe()) == "5 dní na tah"
            left = settings.time_left(now + timedelta(hours=3, minutes=20), now)
            assert i18n.say(left) == "3 hodiny 20 min"
            assert i18n.say(bank.describe()) == \
                "časová banka: na začátku 7 dní, za tah navíc 1 den, nejvýše 14 dní"
            assert i18n.say(settings.time_left(now + timedelta(minutes=1), now)) == "1 minuta"
            with pytest.raises(Exception) as refused:
                clocks.parse("bank:9+1/5")
            assert i18n.say(refused.value.message) == \
                "Časová banka 9+1/5 dní: její strop (5) je nižší než začátek (9)."


def test_the_home_lists_names_in_the_reader_s_language(app):
    with app.app_context():
        assert listing(["Anna", "Bob", "Carl"]) == "Anna, Bob and Carl"
        with i18n.speaking("de"):
            assert i18n.say(listing(["Anna", homeview.YOU, "Carl"])) == "Anna, du und Carl"
        with i18n.speaking("cs"):
            assert i18n.say(homeview.result_words([0, 1], 1, ["Anna", "Bob"], "x", "")) == \
                "Vítězství: Anna a vy – x"
            assert i18n.say(homeview.result_words([1], 1, ["Anna", "Bob"], "x", "")) == "Vyhráli jste: x"


def test_the_links_mail_writes_deadlines_in_the_address_s_language(app, client, actions):
    with app.app_context():
        settings.change(ANNA, "Europe/Berlin", "de", settings.EACH, False)
    new_game(app, [("Anna", ANNA), ("Bob", BOB)], 0, time_limit=3)
    actions.deliver()
    answer = client.post("/links", data={"email": ANNA}, headers={"Accept-Language": "en"})
    assert answer.status_code in (200, 202, 303)
    text = text_of(actions.last_mail(ANNA))
    assert re.search(r"(Mo|Di|Mi|Do|Fr|Sa|So)\., \d+\. \w+\.? \d{4}, \d\d:\d\d ME", text), text
