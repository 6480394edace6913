"""What the acceptance tests of issue 18 share: the words a German or Czech reader must not
find, the text a reader sees of a page or a mail, and games played through the turn service.

A page's visible text is its text outside `<code>`, `<pre>`, `<kbd>`, `<samp>`, `<textarea>`,
`<script>` and `<style>` (the notation stays English, and so do links), plus what a browser
shows or reads out of its attributes (`title`, `alt`, `placeholder`, `aria-label`, a button's
`value`). A mail's text part is read without its links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser

#: English words of today's pages and mails that no German or Czech page may show, matched
#: as whole words whatever their case. Left out: words German or Czech write the same way
#: ("die", "also", "will", "was", "hat", "hand", "link", "mail", "home", "start", "computer",
#: Czech "a", "to", "no", "na", "do", "by", "on"), and the notation's keywords (move, settle,
#: build, migrate, destroy, rob, emigrate, switch, jump, halve, discard, pass, mine, theirs;
#: Babel Tower's pick, place; Babylonia's farmer, priest, merchant, official, score, card,
#: extra), which stay English in every language (a text mail shows notation unmarked).
ENGLISH = frozenset("""
    your you yours the and of with from for this that these those there their they them
    is are been has have had not must can cannot which when what who whom here than
    turn turns game games player players opponent opponents submit submitted deadline
    waiting wait step steps preview wins win won lost draw territory territories temple
    temples cards tribe tribes column columns row rows level levels points
    scores assyrians hittites medes persians sumerians farmers priests merchants nobles
    officials city cities river ziggurat ziggurats tokens cube cubes tower bumps hollows
    resign resigned yes next last left settled moved built placed over record hello
    invited reminder vacation digest unsubscribe decline declined confirm anyone nobody
    everyone days hours minutes today already please
""".split())

#: What may stand in a translated page though English: game titles and player names.
NAMES = ("Babel Tower", "Babel", "Babylonia", "pbem")

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
URL = re.compile(r"https?://\S+")
#: Names that are no words: time zones (America/Port_of_Spain), paths, addresses.
IDENTIFIER = re.compile(r"\S*[/_@]\S*")
#: A Babel column is named by its tribes' letters, the same in every edition ("HAS" is the
#: Hittites', Assyrians' and Sumerians' column, "Hethiter, Assyrer, Sumerer" in German).
COLUMN = re.compile(r"[AHMPS]+")
HIDDEN = {"code", "pre", "kbd", "samp", "textarea", "script", "style"}
SHOWN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")


class _Visible(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN:
            self.hidden += 1
        attributes = dict(attrs)
        if not self.hidden:
            self.parts.extend(attributes[a] for a in SHOWN_ATTRIBUTES if attributes.get(a))
            if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
                self.parts.append(attributes["value"])
        self.parts.append(" ")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in HIDDEN:
            self.hidden -= 1

    def handle_endtag(self, tag):
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    """The words a reader sees of an HTML page or mail part (see the module's docstring)."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def plain(text: str) -> str:
    """A text mail as read: its links left out."""
    return " ".join(URL.sub(" ", unescape(text)).split())


def english_in(text: str, names: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The English words of `text` (whole words, any case), each with some context; `names`
    (the players') and the games' titles are not words."""
    text = " ".join(IDENTIFIER.sub(" ", text).split())
    for name in sorted((*NAMES, *names), key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    for match in WORD.finditer(text):
        if match.group().lower() in ENGLISH and not COLUMN.fullmatch(match.group()):
            start, end = max(0, match.start() - 40), match.end() + 40
            found.append((match.group(), "…" + text[start:end] + "…"))
    return found


@dataclass
class Read:
    """One page or mail as read: where it came from and its visible text."""
    where: str
    text: str


def report(reads: list[Read], names: tuple[str, ...] = ()) -> str:
    """The pages and mails with English words, each with the words and their context (one
    entry for pages and mails that read alike, saying how many), after a count of the pages
    and mails each word was found in; "" when none has any."""
    alike: dict[str, list[Read]] = {}
    for read in reads:
        alike.setdefault(read.text, []).append(read)
    lines, counts = [], {}
    for text, same in alike.items():
        found = english_in(text, names)
        if not found:
            continue
        words = sorted({w.lower() for w, _ in found})
        for word in words:
            counts[word] = counts.get(word, 0) + len(same)
        more = f" (and {len(same) - 1} more alike)" if len(same) > 1 else ""
        lines.append(f"{same[0].where}{more}: {len(found)} English words: {', '.join(words)}")
        seen = set()
        for word, context in found:
            if word.lower() not in seen:
                seen.add(word.lower())
                lines.append(f"    {word!r}: {context}")
    if not lines:
        return ""
    summary = ", ".join(f"{w} {n}" for w, n in sorted(counts.items(), key=lambda c: (-c[1], c[0])))
    return f"words (in how many pages or mails): {summary}\n" + "\n".join(lines)


# -- games played through the turn service --------------------------------------------------



def speak(app, addresses, language: str, confirm_replies: bool = True) -> None:
    """Each address chose `language` on its home (its new seats speak it), a mail per turn."""
    from pbem.players import settings
    with app.app_context():
        for address in addresses:
            settings.change(address, "Europe/Berlin" if language == "de" else "Europe/Prague",
                            language, settings.EACH, confirm_replies)


def pytest_collection_modifyitems(items):
    """The tests that read one set-up made `once` (test_no_english_left's `played`) side by side,
    so that pytest-xdist, which hands out neighbouring tests together, gives them one process."""
    def played(item) -> tuple:
        callspec = getattr(item, "callspec", None)
        if item.path.name != "test_no_english_left.py" or callspec is None:
            return ()
        return tuple(callspec.params.get("played", ()))
    positions = [i for i, item in enumerate(items) if played(item)]
    ordered = sorted((items[i] for i in positions), key=played)   # stable: a test's order kept
    for i, item in zip(positions, ordered):
        items[i] = item
