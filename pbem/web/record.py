"""A game's record: every decision in notation, the public view after each, the result,
and a chart of the scores. Spectators' views only: nothing hidden is shown."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from .. import messages, store
from ..mail import deliver as delivery
from ..mail.words import winner_names
from ..seatview import called_off_because, outcome_json
from ..small import small_int
from .chart import score_chart
from .errors import wants_json

bp = Blueprint("record", __name__)


def entries(loaded: store.Loaded, left: dict[int, store.Left] | None = None,
            ) -> tuple[list[dict], list[list[int]]]:
    """Each event with the spectators' view and the scores after it, by replaying the log.
    A turn a computer played in the seat of a player who left is "Carl (bot)"."""
    engine, row = loaded.engine, loaded.row
    left = left or {}
    state = engine.start(row.seed, row.options, row.seats, row.first)
    series = [engine.scores(state)]
    out = []
    for seq, event in enumerate(loaded.events, 1):
        state = engine.apply(state, event)
        series.append(engine.scores(state))
        seat = event.get("seat")
        name = loaded.names[seat] if seat is not None else ""
        if seat in left and seq > left[seat].seq:
            name += " (bot)"
        out.append({"seq": seq, "seat": seat, "name": name,
                    "type": event["type"], "notation": engine.notation(event, None),   # as spectators see it
                    "scores": series[-1], "view": engine.view(state, None)})
    return out, series


def _turn_number(count: int) -> int:
    """The turn to show (`?turn=N`: the position after N decisions); the latest by default."""
    value = small_int(request.args.get("turn", ""))
    return count if value is None else min(value, count)


def _start_view(loaded: store.Loaded) -> dict:
    row = loaded.row
    return loaded.engine.view(loaded.engine.start(row.seed, row.options, row.seats, row.first), None)


@bp.get("/games/<game_id>/record")
def record(game_id: str):
    loaded = store.load(game_id)
    left = store.takeovers(game_id)
    names = store.display_names(loaded.names, left)
    turns, series = entries(loaded, left)
    shown = _turn_number(len(turns))
    outcome = loaded.engine.outcome(loaded.state)
    winner = names[outcome.winner] if outcome and outcome.winner is not None else None
    # The record is public: the players' words join it only once the game is over.
    said = messages.of_game(game_id, names) if outcome is not None else []
    if wants_json():
        return jsonify({"game": loaded.id, "kind": loaded.engine.name, "names": names,
                        "turns": turns, "scores": series,
                        "view": loaded.engine.view(loaded.state, None),
                        "outcome": outcome_json(outcome),
                        "messages": [m.to_json() for m in said]})
    return render_template("record/record.html", game_id=loaded.id, kind=loaded.engine.name,
                           time_limit_days=loaded.row.time_limit_days, names=names, turns=turns,
                           why=called_off_because(loaded),
                           chart=score_chart(series, names), outcome=outcome,
                           winner_name=winner, winner_names=winner_names(outcome, names),
                           created=request.args.get("created") == "1",
                           board_template=loaded.engine.board_template, shown=shown,
                           view=turns[shown - 1]["view"] if shown else _start_view(loaded),
                           seat=None, said=said,
                           title=loaded.engine.title, score_word=loaded.engine.score_word,
                           undelivered=[{"name": m.to_name, "subject": m.subject}
                                        for m in delivery.failed_for_game(loaded.id)])
