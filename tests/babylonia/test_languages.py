"""Babylonia in German and Czech: the errors of the rulings (docs/games/babylonia-rulings.md) said in
each language name the step and the same numbers as in English; step labels, an ending and
the mail board are German and Czech too (pbem/locale/{de,cs}/babylonia.po).

The positions are those of the English tests (test_placing, test_cards, test_scoring,
test_turn), whose English the engine keeps byte for byte.
"""

from __future__ import annotations

import re

import pytest

from babylonia_positions import position, submit
from pbem import i18n
from pbem.games.babylonia import GAME
from pbem.games.babylonia.state import Result
from pbem.games.errors import GameError
from pbem.games.phrases import Phrase, say

C10_ALMOST = "0F d10, 0F c11, 1F b10"           # b9 is the last free land hex next to c10
F10_ALMOST = "0M g10, 0O g11, 1P f11"           # e11 is the last free land hex next to f10
BOTH = {"tiles": {"f10": "city P"}, "tokens": F10_ALMOST + ", " + C10_ALMOST,
        "cities": [["city S"], []]}
NAMES = ["Anna", "Bob", "Carl"]
NUMBERS = re.compile(r"\b[a-q]?\d+\b")      # numbers and hexes


def said(value, language: str) -> str:
    cat = i18n.catalogue(language)
    return say(value, cat.gettext, cat.ngettext)


def refusal(state, text: str, seat: int | None = None) -> GameError:
    """The error the server refuses a submission with (the state is left alone)."""
    with pytest.raises(GameError) as info:
        GAME.decide(state, state.to_move if seat is None else seat, text)
    return info.value


# One case per ruling with an illegal side: (position, submission, the English error,
# words the German must hold, words the Czech must hold). Each language's error starts with
# its own "step N (text)" and keeps every number and hex of the English.
RULINGS = [
    # "A turn" 1: free hexes only (no tile, no ziggurat, no token), in the board in play.
    (lambda: position(tiles={"h10": "city MP"}), "farmer g9\nfarmer h10",
     "step 2 (farmer h10): h10 holds a city; nothing may go onto it",
     ["Schritt 2 (farmer h10)", "Stadt", "darf nichts"], ["krok 2 (farmer h10)", "město", "nic"]),
    (lambda: position(), "farmer i7\nfarmer g9", "step 1 (farmer i7): i7 is a ziggurat",
     ["Schritt 1 (farmer i7)", "ist eine Zikkurat"], ["krok 1 (farmer i7)", "je zikkurat"]),
    (lambda: position(tokens="1F g9, 0F h9"), "farmer g9\nfarmer g10",
     "step 1 (farmer g9): g9 already holds a token",
     ["auf g9 liegt schon ein Spielstein"], ["na g9 už leží žeton"]),
    (lambda: position(2), "farmer q7\nfarmer g9", "step 1 (farmer q7): q7 is not on the board in play",
     ["q7 liegt nicht im bespielten Teil des Spielplans"], ["q7 není v hrané části plánu"]),
    (lambda: position(stands=["FFPMM", "FFPMO"]), "official g9\nfarmer g10",
     "step 1 (official g9): your stand holds no official",
     ["auf deinem Ablage-Ständer ist kein Beamter"], ["na vašem stojanu není žádný úředník"]),
    # Exactly 2 tokens, or 3 or more farmers, none of them on a river.
    (lambda: position(), "priest g9",
     "the turn is not finished: a turn plays exactly 2 tokens, or 3 or more farmers",
     ["der Zug ist nicht fertig", "genau 2 Spielsteine", "3 oder mehr Bauern"],
     ["tah není dokončen", "právě 2 žetony", "3 či více rolníků"]),
    (lambda: position(), "farmer g9\nfarmer g10\npriest g11",
     "step 3 (priest g11): only farmers can be played as 3 or more tokens",
     ["Schritt 3 (priest g11)", "nur Bauern"], ["krok 3 (priest g11)", "jen rolníky"]),
    (lambda: position(stands=["FFFFF", "FF"]), "farmer g9\nfarmer g10\nfarmer f9",
     "step 3 (farmer f9): tokens played with 3 or more farmers may not go onto a river",
     ["Schritt 3 (farmer f9)", "nicht auf einen Fluss"], ["krok 3 (farmer f9)", "nesmějí na řeku"]),
    # The first round: the first player exactly 1 token.
    (lambda: position(index=0), "priest g9\nfarmer g10",
     "step 2 (farmer g10): in the first round the first player plays exactly 1 token",
     ["in der ersten Runde", "genau 1 Spielstein"], ["v prvním kole", "právě 1 žeton"]),
    # Cards 4 and 5 change the ways.
    (lambda: position(cards=[[4], []], stands=["PPMOF", "FF"]), "priest g9\npriest g10\nmerchant h9",
     "step 3 (merchant h9): with card 4, the three nobles must all differ",
     ["mit Karte 4", "drei Edlen", "verschieden"], ["s kartou 4", "šlechtici", "různí"]),
    (lambda: position(cards=[[4], []]), "priest g9\nmerchant g10\nofficial f9",
     "step 3 (official f9): with card 4, the nobles are played face up, so not onto a river",
     ["offen gespielt", "Fluss"], ["lícem nahoru", "řeku"]),
    (lambda: position(cards=[[5], []], stands=["FFFPM", "FF"]),
     "farmer g9\npriest g10\nfarmer g11\nmerchant h9",
     "step 4 (merchant h9): with card 5, at most 1 noble goes with 3 or more farmers",
     ["Schritt 4 (merchant h9)", "höchstens 1 Edler"], ["krok 4 (merchant h9)", "nejvýše 1 šlechtic"]),
    # Fields: a farmer next to another token of his; a noble only with card 6.
    (lambda: position(tiles={"f10": "field 5"}, tokens="1F g10, 0F g9"), "farmer f10\nfarmer h9",
     "step 1 (farmer f10): a farmer goes onto the field at f10 only next to another token of yours",
     ["Acker auf f10", "neben einem anderen deiner Spielsteine"],
     ["pole na f10", "vedle jiného vašeho žetonu"]),
    (lambda: position(tiles={"f10": "field 5"}, tokens="0F g10"), "farmer h9\nmerchant f10",
     "step 2 (merchant f10): a noble cannot go onto a field without card 6",
     ["ohne Karte 6", "Edler", "Acker"], ["bez karty 6", "šlechtic", "pole"]),
    # "A turn" 2: the order of what became surrounded, each named once, nothing else.
    (lambda: position(**BOTH), "farmer e11\nfarmer b9",
     "the turn is not finished: say the order in which to score: score c10, score f10",
     ["Reihenfolge der Wertung", "score c10, score f10"], ["pořadí vyhodnocení", "score c10, score f10"]),
    (lambda: position(**BOTH), "farmer e11\nfarmer b9\nscore f10\nscore f10",
     "step 4 (score f10): f10 is already in the scoring order",
     ["Schritt 4 (score f10)", "f10 steht schon in der Reihenfolge"],
     ["krok 4 (score f10)", "f10 už je v pořadí"]),
    (lambda: position(**BOTH), "farmer e11\nfarmer b9\nscore i7",
     "step 3 (score i7): nothing at i7 became surrounded this turn",
     ["auf i7 wurde in diesem Zug nichts umschlossen"], ["na i7 nebylo v tomto tahu nic obklíčeno"]),
    (lambda: position(**BOTH), "farmer e11\nfarmer b9\nscore f10\nfarmer h9",
     "step 4 (farmer h9): tokens are played before scoring, cards and extra",
     ["vor Wertung, Karten und extra"], ["před vyhodnocením, kartami a extra"]),
    # Ziggurats: the winner names one available card, one per ziggurat.
    (lambda: position(tokens=C10_ALMOST), "farmer b9\nfarmer h9",
     "the turn is not finished: you won the ziggurat at c10: name your card (card N)",
     ["du hast die Zikkurat auf c10 gewonnen", "(card N)"], ["získali jste zikkurat na c10", "(card N)"]),
    (lambda: position(tokens=C10_ALMOST, cards=[[], [3]]), "farmer b9\nfarmer h9\ncard 3",
     "step 3 (card 3): card 3 is not available; available: 1, 2, 4, 5, 6, 7",
     ["Karte 3 ist nicht verfügbar; verfügbar: 1, 2, 4, 5, 6, 7"],
     ["karta 3 není k dispozici; k dispozici: 1, 2, 4, 5, 6, 7"]),
    (lambda: position(tokens=C10_ALMOST), "farmer b9\nfarmer h9\ncard 3\ncard 4",
     "step 4 (card 4): no ziggurat of yours waits for a card",
     ["keine deiner Zikkurats wartet auf eine Karte"], ["žádný váš zikkurat nečeká na kartu"]),
    # Card 2: extra once, and only with the card.
    (lambda: position(), "farmer g9\nfarmer h9\nextra",
     "step 3 (extra): extra needs ziggurat card 2, unused",
     ["Schritt 3 (extra)", "Zikkurat-Karte 2"], ["krok 3 (extra)", "kartu zikkuratu 2"]),
    (lambda: position(tokens=C10_ALMOST), "farmer b9\nfarmer h9\nextra\ncard 2",
     "step 3 (extra): first name your card for the ziggurat at c10",
     ["nenne zuerst deine Karte für die Zikkurat auf c10"],
     ["nejprve jmenujte svou kartu za zikkurat na c10"]),
    # The notation.
    (lambda: position(), "builder g9", "step 1 (builder g9): 'builder' is not a step; write farmer, "
     "priest, merchant, official (F, P, M, O), score, card or extra.",
     ["'builder' ist kein Schritt", "schreibe Bauer, Priester, Händler, Beamter (B, P, H, Be)"],
     ["'builder' není krok", "napište rolník, kněz, obchodník, úředník (R, K, Ob, Ú)"]),
]


@pytest.mark.parametrize("make, text, english, german, czech", RULINGS,
                         ids=[r[2].split(":")[0] + " " + r[2].split(": ")[-1][:30] for r in RULINGS])
def test_each_rulings_error_is_said_in_german_and_czech(make, text, english, german, czech):
    error = refusal(make(), text)
    assert str(error) == english                       # English unchanged
    said_de, said_cs = said(error.said(), "de"), said(error.said(), "cs")
    for words in german:
        assert words in said_de, said_de
    for words in czech:
        assert words in said_cs, said_cs
    # The same numbers and hexes as the English, in the same order; and no English left.
    for language, text_said in (("de", said_de), ("cs", said_cs)):
        assert NUMBERS.findall(text_said) == NUMBERS.findall(english), (language, text_said)
        assert text_said != english
        for english_word in (" the ", " your ", " nothing ", " only ", " with "):
            assert english_word not in text_said, (language, text_said)


def test_the_step_labels_and_groups_are_german_and_czech():
    options = GAME.legal_steps(position(tiles={"f10": "field 5"}, tokens="0F g10"), 0)
    farmer = next(o for o in options if o.notation == "farmer f10")
    river = next(o for o in options if o.notation == "priest f9")
    assert (farmer.group, farmer.label, river.label) == ("Play a farmer", "f10 (field 5)", "f9 (river)")
    assert said(farmer.group, "de") == "Einen Bauern spielen"
    assert said(farmer.group, "cs") == "Zahrát rolníka"
    assert said(farmer.label, "de") == "f10 (Acker 5)" and said(farmer.label, "cs") == "f10 (pole 5)"
    assert said(river.group, "de") == "Einen Priester spielen" and said(river.group, "cs") == "Zahrát kněze"
    assert said(river.label, "de") == "f9 (Fluss)" and said(river.label, "cs") == "f9 (řeka)"
    words = GAME.explain(position(), 0, "official f9\ncard 4\nextra")
    assert words == ["an official onto f9 (river, face down)",
                     "take ziggurat card 4 (3 different nobles face up instead of 2 tokens)",
                     "take another turn after this one (card 2)"]
    assert [said(w, "de") for w in words] == [
        "einen Beamten auf f9 (Fluss, verdeckt)",
        "Zikkurat-Karte 4 nehmen (3 verschiedene Edle offen statt 2 Spielsteinen)",
        "nach diesem Zug noch einen Zug machen (Karte 2)"]
    assert [said(w, "cs") for w in words] == [
        "úředníka na f9 (řeka, lícem dolů)",
        "vzít kartu zikkuratu 4 (3 různí šlechtici lícem nahoru místo 2 žetonů)",
        "po tomto tahu táhnout ještě jednou (karta 2)"]
    decision = GAME.to_act(position())[0]
    assert (said(decision.label, "de"), said(decision.label, "cs")) == (
        "spiele deinen Zug", "odehrajte svůj tah")


def test_a_turn_told_in_each_language_keeps_the_river_secret_and_counts_points():
    before = position(tiles={"f10": "field 5"}, tokens="0F g10")
    event = GAME.decide(before, 0, "farmer f10\npriest f9")
    told = GAME.recount(before, event, 1).words
    assert told == "placed a farmer on f10 and a face-down token on f9, gaining 5 points"
    assert said(told, "de") == ("setzte einen Bauern auf f10 und einen verdeckten Spielstein "
                                "auf f9 und bekam 5 Punkte")
    assert said(told, "cs") == "položení rolníka na f10 a žetonu lícem dolů na f9 za 5 bodů"


def ended(scores, cities, winners):
    state = position(3, stands=["FF", "FF", "FF"], supplies=["", "", ""]).copy()
    state.scores, state.cities = list(scores), [list(c) for c in cities]
    state.result, state.turn = Result(tuple(winners), "end"), None
    state.stands[0] = [0, 0, 0, 0]
    return state


def test_an_ending_with_its_tie_break_in_each_language():
    state = ended([30, 30, 12], [["city PM", "city S"], ["city M"], []], [0])
    assert len(state.city_hexes()) == 2         # the spare cities of three players
    english = GAME.ending(state, 0, NAMES)
    assert english == ("You win: your stand ran empty, with 2 cities left on the board. "
                       "Points: you 30, Bob 30, Carl 12; equal points (30), and you have more "
                       "cities (2 to 1)")
    assert said(english, "de") == (
        "Du gewinnst: dein Ablage-Ständer wurde leer, und 2 Städte bleiben auf dem Spielplan. "
        "Punkte: du 30, Bob 30, Carl 12; gleich viele Punkte (30), und du hast mehr Städte (2 zu 1)")
    assert said(english, "cs") == (
        "Vyhráváte: váš stojan se vyprázdnil a na plánu zbývají 2 města. "
        "Body: vy 30, Bob 30, Carl 12; stejně bodů (30) a vy máte více měst (2 proti 1)")
    for_bob = GAME.ending(state, 1, NAMES)
    assert said(for_bob, "de").startswith("Anna gewinnt: der Ablage-Ständer von Anna wurde leer")
    assert said(for_bob, "de").endswith("und Anna hat mehr Städte (2 zu 1)")
    assert said(for_bob, "cs").startswith("Anna vyhrává: stojan hráče Anna se vyprázdnil")
    assert said(for_bob, "cs").endswith("a Anna má více měst (2 proti 1)")
    shared = GAME.ending(ended([30, 30, 12], [["city PM"], ["city M"], []], [0, 1]), 1, NAMES)
    assert shared.startswith("Anna and you share the win: ")
    assert said(shared, "de").startswith("Anna und du teilen sich den Sieg: ")
    assert said(shared, "de").endswith("; gleich viele Punkte (30) und gleich viele Städte vor sich (1)")
    assert said(shared, "cs").startswith("Anna a vy se dělí o vítězství: ")
    assert said(shared, "cs").endswith("; stejně bodů (30) a stejně měst před sebou (1)")


@pytest.mark.parametrize("n, german, czech", [
    (1, "1 Stadt bleibt auf dem Spielplan", "na plánu zbývá 1 město"),
    (3, "3 Städte bleiben auf dem Spielplan", "na plánu zbývají 3 města"),
    (5, "5 Städte bleiben auf dem Spielplan", "na plánu zbývá 5 měst"),
])
def test_cities_left_take_each_languages_plural(n, german, czech):
    from pbem.games.phrases import phrase_n
    left = phrase_n("{n} city left on the board", "{n} cities left on the board", n)
    assert (said(left, "de"), said(left, "cs")) == (german, czech)


def test_the_outcome_of_a_shared_win_in_each_language():
    state = submit(position(3, stands=["FF", "FF", "FF"], supplies=["", "", ""], scores=[6, 6, 3],
                            cities=[["city S"], ["city P"], ["city M", "city S"]]),
                   "farmer g9\nfarmer h9")
    description = GAME.outcome(state).description
    assert description == ("the game ended; most points wins, then most cities; equal points "
                           "and cities: the win is shared")
    assert "der Sieg wird geteilt" in said(description, "de")
    assert "o vítězství se dělí" in said(description, "cs")


def test_the_mail_board_in_each_language():
    state = position(3, tiles={"f10": "field 5"}, tokens="0F g10, 1P e10", scores=[1, 4, 0])
    lines = GAME.summary(state, 0, NAMES)
    german = [said(line, "de") for line in lines]
    czech = [said(line, "cs") for line in lines]
    assert lines[0] == "Players:" and german[0] == "Spieler:" and czech[0] == "Hráči:"
    assert lines[1].startswith("  Anna (you): 1 point; stand 5, supply 10; cities none")
    assert german[1].startswith("  Anna (du): 1 Punkt; Ablage-Ständer 5, Vorrat 10; Städte keine")
    assert czech[1].startswith("  Anna (vy): 1 bod; stojan 5, zásoba 10; města žádné")
    assert czech[2].startswith("  Bob: 4 body;") and german[2].startswith("  Bob: 4 Punkte;")
    assert "  Carl: 0 bodů;" in czech[3]
    assert any(line.startswith("Dein Ablage-Ständer: B B P H Be (B Bauer") for line in german)
    assert any(line.startswith("Váš stojan: R R K Ob Ú  (R rolník") for line in czech)
    where = next(i for i, line in enumerate(lines) if line.startswith("Where your tokens"))
    assert german[where].startswith("Wohin deine Steine (B P H Be) jetzt dürfen")
    assert czech[where].startswith("Kam teď smějí vaše žetony (R K Ob Ú)")
    assert any(line.startswith("  zentrales Land: ") for line in german)
    assert any(line.startswith("  střední země: ") for line in czech)
    assert any("f10 (Acker 5: B)" in line for line in german)
    assert any("f10 (pole 5: R)" in line for line in czech)
    # Most lines are phrases: the few left plain are blank or letters of the map only.
    for line in lines:
        if not isinstance(line, Phrase):
            assert not any(word in line for word in ("point", "stand", "supply", "city", "field",
                                                     "land", "river", "ziggurat")), line


def test_a_player_line_too_long_for_one_line_is_broken_between_its_pieces():
    """"Anna Long (you): 26 points; stand 3, supply 0; cities M P, O P, M P; cards none" is longer
    than a mail's line: it breaks before "supply", not inside the cities (where the line's
    words were cut and it stayed English in German and Czech mails)."""
    state = position(3, tokens="0F g10, 1P e10", scores=[26, 4, 0])
    state.cities[0] = ["city MP", "city OP", "city MP", "city P", "city O"]
    lines = GAME.summary(state, 0, ["Anna Long", "Bob", "Carl"])
    assert lines[1] == "  Anna Long (you): 26 points; stand 5,"
    assert lines[2] == "      supply 10; cities M P, O P, M P, P, O; cards none"
    assert isinstance(lines[1], Phrase) and isinstance(lines[2], Phrase)
    assert said(lines[2], "cs") == "      zásoba 10; města Ob K, Ú K, Ob K, K, Ú; karty žádné"
    assert said(lines[1], "de") == "  Anna Long (du): 26 Punkte; Ablage-Ständer 5,"


def test_a_card_owed_is_asked_in_each_language():
    from pbem.games.babylonia.mailboard import lines
    from pbem.games.babylonia.view import view
    from pbem.games.base import StepOption
    state = GAME.start(7, {}, 3, 0)
    cards = lines(state, 1, NAMES, view(state, 1),
                  [StepOption("card 3", "take card 3"), StepOption("card 5", "take card 5")])
    ask = next(line for line in cards if line.startswith("Choose one"))
    assert said(ask, "de") == 'Wähle eine Zikkurat-Karte (antworte z. B. "card 3"):'
    assert said(ask, "cs") == 'Vyberte jednu kartu zikkuratu (odpovězte např. "card 3"):'
    one = next(line for line in cards if line.startswith("  1: "))
    assert said(one, "de") == "  1: sofort 10 Punkte" and said(one, "cs") == "  1: ihned 10 bodů"


@pytest.mark.parametrize("language, words, english", [
    ("de", ["Dein Ablage-Ständer:", "Zikkurat-Karten, die es zu gewinnen gibt", "Legende zum Plan",
            "Städte auf dem Spielplan:", "sofort 10 Punkte", "Einen Bauern spielen"],
     ["Your stand:", "Ziggurat cards to win", "Key to the map", "Play a farmer"]),
    ("cs", ["Váš stojan:", "Karty zikkuratů k získání", "Legenda k plánu", "Města na plánu:",
            "ihned 10 bodů", "Zahrát rolníka"],
     ["Your stand:", "Ziggurat cards to win", "Key to the map", "Play a farmer"]),
])
def test_the_board_page_speaks_the_seats_language(app, client, actions, language, words, english):
    args = ["new-game", "--game", "babylonia", "--first", "0", "--seed", "5"]
    for name, address in (("Anna", "anna@example.org"), ("Bob", "bob@example.org")):
        args += ["--player", f"{name} <{address}>"]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    links = actions.links("anna@example.org")
    token = links["seat"].split("/")[2]
    assert client.post(f"/s/{token}/language", data={"language": language}).status_code < 400
    link = links["turn"]
    html = client.get(link).data.decode()
    for word in words:
        assert word in html, word
    for sentence in english:
        assert sentence not in html, sentence
    titles = re.findall(r"<title>(.*?)</title>", html, re.S)
    river = "Fluss" if language == "de" else "řeka"
    assert any(f": {river}" in t for t in titles)


def test_the_causes_of_points_are_said_in_each_language():
    state = submit(position(**BOTH), "farmer e11\nfarmer b9\nscore f10\nscore c10\ncard 7")
    causes = GAME.view(state, 1)["causes"][0]
    english = [cause for _, cause in causes]
    assert "cities in front, after the city P at f10" in english
    assert "token next to a ziggurat at b9" in english
    german = [said(cause, "de") for cause in english]
    czech = [said(cause, "cs") for cause in english]
    assert "ausliegende Städte, nach der Wertung von Stadt P auf f10" in german
    assert "města před hráčem, po vyhodnocení: město K na f10" in czech
    assert "Spielstein neben einer Zikkurat auf b9" in german
    assert "žeton vedle zikkuratu na b9" in czech
    field = submit(position(tiles={"f10": "field 5"}, tokens="0F g10"), "farmer f10\nfarmer h9")
    (points, cause), = GAME.view(field, 0)["causes"][0]
    assert (points, cause, said(cause, "de"), said(cause, "cs")) == (
        5, "field 5 at f10", "Acker 5 auf f10", "pole 5 na f10")


@pytest.mark.parametrize("language, board", [
    ("de", ["\n  Spieler:\n", "Anna (du): 0 Punkte; Ablage-Ständer 5", "\n  Dein Ablage-Ständer: ",
            "\n  Städte und Zikkurats mit den Sechsecken um sie herum", "Stadt H P: ", "Zikkurat: ",
            "zentrales Land: ", "Fluss (Steine dort verdeckt): "]),
    ("cs", ["\n  Hráči:\n", "Anna (vy): 0 bodů; stojan 5", "\n  Váš stojan: ",
            "\n  Města a zikkuraty s políčky kolem nich", "město Ob K: ", "zikkurat: ",
            "střední země: ", "řeka (žetony tam lícem dolů): "]),
])
def test_a_seats_mail_draws_the_board_in_its_language(app, actions, smtp, language, board):
    from pbem_web import text_of
    args = ["new-game", "--game", "babylonia", "--first", "0", "--seed", "5",
            "--player", f"Anna <anna@example.org> {language}", "--player", "Bob <bob@example.org>"]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    anna = text_of(actions.last_mail("anna@example.org"))
    for line in board:
        assert line in anna, line
    for english in ("Players:", "Your stand:", "ziggurat", "central land", "(you)"):
        assert english not in anna, english
