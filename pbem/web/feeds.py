"""A player's feeds, read with his home link (`pbem.views.feeds` builds them).

    GET /h/<token>/feed.atom        his notices, Atom
    GET /h/<token>/deadlines.ics    his deadlines, iCalendar

Read-only: opened as the home is (`home_link.open_home`: a replaced home link kills its
feeds) and counted per address (`limits.take_feed`).
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from pbem.play import home_link
from pbem.policy import limits
from pbem.views import feeds

bp = Blueprint("feeds", __name__)


def _answer(body: bytes, mimetype: str) -> Response:
    response = Response(body, mimetype=mimetype)
    # The address holds a capability: no shared cache keeps it, readers may keep it a while.
    response.headers["Cache-Control"] = "private, max-age=300"
    return response


@bp.get("/h/<token>/feed.atom")
def atom(token: str):
    address = home_link.open_home(token).address
    limits.take_feed(address)
    return _answer(feeds.atom(address, request.base_url), "application/atom+xml")


@bp.get("/h/<token>/deadlines.ics")
def deadlines(token: str):
    address = home_link.open_home(token).address
    limits.take_feed(address)
    return _answer(feeds.calendar(address), "text/calendar")
