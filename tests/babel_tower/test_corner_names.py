"""The tower's corners named in the reader's compass (issue 26): German NW NO SO SW (Nord,
Ost, Süd, West), Czech SZ SV JV JZ (sever, východ, jih, západ), on the page's plans, the
picture's free corners, the placing form, the mails' floors, the told turns and the errors;
the log keeps the English corner, and a reply may name it in any of the three languages."""

from __future__ import annotations

import re

import pytest

from html_tree import page
from pbem import i18n
from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.notation import parse
from pbem.games.babel_tower.words import CORNER_LETTERS, CORNER_NAMES
from pbem.games.errors import GameError
from pbem.games.phrases import say
from pbem_web import ANNA, BOB, reply_to, text_of

CORNERS = ("NW", "NE", "SE", "SW")


def said(value, language: str) -> str:
    cat = i18n.catalogue(language)
    return say(value, cat.gettext, cat.ngettext)


def test_the_catalogues_say_the_corners_the_notation_reads():
    for language, names in CORNER_LETTERS.items():
        assert {c: said(CORNER_NAMES[c], language) for c in CORNERS} == names


def test_no_name_means_two_corners_in_any_two_languages():
    seen: dict[str, str] = {}
    for names in CORNER_LETTERS.values():
        for corner, name in names.items():
            assert seen.setdefault(name, corner) == corner, (name, corner)


@pytest.mark.parametrize("language", ["en", "de", "cs"])
def test_a_placement_named_in_a_languages_corners_is_read_as_english(language):
    names = CORNER_LETTERS[language]
    for corner in CORNERS:
        [step] = parse(f"place 3 {names[corner].lower()} UNE")
        assert str(step) == f"place 3 {corner} UNE"


@pytest.mark.parametrize("language", ["de", "cs"])
def test_mails_told_turns_and_errors_name_the_readers_corners(language):
    names = CORNER_LETTERS[language]
    state = GAME.start(3, {"draft": "random"})
    seat = GAME.to_act(state)[0].seat
    step = GAME.legal_steps(state, seat)[0].notation
    event = GAME.decide(state, seat, step)
    after = GAME.apply(state, event)
    _, cube, corner, faces = step.split()
    lines = [said(line, language) for line in GAME.summary(after, 0, ["Anna", "Bob"])]
    assert any(line.endswith(f": {names[corner]} {cube} {faces}") for line in lines), lines
    assert re.search(rf" {names[corner]}\b", said(GAME.recount(state, event, 0).words, language))
    other = 1 - seat
    held = next(t for t, n in enumerate(after.hands[other]) if n)
    with pytest.raises(GameError) as info:
        GAME.decide(after, other, f"place {held} {corner} -")
    assert re.search(rf"\b{names[corner]}\b", said(info.value.said(), language))


def new_game(app, languages: tuple[str, str]) -> str:
    result = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel-tower", "--player", f"Anna <{ANNA}> {languages[0]}",
        "--player", f"Bob <{BOB}> {languages[1]}", "--first", "0", "--seed", "3",
        "--option", "draft=random"])
    assert result.exit_code == 0, result.output
    return result.output.strip()


def test_a_czech_reply_names_its_corner_and_the_pages_show_each_readers(app, client, actions,
                                                                         smtp):
    game = new_game(app, ("cs", "de"))
    actions.deliver()
    mail = [m for m in smtp.to(ANNA) if m["Reply-To"] is not None][-1]
    step = GAME.legal_steps(actions.state(game).state, 0)[0].notation    # place T CORNER FACES
    _, cube, corner, faces = step.split()
    czech = f"place {cube} {CORNER_LETTERS['cs'][corner]} {faces}"
    output = app.test_cli_runner().invoke(
        args=["ingest"], input=reply_to(mail, czech, {ANNA: "Anna", BOB: "Bob"})).output
    assert output.startswith(f"applied (game {game}): "), output
    assert actions.state(game).events[-1]["step"] == step     # the log keeps English
    actions.deliver()
    told = text_of([m for m in smtp.to(BOB) if m["Reply-To"] is not None][-1])
    assert f" {CORNER_LETTERS['de'][corner]} " in told
    # Bob's place page (German): the plan's corners, the picture's free corners, the form's lists.
    root = page(client.get(actions.links(BOB)["turn"]))
    plan = [s.text() for s in root.all("span", "corner")]
    assert sorted(plan) == sorted(CORNER_LETTERS["de"].values())
    free = [t.text() for a in root.all("a", "freecorner") for t in a.all("text")]
    assert free and set(free) <= set(CORNER_LETTERS["de"].values()) and "NE" not in free
    lists = [d.one("summary").text().split(":")[0] for d in root.all("details", "placecorner")]
    assert sorted(lists) == sorted(free)
