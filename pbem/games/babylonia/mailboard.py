"""Babylonia's board as text for a mail, so a player can answer from his mailbox.

Built from the seat's view (`view.view`), so it shows nothing the seat may not know: the
others' face-down river tokens are `?`, their stands only counted. What matters for a turn:
the players (by name), the seat's stand, each city and ziggurat not yet scored with the hexes
around it and whose tokens are there, and the hexes his tokens may go onto now, by region.
Every line fits a mail read at 80 columns (at most `WIDTH` characters, the mail indents them).
Its words are phrases, and so are the tokens' letters (`notation.LETTER`: B for a German
farmer, R for a Czech one): a line is wrapped as the English reads, each of its pieces said in
the reader's language (`_wrap_pieces`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from ..base import StepOption
from ..phrases import phrase, phrase_n
from .board import board
from .cards import city_letters, joined, letters, tile_name
from .notation import LETTER, WORDS
from .state import KINDS, State

WIDTH = 76
REGIONS = (("north", phrase("northern land")), ("center", phrase("central land")),
           ("south", phrase("southern land")), (None, phrase("river (tokens lie face down there)")))


def lines(state: State, seat: int, names: Sequence[str], v: dict[str, Any],
          options: list[StepOption]) -> list[str]:
    """The text board for `seat` (`v`: its view; `options`: its legal next steps)."""
    names = list(names) or [phrase("Player {number}", number=s + 1) for s in range(v["players"])]
    hexes = {h["name"]: h for h in v["hexes"]}
    out: list[str] = [phrase("Players:")]
    for s in range(v["players"]):
        cities = _commas([city_letters(c.split(" ", 1)[1]) for c in v["cities"][s]]) or phrase("none")
        cards = " ".join(map(str, v["cards"][s])) or phrase("none")
        points = _points(v["scores"][s])
        who = (phrase("{name} (you): {points}; stand {stand}", name=names[s], points=points,
                      stand=v["stand_sizes"][s]) if s == seat else
               phrase("{name}: {points}; stand {stand}", name=names[s], points=points,
                      stand=v["stand_sizes"][s]))
        out += _wrap_pieces([who, phrase("supply {supply}; cities {cities}; cards {cards}",
                                         supply=v["supply_sizes"][s], cities=cities, cards=cards)],
                            "  ", "      ")
    stand = v["stands"][seat] or {}
    tokens = letters(w[0].upper() for w, n in stand.items() for _ in range(n)) or phrase("empty")
    out += _wrap_pieces([phrase("Your stand: {tokens}  (F farmer, P priest, M merchant, O official)",
                                tokens=tokens)], "", "  ")
    out.append("")
    out.append(phrase("Cities and ziggurats, with the hexes around them (F P M O: tokens,"))
    out.append(phrase("? face down, - free):"))
    around = board(v["players"]).neighbours
    short = _short(names)
    sites = [h for h in v["hexes"] if (h["tile"] or "").startswith("city")
             or (h["kind"] == "ziggurat" and not h["scored"])]
    for h in sorted(sites, key=lambda h: _order(h["name"])):
        what = tile_name(h["tile"]) if h["kind"] != "ziggurat" else phrase("ziggurat")
        near = [_near(hexes[n], short) for n in sorted(around[h["name"]], key=_order)]
        head = phrase("{hex} {what}: {near}", hex=h["name"], what=what, near=near[0])
        out += _wrap_pieces([head, *near[1:]], "  ", "      ")
    if not sites:
        out.append(joined(["  ", phrase("none left")]))
    out.append("")
    out += _options(state, seat, v, hexes, options)
    return out


def _short(names: list[str]) -> list[str]:
    """The players' first names where these tell them apart (the board names many tokens)."""
    first = [(n.split() or [n])[0] for n in names]
    return first if len(set(first)) == len(first) else names


def _points(n: int) -> str:
    return phrase_n("{n} point", "{n} points", n)


def _near(h: dict[str, Any], names: Sequence[str]) -> str:
    token = h["token"]
    if token is not None:
        return joined([h["name"], " ", names[token["seat"]], " ", LETTER.get(token["kind"], token["kind"])])
    if h["kind"] == "ziggurat":
        return phrase("{hex} ziggurat", hex=h["name"])
    if h["tile"]:
        return phrase("{hex} {tile}", hex=h["name"], tile=tile_name(h["tile"]))
    return f"{h['name']} -"


def _options(state: State, seat: int, v: dict[str, Any], hexes: dict[str, dict[str, Any]],
             options: list[StepOption]) -> list[str]:
    """What the seat may answer now: the hexes each token may go onto, or the cards."""
    cards = [o.notation for o in options if o.notation.startswith("card ")]
    if cards:
        out: list[str] = [phrase("Choose one ziggurat card (answer e.g. \"{card}\"):", card=cards[0])]
        for number in v["available"]:
            out += _wrap_pieces([phrase("{number}: {effect}", number=number,
                                        effect=v["card_words"][str(number)])], "  ", "     ")
        return out
    kinds_at: dict[str, set[str]] = {}
    for o in options:   # (some hundred: each hex a token may go onto, once per kind)
        word, _, hex = o.notation.partition(" ")
        kind = _KIND_OF.get(word)
        if kind is not None and hex:
            kinds_at.setdefault(hex, set()).add(kind)
    if not kinds_at:
        return []
    every = set().union(*kinds_at.values())
    out = [phrase("Where your tokens ({letters}) may go now (a field: the tokens it takes):",
                  letters=letters(k for k in KINDS if k in every))]
    for area, title in REGIONS:
        here = [h for h in kinds_at if hexes[h]["area"] == area and hexes[h]["kind"] != "river"
                or area is None and hexes[h]["kind"] == "river"]
        if not here:
            continue
        plain = [h for h in here if kinds_at[h] == every and not hexes[h]["tile"]]
        marked = sorted((h for h in here if h not in plain), key=_order)
        words = _runs(plain) + [_marked(h, hexes[h], _only(kinds_at[h], every)) for h in marked]
        out += _wrap_pieces([phrase("{region}: {hexes}", region=title, hexes=words[0]),
                             *words[1:]], "  ", "    ")
    return out


#: A token's kind by its word in a step's notation ("farmer" -> "F").
_KIND_OF = {w: k for k, w in WORDS.items()}


def _marked(hex: str, h: dict[str, Any], only: str) -> str:
    """A hex named with its field and the tokens it takes: "f4 (field 6: F)"."""
    if not h["tile"]:
        return joined([hex, " (", only, ")"])
    return phrase("{hex} ({tile}{only})", hex=hex, tile=tile_name(h["tile"]), only=only)


def _only(kinds: set[str], every: set[str]) -> str:
    if kinds == every:
        return ""
    return joined([": ", letters(k for k in KINDS if k in kinds)])


def _commas(items: list[str]) -> str:
    """Items joined by ", ", each kept as a phrase ("" for none)."""
    return joined([piece for number, item in enumerate(items)
                   for piece in ((", ", item) if number else (item,))]) if items else ""


def _order(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def _runs(names: list[str]) -> list[str]:
    """Hex names with runs down a column joined: c2, c3, c4, d1 -> "c2-4", "d1"."""
    runs: list[tuple[str, int, int]] = []
    for name in sorted(names, key=_order):
        col, row = _order(name)
        if runs and runs[-1][0] == col and runs[-1][2] == row - 1:
            runs[-1] = (col, runs[-1][1], row)
        else:
            runs.append((col, row, row))
    return [f"{c}{a}" if a == b else f"{c}{a}-{b}" for c, a, b in runs]


def _wrap_pieces(pieces: list[str], first: str, rest: str) -> list[str]:
    """The pieces joined by commas, in lines of at most WIDTH broken only between pieces, each
    line made of whole pieces kept as phrases (measured in English: another language keeps its
    breaks). A piece too long for a line of its own is broken at its spaces, in English (a
    line of its words cuts the phrase): a player's list of cities would need some twenty."""
    out: list[str] = []
    indent, line = first, list[str]()
    last = len(pieces) - 1
    for number, piece in enumerate(pieces):
        comma = 1 if number < last else 0
        if line and len(indent) + len(", ".join([*line, piece])) + comma > WIDTH:
            out.append(_line(indent, line, comma=True))
            indent, line = rest, list[str]()
        if not line and len(indent) + len(piece) + comma > WIDTH:
            broken = textwrap.wrap(str(piece) + "," * comma, WIDTH, initial_indent=indent,
                                   subsequent_indent=rest, break_on_hyphens=False)
            out += broken
            indent = rest
            continue
        line.append(piece)
    if line:
        out.append(_line(indent, line, comma=False))
    return out or [first.rstrip()]


def _line(indent: str, pieces: list[str], comma: bool) -> str:
    parts = [indent]
    for number, piece in enumerate(pieces):
        parts += [", ", piece] if number else [piece]
    return joined([p for p in parts + ([","] if comma else []) if p])
