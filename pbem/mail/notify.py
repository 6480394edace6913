"""Which mails each change causes. Called inside the transaction that makes the change.

- a proposed game: only its creator is mailed, with a link to confirm it;
- a new game: each seat gets an invitation with its seat link (and a way to
  decline), and the seat to act its turn link too;
- an event: each seat that now owes a decision gets a turn mail (the seat that
  just acted too, when it owes the next decision as well: a person on the web
  goes on in his page, but a client of the JSON API, or a player who closed
  the page, learns of it only so); when the game ends every seat is told how;
- a seat taken over by a computer: every player is told (the one who left too);
- a computer's seat is never mailed: one from the start has no address, and a
  player whose seat was taken over gets only the end of the game;
- a mail reply: refused (a short note to the seat's own address) or failed
  (the step and its sentence, to the seat); applied, a short answer in its thread for
  a player who asked for one on his home;
- links: the current ones to an address or a seat (nothing is invalidated),
  a link to replace them, and the new ones after a replacement;
- reminders: one mail per address, listing games;
- a vacation started by itself (a clock ran out while its player had days left): every
  player of that game is told.

The game mails a player gets (invitation, turn, end, takeover, vacation) carry the messages
said in the game since his last such mail (`pbem.players.messages`: the seat's mark moves on).

Every mail that carries a turn link has a Reply-To address with a signed
token, so the player may answer it with his steps. Addresses are read fresh
(`gamelog.address_of`): the operator may have corrected one.
"""

from __future__ import annotations

import textwrap

from flask import current_app
from sqlalchemy import select

from pbem import i18n
from pbem.extensions import db
from pbem.games.errors import GameError
from pbem.games.phrases import Phrase, phrase, phrase_n
from pbem.mail import notices
from pbem.mail.compose import language_for, queue
from pbem.mail.replies import reply_address
from pbem.players import messages, settings
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.facts import MailFacts, mail_facts
from pbem.store.gamelog import Loaded
from pbem.store.models import PENDING, Game, Seat, utcnow
from pbem.views import seatview
from pbem.views.words import listing, match_title


def from_name(title: str, names) -> Phrase:
    """A game's mails come from "Babel: Anna vs Bob" (said in the reader's language)."""
    return phrase("{game}: {players}", game=title, players=match_title(names))


def _from_name(loaded: Loaded) -> Phrase:
    return from_name(loaded.engine.title, loaded.names)


def context(loaded: Loaded, seat: int, facts: MailFacts, bot: bool = False) -> dict:
    """A seat's mail is rendered from its seat view (the same one its page shows), with the
    links the mail carries (no turn link for a seat a computer plays)."""
    seating = seatview.Seating(gamelog.bot_of(loaded.id, seat), gamelog.takeovers(loaded.id),
                               seatview.Present(messages=facts.said > 0, notes=False,
                                                vacations=facts.away > 0),
                               nonce=facts.nonce)
    view = seatview.build(loaded, seat, for_mail=True, seating=seating)
    decision = None if bot else view.owes
    return {
        **view.context(),
        "decision": decision,
        "turn_url": view.turn_link if decision else None,   # (signed once, by the view)
        "seat_url": links.url(links.SEAT, loaded.id, seat, facts.nonce),
        "record_url": links.record_url(loaded.id),
    }


def subject(loaded: Loaded, seat: int, what: str, address: str = "",
            games: int | None = None) -> Phrase:
    """"Babel with Bob: your turn"; a second game of the same kind against the same players
    says which it is ("Babel with Bob (game 2): ..."), so a mailbox tells their threads apart.
    `games`: how many games of this kind the address plays, when known (`MailFacts.games`)."""
    return phrase("{game} with {others}: {what}", game=loaded.engine.title,
                  others=opponents(loaded.id, loaded.engine.name, loaded.names, seat, address,
                                   games),
                  what=what)


def opponents(game_id: str, kind: str, names, seat: int, address: str,
              games: int | None = None) -> str:
    """The other players of a game, "Bob", with its number when the address plays more than
    one such game against them: "Bob (game 2)"."""
    others = listing(n for i, n in enumerate(names) if i != seat)
    number = game_index(game_id, kind, address, games)
    return phrase("{others} (game {number})", others=others, number=number) if number > 1 else others


def game_index(game_id: str, kind: str, address: str, games: int | None = None) -> int:
    """Which of the address's games of this kind against the same other players this is (1 for
    the first, by the order they were created in). `games`: how many games of this kind the
    address plays, when the caller counted them (one: it is the first, nothing to read)."""
    if not address or (games is not None and games < 2):
        return 1
    ids = select(Seat.game_id).where(Seat.email == address)
    played = db.session.execute(select(Game.id, Game.created_at).where(
        Game.id.in_(ids), Game.kind == kind)).all()
    if len(played) < 2:
        return 1
    others: dict[str, list[str]] = {g.id: [] for g in played}
    for row in db.session.execute(select(Seat.game_id, Seat.name, Seat.email).where(
            Seat.game_id.in_(list(others)), Seat.email != address)):
        others[row.game_id].append(row.email or f"computer {row.name}")
    mine = sorted(others.get(game_id, []))
    same = sorted((g.created_at, g.id) for g in played if sorted(others[g.id]) == mine)
    return next((i for i, (_, gid) in enumerate(same, 1) if gid == game_id), 1)


#: The mails that carry the game's new messages.
CARRY_TALK = ("invite", "turn", "over", "taken_over", "vacation")


def wrapped(text: str, width: int = 74) -> list[str]:
    """A message's lines for a text mail, each at most `width` (the mail indents them by 2),
    except a link longer than that: broken, it would no longer open."""
    lines: list[str] = []
    for line in text.split("\n"):
        for piece in textwrap.wrap(line, width, break_long_words=False,
                                   break_on_hyphens=False) or [""]:
            if len(piece) <= width or "://" in piece:
                lines.append(piece)
            else:
                lines.extend(piece[i:i + width] for i in range(0, len(piece), width))
    return lines


#: The only mails a player whose seat a computer took over still gets (and the answer to a
#: reply he mails: it acts no more, and he hears why).
TO_LEAVERS = ("over", "taken_over", "reply_refused")


def carry_talk(game_id: str, seat: int, said: list | tuple) -> list[dict]:
    """The messages of the game the seat's mails have not carried, as a mail shows them (his
    own left out: he knows what he said), marked as carried in the mail's transaction."""
    talk = messages.unmailed(game_id, seat, list(said))
    messages.mark_mailed(game_id, seat, talk)
    return [{"name": m.name, "at": m.at, "text": m.text,
             "lines": wrapped(m.text)} for m in talk if m.seat != seat]


def _to_seat(kind: str, loaded: Loaded, seat: int, what: str, now: bool = False,
             **extra) -> MailFacts | None:
    """`now`: sent at once, even to an address that takes a daily digest (the operator's).
    The facts the mail was written with (None: no mail, a computer's seat)."""
    address, bot = gamelog.player_of(loaded.id, seat)
    if not address or (bot and kind not in TO_LEAVERS):
        return None   # a computer's seat: nobody reads its mail
    language = language_for(address, loaded.id, seat)
    facts = mail_facts(loaded.id, seat, loaded.engine.name, address, utcnow())
    with i18n.speaking(language):   # its dates and deadlines in the reader's words too
        ctx = context(loaded, seat, facts, bot=bool(bot))
    if kind == "invite":   # a link that calls the game off, while the seat link is the live one
        ctx["decline_url"] = links.url_of(links.DECLINE, [loaded.id, seat, facts.nonce])
    ctx.update(extra.pop("context", {}))
    # A mail held for a daily digest carries no messages: the digest does (`pbem.jobs.digest`).
    status = PENDING if now else settings.initial_status(kind, address)
    if kind in CARRY_TALK and status != settings.HELD:
        ctx["talk"] = carry_talk(loaded.id, seat, ctx["messages"])
    reply_to = reply_address(loaded.id, seat, loaded.seq) if ctx["decision"] else None
    mail = queue(kind, loaded.names[seat], address,
                 subject(loaded, seat, what, address, facts.games), ctx,
                 game_id=loaded.id, seat=seat,
                 from_name=_from_name(loaded), reply_to=reply_to, status=status,
                 language=language, **extra)
    if facts.channels:   # (its other channels)
        notices.for_mail(mail, ctx.get("turn_url") or ctx.get("seat_url"))
    return facts


def _to_game(loaded: Loaded, kind: str, facts: list[MailFacts | None], seat: int | None = None) -> None:
    """The change's public notice for the game's webhook (`notices.for_game`); whether the
    game has one was read with its mails' facts, when any mail was written."""
    known = next((f.hooked for f in facts if f is not None), None)
    if known is None and kind == "turn":
        return   # no turn mail: only computers act, which is no news for the group
    notices.for_game(loaded, kind, seat, known)


def confirm_game(proposal, spec) -> None:
    """The creator's mail: the game as asked for, and the link that starts it."""
    engine = spec.engine()
    names = [name for name, _ in spec.players]
    queue("confirm", names[0], proposal.creator, phrase("Confirm your game of {game}", game=engine.title),
          {"title": engine.title, "names": names, "spec": spec,
           "addresses": [address for _, address in spec.players],
           "confirm_url": links.url_of(links.CONFIRM, proposal.id),
           "hours": current_app.config["PROPOSAL_HOURS"]},
          from_name=from_name(engine.title, names),   # in the language chosen for him (lang0)
          language=spec.languages[0] if spec.languages else None)


def game_created(loaded: Loaded) -> None:
    for seat in range(len(loaded.seats)):
        what = phrase("your turn") if loaded.decision_of(seat) else phrase("you are invited")
        _to_seat("invite", loaded, seat, what, root=True)   # (with its decline link)


def event_appended(loaded: Loaded, actor: int | None) -> None:
    """Turn mails to the seats that now owe a decision (the actor too, when he owes the next
    one: a draft's last picker who places first, a card that plays again); when the
    game ends, to all."""
    with gamelog.seats_read_once(loaded.id):   # (each mail asks who plays its seat)
        _event_appended(loaded)


def _event_appended(loaded: Loaded) -> None:
    if loaded.engine.outcome(loaded.state) is not None:
        _to_game(loaded, "over", [_to_seat("over", loaded, seat, phrase("the game is over"))
                                  for seat in range(len(loaded.seats))])
        return
    _to_game(loaded, "turn", [_to_seat("turn", loaded, decision.seat,
                                       phrase("your turn, {name}", name=loaded.names[decision.seat]))
                              for decision in loaded.engine.to_act(loaded.state)])


def taken_over(loaded: Loaded, seat: int) -> None:
    """Every player hears that a computer plays `seat` from now on (its player too)."""
    with gamelog.seats_read_once(loaded.id):   # (read after the takeover was written)
        _taken_over(loaded, seat)


def _taken_over(loaded: Loaded, seat: int) -> None:
    left = gamelog.takeovers(loaded.id)[seat]
    name = loaded.names[seat]
    facts = []
    for other in range(len(loaded.seats)):
        what = (phrase("a computer plays your seat now") if other == seat
                else phrase("{name} left; a computer plays that seat now", name=name))
        facts.append(_to_seat("taken_over", loaded, other, what,
                              context={"left_name": name, "left_seat": seat,
                                       "left_reason": left.reason, "left_level": left.level,
                                       "left_turn": left.first_turn}))
    _to_game(loaded, "taken_over", facts, seat)


def vacation_started(loaded: Loaded, seat: int, away, days_left: int) -> None:
    """The seat's clock ran out while its player had vacation days left: a vacation started by
    itself; every player of the game is told (he too), with when it ends."""
    name = loaded.names[seat]
    until = away.ends_at   # written in each recipient's language by the mail (`moment`)
    for other in range(len(loaded.seats)):
        what = (phrase("your clock ran out: vacation started") if other == seat
                else phrase("{name}'s clock ran out: vacation started", name=name))
        _to_seat("vacation", loaded, other, what,
                 context={"away_name": name, "away_seat": seat, "away_until": until,
                          "away_days_left": days_left})


def invitation(loaded: Loaded, seat: int) -> None:
    """The invitation, to a seat's corrected address that never had it: the game as the seat
    sees it, its decline link, its seat link and turn link (in the thread the invitation to the
    wrong address began)."""
    what = phrase("your turn") if loaded.decision_of(seat) else phrase("you are invited")
    _to_seat("invite", loaded, seat, what)


def turn_again(loaded: Loaded, seat: int) -> None:
    """The seat's turn mail once more, now (the operator's: one held for a digest, dropped for
    a suppressed address, or sent to a corrected one)."""
    _to_seat("turn", loaded, seat, phrase("your turn, {name}", name=loaded.names[seat]), now=True)


def current_links(loaded: Loaded, seat: int) -> None:
    """The seat's current links (and turn link, if a decision is owed), to its own address."""
    _to_seat("links", loaded, seat, phrase("your links"))


def replace_links(loaded: Loaded, seat: int, replace_url: str) -> None:
    """A link that replaces the seat's links, for a player whose links leaked."""
    _to_seat("replace", loaded, seat, phrase("replace your links?"), context={"replace_url": replace_url})


def links_replaced(loaded: Loaded, seat: int) -> None:
    """The seat's new links, after a replacement (the old seat link no longer works)."""
    _to_seat("links", loaded, seat, phrase("your new links"), context={"replaced": True})


def unreachable(loaded: Loaded, seat: int) -> None:
    """Tell the other players that mail to a seat bounces (the game may wait for him)."""
    for other in range(len(loaded.seats)):
        if other != seat:
            _to_seat("unreachable", loaded, other,
                     phrase("{name} cannot be reached", name=loaded.names[seat]),
                     context={"unreachable": loaded.names[seat]})


def reply_failed(loaded: Loaded, seat: int, error: GameError, text: str, message_id: str | None) -> None:
    """A mail reply that is not a legal decision: the step and its sentence; nothing applied."""
    # What he wrote, not the mail he quoted (the steps are read without it): a reply with
    # nothing above the quote is read below it, where the quoted lines stay for the parser.
    written = "\n".join(line for line in text.splitlines()
                        if line.strip() and not line.lstrip().startswith(">"))
    _to_seat("reply_failed", loaded, seat, phrase("your reply was not applied"),
             context={"error": error.said(), "steps": written}, in_reply_to=message_id)


def reply_applied(loaded: Loaded, seat: int, move: str, message_id: str | None) -> None:
    """A short answer to a move mailed in, in the game's thread (for players who asked for it
    on their home: `settings.confirm_replies`)."""
    _to_seat("reply_applied", loaded, seat, phrase("your move was applied"),
             context={"move": move}, in_reply_to=message_id)


def reply_refused(loaded: Loaded, seat: int, reason: str, message_id: str | None) -> None:
    """A short refusal of a reply that cannot act (stale, or from another address), to the
    seat's own address only, in the game's thread."""
    _to_seat("reply_refused", loaded, seat, phrase("your reply was not applied"),
             context={"reason": reason}, in_reply_to=message_id)


def seat_links(to_addr: str, entries: list[dict], home_url: str, name: str) -> None:
    """The current links to every running game of one address (where it is his turn first),
    and his home, in one mail."""
    queue("seat_links", name, to_addr, phrase("Your links to your games"),
          {"entries": entries, "home_url": home_url})


def reminder(to_addr: str, name: str, entries: list[dict]) -> None:
    """One mail listing every game that waits for this address, most urgent first."""
    if len(entries) == 1:
        what = phrase("Reminder: your turn in {game} with {others}", game=entries[0]["title"],
                      others=entries[0]["opponents"])
    else:
        what = phrase_n("Reminder: {n} game waits for your turn",
                        "Reminder: {n} games wait for your turn", len(entries))
    mail = queue("reminder", name, to_addr, what, {"entries": entries})
    notices.for_mail(mail, entries[0]["turn_url"] if len(entries) == 1 else settings.home_url(to_addr))


def sign_in(to_addr: str, url: str, minutes: int) -> None:
    """The operator's sign-in link (the page it opens signs in only through its button)."""
    queue("sign_in", "Operator", to_addr, phrase("Sign in to run the game server"),
          {"sign_in_url": url, "minutes": minutes, "base_url": current_app.config["BASE_URL"]})
