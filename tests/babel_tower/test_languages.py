"""Babel Tower and the code all engines share, in German and Czech (issue 18).

Each ruling of docs/games/tower-rulings.md with an illegal side is refused with a sentence that, said in
German or Czech, names the same step and the same numbers as in English, in the printed
editions' words (Würfel, Halbkugel, Einbuchtung, Stockwerk; kostka, výstupek, prohlubeň,
patro); the shared notation errors and the endings too; and a German seat's pages speak German.
"""

from __future__ import annotations

import re

import pytest
from tower_kit import accepts, position, refusal

from pbem import i18n
from pbem.games import phrases
from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.state import Result
from pbem.games.base import Outcome, ended_off_the_board
from pbem.games.errors import GameError
from pbem.games.text import split_steps
from pbem.games.words import count, listing
from pbem_web import ANNA, BOB

HOLLOW_TOP = {"NW": "2 ES", "NE": "1 S", "SE": "1 W", "SW": "0 -"}
BUMPY_TOP = {"NW": "3 UES", "NE": "2 US", "SE": "2 UW", "SW": "1 U"}
#: Words that give away an English sentence left untranslated.
ENGLISH = re.compile(r"\b(the|bump|bumps|hollow|floor|cube|cubes|joint|would|is|are|not|you|"
                     r"wins|draw|turn|step)\b")


def said(value, language: str) -> str:
    """`value` as a reader of `language` reads it (the catalogues' way, numbers as written)."""
    cat = i18n.catalogue(language)
    return phrases.say(value, cat.gettext, cat.ngettext)


def error_of(state, seat: int, text: str) -> GameError:
    try:
        GAME.decide(state, seat, text)
    except GameError as error:
        return error
    raise AssertionError(f"{text!r} was accepted")


def draft_after(*picks: str):
    state = GAME.start(7, {}, 2, 0)
    for step in picks:
        state = accepts(state, state.to_move, step)
    return state


def last_picker():
    """The draft done: every cube picked, the last picker (seat 1) to place."""
    state = GAME.start(11, {}, 2, 0)
    for kind in [t for t in range(5) for _ in range((6, 6, 2, 6, 4)[t])]:
        state = accepts(state, state.to_move, f"pick {kind}")
    return state


# (ruling, state, submission, English, German, Czech): the whole sentence as said.
RULINGS = [
    ("a cube has as many bumps as its type", lambda: position(), "place 3 NW UE",
     "step 1 (place 3 NW UE): a 3 has 3 bumps, not 2.",
     "Schritt 1 (place 3 NW UE): ein 3er hat 3 Halbkugeln, nicht 2.",
     "krok 1 (place 3 NW UE): kostka 3 má 3 výstupky, ne 2."),
    ("a one has one bump", lambda: position(), "place 1 NW -",
     "step 1 (place 1 NW -): a 1 has 1 bump, not 0.",
     "Schritt 1 (place 1 NW -): ein 1er hat 1 Halbkugel, nicht 0.",
     "krok 1 (place 1 NW -): kostka 1 má 1 výstupek, ne 0."),
    ("a zero has none", lambda: position(), "place 0 NW E",
     "step 1 (place 0 NW E): a 0 has 0 bumps, not 1.",
     "Schritt 1 (place 0 NW E): ein 0er hat 0 Halbkugeln, nicht 1.",
     "krok 1 (place 0 NW E): kostka 0 má 0 výstupků, ne 1."),
    ("two bumps are never opposite", lambda: position(), "place 2 NW UD",
     "step 1 (place 2 NW UD): a 2's bumps sit on two faces that share an edge; U and D are opposite.",
     "Schritt 1 (place 2 NW UD): die Halbkugeln eines Zweiers sitzen auf zwei Flächen mit "
     "gemeinsamer Kante; U und D liegen einander gegenüber.",
     "krok 1 (place 2 NW UD): výstupky kostky 2 jsou na dvou stěnách se společnou hranou; "
     "U a D jsou protilehlé."),
    ("a three's bumps meet at a corner", lambda: position(), "place 3 NW UDE",
     "step 1 (place 3 NW UDE): a 3's bumps sit on three faces around one corner; U and D are opposite.",
     "Schritt 1 (place 3 NW UDE): die Halbkugeln eines Dreiers sitzen auf drei Flächen um eine "
     "Würfelecke; U und D liegen einander gegenüber.",
     "krok 1 (place 3 NW UDE): výstupky kostky 3 jsou na třech stěnách kolem jednoho rohu kostky; "
     "U a D jsou protilehlé."),
    ("a four's hollows share an edge", lambda: position(), "place 4 NW NESW",
     "step 1 (place 4 NW NESW): a 4's two hollows sit on faces that share an edge; U and D are opposite.",
     "Schritt 1 (place 4 NW NESW): die zwei Einbuchtungen eines Vierers liegen auf Flächen mit "
     "gemeinsamer Kante; U und D liegen einander gegenüber.",
     "krok 1 (place 4 NW NESW): dvě prohlubně kostky 4 jsou na stěnách se společnou hranou; "
     "U a D jsou protilehlé."),
    ("the lowest incomplete floor is built first",
     lambda: accepts(position({"NW": "2 ES", "NE": "1 S", "SE": "1 W", "SW": "0 -"}), 0,
                     "place 1 NW D"), "place 1 NW D",
     "step 1 (place 1 NW D): NW on floor 2 is taken; the lowest incomplete floor is built first.",
     "Schritt 1 (place 1 NW D): NW im Stockwerk 2 ist besetzt; gebaut wird immer im untersten "
     "unvollständigen Stockwerk.",
     "krok 1 (place 1 NW D): roh SZ v patře 2 je obsazený; staví se vždy v nejnižším "
     "nedokončeném patře."),
    ("on the ground floor the second cube shares a side", lambda: position({"NW": "2 ES"}),
     "place 1 SE W",
     "step 1 (place 1 SE W): on the ground floor a cube must share a side with one already placed; "
     "SE touches none.",
     "Schritt 1 (place 1 SE W): auf der untersten Ebene muss ein Würfel eine Seite mit einem schon "
     "gesetzten teilen; SO berührt keinen.",
     "krok 1 (place 1 SE W): v přízemí musí kostka sousedit stranou s některou už položenou; "
     "roh JV nesousedí s žádnou."),
    ("no bump on an outer face", lambda: position({"NW": "2 ES"}), "place 2 NE NU",
     "step 1 (place 2 NE NU): a bump faces outward (N) at NE.",
     "Schritt 1 (place 2 NE NU): auf NO zeigt eine Halbkugel nach außen (N).",
     "krok 1 (place 2 NE NU): na rohu SV míří výstupek ven (N)."),
    ("no bump into the table", lambda: position(), "place 4 NW UDES",
     "step 1 (place 4 NW UDES): a bump faces down on the ground floor at NW.",
     "Schritt 1 (place 4 NW UDES): auf NW zeigt auf der untersten Ebene eine Halbkugel nach unten.",
     "krok 1 (place 4 NW UDES): na rohu SZ v přízemí míří výstupek dolů."),
    ("a side joint is never bump on bump", lambda: position({"NW": "1 E"}), "place 1 NE W",
     "step 1 (place 1 NE W): the joint with NW would be bump on bump.",
     "Schritt 1 (place 1 NE W): zur Ecke NW träfe Halbkugel auf Halbkugel.",
     "krok 1 (place 1 NE W): ve spoji s rohem SZ by byl výstupek na výstupku."),
    ("a side joint is never hollow on hollow", lambda: position({"NW": "1 S"}), "place 1 NE S",
     "step 1 (place 1 NE S): the joint with NW would be hollow on hollow.",
     "Schritt 1 (place 1 NE S): zur Ecke NW träfe Einbuchtung auf Einbuchtung (ein Hohlraum).",
     "krok 1 (place 1 NE S): ve spoji s rohem SZ by byla prohlubeň na prohlubni (dutina)."),
    ("the joint below is never bump on bump", lambda: position(BUMPY_TOP), "place 1 NW D",
     "step 1 (place 1 NW D): the joint with the cube below would be bump on bump.",
     "Schritt 1 (place 1 NW D): zum Würfel darunter träfe Halbkugel auf Halbkugel.",
     "krok 1 (place 1 NW D): ve spoji s kostkou pod ní by byl výstupek na výstupku."),
    ("the joint below is never hollow on hollow", lambda: position(HOLLOW_TOP), "place 1 NW E",
     "step 1 (place 1 NW E): the joint with the cube below would be hollow on hollow.",
     "Schritt 1 (place 1 NW E): zum Würfel darunter träfe Einbuchtung auf Einbuchtung (ein Hohlraum).",
     "krok 1 (place 1 NW E): ve spoji s kostkou pod ní by byla prohlubeň na prohlubni (dutina)."),
    ("only a cube one holds", lambda: position(hands=([1, 0, 0, 0, 0], [0, 0, 0, 0, 1])),
     "place 1 NW E",
     "step 1 (place 1 NW E): you hold no 1.",
     "Schritt 1 (place 1 NW E): du hast keinen 1er.",
     "krok 1 (place 1 NW E): nemáte žádnou kostku 1."),
    ("a picked-out type is gone from the pool", lambda: draft_after("pick 2", "pick 2"), "pick 2",
     "step 1 (pick 2): no 2 is left in the pool.",
     "Schritt 1 (pick 2): im Vorrat ist kein 2er mehr.",
     "krok 1 (pick 2): ve společné zásobě už není žádná kostka 2."),
    ("cubes are placed after the draft", lambda: draft_after(), "place 0 NW -",
     "step 1 (place 0 NW -): cubes are placed once the draft is over.",
     "Schritt 1 (place 0 NW -): Würfel werden erst gesetzt, wenn alle verteilt sind.",
     "krok 1 (place 0 NW -): kostky se pokládají až po skončení výběru."),
    ("nothing is picked after the draft", last_picker, "pick 0",
     "step 1 (pick 0): the draft is over: every cube has been picked.",
     "Schritt 1 (pick 0): die Auswahl ist vorbei: alle Würfel sind verteilt.",
     "krok 1 (pick 0): výběr skončil: všechny kostky jsou rozebrané."),
    ("a turn is exactly one step", lambda: draft_after(), "pick 3\npick 4",
     "step 2 (pick 4): a turn is exactly one step.",
     "Schritt 2 (pick 4): ein Zug ist genau ein Schritt.",
     "krok 2 (pick 4): tah je právě jeden krok."),
    ("a turn has a step", lambda: position(), "  \n",
     "step 1: the turn has no step; write one place step.",
     "Schritt 1: der Zug hat keinen Schritt; schreib einen place-Schritt.",
     "krok 1: tah nemá žádný krok; napište jeden krok place."),
    ("steps are pick and place", lambda: position(), "build 3 NW E",
     "step 1 (build 3 NW E): 'build' is not a step; steps are pick and place.",
     "Schritt 1 (build 3 NW E): 'build' ist kein Schritt; die Schritte sind pick und place.",
     "krok 1 (build 3 NW E): 'build' není krok; kroky jsou pick a place."),
    ("cubes are 0 to 4", lambda: position(), "place 5 NW E",
     "step 1 (place 5 NW E): '5' is not a cube; cubes are 0, 1, 2, 3 and 4 (their bumps).",
     "Schritt 1 (place 5 NW E): '5' ist kein Würfel; die Würfel sind 0, 1, 2, 3 und 4 "
     "(ihre Halbkugeln).",
     "krok 1 (place 5 NW E): '5' není kostka; kostky jsou 0, 1, 2, 3 a 4 (počet jejich výstupků)."),
    ("corners are NW NE SE SW", lambda: position(), "place 1 XX E",
     "step 1 (place 1 XX E): 'XX' is not a corner; corners are NW, NE, SE and SW.",
     "Schritt 1 (place 1 XX E): 'XX' ist keine Ecke; die Ecken sind NW, NO, SO und SW.",
     "krok 1 (place 1 XX E): 'XX' není roh; rohy jsou SZ, SV, JV a JZ."),
    ("faces are U D N E S W", lambda: position(), "place 1 NW Q",
     "step 1 (place 1 NW Q): 'Q' is not a face; faces are U D N E S W, or - for none.",
     "Schritt 1 (place 1 NW Q): 'Q' ist keine Fläche; die Flächen sind U D N E S W (oben, unten, "
     "Nord, Ost, Süd, West), oder - für keine.",
     "krok 1 (place 1 NW Q): 'Q' není stěna; stěny jsou U D N E S W (nahoře, dole, sever, "
     "východ, jih, západ), nebo - pro žádnou."),
    ("a face is named once", lambda: position(), "place 2 NW EE",
     "step 1 (place 2 NW EE): 'EE' names a face twice.",
     "Schritt 1 (place 2 NW EE): 'EE' nennt eine Fläche zweimal.",
     "krok 1 (place 2 NW EE): 'EE' uvádí některou stěnu dvakrát."),
    ("place takes three words", lambda: position(), "place 3 SW",
     "step 1 (place 3 SW): place takes a cube, a corner and its bump faces, e.g. place 3 SW UNE.",
     "Schritt 1 (place 3 SW): place braucht einen Würfel, eine Ecke und die Flächen seiner "
     "Halbkugeln, z. B. place 3 SW UNE.",
     "krok 1 (place 3 SW): place potřebuje kostku, roh a stěny s jejími výstupky, např. "
     "place 3 SW UNE."),
]


@pytest.mark.parametrize("ruling", RULINGS, ids=[r[0] for r in RULINGS])
def test_each_ruling_is_refused_in_german_and_czech(ruling):
    _, state, text, english, german, czech = ruling
    error = error_of(state(), state().to_move, text)
    assert str(error) == english == refusal(state(), state().to_move, text)
    assert said(error.said(), "en") == english
    assert said(error.said(), "de") == german
    assert said(error.said(), "cs") == czech
    for language, sentence in (("de", german), ("cs", czech)):
        words = sentence.split(": ", 1)[1]       # the rule itself, without the step's notation
        words = re.sub(r"'[^']*'|\b(pick|place)\b( \d [NSEW]{2} \w+)?", "", words)
        assert not ENGLISH.search(words), (language, sentence)


def test_the_step_and_its_numbers_are_those_of_the_english():
    state = accepts(position({"NW": "2 ES", "NE": "1 S", "SE": "1 W", "SW": "0 -"}), 0, "place 1 NW D")
    error = error_of(state, 1, "# first a comment\nplace 1 NW D")
    numbers = re.findall(r"\d+", str(error))
    for language in ("de", "cs"):
        assert re.findall(r"\d+", said(error.said(), language)) == numbers == ["1", "1", "2"]


def test_it_is_not_your_turn_in_each_language():
    state = draft_after("pick 2")
    error = error_of(state, 0, "pick 3")
    assert str(error) == "it is not your turn."
    assert said(error.said(), "de") == "du bist nicht am Zug."
    assert said(error.said(), "cs") == "nejste na tahu."
    over = position(hands=([0] * 5, [0] * 5))
    over.result = Result(None, "complete")
    assert said(error_of(over, 0, "pick 3").said(), "de") == "die Partie ist vorbei."
    assert said(error_of(over, 0, "pick 3").said(), "cs") == "hra skončila."


# -- the notation every game shares (pbem/games/text.py) ------------------------------------

def notation_error(text: str, **limits) -> GameError:
    with pytest.raises(GameError) as caught:
        split_steps(text, **limits)
    return caught.value


def test_a_turn_too_long_is_refused_in_each_language():
    error = notation_error("x" * 20_001)
    assert str(error) == "the turn is 20001 characters long; at most 20000 are read."
    assert said(error.said(), "de") == "der Zug ist 20001 Zeichen lang; gelesen werden höchstens 20000."
    assert said(error.said(), "cs") == "tah má 20001 znaků; přečte se nejvýše 20000."


def test_too_many_steps_are_refused_with_each_languages_plural():
    error = notation_error("a;b;c", max_steps=2)
    assert str(error) == "the turn has 3 steps; at most 2 are read."
    assert said(error.said(), "de") == "der Zug hat 3 Schritte; gelesen werden höchstens 2."
    assert said(error.said(), "cs") == "tah má 3 kroky; přečte se nejvýše 2."
    five = notation_error("a;b;c;d;e", max_steps=4)
    assert said(five.said(), "cs") == "tah má 5 kroků; přečte se nejvýše 4."
    # Babel Tower reads at most 10 steps: the engine's refusal names them in German too.
    refused = error_of(draft_after(), 0, "\n".join(["pick 3"] * 11))
    assert str(refused) == "the turn has 11 steps; at most 10 are read."
    assert said(refused.said(), "de") == "der Zug hat 11 Schritte; gelesen werden höchstens 10."


def test_numbers_in_a_served_sentence_follow_the_locale():
    from pbem.app import make_app
    app = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    error = notation_error("x" * 20_001)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.say(error.said()) == "der Zug ist 20.001 Zeichen lang; gelesen werden höchstens 20.000."
    with app.test_request_context(headers={"Accept-Language": "cs"}):
        assert i18n.say(error.said()) == "tah má 20\xa0001 znaků; přečte se nejvýše 20\xa0000."


def test_counted_words_and_lists_keep_their_english():
    assert count(1, "discard") == "1 discard" and count(3, "card") == "3 cards"
    assert said(count(1, "card"), "de") == "1 Karte" and said(count(3, "card"), "de") == "3 Karten"
    assert [said(count(n, "card"), "cs") for n in (1, 3, 5)] == ["1 karta", "3 karty", "5 karet"]
    assert count(2, "tribe") == "2 tribes" and count(2, "city", "cities") == "2 cities"
    three = listing(["Anna", "Bob", "Carl"])
    assert three == "Anna, Bob and Carl"
    assert said(three, "de") == "Anna, Bob und Carl" and said(three, "cs") == "Anna, Bob a Carl"


# -- the steps in words and the endings -----------------------------------------------------

def test_steps_and_what_they_did_in_words():
    empty = position()
    one = next(o for o in GAME.legal_steps(empty, 0) if o.notation == "place 1 NW E")
    assert one.label == "place a 1 at NW, bumps east"
    assert said(one.label, "de") == "einen 1er auf NW setzen, Halbkugel nach Osten"
    assert said(one.label, "cs") == "položit kostku 1 na roh SZ, výstupek na východ"
    three = GAME.explain(empty, 0, "place 3 NW UES")[0]
    assert three == "place a 3 at NW, bumps up, east and south"
    assert said(three, "de") == "einen 3er auf NW setzen, Halbkugeln nach oben, nach Osten und nach Süden"
    assert said(three, "cs") == "položit kostku 3 na roh SZ, výstupky nahoru, na východ a na jih"
    after = accepts(empty, 0, "place 3 NW UES")
    told = GAME.recount(empty, {"type": "place", "seat": 0, "step": "place 3 NW UES"}, 1, after)
    assert told.words == "placed a 3 at NW on floor 1, bumps up, east and south"
    assert said(told.words, "de") == (
        "setzte einen 3er auf NW im Stockwerk 1, Halbkugeln nach oben, nach Osten und nach Süden")
    picked = GAME.recount(GAME.start(7, {}, 2, 0), {"type": "pick", "seat": 0, "step": "pick 4"}, 1)
    assert said(picked.words, "cs") == "výběr kostky 4"
    label = GAME.to_act(GAME.start(7, {}, 2, 0))[0].label
    assert (label, said(label, "de"), said(label, "cs")) == ("pick a cube", "einen Würfel auswählen",
                                                             "vybrat kostku")


def ended(reason: str, winner: int | None):
    state = position(hands=([0] * 5, [0] * 5))
    state.result = Result(winner, reason)
    return state


ENDINGS = [
    ("complete", None, 0, "A draw: the tower is complete, all 24 cubes placed",
     "Unentschieden: der Turm ist fertig, alle 24 Würfel sind gesetzt",
     "Remíza: věž je dokončená, všech 24 kostek stojí"),
    ("blocked", 0, 0, "You win: Bob could not place any of their cubes",
     "Du gewinnst: Bob konnte keinen der eigenen Würfel mehr setzen",
     "Vyhráváte: Bob už nemůže položit žádnou ze svých kostek"),
    ("blocked", 0, 1, "Anna wins: you could not place any of your cubes",
     "Anna gewinnt: du konntest keinen deiner Würfel mehr setzen",
     "Anna vyhrává: už jste nemohli položit žádnou ze svých kostek"),
    ("blocked", 1, None, "Bob wins: Anna could not place any of their cubes",
     "Bob gewinnt: Anna konnte keinen der eigenen Würfel mehr setzen",
     "Bob vyhrává: Anna už nemůže položit žádnou ze svých kostek"),
    ("resigned", 1, 0, "Bob wins: you resigned", "Bob gewinnt: du hast aufgegeben",
     "Bob vyhrává: vzdali jste se"),
    ("resigned", 0, 0, "You win: Bob resigned", "Du gewinnst: Bob hat aufgegeben",
     "Vyhráváte: Bob vzdává hru"),
    ("timeout", 0, 1, "Anna wins: your time ran out", "Anna gewinnt: deine Zeit ist abgelaufen",
     "Anna vyhrává: vypršel vám čas"),
    ("timeout", 1, None, "Bob wins: Anna's time ran out",
     "Bob gewinnt: die Zeit von Anna ist abgelaufen", "Bob vyhrává: Anna – vypršel čas"),
    ("aborted", None, 0, "Nobody wins: the game was called off",
     "Niemand gewinnt: die Partie wurde abgebrochen", "Nikdo nevyhrává: hra byla zrušena"),
]


@pytest.mark.parametrize("ending", ENDINGS, ids=[f"{e[0]}-{e[1]}-{e[2]}" for e in ENDINGS])
def test_an_ending_in_each_language(ending):
    reason, winner, reader, english, german, czech = ending
    words = GAME.ending(ended(reason, winner), reader, ["Anna", "Bob"])
    assert words == english
    assert said(words, "de") == german
    assert said(words, "cs") == czech


def test_a_shared_win_and_a_draw_of_the_generic_endings():
    shared = Outcome(None, "tie", "x", winners=(0, 2))
    assert ended_off_the_board(shared, 2, ["Anna", "Bob", "Carl"]) is None
    from pbem.games.base import _result_words
    words = _result_words(shared, 2, ["Anna", "Bob", "Carl"])
    assert words == "Anna and you share the win"
    assert said(words, "de") == "Anna und du teilen sich den Sieg"
    assert said(words, "cs") == "O vítězství se dělí Anna a vy"
    assert said(_result_words(Outcome(None, "complete", "x"), 0, ["A", "B"]), "cs") == "Remíza"


def test_the_outcome_and_the_options_in_each_language():
    outcome = GAME.outcome(ended("blocked", 1))
    assert said(outcome.description, "de") == "der Gegner konnte keinen seiner Würfel mehr setzen"
    assert said(GAME.title, "cs") == "Babylonská věž (cuboro)"
    (draft,) = GAME.options
    assert said(draft.label, "de") == "Die 24 Würfel werden verteilt"
    assert [said(words, "cs") for _, words in draft.choices] == [
        "střídavým výběrem, po jedné kostce (podle tištěných pravidel)",
        "náhodně, každému dvanáct (rychlejší začátek při hře e-mailem)"]
    summary = GAME.summary(last_picker(), 0)
    assert said(summary[0], "de").startswith("Deine Würfel: ")
    assert said(summary[1], "cs").startswith("Kostky soupeře: ")


# -- the pages of a German seat ---------------------------------------------------------------

def test_a_german_seats_place_page_speaks_german(app, client, actions):
    out = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel-tower", "--player", f"Anna <{ANNA}> de",
        "--player", f"Bob <{BOB}> cs", "--first", "0", "--seed", "3", "--option", "draft=random"])
    assert out.exit_code == 0, out.output
    link = actions.links(ANNA)["turn"]
    html = client.get(link).data.decode()
    for german in ("Setze einen Würfel ins Stockwerk 1", "Tippe auf eine freie Ecke des Turms",
                   "Stockwerk 1 (wird gebaut)", "Von Südosten gesehen", "Stattdessen eintippen",
                   "Würfel von <strong>Anna</strong>:", "Halbkugel nach Osten"):
        assert german in html, german
    for english in ("Place a cube on floor", "Tap a free corner", "building now",
                    "Seen from the south-east", "Type it instead", "'s cubes:", "bumps east"):
        assert english not in html, english
    refused = client.post(link, data={"steps": "place 2 NW NU", "action": "confirm"})
    assert refused.status_code == 422
    assert "Schritt 1 (place 2 NW NU): auf NW zeigt eine Halbkugel nach außen (N)." in (
        refused.data.decode())
    czech = client.get(actions.links(BOB)["turn"] if actions.links(BOB).get("turn")
                       else actions.links(BOB)["seat"]).data.decode()
    assert "Kostky:" in czech and "Pohled od jihovýchodu" in czech and "Seen from" not in czech
