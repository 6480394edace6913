"""The server's own errors. One handler (web/errors.py) turns each into a page or JSON.

Engine errors (`pbem.games.errors.GameError`) answer 422 with the step.
"""

from __future__ import annotations

from pbem.games.phrases import phrase


class ServerError(Exception):
    status = 400
    title: str = phrase("Bad request")

    def __init__(self, message: str = "", **context):
        super().__init__(message or self.title)
        self.message = message or self.title
        self.context = context


class BadInput(ServerError):
    status = 400
    title: str = phrase("Bad request")


class NotFound(ServerError):
    status = 404
    title: str = phrase("Not found")


class LinkTampered(ServerError):
    """A link whose signature does not verify: 403, and no detail."""
    status = 403
    title: str = phrase("Forbidden")


class LinkExpired(ServerError):
    """A genuine link, too old: the page offers to mail a fresh one to the seat."""
    status = 410
    title: str = phrase("This link has expired")


class LinkReplaced(ServerError):
    """A seat link that was reissued since: the old one no longer opens the game."""
    status = 410
    title: str = phrase("This link was replaced")


class AlreadySubmitted(ServerError):
    status = 409
    title: str = phrase("Already submitted")


class SeatLeft(AlreadySubmitted):
    """What a player who left a game asks of it (a turn, a message, notes, his seat's language,
    a vacation from its page): a computer plays his seat now, and his links only show the game."""
    title: str = phrase("A computer plays this seat")

    def __init__(self, message: str = "", **context):
        super().__init__(message or phrase("You left this game; a computer plays your seat now."),
                         **context)


class RateLimited(ServerError):
    status = 429
    title: str = phrase("Too many requests")
