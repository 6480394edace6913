"""Phrases: English for everyone who reads a str, translatable for a server that knows how."""

from __future__ import annotations

import copy
import pickle

from pbem.games.phrases import Phrase, phrase, phrase_n, say

GERMAN = {"{n} card": "{n} Karte", "{n} cards": "{n} Karten", "you hold {cards}.": "du hast {cards}.",
          "broken {x}": "kaputt {y}"}


def gettext(msgid):
    return GERMAN.get(msgid, msgid)


def ngettext(singular, plural, n):
    return GERMAN.get(singular if n == 1 else plural, singular if n == 1 else plural)


def test_a_phrase_reads_as_its_english_sentence():
    p = phrase("you hold {cards}.", cards=phrase_n("{n} card", "{n} cards", 3))
    assert p == "you hold 3 cards." and isinstance(p, str) and isinstance(p, Phrase)
    assert phrase_n("{n} card", "{n} cards", 1) == "1 card"
    assert phrase("no parameters {here}") == "no parameters {here}"   # not formatted without any


def test_a_phrase_is_said_with_its_parameters_translated():
    p = phrase("you hold {cards}.", cards=phrase_n("{n} card", "{n} cards", 3))
    assert say(p, gettext, ngettext) == "du hast 3 Karten."
    assert say(phrase_n("{n} card", "{n} cards", 1), gettext, ngettext) == "1 Karte"
    assert say("plain", gettext, ngettext) == "plain"


def test_numbers_are_said_by_the_locale_and_capitals_kept():
    p = phrase("{n} cards", n=1500).capitalized()
    assert say(p, gettext, ngettext, number=lambda v: f"{v:,}".replace(",", ".")) == "1.500 Karten"
    assert phrase("anna wins").capitalized() == "Anna wins"


def test_a_translation_that_does_not_fit_its_parameters_falls_back_to_english():
    assert say(phrase("broken {x}", x=1), gettext, ngettext) == "broken 1"


def test_copies_and_pickles_keep_the_phrase():
    p = phrase("you hold {cards}.", cards=phrase_n("{n} card", "{n} cards", 2))
    for twin in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert isinstance(twin, Phrase) and twin == p
        assert say(twin, gettext, ngettext) == "du hast 2 Karten."


def test_a_phrase_stored_as_data_is_said_as_before():
    import json

    from pbem.games.phrases import from_data, to_data
    p = phrase("{who} won: {why}", who="Anna", why=phrase_n("{n} card", "{n} cards", 2)).capitalized()
    back = from_data(json.loads(json.dumps(to_data(p))))
    assert back == p and isinstance(back, Phrase)
    assert say(back, gettext, ngettext) == say(p, gettext, ngettext)
    assert to_data("plain") == "plain"
