"""After a form is posted the browser lands on a page it can reload (issue 26): every HTML form
of the home and of a seat's page answers 303 to a GET, which says in a short notice what was
done (`?saved=`); a refused form is shown again at once (4xx), and JSON answers as before.
After asking for a rematch, the page leads back to the game and to the home."""

from __future__ import annotations

import re
from html import unescape

import pytest

from pbem.players import settings
from pbem_web import ANNA, BOB, create, deliver, seat_path, text_of  # tests/helpers

JSON = {"Accept": "application/json"}
REMATCH_LINK = re.compile(r"http://pbem\.test(/m/[A-Za-z0-9_.\-]+)")


@pytest.fixture
def app(make_app):
    return make_app(VACATION_DAYS_PER_YEAR=5)


def home_of(app, client, address=ANNA) -> tuple[str, str]:
    with app.app_context():
        path = settings.home_url(address).removeprefix("http://pbem.test")
    page = client.get(path).get_data(as_text=True)
    return path, re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def landed(client, response, where: str) -> str:
    """The page a 303 leads to, opened twice (a reload): the same page both times."""
    assert response.status_code == 303, response.status_code
    location = response.headers["Location"]
    assert unsigned(location.split("#")[0]).startswith(unsigned(where)), location
    first, again = client.get(location), client.get(location)
    assert first.status_code == again.status_code == 200
    return unescape(first.get_data(as_text=True))


def payload(link: str) -> str:
    """A signed link without its signature and time (made anew each second)."""
    return link.split(".")[0]


def unsigned(path: str) -> str:
    """A path with its link's time and signature left out."""
    return re.sub(r"\.[\w-]+\.[\w-]+", "", path, count=1)


def links_to(page: str, link: str) -> bool:
    return f'href="{payload(link)}.' in page


def notice(page: str) -> str:
    found = re.search(r'<p class="(?:ok|notice)" role="status">([^<]*)</p>', page)
    return found.group(1) if found else ""


def finished(app, players=(("Anna", ANNA), ("Bob", BOB))) -> str:
    from pbem.play import turns
    with app.app_context():
        game = turns.create_game(turns.Spec("babel", list(players), {"sumerians": "top-run"}, 0)).id
        turns.resign(game, 1)
    return game


# -- the home ----------------------------------------------------------------------------------

def test_home_settings_land_on_the_home_saying_saved_in_the_new_language(app, client):
    create(client)
    home, csrf = home_of(app, client)
    answer = client.post(home + "/settings", data={"csrf": csrf, "time_zone": "Europe/Prague",
                                                   "language": "de", "mail_mode": "each"})
    page = landed(client, answer, home + "?saved=settings")
    assert notice(page) == "Deine Einstellungen wurden gespeichert."
    assert "Europe/Prague" in page
    # Plain home: no notice.
    assert notice(unescape(client.get(home).get_data(as_text=True))) == ""
    # Refused: the home again at once, saying why; JSON as before.
    refused = client.post(home + "/settings", data={"csrf": csrf, "time_zone": "Mars/Olympus",
                                                    "language": "de", "mail_mode": "each"})
    assert refused.status_code == 400 and "Mars/Olympus" in unescape(refused.get_data(as_text=True))
    answer = client.post(home + "/settings", json={"csrf": csrf, "language": "en"})
    assert answer.status_code == 200 and answer.get_json()["address"] == ANNA
    with app.app_context():
        assert settings.of(ANNA).language == "en"


def test_home_vacation_lands_on_the_home_saying_until_when_and_welcome_back(app, client):
    create(client)
    home, csrf = home_of(app, client)
    page = landed(client, client.post(home + "/vacation", data={"csrf": csrf, "days": "2"}),
                  home + "?saved=vacation")
    assert notice(page).startswith("You are on vacation until ")
    page = landed(client, client.post(home + "/vacation", data={"csrf": csrf, "action": "end"}),
                  home + "?saved=back")
    assert notice(page) == "Welcome back: your vacation has ended and your clocks run again."
    page = landed(client, client.post(home + "/vacation", data={"csrf": csrf, "action": "end"}),
                  home + "?saved=not-away")
    assert notice(page) == "You were not on vacation."
    # An odd ?saved= says nothing.
    assert notice(unescape(client.get(home + "?saved=%00<b>").get_data(as_text=True))) == ""
    refused = client.post(home + "/vacation", data={"csrf": csrf, "days": "9"})
    assert refused.status_code == 400 and "vacation days left this year" in refused.get_data(as_text=True)


# -- rematch --------------------------------------------------------------------------------

def test_a_rematch_asked_from_the_home_leads_back_to_the_game_and_the_home(app, client):
    game = finished(app)
    home, csrf = home_of(app, client)
    answer = client.post(home + "/rematch", data={"csrf": csrf, "game": game})
    page = landed(client, answer, f"{home}/rematch?game={game}")
    assert notice(page) == "The rematch is asked for: it starts when Bob says yes (they were mailed a link)."
    assert links_to(page, seat_path(app, game, 0)) and links_to(page, home)
    # JSON as before.
    asked = client.post(home + "/rematch", data={"csrf": csrf, "game": game}, headers=JSON)
    assert asked.status_code == 200 and asked.get_json()["started"] is False


def test_a_rematch_asked_from_the_seat_page_leads_back_to_the_game_never_to_the_home(app, client, smtp):
    """A seat link, or a rematch link, may be shown to somebody else: its pages never lead to the
    player's home, whose link opens all his games (the home's own rematch page does)."""
    game = finished(app)
    seat = seat_path(app, game, 0)
    home, _ = home_of(app, client)
    assert payload(client.get(seat + "/rematch").headers["Location"]) == payload(seat)   # none yet
    page = landed(client, client.post(seat + "/rematch"), seat + "/rematch")
    assert "it starts when Bob says yes" in notice(page)
    assert links_to(page, seat) and not links_to(page, home) and "/h/" not in page
    # Bob says yes from his mail: the button's POST lands on his link again, now the rematch.
    deliver(app)
    [ask] = [m for m in smtp.to(BOB) if "asks for a rematch" in m["Subject"]]
    link = REMATCH_LINK.search(text_of(ask)).group(1)
    assert "Play the rematch" in client.get(link).get_data(as_text=True)
    page = landed(client, client.post(link), link)
    assert notice(page) == "The rematch has started: the invitations are on their way to every player."
    bobs_home, _ = home_of(app, client, BOB)
    assert links_to(page, seat_path(app, game, 1)) and not links_to(page, bobs_home)
    assert "/h/" not in page


# -- a seat's page -----------------------------------------------------------------------------

@pytest.mark.parametrize("action, data, saved, words", [
    ("/messages", {"message": "Hello"}, "talk", "Your message was posted."),
    ("/notes", {"notes": "watch the east"}, "notes", "Your notes were saved."),
    ("/vacation", {"days": "1"}, "vacation", "Your vacation has started"),
    ("/vacation", {"action": "end"}, "not-away", "You were not on vacation."),
    ("/language", {"language": "cs"}, "language", "Jazyk byl uložen."),
])
def test_a_seat_pages_forms_land_on_the_seat_page_saying_what_was_saved(app, client, action, data,
                                                                       saved, words):
    game = create(client)
    seat = seat_path(app, game, 0)
    page = landed(client, client.post(seat + action, data=data), f"{seat}?saved={saved}")
    assert notice(page).startswith(words) if words else notice(page) == ""


# -- the start page's "Lost your links?" and the record's rematch ---------------------------------

def start_csrf_of(client) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/").get_data(as_text=True)).group(1)


def test_lost_links_land_on_the_start_page_saying_the_mail_is_on_its_way(app, client):
    create(client)
    answer = client.post("/links", data={"csrf": start_csrf_of(client), "email": ANNA})
    page = landed(client, answer, "/?sent=links")
    assert answer.headers["Location"].endswith("#links")
    assert ANNA not in answer.headers["Location"]     # no address in the URL (nor in history)
    assert "on its way" in notice(page)
    assert notice(unescape(client.get("/").get_data(as_text=True))) == ""
    assert notice(unescape(client.get("/?sent=%00<b>").get_data(as_text=True))) == ""
    # JSON keeps its answer.
    assert client.post("/links", json={"email": ANNA}, headers=JSON).status_code == 202


def test_a_rematch_asked_from_the_record_lands_on_the_record_saying_the_mail_is_on_its_way(app,
                                                                                          client):
    game = finished(app)
    answer = client.post(f"/games/{game}/rematch", data={"email": ANNA})
    page = landed(client, answer, f"/games/{game}/record?sent=rematch")
    assert ANNA not in answer.headers["Location"]
    assert "on its way" in notice(page)
    assert notice(unescape(client.get(f"/games/{game}/record").get_data(as_text=True))) == ""
    json = client.post(f"/games/{game}/rematch", json={"email": BOB}, headers=JSON)
    assert json.status_code == 202 and "message" in json.get_json()


def test_the_records_rematch_form_carries_a_token_and_another_sites_form_mails_nobody(app, client):
    """The record's form is public like the start page's: a form without the token made for
    this client (another site's, posted by its visitor's browser) is refused, and mails nobody."""
    from sqlalchemy import func, select

    from pbem.extensions import db
    from pbem.store.models import Mail
    game = finished(app)
    record = client.get(f"/games/{game}/record").get_data(as_text=True)
    assert re.search(r'class="rematch-ask">\s*<input type="hidden" name="csrf" value="\d+\.', record)
    with app.app_context():
        before = db.session.scalar(select(func.count()).select_from(Mail))
    for token in (None, "", "123.forged", "é"):
        refused = client.post(f"/games/{game}/rematch", data={"email": ANNA, "csrf": token})
        assert refused.status_code == 403
        assert "not from this game's record" in unescape(refused.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Mail)) == before
