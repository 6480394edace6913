"""A seat's pages and JSON, rendered from its seat view (`pbem.views.seatview`), built once per request.

Templates get the seat view's fields and the page's own (where forms post, the seat's
standing link); never the loaded game, its state or the link's access.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request

from pbem.games.phrases import phrase
from pbem.policy import links
from pbem.views import seatview
from pbem.web.access import Access

ALREADY = phrase("This turn was already submitted; here is the game as it stands.")


def seat_path(access: Access) -> str:
    return links.path(links.SEAT, access.loaded.id, access.seat, access.facts.nonce)


def page_context(access: Access, **more: Any) -> dict[str, Any]:
    """The seat view's fields, and what every page of the seat links to."""
    context = access.seat_view.context()
    context.update(seat_path=seat_path(access), path=request.path,
                   seat_language=access.facts.language,
                   can_decline=access.seat_view.outcome is None
                   and not access.loaded.has_decided(access.seat))
    context.update(more)
    return context


def render_page(access: Access, text: str = "", message: str | None = None, status: int = 200):
    """The seat's page: its composer while it may act, else the game as it stands."""
    view = access.seat_view
    context = page_context(access, message=message)
    if view.live:
        afresh = view.form_template is not None
        context.update(seatview.compose(access.loaded, view, text, afresh=afresh).context())
    elif view.owes is not None and not view.bot:   # it owes a decision: offer its live turn link
        context["turn_path"] = links.path(links.TURN, view.game_id, access.seat, view.seq,
                                          access.facts.nonce)
    return render_template("play/page.html", **context), status


def draft_fragment(access: Access, text: str):
    """The part of the turn page a preview replaces (for the page's script)."""
    context = page_context(access)
    context.update(seatview.compose(access.loaded, access.seat_view, text).context())
    return render_template("play/_draft.html", **context)


def preview_json(access: Access, text: str) -> dict[str, Any]:
    """The seat's view after the draft, with the draft's steps, error, words and next steps."""
    return {**access.seat_view.to_json(),
            **seatview.compose(access.loaded, access.seat_view, text).to_json()}


def confirm_page(access: Access, text: str):
    """Before a turn is submitted, it is shown in plain words (unless it cannot be submitted)."""
    draft = seatview.compose(access.loaded, access.seat_view, text, next_steps=False)
    if not draft.draft.done:
        return render_page(access, text, status=422)
    context = page_context(access, draft_text=text, words=seatview.sentence(list(draft.explained)))
    context.update(after=draft.view, mark_step=text, mark_mine=True)   # the board after it
    return render_template("play/confirm.html", **context)


def seat_form(access: Access, template: str, **more: Any):
    """A seat's confirmation page (resign, decline)."""
    return render_template(template, **page_context(access, **more))
