"""Babylonia's token letters in the reader's language (issue 26): German B P H Be (Bauer,
Priester, Händler, Beamter), Czech R K Ob Ú (rolník, kněz, obchodník, úředník), on the page's
map and stand, in the mail board and the step buttons; the notation stored stays English, and
a reply may name a token in any of the three languages, by letter or by word."""

from __future__ import annotations

import re

import pytest

from babylonia_positions import position
from html_tree import page
from pbem import i18n
from pbem.games.babylonia import GAME
from pbem.games.babylonia.notation import LETTER, LETTERS, WORDS, canonical, parse
from pbem.games.phrases import say
from pbem_web import reply_to, text_of

NAMES = ["Anna", "Bob"]
EMAILS = ["anna@example.org", "bob@example.org"]


def said(value, language: str) -> str:
    cat = i18n.catalogue(language)
    return say(value, cat.gettext, cat.ngettext)


def test_the_catalogues_say_the_letters_the_notation_reads():
    for language, letters in LETTERS.items():
        assert {k: said(LETTER[k], language) for k in WORDS} == letters


def test_no_letter_names_two_kinds_in_any_two_languages():
    seen: dict[str, str] = {}
    for letters in LETTERS.values():
        for kind, letter in letters.items():
            assert seen.setdefault(letter.lower(), kind) == kind, (letter, kind, seen[letter.lower()])


@pytest.mark.parametrize("language", ["en", "de", "cs"])
def test_a_turn_written_with_a_languages_letters_and_words_is_stored_in_english(language):
    letters = LETTERS[language]
    text = "; ".join(f"{letters[k].lower() if n % 2 else letters[k]} g{n + 2}"
                     for n, k in enumerate("FPMO"))
    assert canonical(text) == "farmer g2\npriest g3\nmerchant g4\nofficial g5"
    words = {"en": "farmer g7; priest g8; merchant g9; official g10",
             "de": "Bauer g7; Priester g8; Händler g9; Beamter g10",
             "cs": "rolník g7; kněz g8; obchodník g9; úředník g10"}[language]
    assert [str(s) for s in parse(words)] == ["farmer g7", "priest g8", "merchant g9", "official g10"]


BOARD = dict(tiles={"h10": "city MS"}, tokens="0M g10, 0O g11, 1F h11", stands=["FFPMO", "FFPMO"])


@pytest.mark.parametrize("language, stand, city, near", [
    ("de", "Dein Ablage-Ständer: B B P H Be (B Bauer, P Priester, H Händler, Be Beamter)",
     "h10 Stadt H Be:", "g10 Anna H, g11 Anna Be, h9 -, h11 Bob B"),
    ("cs", "Váš stojan: R R K Ob Ú  (R rolník, K kněz, Ob obchodník, Ú úředník)",
     "h10 město Ob Ú:", "g10 Anna Ob, g11 Anna Ú, h9 -, h11 Bob R"),
])
def test_the_mail_board_names_tokens_and_cities_with_the_readers_letters(language, stand, city,
                                                                           near):
    lines = [said(line, language) for line in GAME.summary(position(**BOARD), 0, NAMES)]
    text = "\n".join(lines)
    assert stand in lines
    assert f"  {city} {near}" in text
    where = next(line for line in lines if "(Acker" in line or "(pole" in line)
    tokens = re.search(r"\((.*?)\)", where).group(1)
    assert tokens.split() == [LETTERS[language][k] for k in "FPMO"]
    assert all(len(line) <= 76 for line in lines if re.search(r"\bB[e ]|\bOb\b", line)), lines
    assert not re.search(r"\b[FMO]\b", text.replace("? ", "")), "an English letter is left"


def new_game(app, languages: tuple[str, str]) -> str:
    args = ["new-game", "--game", "babylonia", "--first", "0", "--seed", "5"]
    for name, addr, language in zip(NAMES, EMAILS, languages):
        args += ["--player", f"{name} <{addr}> {language}"]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    return result.output.strip()


def test_a_german_reply_with_german_letters_is_played_and_shown_in_each_readers_letters(
        app, client, actions, smtp):
    game = new_game(app, ("de", "cs"))
    actions.deliver()
    mail = [m for m in smtp.to(EMAILS[0]) if m["Reply-To"] is not None][-1]
    assert "Dein Ablage-Ständer: " in text_of(mail) and "(B Bauer, P Priester" in text_of(mail)
    first = next(o.notation for o in GAME.legal_steps(actions.state(game).state, 0) if not o.ends)
    word, hex = first.split()
    kind = {w: k for k, w in WORDS.items()}[word]
    german = f"{LETTERS['de'][kind]} {hex}"
    output = app.test_cli_runner().invoke(
        args=["ingest"], input=reply_to(mail, german, dict(zip(EMAILS, NAMES)))).output
    assert output.startswith(f"applied (game {game}): "), output
    loaded = actions.state(game)
    assert loaded.state.tokens[hex].kind == kind
    assert loaded.events[-1]["steps"] == first      # the log keeps the English notation
    # Bob reads Czech: the map and his stand carry Czech letters, the token Anna played among them.
    root = page(client.get(actions.links(EMAILS[1])["seat"]))
    svg = root.one("svg", "hexmap")
    drawn = {g.attrs["data-hex"]: g.all("text", "tokl")[0].text() for g in svg.all("g", "hx")
             if g.all("text", "tokl")}
    assert drawn == {hex: LETTERS["cs"][kind]}
    chips = [c.text() for c in root.one("li", "me").one("p", "stand").all("span", "chip")]
    assert chips and set(chips) <= set(LETTERS["cs"].values())
    cities = [t.text() for t in svg.all("text", "cityl")]
    assert cities and all(set(c.split()) <= {"K", "Ob", "Ú"} for c in cities)
