"""The Babel turn page of a German seat and of a Czech seat in Chromium (issue 18), on a
360-pixel phone and a 1280-pixel desktop: the page says its language (`<html lang>`), never
scrolls sideways on the phone, and a step composed by touching the board is told in the
seat's language, with the tribe's name of the printed edition; what the browser shows then
(the script's words too) holds no English word of today's pages. Screenshots go to
docs/screenshots/turn-babel-<de|cs>-<360|1280>.png, for the README and docs/.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll, tap_and_wait

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
VIEWPORTS = {360: {"width": 360, "height": 780}, 1280: {"width": 1280, "height": 900}}
#: Each language's player starts a game of his own, so his first mail holds his turn link.
PLAYERS = {"de": ("Klaus", "klaus@example.de", "Jana", "jana.de@example.cz", "cs"),
           "cs": ("Jana", "jana@example.cz", "Klaus", "klaus.cs@example.de", "de")}
#: The beginning of each tribe's name in the printed editions, in any grammatical case.
TRIBE_STEMS = {"de": {"A": "Assyrer", "H": "Hethiter", "M": "Meder", "P": "Perser", "S": "Sumerer"},
               "cs": {"A": "Asyř", "H": "Chetit", "M": "Méd", "P": "Perš", "S": "Sumer"}}
#: What the reader sees of the page now, the script's words too: its text without notation.
SHOWN = """() => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll('code, pre, kbd, samp, textarea, script, style, template').forEach(e => e.remove());
  return body.innerText;
}"""


def _reading():
    """The acceptance tests' list of English words and how they are found (tests/i18n)."""
    spec = importlib.util.spec_from_file_location("i18n_reading", ROOT / "tests" / "i18n" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module     # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


english_in = _reading().english_in


def open_first_turn(page, server, address: str) -> None:
    """The player's invitation in the local outbox (his only mail: he starts), and its turn link."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=address).first.locator("a").click()
    with page.expect_navigation():
        page.locator("pre.mailtext a[href*='/t/']").first.click()


def touch_a_territory(page) -> str:
    """A territory touched (the figure moves there): its letter, once the server's preview of
    the step replaced the draft."""
    territory = page.locator("#draft section.territory.playable").first
    letter = territory.get_attribute("data-target")
    tap_and_wait(page, territory)
    return letter


@pytest.fixture
def games(server):
    """A German and a Czech player, each starting a game against the other language's."""
    for language, (name, address, other, other_address, other_language) in PLAYERS.items():
        server.flask("new-game", "--game", "babel", "--player", f"{name} <{address}> {language}",
                     "--player", f"{other} <{other_address}> {other_language}", "--first", "0",
                     "--seed", "3")
    return server


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
@pytest.mark.parametrize("language", sorted(PLAYERS))
def test_the_babel_turn_page_speaks_the_seats_language(games, browser, language, width):
    name, address, *_ = PLAYERS[language]
    page = browser.new_page(viewport=VIEWPORTS[width], has_touch=True)
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    open_first_turn(page, games, address)
    assert page.locator("#composer").count() == 1
    letter = touch_a_territory(page)   # (and no error: tap_and_wait)
    page.screenshot(path=str(SHOTS / f"turn-babel-{language}-{width}.png"), full_page=True)

    wrong = []      # everything found wrong, said at once
    lang = page.locator("html").get_attribute("lang")
    if lang != language:
        wrong.append(f"<html lang={lang!r}>, not {language!r}")
    if width == 360 and not no_sideways_scroll(page):
        wrong.append("the page scrolls sideways at 360 px")
    [step] = page.locator("#draft .draft-steps li").all()
    assert step.locator("code").text_content() == f"move {letter}"     # the notation stays
    label = " ".join(step.locator(".words").text_content().split())
    if TRIBE_STEMS[language][letter] not in label:
        wrong.append(f"the step's label {label!r} does not name the tribe as {language} does "
                     f"({TRIBE_STEMS[language][letter]}…)")
    if english_in(label):
        wrong.append(f"the step's label {label!r} is English")
    shown = page.evaluate(SHOWN)
    found = english_in(shown, (name, PLAYERS[language][2]))
    if found:
        words = sorted({w.lower() for w, _ in found})
        wrong.append(f"{len(found)} English words shown ({', '.join(words)}): "
                     + "; ".join(f"{w!r} in {c}" for w, c in found[:15]))
    assert not wrong, f"the {language} turn page at {width} px:\n" + "\n".join(wrong)
