"""Response headers: turn links are capabilities, so nothing may leak them or frame the pages.
And request bodies: a POST carries a form or JSON, nothing else (415). And the CSRF tokens the
players' forms carry (the operator's are his session's: `admin`)."""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

from pbem.games.phrases import phrase

BODY_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def csrf_token(purpose: str, holder: str) -> str:
    """The token a form of `purpose` ("home", "start") carries for `holder` (the home's link
    token, the start page's cookie): only this server, with its secret key, makes it."""
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, f"{purpose}-csrf:{holder}".encode("utf-8", "replace"),
                    hashlib.sha256).hexdigest()[:32]


def csrf_matches(given: object, purpose: str, holder: str) -> bool:
    """Whether a form's `csrf` field is the token for `holder`. Compared as bytes: compare_digest
    refuses a str that is not ASCII (a TypeError: a 500 for a field holding "é")."""
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                          csrf_token(purpose, holder).encode())


def init_app(app) -> None:
    @app.before_request
    def form_or_json():
        """Any other body would be read as an empty form (a page answered 200): refuse it.
        A form is read here, whatever its length says (a multipart form with no length and
        no body at all cannot be read either): one that cannot be read is a 400."""
        if request.method != "POST":
            return
        if (request.content_length or 0) > current_app.config["MAX_CONTENT_LENGTH"]:
            raise RequestEntityTooLarge()
        try:   # read the body once (it is small): one that breaks off is the client's fault
            request.get_data(cache=True, parse_form_data=False)
        except RequestEntityTooLarge:
            raise
        except Exception:   # what the WSGI server raises for a malformed chunked body varies
            raise BadRequest(phrase("The request's body could not be read.")) from None
        if request.mimetype in BODY_TYPES:
            try:
                request.form.get("")   # parsed now: a form that cannot be read is refused here
            except ValueError:
                raise BadRequest(phrase("The form could not be read.")) from None
        elif (request.content_length or request.headers.get("Transfer-Encoding")) and not request.is_json:
            raise UnsupportedMediaType(phrase("Send a form or JSON (application/json)."))

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if response.mimetype in ("text/html", "application/json"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
