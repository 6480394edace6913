"""One place that turns errors into responses: a page for people, JSON for scripts."""

from __future__ import annotations

import logging

from flask import jsonify, make_response, render_template, request
from sqlalchemy.exc import DataError, DBAPIError, InterfaceError, OperationalError, ProgrammingError
from werkzeug.exceptions import HTTPException

from pbem.errors import LinkExpired, LinkReplaced, LinkTampered, NotFound, ServerError
from pbem.games.errors import GameError
from pbem.games.phrases import phrase

log = logging.getLogger(__name__)

#: The paths of the links mails carry: turn, seat and decline links.
LINK_PATHS = ("/t/", "/s/", "/d/")
BROKEN_LINK = phrase("This link is broken or unknown: it does not open any game here. It may "
                     "have been cut short or changed on its way.")


#: Werkzeug's words for the errors people meet (a mistyped address, a form sent twice), the
#: same English said in the reader's language.
_WERKZEUG = {
    404: (phrase("Not Found"), phrase("The requested URL was not found on the server. If you entered "
                                      "the URL manually please check your spelling and try again.")),
    405: (phrase("Method Not Allowed"), phrase("The method is not allowed for the requested URL.")),
    400: (phrase("Bad Request"), phrase("The browser (or proxy) sent a request that this server could "
                                        "not understand.")),
    413: (phrase("Request Entity Too Large"), phrase("The data value transmitted exceeds the capacity "
                                                     "limit.")),
    415: (phrase("Unsupported Media Type"), phrase("The server does not support the media type "
                                                   "transmitted in the request.")),
}


def wants_json() -> bool:
    """JSON for JSON bodies and for clients that prefer it (Accept: application/json)."""
    if request.is_json:
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


#: PostgreSQL's words for a schema that is not there or older than the code: undefined table,
#: undefined column, invalid schema name. SQLite says "no such table" or "no such column".
_NOT_UPGRADED_STATES = {"42P01", "42703", "3F000"}
UPGRADE_HINT = "run `flask --app pbem db upgrade` (deploy/pbem db upgrade)"


def not_upgraded(error: DBAPIError) -> bool:
    """Whether the database lacks the tables or columns the code reads: a server started
    without `db upgrade`, an operator's mistake to fix, not a failure of the request."""
    state = getattr(error.orig, "sqlstate", None)
    if state in _NOT_UPGRADED_STATES:
        return True
    return str(error.orig).startswith(("no such table", "no such column"))


def respond(status: int, title: str, message: str, template: str = "errors/error.html", **context):
    if wants_json():
        error = context.get("json_error", message)
        return jsonify({"error": error, **context.get("json", {})}), status
    return render_template(template, status=status, title=title, message=message, **context), status


def init_app(app) -> None:
    @app.errorhandler(ServerError)
    def server_error(error: ServerError):
        if isinstance(error, LinkTampered):
            # No detail of why (a forged link learns nothing), but a person who mistyped or
            # cut a link is told what happened and how to get his links again.
            return respond(403, phrase("This link does not work"), BROKEN_LINK,
                           "errors/broken_link.html", json_error="Forbidden.")
        if isinstance(error, NotFound) and request.path.startswith(LINK_PATHS):
            # A genuine link to a game that is gone (or a seat it never had): also a link
            # that opens nothing, so the same pointer to the player's current links.
            return respond(404, phrase("This link does not work"), error.message,
                           "errors/broken_link.html")
        if isinstance(error, (LinkExpired, LinkReplaced)):
            return respond(410, error.title, error.message, "errors/expired.html",
                           renew_path=error.context["renew_path"])
        return respond(error.status, error.title, error.message)

    @app.errorhandler(GameError)
    def game_error(error: GameError):
        return respond(422, phrase("Not possible"), error.said(), json={"step": error.step})

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        said = _WERKZEUG.get(error.code or 500)
        if said and error.description == type(error).description:   # werkzeug's own words
            return respond(error.code or 500, said[0], said[1])
        title = said[0] if said else error.name   # our own words (a phrase) under its title
        return respond(error.code or 500, title, error.description or title)

    @app.errorhandler(ProgrammingError)
    def schema_missing(error: ProgrammingError):
        """A database never upgraded: a 503 like an unreachable one (the operator fixes it),
        logged in one line that says what to do; any other ProgrammingError is a bug."""
        if not not_upgraded(error):
            return unexpected(error)
        return database_away(error)

    @app.errorhandler(OperationalError)
    @app.errorhandler(InterfaceError)
    def database_away(error):
        """The database is unreachable (or busy): say so, and let the pool reconnect later."""
        reason = str(error.orig).splitlines()[0] if str(error.orig) else type(error.orig).__name__
        if not_upgraded(error):
            log.warning("the database has no tables for this version on %s %s (%s): %s",
                        request.method, request.path, reason, UPGRADE_HINT)
        else:
            log.warning("database unavailable on %s %s: %s", request.method, request.path, reason)
        response, status = respond(503, phrase("Try again in a minute"),
                                   phrase("The game's database cannot be reached right now; nothing "
                                          "was changed. Please try again in a minute."))
        response = make_response(response, status)
        response.headers["Retry-After"] = "30"
        return response

    @app.errorhandler(DataError)
    def refused_by_the_database(error: DataError):
        """A value the database cannot hold (PostgreSQL: a NUL in a text) that no check caught
        before: the request's fault, and its transaction was rolled back, so nothing was written.
        Logged, for the check it shows missing."""
        if "NUL" not in str(error.orig):
            return unexpected(error)
        log.warning("database refused a value on %s %s: %s", request.method, request.path, error.orig)
        return respond(400, phrase("Bad request"), phrase("The request holds a character this server "
                                                          "does not take (NUL)."))

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return respond(500, phrase("Server error"),
                       phrase("Something went wrong on our side; nothing was changed."))
