"""A game's record: every decision in notation, the public view after each, the result,
and a chart of the scores. Spectators' views only: nothing hidden is shown."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from pbem.games.base import ABORTED_REASON, GENERIC_NOTATION
from pbem.games.errors import GameError
from pbem.games.phrases import phrase
from pbem.mail import deliver as delivery
from pbem.players import messages
from pbem.policy.small import small_int
from pbem.store import gamelog
from pbem.views.seatview import called_off_because, outcome_json
from pbem.views.words import winner_names
from pbem.web.chart import score_chart
from pbem.web.errors import wants_json
from pbem.web.lobby import start_csrf

bp = Blueprint("record", __name__)


def entries(loaded: gamelog.Loaded, left: dict[int, gamelog.Left] | None = None,
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
            name = phrase("{name} (bot)", name=name)
        out.append({"seq": seq, "seat": seat, "name": name,
                    "type": event["type"], "notation": engine.notation(event, None),   # as spectators see it
                    "scores": series[-1], "view": engine.view(state, None)})
    return out, series


def _turn_number(count: int) -> int:
    """The turn to show (`?turn=N`: the position after N decisions); the latest by default."""
    value = small_int(request.args.get("turn", ""))
    return count if value is None else min(value, count)


def turn_steps(loaded: gamelog.Loaded, seq: int) -> list[str]:
    """The steps of decision `seq` (1-based) as spectators may read them; one step for a
    decision that is not split into steps (a resignation, or notations that disagree)."""
    engine, event = loaded.engine, loaded.events[seq - 1]
    public = engine.notation(event, None)
    seat = event.get("seat")
    if seat is None or engine.notation(event, None) in GENERIC_NOTATION.values():
        return [public]
    steps = engine.split_steps(public)
    own = engine.split_steps(engine.notation(event, seat))
    return steps if steps and len(steps) == len(own) else [public]


def view_after_step(loaded: gamelog.Loaded, seq: int, step: int, after: dict) -> dict:
    """The spectators' view after the first `step` steps of decision `seq`: its seat's own
    notation drafted on the position before it (so hidden steps land where they did), shown
    as spectators see it. `after` (the view after the whole decision) when it cannot be."""
    engine, row = loaded.engine, loaded.row
    event = loaded.events[seq - 1]
    seat = event.get("seat")
    own = engine.split_steps(engine.notation(event, seat))
    if step >= len(own) or not isinstance(seat, int):
        return after
    state = engine.replay(row.seed, row.options, row.seats, row.first, loaded.events[:seq - 1])
    try:
        draft = engine.draft(state, seat, engine.submission(own[:step]))
    except GameError:
        return after
    if draft.error is not None or len(draft.steps) != step:
        return after
    return engine.view(draft.state, None)


def playing_order(loaded: gamelog.Loaded) -> list[int]:
    """The seats in the order they play, from the one who moved first."""
    seats = loaded.row.seats
    first = next((e["seat"] for e in loaded.events if isinstance(e.get("seat"), int)), None)
    if first is None:
        row = loaded.row
        owed = loaded.engine.to_act(loaded.engine.start(row.seed, row.options, row.seats, row.first))
        first = owed[0].seat if owed else 0
    return [(first + i) % seats for i in range(seats)]


def _start_view(loaded: gamelog.Loaded) -> dict:
    row = loaded.row
    return loaded.engine.view(loaded.engine.start(row.seed, row.options, row.seats, row.first), None)


@bp.get("/games/<game_id>/record")
def record(game_id: str):
    loaded = gamelog.load(game_id)
    left = gamelog.takeovers(game_id)
    names = gamelog.display_names(loaded.names, left)
    turns, series = entries(loaded, left)
    shown = _turn_number(len(turns))
    order = playing_order(loaded)
    outcome = loaded.engine.outcome(loaded.state)
    winner = names[outcome.winner] if outcome and outcome.winner is not None else None
    # Who won and why, points and tie-breaks spelled out, as anybody reads it (a game called
    # off says why instead).
    ending = (loaded.engine.ending(loaded.state, None, names)
              if outcome is not None and outcome.reason != ABORTED_REASON else "")
    # The record is public: the players' words join it only once the game is over.
    said = messages.of_game(game_id, names) if outcome is not None else []
    if wants_json():
        return jsonify({"game": loaded.id, "kind": loaded.engine.name, "names": names,
                        "turns": turns, "scores": series, "order": order,
                        "view": loaded.engine.view(loaded.state, None),
                        "outcome": outcome_json(outcome), "ending": ending or None,
                        "messages": [m.to_json() for m in said]})
    steps = turn_steps(loaded, shown) if shown else []
    step = len(steps)
    asked = small_int(request.args.get("step", ""))
    if asked is not None and steps:
        step = max(1, min(asked, len(steps)))
    view = turns[shown - 1]["view"] if shown else _start_view(loaded)
    if shown and step < len(steps):
        view = view_after_step(loaded, shown, step, view)
    return render_template("record/record.html", game_id=loaded.id, kind=loaded.engine.name,
                           time_limit_days=loaded.row.time_limit_days, names=names, turns=turns,
                           why=called_off_because(loaded), order=order,
                           chart=score_chart(series, names, order), outcome=outcome, ending=ending,
                           winner_name=winner, winner_names=winner_names(outcome, names),
                           created=request.args.get("created") == "1",
                           rematch_sent=request.args.get("sent") == "rematch",
                           csrf=start_csrf() if outcome else "",
                           board_template=loaded.engine.board_template, shown=shown,
                           steps=steps, step=step, nav=_navigation(loaded, turns, shown, step,
                                                                   len(steps)),
                           view=view, seat=None, said=said,
                           mark_step=steps[step - 1] if steps else None,
                           title=loaded.engine.title, score_word=loaded.engine.score_word,
                           score_axis=loaded.engine.score_axis,
                           undelivered=[{"name": m.to_name, "subject": m.subject}
                                        for m in delivery.failed_for_game(loaded.id)])


def _at(turn: int, step: int | None = None) -> str:
    return f"?turn={turn}" + (f"&step={step}" if step is not None else "") + "#board"


def _navigation(loaded: gamelog.Loaded, turns: list[dict], shown: int, step: int,
                count: int) -> dict[str, str | None]:
    """The links to the previous and next step (a turn of one step is one step) and turn."""
    last = len(turns)
    if shown and step > 1:
        prev_step: str | None = _at(shown, step - 1)
    else:
        prev_step = _at(shown - 1) if shown > 0 else None
    if shown and step < count:
        next_step: str | None = _at(shown, step + 1) if step + 1 < count else _at(shown)
    elif shown < last:
        following = len(turn_steps(loaded, shown + 1))
        next_step = _at(shown + 1, 1) if following > 1 else _at(shown + 1)
    else:
        next_step = None
    return {"prev_step": prev_step, "next_step": next_step,
            "prev_turn": _at(shown - 1) if shown > 0 else None,
            "next_turn": _at(shown + 1) if shown < last else None}
