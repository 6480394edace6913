"""Babylonia judged from the rules, and the whole turns worth considering (the bots' `greedy`
level and the search's candidates: pbem/bots/turns.py).

`value(state, seat)` is the seat's lead in points over the best other seat, counting for
each side its score and what the board promises (BABYLONIA-RULINGS.md):
- a city goes to the strict majority next to it when it is surrounded, and pays its taker
  1 point per city in front of him (the lead compounds): each city on the board counts by
  the seat's chance of the majority, weighted by how close it is to being surrounded and by
  the cities the seat already holds; its face-up nobles next to it whose symbol it shows
  score 2 each then;
- an unscored ziggurat gives its majority a card; a token next to a ziggurat scores 1 for
  every ziggurat the seat touches, so touching many pays on;
- a field next to one of the seat's tokens is open to its farmers;
- cards held and unused: each by what it does.

`chance(state, seat)` judges the same worth against each rival alone (the search's reward
with more than two players: the share of the others the seat is likely to finish ahead of).

`turns(state, seat)` lists whole turns: a beam over the tokens played (the plays near a
city, a ziggurat or a field, ranked by `value` after each), each complete way finished by
the closing steps (scoring order, the card for an own ziggurat, `extra`) and ranked by
`value` after it; the owed card is chosen by `value` after taking it.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import cache

from ..base import StepOption
from . import legal, turn
from .board import board
from .notation import KIND_OF, Card, parse_one
from .state import CITY_LETTERS, State, Token

DECIDED = 100.0
#: Plays kept after each token, and the most tokens a turn's beam looks at.
BEAM, TOKENS, PLAYS = 4, 4, 12
#: The sites' worth (`_site`), by what the rules pay. How sure a race is: CLOSE for a site
#: with many free hexes around it, 1 for a site with none.
CLOSE = 0.35
#: A city's majority race: the chance of taking it with a strict majority and at most one
#: free hex left, with more left, level with the most, behind (but there).
CITY_CHANCE = (0.85, 0.65, 0.3, 0.1)
#: A city taken pays CITY and CITY_HELD for each city the seat holds already; each face-up
#: noble next to it whose symbol it shows, NOBLE.
CITY, CITY_HELD, NOBLE = 1.5, 1.2, 2.0
#: A touched ziggurat (every later token next to one scores for each touched), the
#: majority's card, and a field next to a token (its points by the farmers to come).
ZIGGURAT_TOUCH, ZIGGURAT_CARD, FIELD = 0.7, 3.0, 0.25
#: What an unused card is worth (card 1 scores its 10 at once; card 7's grows with cities).
CARD_WORTH = {1: 0.0, 2: 5.0, 3: 2.5, 4: 2.0, 5: 2.0, 6: 2.5, 7: 1.0, 8: 2.0, 9: 2.0}


@cache
def _around(players: int) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """For each hex: its neighbours, and those of them that are land."""
    b = board(players)
    return {h: (tuple(b.neighbours[h]), tuple(n for n in b.neighbours[h]
                                             if b.hexes[n].kind == "land")) for h in b.hexes}


class Memo:
    """What was judged of one position, for the positions a token away (`turns`' beam):
    each site's worth (`_site`) and each glance at a play (`_glance`), by the hex. A token
    played changes the worth of the sites next to it only (and of its own hex, a field
    taken), and the glances at the plays two hexes from it at most: the rest is kept, and
    judged again it would be the very same numbers."""
    __slots__ = ("sites", "glances", "plays")

    def __init__(self, sites: dict[str, list[float]] | None = None,
                 glances: dict[str, dict[tuple[object, ...], float]] | None = None,
                 plays: dict[str, dict[str, float]] | None = None):
        self.sites: dict[str, list[float]] = {} if sites is None else sites
        #: by the hex played, then by the rest of its `_glance_key`
        self.glances: dict[str, dict[tuple[object, ...], float]] = (
            {} if glances is None else glances)
        #: the same by the hex played, then by the notation's word
        self.plays: dict[str, dict[str, float]] = {} if plays is None else plays

    def after(self, players: int, hex: str) -> Memo:
        """The memo of the position once a token is played at `hex` (nothing else changed:
        a play, not a closing step). What is kept of a hex is shared with this memo: what
        either adds to it holds for both (a glance two hexes from every token between)."""
        sites = dict(self.sites)
        sites.pop(hex, None)
        for m in _around(players)[hex][0]:
            sites.pop(m, None)
        glances, plays = dict(self.glances), dict(self.plays)
        for m in _ball(players)[hex]:
            glances.pop(m, None)
            plays.pop(m, None)
        return Memo(sites, glances, plays)


@cache
def _ball(players: int) -> dict[str, frozenset[str]]:
    """For each hex: the hexes at most two steps from it."""
    near = _around(players)
    out = {}
    for h, (ns, _) in near.items():
        out[h] = frozenset({h, *ns, *(m for n in ns for m in near[n][0])})
    return out


#: The memos of the positions judged lately, by what judging them reads (`_memo`): a
#: search's playouts answer the same candidate's position again and again.
_MEMOS: dict[tuple[object, ...], Memo] = {}
_MEMOS_LOCK = threading.Lock()
#: How many (about 70 kB each).
MEMOS = 128


def _memo(state: State, seat: int) -> Memo:
    """The memo of a position whose turn is to be judged for `seat`, kept by everything a
    site's worth and a glance read (the tokens by owner and, face up, kind; the tiles; the
    cities held; the ziggurats scored; whether cards are left): the same numbers again, and
    nothing a seat may not know (a face-down token's kind is not read)."""
    key = (state.players, seat, tuple(len(c) for c in state.cities), frozenset(state.scored),
           bool(state.available), frozenset(state.tiles.items()),
           frozenset((h, t.seat, "" if t.down else t.kind) for h, t in state.tokens.items()))
    with _MEMOS_LOCK:                       # bots of several games may think at once
        memo = _MEMOS.pop(key, None)        # the latest used last: the oldest goes first
        if memo is None:
            memo = Memo()
            if len(_MEMOS) >= MEMOS:
                _MEMOS.pop(next(iter(_MEMOS)), None)
        _MEMOS[key] = memo
    return memo


def _potential(state: State, memo: Memo | None = None) -> list[float]:
    """What the board promises each seat, beyond its score (`memo`: the sites' worth known)."""
    n = state.players
    out = [0.0] * n
    held = [len(c) for c in state.cities]
    known = {} if memo is None else memo.sites
    for hex in (*state.tiles, *state.board.ziggurats):
        worth = known.get(hex)
        if worth is None:
            worth = known[hex] = _site(state, hex, held)
        _add(out, worth)
    for seat in range(n):
        for card in state.cards[seat]:
            if card not in state.used[seat]:
                out[seat] += CARD_WORTH[card] + (0.5 * held[seat] if card == 7 else 0.0)
    return out


def _add(out: list[float], more: list[float]) -> None:
    for i, x in enumerate(more):
        out[i] += x


def _site(state: State, hex: str, held: list[int], extra: str | None = None,
          token: Token | None = None) -> list[float]:
    """What one city, field or ziggurat promises each seat (with `token` put on `extra`, a
    play judged before it is made)."""
    n = state.players
    near, land = _around(n)[hex]
    tokens, tiles = state.tokens, state.tiles
    out = [0.0] * n
    tile = tiles.get(hex)
    if tile is None and hex == extra:
        return out                          # a field taken by the play judged
    counts = [0] * n
    nobles = [0] * n
    free = 0
    symbols = {CITY_LETTERS[s] for s in tile.split()[1]} if tile and tile[0] == "c" else ()
    for m in near:
        t = token if m == extra else tokens.get(m)
        if t is not None:
            counts[t.seat] += 1
            if symbols and not t.down and t.kind in symbols:
                nobles[t.seat] += 1
        elif m in land and m not in tiles:
            free += 1
    if tile is None:                        # a ziggurat
        for seat in range(n):
            if counts[seat]:
                out[seat] += ZIGGURAT_TOUCH     # each touched ziggurat pays on every later token
        if hex in state.scored or not state.available:
            return out
        close = CLOSE + (1 - CLOSE) / (1 + free)
        for seat in range(n):
            other = max(c for i, c in enumerate(counts) if i != seat)
            if counts[seat] > other:
                out[seat] += close * ZIGGURAT_CARD
        return out
    if not symbols:                         # a field: open to farmers next to it
        worth = sum(held) if tile.endswith("cities") else int(tile.split()[1])
        for seat in range(n):
            if counts[seat]:
                out[seat] += FIELD * worth / 6 * counts[seat]
        return out
    close = CLOSE + (1 - CLOSE) / (1 + free)
    top = max(counts)
    sure, ahead, level, behind = CITY_CHANCE
    for seat in range(n):
        mine = counts[seat]
        other = max(c for i, c in enumerate(counts) if i != seat)
        if mine > other:
            chance = sure if free <= 1 else ahead
        elif mine and mine == top:
            chance = level
        else:
            chance = behind if mine else 0.0
        out[seat] += close * (chance * (CITY + CITY_HELD * held[seat]) + NOBLE * nobles[seat])
    return out


@cache
def _symbols(tile: str) -> frozenset[str]:
    """The kinds of noble a city tile scores (none for a field)."""
    return frozenset(CITY_LETTERS[s] for s in tile.split()[1]) if tile[0] == "c" else frozenset()


def _glance_key(state: State, kind: str, hex: str) -> tuple[object, ...]:
    """What a glance at a play depends on beyond the hex: the cities next to it whose noble
    the token would be (a token on the river is face down: none)."""
    if state.board.is_river(hex):
        return (hex,)
    tiles = state.tiles
    return (hex, *(m for m in _around(state.players)[hex][0]
                   if m in tiles and kind in _symbols(tiles[m])))


def _glance(state: State, seat: int, kind: str, hex: str,
            before: dict[str, list[float]] | None = None) -> float:
    """A play's change to the seat's lead, judged on the sites next to it without making it
    (to pick the plays worth making); `before`: the sites' worth as they are, kept between
    the glances at one position."""
    b = state.board
    held = [len(c) for c in state.cities]
    known = {} if before is None else before
    token = Token(seat, kind, down=b.is_river(hex))
    change = [0.0] * state.players
    sites = [m for m in _around(state.players)[hex][0]
             if m in state.tiles or b.hexes[m].kind == "ziggurat"]
    if hex in state.tiles:
        sites.append(hex)
        tile = state.tiles[hex]
        change[seat] += sum(held) if tile.endswith("cities") else int(tile.split()[1])
    for m in sites:
        was = known.get(m)
        if was is None:
            was = known[m] = _site(state, m, held)
        after = _site(state, m, held, hex, token)
        for i in range(state.players):
            change[i] += after[i] - was[i]
    return change[seat] - max(c for i, c in enumerate(change) if i != seat)


def value(state: State, seat: int, memo: Memo | None = None) -> float:
    """The seat's lead over the best other seat, in points and what promises more."""
    result = state.result
    if result is not None:
        if seat in result.winners:
            return DECIDED / len(result.winners)
        return -DECIDED
    potential = _potential(state, memo)
    worth = [s + p for s, p in zip(state.scores, potential)]
    return worth[seat] - max(w for i, w in enumerate(worth) if i != seat)


def chance(state: State, seat: int) -> float:
    """The seat's expected share of the other seats it finishes ahead of (the leagues' score):
    against each rival alone, its lead in points and what promises more through the logistic
    curve (`SCALE`), averaged. With two players, the search's reward from `value`; with more,
    a seat that trails the leader but leads the rest is not judged lost, and a race with
    every rival counts, not only the one with the leader."""
    potential = _potential(state)
    worth = [s + p for s, p in zip(state.scores, potential)]
    mine = worth[seat]
    rivals = [w for i, w in enumerate(worth) if i != seat]
    return sum(1 / (1 + math.exp(-(mine - w) / SCALE)) for w in rivals) / len(rivals)


@dataclass
class Turn:
    steps: list[str]
    state: State
    value: float
    #: what was judged of `state` (a beam's node, its tokens played, nothing closed)
    memo: Memo | None = None

    @property
    def text(self) -> str:
        return "\n".join(self.steps)


@cache
def _hot(players: int) -> dict[str, bool]:
    """Hexes worth a token as a rule: next to a city site, a ziggurat, or a tile site."""
    b = board(players)
    out = {}
    for h in b.hexes:
        out[h] = any(b.hexes[n].kind == "ziggurat" or b.hexes[n].site for n in b.neighbours[h])
    return out


def _plays(state: State, seat: int, options: list[StepOption], keep: int,
           memo: Memo | None = None) -> list[StepOption]:
    """The plays worth making: the best `keep` at a glance (`_glance`) of those near a site,
    a plain one when none is (`memo`: what is known of this position already)."""
    hot = _hot(state.players)
    tiles = state.tiles
    judged: list[tuple[float, int, StepOption]] = []
    plain = None
    if memo is None:
        memo = Memo()
    before = memo.sites
    glanced = memo.glances                  # plays that differ by nothing judged
    known = memo.plays
    for o in options:
        if o.ends:
            continue
        word, _, hex = o.notation.partition(" ")
        if word in ("score", "card", "extra"):
            continue
        if hex in tiles or hot.get(hex, False):
            words = known.get(hex)
            if words is None:
                words = known[hex] = {}
            change = words.get(word)
            if change is None:
                kind = KIND_OF[word]
                key = _glance_key(state, kind, hex)
                keys = glanced.get(hex)
                if keys is None:
                    keys = glanced[hex] = {}
                change = keys.get(key)
                if change is None:
                    change = keys[key] = _glance(state, seat, kind, hex, before)
                words[word] = change
            judged.append((-change, len(judged), o))
        elif plain is None:
            plain = o
    judged.sort(key=lambda j: j[:2])
    out = [o for *_, o in judged[:keep]]
    return out or ([plain] if plain else [])


def turns(state: State, seat: int, beam: int = BEAM, tokens: int = TOKENS, plays: int = PLAYS
          ) -> list[Turn]:
    """The whole decisions of `seat` worth considering, best first."""
    if state.card_due == seat:
        return _cards(state, seat)
    done: dict[tuple[object, ...], Turn] = {}
    memo = _memo(state, seat)
    frontier = [Turn([], state, value(state, seat, memo), memo)]
    for _ in range(tokens):
        grown: dict[tuple[object, ...], Turn] = {}
        for node in frontier:
            options = legal.legal_steps(node.state, seat)
            if any(o.ends for o in options) or any(
                    o.notation.partition(" ")[0] in ("score", "card", "extra") for o in options):
                finished = _finish(node, seat)
                if finished is not None:
                    _keep(done, finished)
            for option in _plays(node.state, seat, options, plays, node.memo):
                after = node.state.copy()
                play = parse_one(option.notation)
                turn.apply_step(after, seat, play)
                key = tuple(sorted(after.current.placed))
                if key in grown:
                    continue
                known = None
                if node.memo is not None:
                    known = node.memo.after(state.players, option.notation.partition(" ")[2])
                grown[key] = Turn([*node.steps, option.notation], after,
                                  value(after, seat, known), known)
        frontier = sorted(grown.values(), key=lambda t: -t.value)[:beam]
        if not frontier:
            break
    for node in frontier:
        finished = _finish(node, seat)
        if finished is not None:
            _keep(done, finished)
    ranked = sorted(done.values(), key=lambda t: -t.value)
    if not ranked:
        raise RuntimeError("no whole turn found")     # never expected: two tokens always go
    return ranked


def _keep(done: dict[tuple[object, ...], Turn], finished: Turn) -> None:
    key = tuple(sorted(finished.state.current.placed))
    if key not in done or done[key].value < finished.value:
        done[key] = finished


def _finish(node: Turn, seat: int) -> Turn | None:
    """The turn closed: scoring order as offered, the best card when one is named, `extra`
    when offered; None when the tokens are no whole way."""
    state = node.state.copy()
    steps = list(node.steps)
    for _ in range(12):
        options = legal.legal_steps(state, seat)
        closing = [o for o in options
                   if o.notation.partition(" ")[0] in ("score", "card", "extra")]
        ends = any(o.ends for o in options)
        scores = [o for o in closing if o.notation.startswith("score ")]
        cards = [o for o in closing if o.notation.startswith("card ")]
        extra = [o for o in closing if o.notation == "extra"]
        if scores and not ends:
            pick = scores[0]
        elif cards and not ends:
            pick = max(cards, key=lambda o: _after(state, seat, o))
        elif extra and not state.current.extra:
            pick = extra[0]
        elif ends:
            return Turn(steps, state, value(state, seat))
        else:
            return None
        turn.apply_step(state, seat, parse_one(pick.notation))
        steps.append(pick.notation)
    return None


def _after(state: State, seat: int, option: StepOption) -> float:
    after = state.copy()
    turn.apply_step(after, seat, parse_one(option.notation))
    return value(after, seat)


def _cards(state: State, seat: int) -> list[Turn]:
    """The owed ziggurat card: each judged by the position once it is taken."""
    out = []
    for number in list(state.available):
        after = state.copy()
        turn.take_card_due(after, seat, number)
        out.append(Turn([str(Card(number))], after, value(after, seat)))
    return sorted(out, key=lambda t: -t.value)


def reply(state: State, seat: int) -> str:
    """A quick greedy decision (the search's playouts): a narrow beam over two tokens."""
    return turns(state, seat, beam=1, tokens=3, plays=4)[0].text


#: The lead that makes about 73% for the search (pbem/bots/models.py).
SCALE = 6.0
#: The share of a level's playouts a game of 2, 3, 4 players affords (its playouts are slower
#: with more players). Set so that `strong` spends about 0.8 s of CPU a decision, within its
#: 1 s: at 0.6 / 0.3 / 0.12 it spent 0.2-0.3 s and was no better than `greedy` (0.45 with two
#: players, 20 games); at 2.5 / 1.2 / 0.5 it scores 0.75 / 0.58 / 0.38 against `greedy` with
#: 2 / 3 / 4 players (docs/games/computer-strength.md). With 4 players a playout is cut short
#: (`ANSWERS`: only the next seat answers), so three times as many fit the same time. Since
#: the memos (`Memo`, `_memo`) `strong` spends about half that CPU (0.3-0.45 s with 3 and 4
#: players); twice these playouts, or twice the candidates, changed no decision with 3 players
#: (14 positions of 14, and 24 games played to the same results): the counts stay.
PLAYOUT_SHARE = {2: 2.5, 3: 1.2, 4: 1.5}
#: With 4 players only the next seat answers the candidate in a playout (pbem/bots/turns.py):
#: at 0.5 of the playouts with every seat answering `strong` did no better than `greedy`
#: (docs/games/computer-strength.md).
ANSWERS = {4: 1}
