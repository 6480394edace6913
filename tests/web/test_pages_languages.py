"""The game pages in the seat's language (issue 18): a Babel game whose first player reads
German and whose second reads Czech; each one's turn page, seat page, preview, JSON and
errors speak his language, the record the visitor's (Accept-Language), and the language form
on the seat's page changes it. A seat without a language still reads exactly the English."""

from __future__ import annotations

import re

from pbem.play import turns
from pbem.store import gamelog
from pbem_web import ANNA, BOB, seat_path, turn_path  # tests/helpers

JSON = {"Accept": "application/json"}

#: English sentences of the turn and seat pages that a German or Czech page must not show.
ENGLISH_TURN_PAGE = ["It is your turn", "You play <strong>", "Your turn: compose your steps",
                     "Your steps, one per line", "Submit turn…", "Your private notes",
                     "Your standing link to this game", "The game's record", "Resign…",
                     "My links reached somebody else", "Nothing said yet", "board games by email",
                     "Your turn · Babel with Bob", "Preview</button>"]
ENGLISH_SEAT_PAGE = ["Waiting for", "You play <strong>", "Your standing link to this game",
                     "Resign…", "Your private notes", "Say something to", "Send message",
                     "s turn · Babel with Anna"]
ENGLISH_RECORD = ["The start of the game", "No turn has been played yet.", "turns played",
                  "The game is running", "Players in playing order", ">Turns<", "Record: Babel"]


def create(app, languages=("de", "cs")) -> str:
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"},
                          first=0, languages=languages)
        return turns.create_game(spec).id


def html(response) -> str:
    assert response.status_code in (200, 422), (response.status_code, response.data[:300])
    return response.data.decode()


def absent(page: str, english: list[str]) -> list[str]:
    """The English sentences the page shows (none, if it speaks another language)."""
    return [sentence for sentence in english if sentence in page]


def first_turn(client, link: str) -> str:
    data = client.get(link, headers=JSON).get_json()
    hand = data["view"]["players"][data["seat"]]["hand"]
    return f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"


def title_of(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page, re.S)
    assert found, page[:300]
    return found.group(1).strip()


def test_the_german_seats_turn_page_speaks_german(app, client):
    game = create(app)
    page = html(client.get(turn_path(app, game, 0)))
    assert '<html lang="de">' in page
    assert title_of(page) == "Du bist am Zug · Babel mit Bob"
    for german in ("Du bist am Zug", "Du spielst <strong>Anna</strong>.",
                   "Du bist am Zug: stell deine Schritte zusammen",
                   "Deine Schritte, einer pro Zeile", "Zug absenden…", "Vorschau",
                   "Deine privaten Notizen", "Dein ständiger Link zu dieser Partie",
                   "Das Protokoll der Partie", "Aufgeben…", "Brettspiele per E-Mail",
                   "Nächste Schritte", "Schritte bei {place}"):
        assert german in page, german
    assert absent(page, ENGLISH_TURN_PAGE) == []


def test_the_czech_seats_page_speaks_czech_and_chooses_its_language(app, client):
    game = create(app)
    page = html(client.get(seat_path(app, game, 1)))
    assert '<html lang="cs">' in page
    assert title_of(page) == "Na tahu: Anna · Babel – Anna"
    for czech in ("Na tahu je <strong>Anna</strong>.", "Hrajete za hráče <strong>Bob</strong>.",
                  "Váš stálý odkaz na tuto hru", "Záznam hry", "Vzdát se…",
                  "Napište něco hráčům (Anna):", "Odeslat zprávu", "Jazyk:"):
        assert czech in page, czech
    assert absent(page, ENGLISH_SEAT_PAGE) == []
    # The language chooser: every language named in itself, the seat's own chosen.
    form = re.search(r'<form method="post" action="([^"]+)" class="language" id="language">(.*?)</form>',
                     page, re.S)
    standing = re.search(r'<a href="([^"]+)">Váš stálý odkaz na tuto hru</a>', page)
    assert form and standing and form.group(1) == standing.group(1) + "/language"
    assert '<option value="cs" lang="cs" selected>Čeština</option>' in form.group(2)
    assert '<option value="de" lang="de">Deutsch</option>' in form.group(2)
    assert '<option value="en" lang="en">English</option>' in form.group(2)


def test_an_illegal_step_is_refused_in_the_seats_language(app, client):
    game = create(app)
    link = turn_path(app, game, 0)
    fragment = html(client.post(link + "/preview", data={"steps": "settle A"}))
    assert "Schritt 1 (settle A): " in fragment
    assert "step 1 (settle A)" not in fragment
    preview = client.post(link + "/preview", json={"steps": "settle A"}).get_json()
    assert preview["error"].startswith("Schritt 1 (settle A): ") and preview["step"] == 1
    # Submitted as JSON: the error is German; as a form, the page says it in German too.
    refused = client.post(link, json={"steps": "settle A"})
    assert refused.status_code == 422
    assert refused.get_json()["error"].startswith("Schritt 1 (settle A): ")
    page = html(client.post(link, data={"steps": "settle A", "action": "submit"}))
    assert "Schritt 1 (settle A): " in page and '<html lang="de">' in page
    with app.app_context():
        assert gamelog.load(game).seq == 0


def test_the_language_form_changes_the_seats_language(app, client):
    game = create(app)
    seat = seat_path(app, game, 0)
    answer = client.post(seat + "/language", data={"language": "cs"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#language")
    page = html(client.get(turn_path(app, game, 0)))
    assert '<html lang="cs">' in page and "Jste na tahu" in page
    assert "Du bist am Zug" not in page and absent(page, ENGLISH_TURN_PAGE) == []
    fragment = html(client.post(turn_path(app, game, 0) + "/preview", data={"steps": "settle A"}))
    assert "krok 1 (settle A): " in fragment
    # The chooser now shows Czech chosen; back to German, the page is German again.
    assert '<option value="cs" lang="cs" selected>' in html(client.get(seat))
    client.post(seat + "/language", data={"language": "de"})
    assert "Du bist am Zug" in html(client.get(turn_path(app, game, 0)))


def test_the_json_view_and_the_told_turn_in_each_language(app, client):
    game = create(app)
    link = turn_path(app, game, 0)
    assert client.post(link, data={"steps": first_turn(client, link), "action": "submit"}).status_code == 303
    # Anna's own pages: the turn is over, Bob's is waiting, in German.
    anna = html(client.get(seat_path(app, game, 0)))
    assert "Warten auf <strong>Bob</strong>" in anna and title_of(anna) == "Am Zug: Bob · Babel mit Bob"
    again = html(client.get(link))
    assert "Dieser Zug wurde schon abgeschickt; hier ist die Partie, wie sie steht." in again
    late = client.post(link, json={"steps": "pass"})
    assert late.status_code == 409 and late.get_json()["error"] == "Dieser Zug wurde schon abgeschickt."
    # Bob, in Czech: Anna's turn told under its heading, and his own turn to play.
    bob = html(client.get(turn_path(app, game, 1)))
    assert '<html lang="cs">' in bob and "Poslední tah: Anna" in bob and "Jste na tahu" in bob
    assert "Anna: " in bob and "Anna&#39;s last turn" not in bob
    assert title_of(bob) == "Jste na tahu · Babel – Anna"
    told = client.get(turn_path(app, game, 1), headers=JSON).get_json()["told"]
    assert told and told[0]["words"].startswith("Anna: ")


def test_a_message_is_dated_as_the_readers_language_writes_dates(app, client):
    game = create(app)
    assert client.post(seat_path(app, game, 0) + "/messages",
                       data={"message": "Viel Glück!"}).status_code == 303
    german = html(client.get(seat_path(app, game, 0)))
    assert re.search(r"<time>\d\d\.\d\d\.\d\d, \d\d:\d\d UTC</time><p>Viel Glück!</p>", german)
    czech = html(client.get(seat_path(app, game, 1)))
    assert re.search(r"<time>\d\d\.\d\d\.\d\d \d{1,2}:\d\d UTC</time><p>Viel Glück!</p>", czech)
    english = html(client.get(seat_path(app, create(app, languages=("en", "en")), 0)))
    assert "Nothing said yet" in english


def test_the_record_speaks_the_visitors_language(app, client):
    game = create(app)
    path = f"/games/{game}/record"
    german = html(client.get(path, headers={"Accept-Language": "de"}))
    assert '<html lang="de">' in german
    for words in ("Der Beginn der Partie", "Es wurde noch kein Zug gespielt.", "Die Partie läuft.",
                  "Züge", "gespielte Züge", "Protokoll: Babel, Anna gegen Bob", "▶ Abspielen",
                  'data-pause-label="⏸ Pause"'):
        assert words in german, words
    assert absent(german, ENGLISH_RECORD) == []
    czech = html(client.get(path, headers={"Accept-Language": "cs, de;q=0.5"}))
    for words in ("Začátek hry", "Zatím nebyl odehrán žádný tah.", "Hra probíhá.", "Tahy",
                  "odehrané tahy", "Záznam: Babel, Anna vs. Bob", "▶ Přehrát"):
        assert words in czech, words
    assert absent(czech, ENGLISH_RECORD) == []
    # After a turn: the heading of the board names it, in the visitor's language.
    link = turn_path(app, game, 0)
    client.post(link, data={"steps": first_turn(client, link), "action": "submit"})
    after = html(client.get(path, headers={"Accept-Language": "de"}))
    assert "Nach Zug 1: Anna spielte <code>" in after and "Punkte nach Zug 1:" in after


def test_errors_and_broken_links_speak_the_visitors_language(client):
    page = client.get("/s/not-a-link", headers={"Accept-Language": "de"})
    assert page.status_code == 403
    text = page.data.decode()
    assert "Dieser Link funktioniert nicht" in text and "Links verloren?" in text
    assert "This link does not work" not in text and "Lost your links?" not in text
    czech = client.get("/s/not-a-link", headers={"Accept-Language": "cs"}).data.decode()
    assert "Tento odkaz nefunguje" in czech and "Ztratili jste své odkazy?" in czech


def test_a_seat_without_a_language_reads_english(app, client):
    game = create(app, languages=())
    page = html(client.get(turn_path(app, game, 0), headers={"Accept-Language": "de"}))
    assert '<html lang="en">' in page and title_of(page) == "Your turn · Babel with Bob"
    assert "It is your turn" in page and "You play <strong>Anna</strong>." in page
    assert "Du bist am Zug" not in page and "Deutsch" in page   # (the chooser names it)
    assert '<option value="en" lang="en" selected>English</option>' in page


def test_an_unknown_address_is_not_found_in_the_visitors_language(client):
    german = client.get("/no-such-page", headers={"Accept-Language": "de"})
    assert german.status_code == 404 and "Nicht gefunden" in german.data.decode()
    english = client.get("/no-such-page").data.decode()
    assert "Not Found" in english and "The requested URL was not found on the server." in english
