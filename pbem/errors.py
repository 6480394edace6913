"""The server's own errors. One handler (web/errors.py) turns each into a page or JSON.

Engine errors (`pbem.games.errors.GameError`) answer 422 with the step.
"""

from __future__ import annotations

from .games.phrases import phrase


class ServerError(Exception):
    status = 400
    title: str = phrase("Bad request")

    def __init__(self, message: str = "", **context):
        super().__init__(message or self.title)
        self.message = message or self.title
        self.context = context


class BadInput(ServerError):
    status, title = 400, phrase("Bad request")


class NotFound(ServerError):
    status, title = 404, phrase("Not found")


class LinkTampered(ServerError):
    """A link whose signature does not verify: 403, and no detail."""
    status, title = 403, phrase("Forbidden")


class LinkExpired(ServerError):
    """A genuine link, too old: the page offers to mail a fresh one to the seat."""
    status, title = 410, phrase("This link has expired")


class LinkReplaced(ServerError):
    """A seat link that was reissued since: the old one no longer opens the game."""
    status, title = 410, phrase("This link was replaced")


class AlreadySubmitted(ServerError):
    status, title = 409, phrase("Already submitted")


class RateLimited(ServerError):
    status, title = 429, phrase("Too many requests")
