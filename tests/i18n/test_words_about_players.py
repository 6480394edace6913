"""Words about a player read right whoever the player is: a Czech past tense agrees with its
subject's gender ("osídlil" is a man's, "osídlila" a woman's), so no Czech sentence about a
named player or about the reader ("you") uses it; each turn is told as a noun phrase
("Dora: osídlení ...", "Váš tah: položení ..."), and nothing hedges with "(a)". Nor does a
German or English sentence about a named player assume he is a man ("für ihn", "his").
"""

from __future__ import annotations

import re

import pytest
from tests.i18n.test_catalogues import entries

from pbem import games, i18n
from pbem.games.rng import Rng
from pbem.views import seatview

#: A Czech past participle (active, "-l" after a vowel, with its feminine and plural forms).
PAST = re.compile(r"\b\w+[aeiouyáéěíóúůý]l[aoiy]?\b")
#: Words of that shape that are no verbs.
NOT_VERBS = {"patro", "pole", "poli", "hala", "kola", "místo"}


def told_words(kind: str, players: int, seed: int) -> list:
    """Every decision of a random game told to its mover ("you") and to another seat."""
    engine = games.get(kind)
    state, rng, said = engine.start(seed, {}, players, 0), Rng(seed), []
    while engine.outcome(state) is None:
        seat = engine.to_act(state)[0].seat
        event = engine.decide(state, seat, engine.random_submission(state, seat, rng))
        for reader in (seat, (seat + 1) % players):
            words = engine.recount(state, event, reader).words
            if words:
                said.append(seatview.phrase("You {words}.", words=words) if reader == seat
                            else seatview.phrase("{name} {words}.", name="Dora", words=words))
        state = engine.apply(state, event)
    return said


@pytest.mark.parametrize("kind,players", [("babel", 2), ("babel-tower", 2), ("babylonia", 3)])
def test_a_turn_told_in_czech_uses_no_past_tense_of_its_mover(app, kind, players):
    with app.app_context(), i18n.speaking("cs"):
        told = [str(i18n.say(p)) for p in told_words(kind, players, 5)]
    assert told
    verbs = sorted({w for line in told for w in PAST.findall(line) if w.lower() not in NOT_VERBS})
    assert not verbs, verbs


@pytest.mark.parametrize("language", ["cs", "de"])
def test_no_sentence_hedges_a_players_gender(language):
    hedged = re.compile(r"\(a\)|\bfür ihn\b|\bsag ihm\b|\bder vielleicht\b|, er soll\b|"
                        r"\bwann er\b|\bplaces? any of his\b|\bmísto něj\b")
    bad = [f"{area}: {m.id!r} => {m.string!r}" for area, m in entries(language)
           if any(hedged.search(s) for s in (m.string if isinstance(m.string, tuple)
                                             else (m.string,)))]
    assert not bad, "\n".join(bad)
