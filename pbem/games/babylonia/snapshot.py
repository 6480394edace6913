"""A whole Babylonia state as JSON-able data, restored exactly (for the server's snapshots).

The data is plain JSON (dicts, lists, strings, numbers, booleans, None: no tuples), so it
equals its own JSON round trip, and it shares nothing mutable with the state.
"""

from __future__ import annotations

from .state import Result, State, Token, Turn


def to_json(state: State) -> dict:
    return {
        "players": state.players,
        "tiles": dict(state.tiles),
        "tokens": {h: [t.seat, t.kind, t.down] for h, t in state.tokens.items()},
        "stands": [list(x) for x in state.stands], "supplies": list(state.supplies),
        "scores": list(state.scores),
        "causes": [[[p, c] for p, c in x] for x in state.causes],
        "cities": [list(x) for x in state.cities], "available": list(state.available),
        "cards": [list(x) for x in state.cards], "used": [list(x) for x in state.used],
        "scored": sorted(state.scored),
        "to_move": state.to_move, "card_due": state.card_due, "seed": state.seed,
        "turn": _turn(state.turn) if state.turn else None,
        "result": [list(state.result.winners), state.result.reason] if state.result else None,
    }


def _turn(turn: Turn) -> dict:
    return {"index": turn.index, "placed": [[k, h] for k, h in turn.placed],
            "closed": turn.closed, "candidates": list(turn.candidates),
            "order": list(turn.order), "resolved": turn.resolved, "waiting": turn.waiting,
            "cards": list(turn.cards), "extra": turn.extra, "submitted": turn.submitted}


def from_json(data: dict) -> State:
    state = State(data["players"])
    state.tiles = dict(data["tiles"])
    state.tokens = {h: Token(s, k, d) for h, (s, k, d) in data["tokens"].items()}
    state.stands = [list(x) for x in data["stands"]]
    state.supplies = list(data["supplies"])
    state.scores = list(data["scores"])
    state.causes = [[(p, c) for p, c in x] for x in data["causes"]]
    state.cities = [list(x) for x in data["cities"]]
    state.available = list(data["available"])
    state.cards = [list(x) for x in data["cards"]]
    state.used = [list(x) for x in data["used"]]
    state.scored = set(data["scored"])
    state.to_move, state.card_due, state.seed = data["to_move"], data["card_due"], data["seed"]
    if data["turn"]:
        t = data["turn"]
        state.turn = Turn(index=t["index"], placed=[(k, h) for k, h in t["placed"]],
                          closed=t["closed"], candidates=list(t["candidates"]),
                          order=list(t["order"]), resolved=t["resolved"], waiting=t["waiting"],
                          cards=list(t["cards"]), extra=t["extra"], submitted=t["submitted"])
    if data["result"]:
        state.result = Result(tuple(data["result"][0]), data["result"][1])
    return state
