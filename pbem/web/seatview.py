"""What a seat sees through its link: the access a link gives, and its pages and JSON.

Views are computed for the link's seat by the game's engine; templates never see a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from flask import render_template, request
from sqlalchemy import func, select

from .. import deadlines, links, store
from ..errors import BadInput, LinkReplaced, LinkTampered
from ..extensions import db
from ..games.base import Decision, Draft, Outcome, StepOption
from ..games.errors import GameError
from ..mail import deliver as delivery
from ..mail.words import winner_names
from ..models import UNDELIVERED, Event, Mail, SeatNonce
from ..small import small_int
from ..store import Loaded

ALREADY = "This turn was already submitted; here is the game as it stands."


MAX_STEPS_TEXT = 20_000


@dataclass(frozen=True)
class SeatFacts:
    nonce: str | None      # the seat's live seat-link nonce
    undelivered: int       # the game's mails that will not arrive
    decided: int           # the seat's decisions so far (none: it may still decline)


@dataclass
class Access:
    """What a link opens: its seat in a loaded game, and whether it may act now."""
    link: links.Link
    loaded: Loaded
    decision: Decision | None     # the decision this link may answer now, if any

    @property
    def seat(self) -> int:
        return self.link.seat

    @property
    def live(self) -> bool:
        return self.decision is not None

    @cached_property
    def facts(self) -> "SeatFacts":
        """What the page needs from the database beyond the log: one round trip."""
        game_id, seat = self.loaded.id, self.seat
        nonce = (select(SeatNonce.nonce).where(SeatNonce.game_id == game_id, SeatNonce.seat == seat)
                 .order_by(SeatNonce.id.desc()).limit(1).scalar_subquery())
        undelivered = (select(func.count()).select_from(Mail)
                       .where(Mail.game_id == game_id, Mail.status.in_(UNDELIVERED))
                       .scalar_subquery())
        decided = (select(func.count()).select_from(Event)
                   .where(Event.game_id == game_id, Event.seat == seat).scalar_subquery())
        return SeatFacts(*db.session.execute(select(nonce, undelivered, decided)).one())

    def undelivered(self) -> list[dict]:
        if not self.facts.undelivered:
            return []
        return [{"name": m.to_name, "subject": m.subject}
                for m in delivery.failed_for_game(self.loaded.id)]


def load_seat(link: links.Link) -> Loaded:
    """The link's game; a seat the game does not have is a forged link."""
    loaded = store.load(link.game_id)
    if not 0 <= link.seat < len(loaded.seats):
        raise LinkTampered()
    return loaded


def open_turn(token: str) -> Access:
    link = links.read(links.TURN, token)
    loaded = load_seat(link)
    decision = loaded.owed(link.seat) if link.mark == loaded.seq else None
    return Access(link, loaded, decision)


def open_seat(token: str) -> Access:
    return _seat_access(links.read(links.SEAT, token), token)


def open_decline(token: str) -> Access:
    """The seat a decline link (in an invitation) names, while its seat link is the live one."""
    payload = links.unsign(links.DECLINE, token)
    if not (isinstance(payload, list) and len(payload) == 3 and isinstance(payload[0], str)
            and isinstance(payload[1], int) and not isinstance(payload[1], bool)):
        raise LinkTampered()
    link = links.Link(links.SEAT, payload[0], payload[1], payload[2])
    return _seat_access(link, links.token(links.SEAT, *payload))


def _seat_access(link: links.Link, token: str) -> Access:
    loaded = load_seat(link)
    access = Access(link, loaded, None)
    if access.facts.nonce != link.mark:
        raise LinkReplaced("This link was replaced by a newer one, which was mailed to the player.",
                           renew_path=f"/s/{token}/renew")
    return access


def steps_text() -> str:
    """The draft from a form or a JSON body. Form fields named `compose` are joined with spaces
    (a game's own form, such as Babel's discard form, spells its steps that way)."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("steps", ""), str):
            raise BadInput('Send a JSON object like {"steps": "move M"}.')
        text = body.get("steps", "")
    elif request.form.getlist("compose"):
        text = " ".join(request.form.getlist("compose"))
    else:
        text = request.form.get("steps", "")
    if len(text) > MAX_STEPS_TEXT:
        raise BadInput(f"The turn is too long ({len(text)} characters).")
    return text.replace("\r\n", "\n")


def edited(engine, text: str) -> str:
    """The draft after a step button: `add` appends a step, `remove` drops step N."""
    add, remove = request.form.get("add", ""), request.form.get("remove", "")
    if add:
        text = text.rstrip("\n") + ("\n" if text.strip() else "") + add + "\n"
    number = small_int(remove)
    if number is not None:
        try:
            pieces = engine.split_steps(text)
        except GameError:
            return text
        if 1 <= number <= len(pieces):
            del pieces[number - 1]
            text = "\n".join(pieces) + ("\n" if pieces else "")
    return text


def common(access: Access) -> dict:
    loaded, seat = access.loaded, access.seat
    last = loaded.last_event_by_other(seat)
    outcome = loaded.engine.outcome(loaded.state)
    deadline = deadlines.deadline(loaded, seat)
    return {
        "deadline": deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else None,
        "time_limit_days": loaded.row.time_limit_days,
        "undelivered": access.undelivered(),
        "game_id": loaded.id,
        "title": loaded.engine.title,
        "names": loaded.names,
        "seat": seat,
        "seq": loaded.seq,
        "last_turn": loaded.engine.notation(last, seat) if last else None,   # as this seat sees it
        "last_name": loaded.names[last["seat"]] if last else None,
        "outcome": outcome,
        "winner_name": loaded.names[outcome.winner] if outcome and outcome.winner is not None else None,
        "winner_names": winner_names(outcome, loaded.names),   # several: a shared win
        "to_act": [{"seat": d.seat, "name": loaded.names[d.seat], "kind": d.kind, "label": d.label}
                   for d in loaded.engine.to_act(loaded.state)],
        "record_path": f"/games/{loaded.id}/record",
        "can_decline": outcome is None and not access.facts.decided,
    }


def outcome_json(outcome: Outcome | None) -> dict | None:
    """A result for JSON: winner (None for a draw or a shared win), winners, reason, description."""
    if outcome is None:
        return None
    return {"winner": outcome.winner, "winners": list(outcome.winners), "reason": outcome.reason,
            "description": outcome.description}


def step_json(option: StepOption) -> dict:
    """A legal step for JSON: notation, label, ends, group ("" when it has none)."""
    return {"notation": option.notation, "label": option.label, "ends": option.ends,
            "group": option.group}


#: A group of more options than this is folded (a grid of small buttons in a <details>).
FOLD_OVER = 8


def step_blocks(legal: list[StepOption], steps: list[str]) -> list[dict]:
    """The legal next steps in the engine's order, grouped for the composer.

    Each block is {"group", "options", "large", "open"}: ungrouped options side by side form a
    block with group "" (plain buttons, as always); options of one group form one block.
    Without JavaScript a page shows every group closed, except the one the draft's last step
    came from (its notation starts with the same word), so adding several alike stays handy.
    """
    blocks: list[dict] = []
    index: dict[str, dict] = {}
    for option in legal:
        if not option.group:
            if not blocks or blocks[-1]["group"]:
                blocks.append({"group": "", "options": [], "large": False, "open": True})
            blocks[-1]["options"].append(option)
        elif option.group in index:
            index[option.group]["options"].append(option)
        else:
            index[option.group] = {"group": option.group, "options": [option], "large": False,
                                   "open": False}
            blocks.append(index[option.group])
    head = steps[-1].split()[0].lower() if steps and steps[-1].split() else None
    for block in index.values():
        block["large"] = len(block["options"]) > FOLD_OVER
        block["open"] = head is not None and any(
            (o.notation.split() or [""])[0].lower() == head for o in block["options"])
    return blocks


def payload(access: Access, draft: Draft | None = None) -> dict:
    """The JSON a link answers: the seat's view, and its legal steps when it may act."""
    engine, seat = access.loaded.engine, access.seat
    state = draft.state if draft else access.loaded.state
    data = common(access)
    data.pop("outcome"), data.pop("winner_name")
    outcome = engine.outcome(access.loaded.state)
    data.update({
        "game": data.pop("game_id"),
        "kind": engine.name,
        "decision": ({"kind": access.decision.kind, "label": access.decision.label}
                     if access.live else None),
        "can_act": access.live,
        "view": engine.view(state, seat),
        "legal_steps": [step_json(o) for o in engine.legal_steps(state, seat)] if access.live else [],
        "outcome": outcome_json(outcome),
    })
    if draft is not None:
        data.update({"steps": draft.steps, "done": draft.done, "todo": draft.todo,
                     "error": str(draft.error) if draft.error else None,
                     "step": draft.error.step if draft.error else None})
    return data


def draft_context(access: Access, text: str) -> dict:
    engine, seat = access.loaded.engine, access.seat
    draft = engine.draft(access.loaded.state, seat, text)
    legal = engine.legal_steps(draft.state, seat) if not draft.error or draft.steps else []
    steps = [o for o in legal if not o.ends]
    return {
        "draft": draft,
        "draft_text": text,
        "view": engine.view(draft.state, seat),
        "legal": steps,
        "legal_blocks": step_blocks(steps, draft.steps),
        "can_end": any(o.ends for o in legal) or draft.done,
        "explained": engine.explain(access.loaded.state, seat, text) if draft.steps else [],
        "board_template": engine.board_template,
    }


def render_page(access: Access, text: str = "", message: str | None = None, status: int = 200,
                path: str | None = None):
    engine = access.loaded.engine
    context = common(access)
    context.update(access=access, message=message, path=path or request.path,
                   seat_path=seat_path(access), form_template=None)
    if access.live:
        context.update(draft_context(access, text))
        context["form_template"] = engine.form_templates.get(access.decision.kind)
        if context["form_template"]:
            # A game's own form composes the whole decision afresh (its buttons replace the
            # draft, they do not add to it): it offers the decision's legal steps and shows the
            # game as it stands, also after an illegal draft or "back to editing".
            state = access.loaded.state
            legal = [o for o in engine.legal_steps(state, access.seat) if not o.ends]
            context.update(view=engine.view(state, access.seat), legal=legal,
                           legal_blocks=step_blocks(legal, []))
    else:
        context.update(view=engine.view(access.loaded.state, access.seat),
                       board_template=engine.board_template)
        decision = access.loaded.owed(access.seat)
        if decision is not None:   # the seat owes a decision: offer its live turn link
            context["turn_path"] = links.path(links.TURN, access.loaded.id, access.seat,
                                              access.loaded.seq)
    return render_template("play/page.html", **context), status


def seat_path(access: Access) -> str:
    return links.path(links.SEAT, access.loaded.id, access.seat, access.facts.nonce)


def sentence(phrases: list[str]) -> str:
    """Steps in words as one sentence: "Move to the Medes, settle 2 Medes there, build level 4."."""
    if not phrases:
        return ""
    text = ", ".join(phrases)
    return text[0].upper() + text[1:] + "."


def confirm_page(access: Access, text: str):
    """Before a turn is submitted, it is shown in plain words (unless it cannot be submitted)."""
    engine = access.loaded.engine
    draft = engine.draft(access.loaded.state, access.seat, text)
    if not draft.done:
        return render_page(access, text, status=422)
    context = common(access)
    context.update(access=access, path=request.path, draft_text=text, seat_path=seat_path(access),
                   words=sentence(engine.explain(access.loaded.state, access.seat, text)))
    return render_template("play/confirm.html", **context)
