"""Every legal next step of a turn or an owed card, with its words (for composers)."""

from __future__ import annotations

from bisect import bisect_left
from functools import cache

from ..base import StepOption
from ..errors import GameError
from ..phrases import phrase
from . import placing, turn
from .board import board
from .cards import CARD_WORDS, tile_name
from .notation import WORDS, Card, Extra, Play, Score, Step, parse
from .state import KIND_INDEX, KINDS, State
from .state import playable as state_playable


def legal_steps(state: State, seat: int) -> list[StepOption]:
    if state.result is not None:
        return []
    if state.card_due == seat and state.current.submitted:
        return [StepOption(str(Card(c)), words(state, Card(c))) for c in state.available]
    if seat != state.to_move or state.current.submitted:
        return []       # a draft goes on past a pause; a submitted turn waits for the card
    options = _plays_that_end(state, seat) if not state.current.closed else []
    closed = _closed(state, seat)
    if closed is None:
        return options      # the tokens are no whole legal way yet: only more tokens
    for step in _others(closed):
        # `turn.step_problem` is the check `turn.apply_step` makes of such a step once step 1
        # is closed, before it changes anything: no trial copy is needed.
        if turn.step_problem(closed, seat, step) is None:
            options.append(StepOption(str(step), words(state, step)))
    if turn.unfinished(closed, seat) is None:
        options.append(StepOption("", phrase("end your turn"), ends=True))
    return options


def _plays_that_end(state: State, seat: int) -> list[StepOption]:
    """The plays after which the turn can still end (no dead end is offered).

    A play `way_problems` lets through starts a legal way that at most one more token
    completes (the ways of `placing.py`: two tokens, one more after the first; farmers with
    card 5's noble, one more farmer after two; round one, one more up to its count), and the
    stand holds that token (the ways count the stand at the start of the turn). A bare land hex
    takes any token as far as the hex goes, and every way lets any kind onto land, so while two
    bare land hexes are free (one may be the play's own) every play leaves a way to end, and
    nothing is tried. Once the tokens are whole, the scoring order, cards and `extra` are
    offered until the turn may end (tests/contract walks them). Near a full board, each play
    is tried on a copy."""
    options = _plays(state, seat)
    bare = 0
    for river, tile, _place in state.free_cells().values():
        if not river and tile is None:
            bare += 1
            if bare == 2:
                return options
    return [o for o in options if _way_ends_after(state, seat, o.notation)]


def _way_ends_after(state: State, seat: int, play: str) -> bool:
    trial = state.copy()
    turn.apply_step(trial, seat, parse(play)[0])
    placed = trial.current.placed
    if placing.way_problems(trial, seat, placed, complete=True) is None:
        return True
    return any(placing.way_problems(trial, seat, placed + [_token(o.notation)], complete=True)
               is None for o in _plays(trial, seat))


def _token(play: str) -> tuple[str, str]:
    """(kind, hex) of a play's notation."""
    step = parse(play)[0]
    assert isinstance(step, Play)
    return step.kind, step.hex


def _closed(state: State, seat: int) -> State | None:
    """The state with step 1 closed (None: the tokens cannot end step 1 now).

    Every step but a play, and ending the turn, first closes step 1 (`turn.close`, which a
    closed turn passes through), so each is tried once on this state rather than each
    closing again from scratch; `turn.unfinished` of an open turn is that of the closed one.
    """
    if state.current.closed:
        return state
    if placing.way_problems(state, seat, state.current.placed, complete=True):
        return None         # `turn.close` would refuse at once: spare the copy
    closed = state.copy()
    try:
        turn.close(closed, seat)
    except GameError:
        return None
    return closed


def _plays(state: State, seat: int) -> list[StepOption]:
    """Every token of the stand onto every hex where `placing.check_play` allows it.

    For speed (random playouts and the search players list steps many thousand times a
    second), nothing is checked hex by hex that does not depend on the hex: the way of the
    turn's tokens (`placing.way_problems`) depends on it only through whether it is a river,
    so it is asked once per kind and river or land; only fields (a few hexes) get
    `placing.field_problem`, which looks at the neighbours. The free hexes are kept in the
    state (`State.free_cells`) as tokens go down; the places allowed are listed once per
    distinct way answer; each kind's options on bare hexes are built once per board and
    picked by place, its field options put in at theirs. tests/babylonia/test_legal.py holds
    this against `GAME.draft` of every play on every hex.
    """
    stand, cells = state.stands[seat], state.free_cells()
    fields = sorted((cells[hex][2], hex, tile) for hex, tile in state.tiles.items()
                    if hex in cells)    # by place (a city's hex is no free cell)
    placed, (land, river_hex) = state.current.placed, _land_and_river(state.players)
    bare: dict[tuple[bool, bool], list[int]] = {}       # way answer -> places without a tile
    options: list[StepOption] = []
    noble_fields: list[tuple[int, str, str]] | None = None
    for kind in KINDS:
        if not stand[KIND_INDEX[kind]]:
            continue
        # (on land, on a river): may a token of this kind go there, as far as the way goes?
        ok = (placing.way_problems(state, seat, placed + [(kind, land)], complete=False) is None,
              placing.way_problems(state, seat, placed + [(kind, river_hex)], complete=False) is None)
        if not (ok[0] or ok[1]):
            continue
        places = bare.get(ok)
        if places is None:
            places = bare[ok] = [place for river, tile, place in cells.values()
                                 if tile is None and ok[river]]
        if kind == "F" or noble_fields is None:
            open_ = set(placing.fields_open(state, seat, kind, [hex for _, hex, _ in fields]))
            fits = [f for f in fields if f[1] in open_]
            if kind != "F":
                noble_fields = fits         # a noble's fields are the same for every noble
        else:
            fits = noble_fields
        on_fields = [f for f in fits if ok[cells[f[1]][0]]]
        plain = _plain(state.players)[KIND_INDEX[kind]]
        mine = [plain[place] for place in places]
        for place, hex, tile in reversed(on_fields):      # from the last: earlier places hold
            mine.insert(bisect_left(places, place), _field_option(kind, hex, tile))
        options += mine
    return options


@cache
def _plain(players: int) -> tuple[tuple[StepOption, ...], ...]:
    """For each kind (in KINDS order), the option of playing it onto each playable hex
    without a tile, by the hex's place in `playable`."""
    return tuple(tuple(_option(kind, hex, phrase("{hex} (river)", hex=hex) if river else hex)
                       for hex, river in state_playable(players)) for kind in KINDS)


@cache
def _field_option(kind: str, hex: str, tile: str) -> StepOption:
    return _option(kind, hex, phrase("{hex} ({tile})", hex=hex, tile=tile_name(tile)))


#: The groups of the options (the token played): "Play a farmer".
GROUPS = {"F": phrase("Play a farmer"), "P": phrase("Play a priest"),
          "M": phrase("Play a merchant"), "O": phrase("Play an official")}


def _onto(kind: str, where: str) -> str:
    """A play in words: "a farmer onto g7 (river, face down)" (a sentence per kind: each
    language declines its token)."""
    if kind == "F":
        return phrase("a farmer onto {where}", where=where)
    if kind == "P":
        return phrase("a priest onto {where}", where=where)
    if kind == "M":
        return phrase("a merchant onto {where}", where=where)
    return phrase("an official onto {where}", where=where)


def _option(kind: str, hex: str, where: str) -> StepOption:
    return StepOption(f"{WORDS[kind]} {hex}", where, group=GROUPS[kind])


@cache
def _land_and_river(players: int) -> tuple[str, str]:
    """A land hex and a river hex of the board: the way of a turn sees only which it is."""
    playable = state_playable(players)
    return (next(h for h, river in playable if not river), next(h for h, river in playable if river))


@cache
def _in_order(players: int) -> tuple[str, ...]:
    return tuple(sorted(board(players).hexes, key=_hex_order))


def _others(closed: State) -> list[Score | Card | Extra]:
    """Score, card and extra steps worth trying (step 1 closed): the rules then say which apply."""
    steps: list[Score | Card | Extra] = [Score(h) for h in closed.current.candidates]
    return steps + [Card(c) for c in closed.available] + [Extra()]


def _hex_order(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def _where(state: State, hex: str) -> str:
    tile = state.tiles.get(hex)
    if hex not in state.board.hexes:
        return phrase("{hex} (not in play)", hex=hex)
    if state.board.is_river(hex):
        return phrase("{hex} (river, face down)", hex=hex)
    return phrase("{hex} ({tile})", hex=hex, tile=tile_name(tile)) if tile else hex


def words(state: State, step: Step) -> str:
    """A step in plain words."""
    if isinstance(step, Play):
        return _onto(step.kind, _where(state, step.hex))
    if isinstance(step, Score):
        if step.hex in state.board.ziggurats:
            return phrase("score the ziggurat at {hex}", hex=step.hex)
        tile = state.tiles.get(step.hex)
        if tile is None:
            return phrase("score the city at {hex}", hex=step.hex)
        return phrase("score the {tile} at {hex}", tile=tile_name(tile), hex=step.hex)
    if isinstance(step, Card):
        return phrase("take ziggurat card {number} ({effect})", number=step.number,
                      effect=CARD_WORDS[step.number])
    return phrase("take another turn after this one (card 2)")
