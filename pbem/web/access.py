"""What a link opens: the seat it names in a loaded game, whether it may act now, and the
seat's view built once per request (`pbem.views.seatview`); and the draft a request carries.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from flask import request

from pbem import i18n
from pbem.errors import BadInput, LinkReplaced, LinkTampered
from pbem.games.errors import GameError
from pbem.games.phrases import phrase, phrase_n
from pbem.mail import deliver as delivery
from pbem.policy import links, vacation
from pbem.policy.small import small_int
from pbem.store import gamelog
from pbem.store.facts import PageFacts, page_facts
from pbem.store.gamelog import Loaded
from pbem.store.models import utcnow
from pbem.views import seatview
from pbem.views.seatview import SeatView, Undelivered

MAX_STEPS_TEXT = 20_000
SEAT_NUMBERS = 2**31   # seats are numbered from 0; a link's seat number past these is forged

@dataclass
class Access:
    """What a link opens: its seat in a loaded game, and whether it may act now."""
    link: links.Link
    loaded: Loaded
    live: bool = False     # the link may answer the decision its seat owes now
    list_steps: bool = True   # the seat view lists the legal steps (a preview: after its draft)

    @property
    def seat(self) -> int:
        return self.link.seat

    @cached_property
    def facts(self) -> PageFacts:
        """What the page needs from the database beyond the log (vacations: of the last year)."""
        facts = page_facts(self.loaded.id, self.seat, vacation.year_ago(utcnow()))
        i18n.use(facts.language)   # the seat's pages speak its language, whatever the browser's
        return facts

    @cached_property
    def seat_view(self) -> SeatView:
        """What the seat sees, built once for the request."""
        facts = self.facts
        seating = seatview.Seating(facts.bot, gamelog.takeovers(self.loaded.id) if facts.takeovers else {},
                                   seatview.Present(bool(facts.banked), bool(facts.said),
                                                    bool(facts.noted), bool(facts.away),
                                                    bool(facts.hooked)),
                                   others=facts.others, nonce=facts.nonce)
        return seatview.build(self.loaded, self.seat, live=self.live, steps=self.list_steps,
                              undelivered=self._undelivered(), seating=seating)

    def _undelivered(self) -> tuple[Undelivered, ...]:
        if not self.facts.undelivered:
            return ()
        return tuple(Undelivered(m.to_name, m.subject)
                     for m in delivery.failed_for_game(self.loaded.id))

    def after(self, loaded: Loaded) -> Access:
        """The same link on the game as it is after a decision (no longer live)."""
        return Access(self.link, loaded, False)


def load_seat(link: links.Link) -> Loaded:
    """The link's game; a seat the game does not have is a forged link."""
    if not 0 <= link.seat < SEAT_NUMBERS:   # (a number the database's seat column holds)
        raise LinkTampered()
    loaded = gamelog.load(link.game_id)
    if not 0 <= link.seat < len(loaded.seats):
        raise LinkTampered()
    return loaded


def open_turn(token: str, list_steps: bool = True) -> Access:
    link = links.read(links.TURN, token)
    loaded = load_seat(link)
    access = Access(link, loaded, link.seq == loaded.seq and loaded.decision_of(link.seat) is not None,
                    list_steps)
    if not _turn_link_lives(access):   # mailed to an address the seat no longer has, or leaked
        raise LinkReplaced(phrase("This link was replaced by a newer one, which was mailed to the player."),
                           renew_path=f"/t/{token}/renew")
    if access.facts.bot and access.live:   # a computer took the seat over: its links act no more
        access.live = False
    return access


def _turn_link_lives(access: Access) -> bool:
    """A turn link dies with the seat link it was mailed with: its nonce must be the seat's live
    one. One signed before turn links carried a nonce lives while the seat's first nonce does."""
    if access.link.nonce is not None:
        return access.link.nonce == access.facts.nonce
    return gamelog.nonces_issued(access.loaded.id, access.seat) <= 1


def open_seat(token: str) -> Access:
    return _seat_access(links.read(links.SEAT, token), token)


def open_decline(token: str) -> Access:
    """The seat a decline link (in an invitation) names, while its seat link is the live one."""
    payload = links.unsign(links.DECLINE, token)
    if not (isinstance(payload, list) and len(payload) == 3 and isinstance(payload[0], str)
            and isinstance(payload[1], int) and not isinstance(payload[1], bool)):
        raise LinkTampered()
    link = links.Link(links.SEAT, payload[0], payload[1], nonce=payload[2])
    return _seat_access(link, links.token(links.SEAT, *payload))


def _seat_access(link: links.Link, token: str) -> Access:
    loaded = load_seat(link)
    access = Access(link, loaded)
    if access.facts.nonce != link.nonce:
        raise LinkReplaced(phrase("This link was replaced by a newer one, which was mailed to the player."),
                           renew_path=f"/s/{token}/renew")
    return access


def steps_text() -> str:
    """The draft from a form or a JSON body. Form fields named `compose` are joined with spaces
    (a game's own form, such as Babel's discard form, spells its steps that way)."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("steps", ""), str):
            raise BadInput(phrase("Send a JSON object like {example}.", example='{"steps": "move M"}'))
        text = str(body.get("steps", ""))
    elif request.form.getlist("compose"):
        text = " ".join(request.form.getlist("compose"))
    else:
        text = str(request.form.get("steps", ""))
    if len(text) > MAX_STEPS_TEXT:
        raise BadInput(phrase_n("The turn is too long ({n} character).",
                                "The turn is too long ({n} characters).", len(text)))
    return text.replace("\r\n", "\n")


def message_text() -> str:
    """Words said with a turn: the form's `message`, or `"message"` beside `"steps"` in JSON."""
    if request.is_json:
        body = request.get_json(silent=True)
        value = body.get("message", "") if isinstance(body, dict) else ""
        if not isinstance(value, str):
            raise BadInput(phrase('"message" is text: send {example}.',
                                  example='{"steps": "...", "message": "..."}'))
        return value
    return str(request.form.get("message", ""))


def edited(engine, text: str) -> str:
    """The draft after a step button: `add` appends a step, `remove` drops step N."""
    add, remove = request.form.get("add", ""), request.form.get("remove", "")
    if add:
        text = text.rstrip("\n") + ("\n" if text.strip() else "") + add + "\n"
    number = small_int(remove)
    if remove and number is None:
        raise BadInput(phrase("remove={value}: a step is removed by its number in the draft.",
                              value=repr(remove[:20])))
    if number is not None:
        try:
            pieces = engine.split_steps(text)
        except GameError:
            return text
        if 1 <= number <= len(pieces):
            del pieces[number - 1]
            text = "\n".join(pieces) + ("\n" if pieces else "")
    return text
