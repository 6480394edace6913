"""Signed links: capabilities mailed to players (itsdangerous).

- A turn link signs (game, seat, seq, nonce): it acts only while that seat owes a
  decision at that point of the log; afterwards it shows the game read-only. It carries
  the seat's nonce too, so it dies with the seat link (a corrected address, replaced links):
  whoever holds an old turn link can no longer play the seat. (A turn link from before the
  nonce was signed into it, [game, seat, seq], works while the seat's first nonce is live.)
- A seat link signs (game, seat, nonce): the player's standing view of the
  game; reissuing the seat's nonce kills the old link.

Other signed links carry one thing each and act only through a button (a POST), so
that a mail scanner opening every link in a mail acts on none of them:
- a confirmation link signs a proposed game's id (its creator starts it);
- a replacement link signs (game, seat, nonce): the player replaces leaked links;
- a decline link signs (game, seat, nonce): an invited player calls the game off;
- an unsubscribe link signs an address ("never mail me again");
- a sign-in link signs the operator's address;
- a home link signs (address, nonce): the player's list of his games (`pbem.views.homeview`); a new
  nonce kills the old link;
- a rematch link signs (rematch, seat): a player says yes to a rematch;
- a challenge link signs a challenge's id (its poster puts it up), a withdrawal link the same
  (he takes it down), an accept link (challenge, address, name, language): a stranger takes a
  seat in it (`pbem.play.challenges`).
- a league link signs a proposed league's id (its creator opens it);
- a league join link signs (league, ticket): the address that asked joins, once (the ticket is
  spent by leaving; asking again mails a new one).

Keys rotate: SECRET_KEY signs; it and every key in SECRET_KEY_FALLBACKS verify.
Links expire after LINK_MAX_AGE_DAYS; an expired link still names its game and
seat (its signature is good), so the page can offer to mail a fresh one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

from pbem.errors import LinkExpired, LinkTampered
from pbem.games.phrases import phrase

TURN, SEAT = "turn", "seat"
PREFIX = {TURN: "t", SEAT: "s"}


@dataclass(frozen=True)
class Link:
    kind: str        # TURN or SEAT
    game_id: str
    seat: int
    seq: object = None         # a turn link's point of the log (None on a seat link)
    nonce: str | None = None   # the seat's nonce (None: a turn link from before it had one)


def _keys() -> tuple:
    config = current_app.config
    return (*config.get("SECRET_KEY_FALLBACKS", []), config["SECRET_KEY"])   # newest last signs


@lru_cache(maxsize=64)
def _made(timed: bool, keys: tuple, salt: str) -> URLSafeSerializer | URLSafeTimedSerializer:
    """A serializer per keys and salt, made once: making one costs as much as signing with it
    (itsdangerous tries its JSON on every new serializer), and a page signs several links."""
    return (URLSafeTimedSerializer if timed else URLSafeSerializer)(list(keys), salt=salt)


def _serializer(kind: str) -> URLSafeTimedSerializer:
    made = _made(True, _keys(), f"pbem-{kind}-link")
    assert isinstance(made, URLSafeTimedSerializer)
    return made


def token(kind: str, game_id: str, seat: int, seq_or_nonce, nonce: str | None = None) -> str:
    """A turn link signs its seq and is given the seat's live nonce (`nonce`; without it, the link
    works only while the seat's first nonce is live), a seat link signs the nonce alone."""
    signed = [game_id, seat, seq_or_nonce] + ([nonce] if kind == TURN and nonce is not None else [])
    return _serializer(kind).dumps(signed)


def url(kind: str, game_id: str, seat: int, seq_or_nonce, nonce: str | None = None) -> str:
    base = current_app.config["BASE_URL"]
    return f"{base}/{PREFIX[kind]}/{token(kind, game_id, seat, seq_or_nonce, nonce)}"


def path(kind: str, game_id: str, seat: int, seq_or_nonce, nonce: str | None = None) -> str:
    return f"/{PREFIX[kind]}/{token(kind, game_id, seat, seq_or_nonce, nonce)}"


def _link(kind: str, payload) -> Link:
    sizes = (3, 4) if kind == TURN else (3,)
    if (not isinstance(payload, list) or len(payload) not in sizes or not isinstance(payload[0], str)
            or not isinstance(payload[1], int) or isinstance(payload[1], bool)):
        raise LinkTampered()
    nonce = payload[3] if len(payload) == 4 else None
    if len(payload) == 4 and not isinstance(nonce, str):
        raise LinkTampered()
    if kind == TURN:
        return Link(kind, payload[0], payload[1], seq=payload[2], nonce=nonce)
    return Link(kind, payload[0], payload[1], nonce=payload[2])


def read(kind: str, value: str) -> Link:
    """The link a token stands for; LinkTampered or LinkExpired otherwise."""
    serializer = _serializer(kind)
    max_age = current_app.config["LINK_MAX_AGE_DAYS"] * 86400
    if len(value) > 400:
        raise LinkTampered()
    try:
        return _link(kind, serializer.loads(value, max_age=max_age))
    except SignatureExpired as expired:
        try:
            link = _link(kind, serializer.load_payload(expired.payload or b""))
        except BadSignature:
            raise LinkTampered() from None
        raise LinkExpired(link=link, renew_path=f"/{PREFIX[kind]}/{value}/renew") from None
    except BadSignature:
        raise LinkTampered() from None


# -- links that carry one thing -----------------------------------------------------------

CONFIRM, REPLACE, DECLINE, UNSUBSCRIBE, SIGN_IN, HOME, REMATCH = (
    "confirm", "replace", "decline", "unsubscribe", "sign-in", "home", "rematch")
CHALLENGE, ACCEPT, WITHDRAW = "challenge", "accept", "withdraw"
LEAGUE, LEAGUE_JOIN = "league", "league-join"
ONE_THING = {CONFIRM: "c", REPLACE: "r", DECLINE: "d", UNSUBSCRIBE: "u", SIGN_IN: "admin/in",
             HOME: "h", REMATCH: "m", CHALLENGE: "ch", ACCEPT: "ca", WITHDRAW: "cw",
             LEAGUE: "lc", LEAGUE_JOIN: "lj"}


#: Links that never expire carry no time: an unsubscribe link must work for as long as the
#: mail it came in is kept, and is the same in a mail's header and its text.
UNTIMED = {UNSUBSCRIBE}


def _one_thing_serializer(kind: str) -> URLSafeSerializer | URLSafeTimedSerializer:
    if kind in UNTIMED:
        return _made(False, _keys(), f"pbem-{kind}-link")
    return _serializer(kind)


def sign(kind: str, payload) -> str:
    return _one_thing_serializer(kind).dumps(payload)


def url_of(kind: str, payload) -> str:
    return f"{current_app.config['BASE_URL']}{path_of(kind, payload)}"


def path_of(kind: str, payload) -> str:
    return f"/{ONE_THING[kind]}/{sign(kind, payload)}"


def unsign(kind: str, value: str, max_age_seconds: int | None = None) -> Any:
    """What a one-thing link carries; LinkTampered when forged, LinkExpired when too old."""
    if len(value) > 400:
        raise LinkTampered()
    serializer = _one_thing_serializer(kind)
    try:
        if isinstance(serializer, URLSafeTimedSerializer):
            return serializer.loads(value, max_age=max_age_seconds)
        return serializer.loads(value)
    except SignatureExpired:
        raise LinkExpired(phrase("This link is too old; ask for a new one."), link=None,
                          renew_path=None) from None
    except BadSignature:
        raise LinkTampered() from None


def record_url(game_id: str) -> str:
    """A game's public record: not a capability, so not signed (anybody may read it)."""
    return f"{current_app.config['BASE_URL']}/games/{game_id}/record"
