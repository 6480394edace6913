"""Small wording on a seat's page: no parentheses inside parentheses (a German clock line, a
player a computer plays), whose turn it is said as a fact rather than as an order to the reader
("Waiting for Otto (play your turn)"), and the language form says it changes this game only
(which is what it does)."""

from __future__ import annotations

import re

from pbem.extensions import db
from pbem.play import turns
from pbem.store.models import Seat
from pbem_web import seat_path  # tests/helpers

PLAYERS = [("Anna", "anna@example.org"), ("Otto", "otto@example.org"),
           ("Carl", "carl@example.org")]


def status_and_clock(page: str) -> str:
    """The page's status and clock lines, as text."""
    found = re.findall(r'<p class="(?:status|deadline|clock)"[^>]*>(.*?)</p>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", " ".join(found)).split())


def nested(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth > 1:
            return True
    return False


def test_no_nested_parentheses_and_no_order_to_the_reader(app, client):
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babylonia", PLAYERS, {}, 0, bank=(7, 1, 14),
                                               languages=("de", "cs", "en"))).id
        turns.resign(game_id, 2)    # Carl: a computer plays his seat, "Carl (bot from turn 1)"
    anna = status_and_clock(client.get(seat_path(app, game_id, 0)).get_data(as_text=True))
    otto = status_and_clock(client.get(seat_path(app, game_id, 1)).get_data(as_text=True))
    assert "Zeitkonto" in anna and not nested(anna), anna          # her German deadline
    assert "Na tahu je Anna." in otto and not nested(otto), otto   # Czech, Anna's turn
    with app.app_context():   # Otto reads English now
        db.session.get(Seat, (game_id, 1)).language = "en"
        db.session.commit()
    otto = status_and_clock(client.get(seat_path(app, game_id, 1)).get_data(as_text=True))
    assert "Waiting for Anna." in otto and "play your turn" not in otto, otto


def test_the_language_form_says_it_changes_this_game_only(app, client):
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babel", PLAYERS[:2], {}, 0)).id
        other = turns.create_game(turns.Spec("babel", PLAYERS[:2], {}, 0)).id
    path = seat_path(app, game_id, 0)
    page = client.get(path).get_data(as_text=True)
    assert "This changes the language of this game only" in page
    assert client.post(path + "/language", data={"language": "cs"}).status_code == 303
    with app.app_context():
        assert db.session.get(Seat, (game_id, 0)).language == "cs"
        assert db.session.get(Seat, (other, 0)).language == "en"   # as the page says
