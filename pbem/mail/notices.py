"""Which notices go to a player's other channels: each mail that tells him of his games (his
turn, a game's start or end, a reminder that a deadline is close, a computer taking a seat, a
vacation that started by itself) is copied, as a short notice, to every channel his address
has on (`pbem.players.channels`). The notices are rows written in the transaction that
queues the mail (`mail_id`), so a notice exists exactly when its mail does, and the worker
sends each once (`pbem.mail.channel_send`). Mail stays: it is what still arrives when a
channel fails or is turned off.

A notice's body is one JSON object that Discord ("content") and Slack ("text") show as it
is, with the notice's fields beside them for a program.

A game's webhook (`channels.live_game_hook`) is read by a group, players or not: it gets one
notice per change of the game, not per mail, built here from what anybody may know of it
(`for_game`): its players' names, whose turn it is, that a computer took a seat, how it ended
(as a spectator reads it), and the link to its public record. Never a turn or seat link, a
hand, a message or a deadline: nothing one seat sees and another does not."""

from __future__ import annotations

from pbem import i18n
from pbem.extensions import db
from pbem.games.phrases import Phrase, phrase
from pbem.players import channels
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.gamelog import Loaded
from pbem.store.models import Mail, Notice, utcnow
from pbem.views.words import listing

#: The mails whose news also goes to the channels (the rest answer something the player did).
NOTICE_KINDS = ("invite", "turn", "over", "taken_over", "vacation", "reminder")


def body(mail: Mail, url: str | None) -> dict:
    """What a channel receives: the mail's subject (in the reader's language) and the link it
    opens."""
    line = f"{mail.subject}\n{url}" if url else mail.subject
    return {"content": line, "text": line,
            "notice": {"kind": mail.kind, "game": mail.game_id, "seat": mail.seat,
                       "subject": mail.subject, "url": url,
                       "at": utcnow().isoformat(timespec="seconds")}}


def for_mail(mail: Mail, url: str | None) -> int:
    """Write the mail's notice for each live channel of its address (inside the caller's
    transaction); how many."""
    if mail.kind not in NOTICE_KINDS:
        return 0
    live = channels.live(mail.to_addr)
    if not live:
        return 0
    db.session.flush()   # (the mail's id)
    said = body(mail, url)
    for channel in live:
        db.session.add(Notice(channel_id=channel.id, mail_id=mail.id, game_id=mail.game_id,
                              kind=mail.kind, body=said, status="pending", attempts=0))
    return len(live)


#: What a game's webhook hears of: each turn of a person, its end, a seat taken over. (Not its
#: start: the webhook is set on a seat page, so the game has begun before it exists.)
GAME_KINDS = ("turn", "over", "taken_over")


def public_line(loaded: Loaded, kind: str, seat: int | None = None) -> Phrase | None:
    """The game's change in words anybody may read ("Babel with Anna and Bob: Bob to
    play"); None: nothing worth a notice (only computers to act: they answer at once)."""
    game = phrase("{game} with {players}", game=loaded.engine.title, players=listing(loaded.names))
    if kind == "over":
        ending = loaded.engine.ending(loaded.state, None, loaded.names)   # (a spectator's words)
        return phrase("{game}: game over. {ending}", game=game, ending=ending)
    if kind == "taken_over" and seat is not None:
        return phrase("{game}: {name} left; a computer plays that seat now", game=game,
                      name=loaded.names[seat])
    computers = gamelog.bots(loaded.id)
    acting = [loaded.names[d.seat] for d in loaded.engine.to_act(loaded.state)
              if d.seat not in computers]
    if not acting:
        return None
    return phrase("{game}: {names} to play", game=game, names=listing(acting))


def game_body(line: str, url: str, kind: str, game_id: str) -> dict:
    """What a game's webhook receives: the line and the game's public record, nothing else."""
    said = f"{line}\n{url}"
    return {"content": said, "text": said,
            "notice": {"kind": kind, "game": game_id, "seat": None, "subject": line, "url": url,
                       "at": utcnow().isoformat(timespec="seconds")}}


def for_game(loaded: Loaded, kind: str, seat: int | None = None, known: int | None = None) -> int:
    """Write the change's notice for the game's webhook, if it has one that is on (inside the
    caller's transaction); `known`: whether the game has a webhook row, when the caller read it
    with a mail's facts (0: no query at all). How many (0 or 1)."""
    if known == 0 or kind not in GAME_KINDS:
        return 0
    hook = channels.live_game_hook(loaded.id)
    if hook is None:
        return 0
    line = public_line(loaded, kind, seat)
    if line is None:
        return 0
    spoken = gamelog.language_of_seat(loaded.id, hook.set_by) if hook.set_by is not None else None
    with i18n.speaking(spoken or "en"):   # the language of the player who set it
        said = str(i18n.say(line))
    db.session.add(Notice(channel_id=hook.id, mail_id=None, game_id=loaded.id, kind=kind,
                          body=game_body(said, links.record_url(loaded.id), kind, loaded.id),
                          status="pending", attempts=0))
    return 1
