"""Response headers: turn links are capabilities, so nothing may leak them or frame the pages.
And request bodies: a POST carries a form or JSON, nothing else (415)."""

from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

BODY_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def init_app(app) -> None:
    @app.before_request
    def form_or_json():
        """Any other body would be read as an empty form (a page answered 200): refuse it."""
        if request.method != "POST" or not (request.content_length or request.headers.get("Transfer-Encoding")):
            return
        if (request.content_length or 0) > current_app.config["MAX_CONTENT_LENGTH"]:
            raise RequestEntityTooLarge()
        if request.mimetype not in BODY_TYPES and not request.is_json:
            raise UnsupportedMediaType("Send a form or JSON (application/json).")
        if request.mimetype in BODY_TYPES:
            try:
                request.form   # parsed now: a form that cannot be read is refused here
            except ValueError:
                raise BadRequest("The form could not be read.") from None

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if response.mimetype in ("text/html", "application/json"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
