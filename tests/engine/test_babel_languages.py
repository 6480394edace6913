"""Babel in German and Czech: each ruling's error, the steps in words, a recount and the
endings, said through the catalogues (`pbem.i18n.catalogue`, no Flask), and the notation
reading the tribes' German and Czech names.

An error said in another language names the same step and the same numbers as the English
one, holds none of its English words, and names the tribes in the reader's language.
"""

import re
from collections import Counter

import pytest

from babel_positions import make  # tests/helpers
from pbem import i18n
from pbem.games.babel import GAME, explain
from pbem.games.babel.notation import parse
from pbem.games.babel.state import Result
from pbem.games.errors import GameError, NotationError
from pbem.games.phrases import say

LANGUAGES = ("de", "cs")
STEP = {"de": "Schritt", "cs": "krok"}
#: Each tribe's English name and the stem its German and Czech names share in every case.
TRIBE_STEMS = {"Assyrians": {"de": "Assyrer", "cs": "Asyř"},
               "Hittites": {"de": "Hethiter", "cs": "Chetit"},
               "Medes": {"de": "Meder", "cs": "Méd"},
               "Persians": {"de": "Perser", "cs": "Perš"},
               "Sumerians": {"de": "Sumerer", "cs": "Sumer"}}
#: English words none of the translated errors may keep.
ENGLISH = re.compile(r"\b(you|your|the|territory|level|cards?|column|temple|quarry|opponent|"
                     r"needs?|row|Assyrians|Hittites|Medes|Persians|Sumerians)\b", re.I)


def said(value, language):
    cat = i18n.catalogue(language)
    return say(value, cat.gettext, cat.ngettext)


def refused(state, text, seat=None):
    """The error of a submission the server refuses."""
    seat = state.to_move if seat is None else seat
    with pytest.raises(GameError) as info:
        GAME.decide(state, seat, text)
    return info.value


def halved():
    """Anna has halved Bob's 7 cards twice: he owes 5 at the start of his next turn."""
    state = make(anna={"figure": "P", "rows": {"P": "PPPP"}}, bob={"hand": "AAMMSPH"},
                 tribe_supply="SSHMPAH")
    return GAME.apply(state, GAME.decide(state, 0, "halve P; halve P"))


def ending_position(anna_points, bob_points):
    """Anna can build a level 6 on her level-5 temple in the Sumerians territory."""
    temples, left = {}, anna_points - 5
    for t in "AHMP":
        top = min(6, left)
        if top:
            temples[t] = list(range(1, top + 1))
        left -= top
    bob, left = {}, bob_points
    for t in "AHMPS":
        top = min(6, left)
        if top:
            bob[t] = list(range(1, top + 1))
        left -= top
    return make(anna={"hand": "AS", "figure": "S", "column": [6], "rows": {"S": "AAAPPP"},
                      "temples": {**temples, "S": [1, 2, 3, 4, 5]}},
                bob={"hand": "HH", "temples": bob})


# Each ruling's illegal side (tests/engine/test_rulings.py): position, submission, seat, the
# English error as the server says it.
RULINGS = [
    ("move needs a card", lambda: make(anna={"hand": "MA"}), "move M; move M", None,
     "step 2 (move M): you hold no Medes card to move with."),
    ("settle not from the quarry", lambda: make(anna={"hand": "AA"}), "settle A", None,
     "step 1 (settle A): your figure is still on the quarry; move to a territory before you "
     "settle."),
    ("settle only cards held", lambda: make(anna={"hand": "SSA", "figure": "S"}), "settle S S S",
     None, "step 1 (settle S S S): you hold 2 Sumerians cards but settle 3."),
    ("build one level above", lambda: make(anna={"figure": "H", "rows": {"H": "HHHH"},
                                                  "temples": {"H": [1, 2]}, "column": [4]}),
     "build mine", None,
     "step 1 (build mine): your temple in the Hittites territory is level 2, so it takes level 3 "
     "next; the top card of your column is level 4."),
    ("build level 1 first", lambda: make(anna={"figure": "H", "rows": {"H": "HH"}, "column": [2]}),
     "build mine", None,
     "step 1 (build mine): an empty site in the Hittites territory takes level 1 first; the top "
     "card of your column is level 2."),
    ("build needs the cards", lambda: make(
        anna={"figure": "M", "rows": {"M": "SHA"}, "temples": {"M": [1]}, "column": [2]},
        bob={"column": [4, 3]}), "build mine; build theirs; build theirs", None,
     "step 3 (build theirs): you need 4 tribe cards in the Medes territory to build level 4; "
     "you have 3."),
    ("build from an empty column", lambda: make(anna={"figure": "H", "rows": {"H": "H"},
                                                      "column": [1]}),
     "build theirs", None, "step 1 (build theirs): your opponent's column is empty."),
    ("migrate three", lambda: make(anna={"figure": "M", "rows": {"M": "SH"}}), "migrate M P", None,
     "step 1 (migrate M P): migration moves exactly 3 cards; you have 2 in the Medes territory."),
    ("migrate elsewhere", lambda: make(anna={"figure": "M", "rows": {"M": "SHAP"}}), "migrate M M",
     None, "step 1 (migrate M M): migration moves cards to another territory; both are the Medes "
     "territory."),
    ("migrate once", lambda: make(anna={"figure": "M", "rows": {"M": "SSSHHH"}}),
     "migrate M P; migrate M A", None,
     "step 2 (migrate M A): you have already migrated this turn; migration is allowed once per "
     "turn."),
    ("skill where the figure stands", lambda: make(
        anna={"figure": "M", "rows": {"H": "AAA", "M": "A"}}, bob={"rows": {"M": "AAA"}}),
     "destroy", None,
     "step 1 (destroy): destroy needs three Assyrians cards in a row in the Medes territory; you "
     "have 1 in a row there."),
    ("halve needs three in a row", lambda: make(anna={"figure": "A", "rows": {"A": "AAHA"}}),
     "halve A", None,
     "step 1 (halve A): halve with Assyrians needs three Assyrians cards in a row in the Assyrians "
     "territory; you have 2 in a row there."),
    ("skill not from the quarry", lambda: make(anna={"rows": {"A": "AAA"}}), "destroy", None,
     "step 1 (destroy): your figure is still on the quarry; move to a territory before you "
     "destroy."),
    ("rob one card short", lambda: make(anna={"figure": "H", "rows": {"H": "HHH"}},
                                        bob={"temples": {"H": [1, 2, 3, 4]}}), "rob", None,
     "step 1 (rob): you need 4 tribe cards in the Hittites territory to hold the robbed level 4; "
     "you have 3, the Hittites card you discard included."),
    ("rob only higher", lambda: make(anna={"figure": "H", "rows": {"H": "HHHHHH"},
                                           "temples": {"H": [1, 2, 3]}},
                                     bob={"temples": {"H": [2, 3]}}), "rob", None,
     "step 1 (rob): you can rob only a level higher than your own temple in the Hittites "
     "territory (level 3); their top card is level 3."),
    ("rob nothing", lambda: make(anna={"figure": "H", "rows": {"H": "HHH"}}), "rob", None,
     "step 1 (rob): your opponent has no temple in the Hittites territory to rob."),
    ("emigrate needs Medes", lambda: make(anna={"figure": "S", "rows": {"S": "MM"}}),
     "emigrate A", None,
     "step 1 (emigrate A): emigrate needs three Medes cards in a row in the Sumerians territory; "
     "you have 2 in a row there."),
    ("jump two levels", lambda: make(anna={"figure": "P", "rows": {"P": "PPPPP"},
                                           "temples": {"P": [1, 2]}, "column": [5]}),
     "jump mine", None,
     "step 1 (jump mine): a jump on your temple in the Persians territory (level 2) builds level "
     "4; the top card of your column is level 5."),
    ("jump counts the row", lambda: make(anna={"figure": "P", "temples": {"P": [1, 2]},
                                               "column": [4], "rows": {"P": "PPP"}}),
     "jump mine", None,
     "step 1 (jump mine): you need 4 tribe cards in the Persians territory to jump to level 4; "
     "you have 3, the Persians card you discard included."),
    ("owed discards: how many", halved, "discard A A M M", 1,
     "step 1 (discard A A M M): you owe 5 cards from halvings; you discard 4."),
    ("owed discards: cards held", halved, "discard H H A A S", 1,
     "step 1 (discard H H A A S): you hold 1 Hittites card but discard 2."),
    ("owed discards first", halved, "move A", 1,
     "step 1 (move A): you owe 5 discards from halvings; your turn starts with discard, before "
     "you draw."),
    ("discard is no action", lambda: make(anna={"hand": "AA"}), "discard A", None,
     "step 1 (discard A): discards answer halvings only at the start of your turn, before you "
     "draw; you have drawn already."),
    ("reserved column", lambda: make(anna={"figure": "H", "rows": {"H": "HHH"},
                                            "temples": {"H": [1]}},
                                      bob={"column": [2], "first_turn": True}),
     "build theirs", None,
     "step 1 (build theirs): your opponent's column holds his starting card, reserved for him "
     "until he has played his first turn."),
    ("first turn builds", lambda: make(anna={"hand": "AHM", "column": [1], "first_turn": True}),
     "move A; settle H", None,
     "step 2 (settle H): in your first turn you must build your starting level-1 card; it is "
     "still in your column."),
    ("pass alone", lambda: make(anna={"hand": "AHM"}), "move A; pass", None,
     "step 2 (pass): pass means an empty phase 2 and cannot stand with other steps."),
    ("nothing after the end", lambda: ending_position(14, 9), "build mine; settle A", None,
     "step 2 (settle A): the game ended after step 1; nothing may follow it."),
    ("unknown tribe", lambda: make(anna={"hand": "AA"}), "settle X", None,
     "step 1 (settle X): 'X' is not a tribe; write A, H, M, P, S or a tribe's name (Assyrians, "
     "Hittites, Medes, Persians, Sumerians)."),
]


def numbers(text):
    return Counter(re.findall(r"\d+", text))


@pytest.mark.parametrize("name, position, text, seat, english", RULINGS,
                         ids=[r[0] for r in RULINGS])
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_rulings_error_in_german_and_czech(language, name, position, text, seat, english):
    error = refused(position(), text, seat)
    assert str(error) == english
    step = english.split(" ", 2)[1]
    translated = said(error.said(), language)
    prefix = f"{STEP[language]} {step} ({error.text}): "
    assert translated.startswith(prefix), translated
    message, english_message = translated[len(prefix):], english[english.index("): ") + 3:]
    assert message != english_message
    assert numbers(message) == numbers(english_message), (message, english_message)
    assert not ENGLISH.search(message.replace(repr("X"), "")), message
    for tribe, stems in TRIBE_STEMS.items():
        if tribe in english_message.split("(")[0] or f"{tribe} " in english_message:
            assert stems[language] in message, (tribe, message)


def test_a_build_error_reads_as_german_and_czech_players_expect():
    error = refused(RULINGS[5][1](), RULINGS[5][2])
    assert said(error.said(), "de") == (
        "Schritt 3 (build theirs): für Baustufe 4 brauchst du 4 Völkerkarten am Ort der Meder; "
        "du hast 3.")
    assert said(error.said(), "cs") == (
        "krok 3 (build theirs): ke stavbě patra 4 potřebujete 4 karty národů ve městě Médů; "
        "máte jich 3.")


def test_czech_counts_take_their_three_plural_forms():
    one = refused(halved(), "discard H H A A S", 1)
    assert said(one.message, "cs") == "v ruce máte 1 kartu Chetitů, ale odhazujete 2."
    two = refused(make(anna={"hand": "SSA", "figure": "S"}), "settle S S S")
    assert said(two.message, "cs") == "v ruce máte 2 karty Sumerů, ale osídlujete 3."
    five = refused(halved(), "discard A A M M", 1)
    assert said(five.message, "cs") == (
        "po likvidaci poloviny karet musíte odhodit 5 karet; odhazujete 4.")
    assert said(two.message, "de") == "du hast 2 Sumerer-Karten auf der Hand, legst aber 3 an."


# -- steps in words ---------------------------------------------------------------------

def test_step_descriptions_in_each_language():
    state = make(anna={"hand": "PPMA", "figure": "H", "column": [2], "temples": {"H": [1]},
                       "rows": {"H": "HH", "A": "AAA"}})
    steps = "settle P P; build mine; migrate A S; move M; halve M"
    english = explain.explain(state, steps)
    assert english == ["settle 2 Persians in the Hittites territory",
                       "build level 2 in the Hittites territory from your column",
                       "migrate 3 cards from the Assyrians to the Sumerians",
                       "move to the Medes", "halve your opponent's hand with your Medes"]
    assert [said(s, "de") for s in english] == [
        "lege 2 Perser am Ort der Hethiter an",
        "baue Baustufe 2 am Ort der Hethiter aus deinem Lager",
        "verlege 3 Karten von den Assyrern zu den Sumerern",
        "ziehe zu den Medern",
        "halbiere die Handkarten deines Gegners mit deinem Meder-Drilling"]
    assert [said(s, "cs") for s in english] == [
        "osídlit ve městě Chetitů: 2 karty Peršanů",
        "postavit patro 2 ve městě Chetitů z vaší zásobárny",
        "přestěhovat 3 karty z města Asyřanů do města Sumerů",
        "cestovat do města Médů",
        "zlikvidovat polovinu karet v ruce protivníka (trojice: Médové)"]


def test_legal_step_labels_are_said_in_each_language():
    state = make(anna={"hand": "PM", "figure": "H", "rows": {"H": "H"}})
    labels = {o.notation: o.label for o in GAME.legal_steps(state, 0)}
    assert said(labels["settle P"], "de") == "lege 1 Perser am Ort der Hethiter an"
    assert said(labels["settle P"], "cs") == "osídlit ve městě Chetitů: 1 karta Peršanů"
    assert said(labels[""], "de") == "beende den Zug"
    assert said(labels[""], "cs") == "ukončit tah"


def test_a_turn_recounted_to_each_reader_in_each_language():
    state = make(anna={"hand": "MPPP", "figure": "A", "column": [2], "rows": {"M": "MMM"},
                       "temples": {"M": [1]}}, bob={"temples": {"M": [1]}, "hand": "AAAA"})
    event = GAME.decide(state, 0, "move M; settle P P; build mine; halve M")
    to_anna, to_bob = GAME.recount(state, event, 0), GAME.recount(state, event, 1)
    assert to_anna.words == ("moved to the Medes, settled 2 Persians there, built level 2 there "
                             "from your column and halved your opponent's hand with your Medes")
    assert said(to_anna.words, "de") == (
        "zog zu den Medern, legte 2 Perser dort an, baute Baustufe 2 dort aus deinem Lager und "
        "halbierte die Handkarten deines Gegners mit deinem Meder-Drilling")
    assert said(to_bob.words, "cs") == (
        "cesta do města Médů, osídlení tam: 2 karty Peršanů, stavba patra 2 tam ze své "
        "zásobárny a likvidace poloviny karet ve vaší ruce (trojice protivníka: Médové)")


# -- endings ------------------------------------------------------------------------------

def test_an_ending_in_each_language_for_each_reader():
    state = GAME.apply(ending_position(14, 9), GAME.decide(ending_position(14, 9), 0, "build mine"))
    assert state.result == Result(0, "fifteen-ten")
    names = ["Anna", "Bob"]
    assert GAME.ending(state, 0, names) == (
        "You win: you reached 15 points while Bob had fewer than 10 (15 to 9)")
    assert said(GAME.ending(state, 0, names), "de") == (
        "Du gewinnst: du hast 15 Punkte erreicht, während Bob weniger als 10 hatte (15 zu 9)")
    assert said(GAME.ending(state, 1, names), "de") == (
        "Anna gewinnt: Anna hat 15 Punkte erreicht, während du weniger als 10 hattest (15 zu 9)")
    assert said(GAME.ending(state, 0, names), "cs") == (
        "Vyhráváte: dosáhli jste 15 bodů a Bob má méně než 10 (15 : 9)")
    assert said(GAME.ending(state, None, names), "cs") == (
        "Vyhrává Anna: Anna má 15 bodů a Bob méně než 10 (15 : 9)")


def test_a_drawn_game_counts_the_hands_in_each_language():
    state = make(anna={"hand": "AA"}, bob={"hand": "HH"}, temple_supply=[])
    state.result = Result(None, "supply-empty")
    english = GAME.ending(state, 0, ["Anna", "Bob"])
    assert english == ("A draw: the temple supply ran out at 0 to 0, and both players hold 2 "
                       "tribe cards")
    assert said(english, "de") == ("Unentschieden: der Bauhof war beim Stand von 0 zu 0 leer, "
                                   "und beide haben 2 Völkerkarten auf der Hand")
    assert said(english, "cs") == ("Remíza: chrámové karty došly za stavu 0 : 0 a oba hráči "
                                   "mají v ruce 2 karty národů")


# -- the notation reads every language's tribe names -----------------------------------

@pytest.mark.parametrize("written, english", [
    ("settle Perser Perser", "settle persians persians"),
    ("settle 2 Perser", None),
    ("move Hethiter", "move hittites"),
    ("migrate Medern Sumerern", "migrate medes sumerians"),
    ("emigrate Assyrer; halve sumerer", "emigrate assyrians; halve sumerians"),
    ("settle Peršané Peršany", "settle persians persians"),
    ("move Chetité", "move hittites"),
    ("move CHETITE", "move hittites"),
    ("migrate Médové Sumerů", "migrate medes sumerians"),
    ("discard Asyřan asyrane Méd", "discard assyrians assyrians medes"),
    ("halve Sumerové; emigrate Chetita", "halve sumerians; emigrate hittites"),
])
def test_german_and_czech_tribe_names_read_as_the_english(written, english):
    if english is None:      # a number is no tribe, in any language
        with pytest.raises(NotationError):
            parse(written)
        return
    assert parse(written) == parse(english)


def test_an_unknown_name_lists_the_accepted_names_in_each_language():
    with pytest.raises(NotationError) as info:
        parse("move Babylonier")
    error = info.value
    assert str(error) == ("step 1 (move Babylonier): 'Babylonier' is not a tribe; write A, H, M, "
                          "P, S or a tribe's name (Assyrians, Hittites, Medes, Persians, "
                          "Sumerians).")
    assert said(error.said(), "de") == (
        "Schritt 1 (move Babylonier): 'Babylonier' ist kein Volk; schreibe A, H, M, P, S oder den "
        "Namen eines Volkes (Assyrer, Hethiter, Meder, Perser, Sumerer).")
    assert said(error.said(), "cs") == (
        "krok 1 (move Babylonier): 'Babylonier' není národ; napište A, H, M, P, S nebo jméno "
        "národa (Asyřané, Chetité, Médové, Peršané, Sumerové).")


# -- the board, the discard form and the notation help, rendered in each language ----------

@pytest.fixture(scope="module")
def app():
    from pbem.app import make_app
    return make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def rendered(app, language, template, state, seat=0):
    from flask import render_template
    with app.test_request_context(), i18n.speaking(language):
        return render_template(template, view=GAME.view(state, seat), seat=seat,
                               names=["Anna", "Bob"], path="/s/x", draft=None,
                               board_template=GAME.board_template)


def test_the_board_speaks_german_and_czech(app):
    state = make(anna={"hand": "PM", "figure": "H", "rows": {"H": "HHP"}, "temples": {"H": [1]},
                       "column": [3, 2]}, bob={"hand": "AAA", "column": [2]})
    english = rendered(app, "en", GAME.board_template, state)
    assert "Tribe supply: 5 cards" in english and "Hittites" in english
    german = rendered(app, "de", GAME.board_template, state)
    assert "Völkerkarten-Stapel: 5 Karten" in german and "Bauhof: 4 Karten" in german
    assert "Hethiter" in german and "Ort der Hethiter" in german and "Deine Handkarten" in german
    czech = rendered(app, "cs", GAME.board_template, state)
    assert "Balíček karet národů: 5 karet" in czech and "Balíček chrámových karet: 4 karty" in czech
    assert "Chetité" in czech and "Vaše ruka" in czech and "1 bod" in czech
    for page in (german, czech):
        for words in ("Tribe supply", "Temple supply", "Your hand", "Discard pile", "Hittites",
                      "no temple", "point", "Column (top last)", "(top)"):
            assert words not in page, words


def test_the_discard_form_counts_in_each_plural_form(app):
    state = halved()
    czech = rendered(app, "cs", "games/babel/discard.html", state, seat=1)
    assert "před dobráním odhoďte 5 karet" in czech
    assert 'data-more-one="Vyberte ještě {n}."' in czech
    assert 'data-over-few="To je o {n} karty víc."' in czech
    assert 'data-over-many="To je o {n} karet víc."' in czech
    german = rendered(app, "de", "games/babel/discard.html", state, seat=1)
    assert "wirf 5 Karten ab, bevor du ziehst" in german and "Choose" not in german
    english = rendered(app, "en", "games/babel/discard.html", state, seat=1)
    assert "Halving: discard 5 cards before you draw" in english
    assert 'data-over-one="That is {n} too many."' in english


def test_the_notation_help_in_each_language(app):
    from flask import render_template
    with app.test_request_context(), i18n.speaking("de"):
        german = render_template("games/babel/help.html")
    with app.test_request_context(), i18n.speaking("cs"):
        czech = render_template("games/babel/help.html")
    assert "<code>settle S S</code>" in german and "Kolonne" in german and "settle Perser" in german
    assert "<code>;</code>" in czech and "Peršané" in czech and "Kroky oddělujte" in czech


def test_the_mail_summary_in_each_language_empty_column_and_hand_agreeing_in_czech():
    state = make(anna={"hand": "", "figure": "H", "column": [], "rows": {"H": "HHP"},
                       "temples": {"H": [1]}}, bob={"hand": "AAA", "column": [3, 2]})
    english = GAME.summary(state, 0)
    assert english[:3] == ["Your hand: empty", "Columns (top last): yours empty, your opponent's 3 2",
                           "Your figure: Hittites; your opponent's: quarry"]
    assert english[3] == "Hittites: you temple 1, row HHP | opponent -"
    assert [said(line, "cs") for line in english] == [
        "Vaše ruka: prázdná", "Zásobárny (poslední nahoře): vaše prázdná, protivníkova 3 2",
        "Vaše figurka: Chetité; figurka protivníka: lom", "Chetité: vy chrám 1, řada HHP | protivník -",
        "Body: vy 1, protivník 0; balíček karet národů 5, balíček chrámových karet 4"]
    assert [said(line, "de") for line in english][:2] == [
        "Deine Handkarten: keine", "Lager (oberste zuletzt): deins leer, das deines Gegners 3 2"]
