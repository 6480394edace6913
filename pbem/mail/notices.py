"""Which notices go to a player's other channels: each mail that tells him of his games (his
turn, a game's start or end, a reminder that a deadline is close, a computer taking a seat, a
vacation that started by itself) is copied, as a short notice, to every channel his address
has on (`pbem.players.channels`). The notices are rows written in the transaction that
queues the mail (`mail_id`), so a notice exists exactly when its mail does, and the worker
sends each once (`pbem.mail.channel_send`). Mail stays: it is what still arrives when a
channel fails or is turned off.

A notice's body is one JSON object that Discord ("content") and Slack ("text") show as it
is, with the notice's fields beside them for a program."""

from __future__ import annotations

from pbem.extensions import db
from pbem.players import channels
from pbem.store.models import Mail, Notice, utcnow

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
