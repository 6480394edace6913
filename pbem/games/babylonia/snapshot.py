"""A whole Babylonia state as JSON-able data, restored exactly (for the server's snapshots)."""

from __future__ import annotations

from dataclasses import asdict

from .state import Result, State, Token, Turn


def to_json(state: State) -> dict:
    return {
        "players": state.players,
        "tiles": state.tiles,
        "tokens": {h: [t.seat, t.kind, t.down] for h, t in state.tokens.items()},
        "stands": state.stands, "supplies": state.supplies, "scores": state.scores,
        "causes": state.causes, "cities": state.cities, "available": state.available,
        "cards": state.cards, "used": state.used, "scored": sorted(state.scored),
        "to_move": state.to_move, "owed": state.owed, "seed": state.seed,
        "turn": asdict(state.turn) if state.turn else None,
        "result": [list(state.result.winners), state.result.reason] if state.result else None,
    }


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
    state.to_move, state.owed, state.seed = data["to_move"], data["owed"], data["seed"]
    if data["turn"]:
        t = data["turn"]
        state.turn = Turn(t["index"], [tuple(p) for p in t["placed"]], t["closed"],
                          list(t["candidates"]), list(t["order"]), t["resolved"], t["waiting"],
                          list(t["cards"]), t["extra"], t["submitted"])
    if data["result"]:
        state.result = Result(tuple(data["result"][0]), data["result"][1])
    return state
