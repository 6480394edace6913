"""Composing mails into the outbox.

Nothing in a header comes from user input unescaped: names lose control
characters and are length-capped, and addresses are encoded by the email
package at delivery. Each player's mails about one game form one thread: the
invitation's Message-ID is the root every later mail replies to.
"""

from __future__ import annotations

import email.policy
import re
import secrets
import textwrap
from datetime import UTC
from email.header import Header
from email.message import EmailMessage
from email.utils import formataddr, formatdate, parseaddr
from urllib.parse import urlsplit

from flask import current_app

from pbem import i18n
from pbem.config import mail_domain
from pbem.extensions import db
from pbem.players import settings
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import Mail

# Control characters, C1 controls too: "\x85" and the like break lines for str.splitlines(),
# and the email package refuses header values that do. Lone surrogates (from JSON "\ud800")
# cannot be encoded at all. Bidirectional controls (U+202A-202E, U+2066-2069, the marks) and
# invisible characters would let a name read backwards or hide text in a Subject or From
# ("Anna\u202egnp.exe"); the byte order mark and the soft hyphen hide too.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]+")
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad]+")
NAME_LIMIT = 100
FROM_LIMIT = 300   # a sender names the game and both players (100 each)


def clean(text: str, limit: int = NAME_LIMIT) -> str:
    """A name or subject safe for a header: one line, no control characters, capped.

    `=?` and `?=` are broken up: the email package decodes an encoded word typed into
    a name (`=?utf-8?q?x_=3Cevil=40example=2Eorg=3E?=`) and writes what it decodes to
    into the header unquoted, which could add an address to To; and mail readers split
    encoded words wrongly where a name holds their delimiters.
    """
    text = _CONTROL.sub(" ", _INVISIBLE.sub("", text or ""))
    while "=?" in text or "?=" in text:
        text = text.replace("=?", "= ?").replace("?=", "? =")
    return text.strip()[:limit].strip()


#: The longest line of a mail's text part: read at 80 columns (mutt, a terminal), a longer
#: line wraps wherever the reader's screen ends. A link alone on its line is never broken.
TEXT_WIDTH = 78


def fold(text: str, width: int = TEXT_WIDTH) -> str:
    """Every line longer than `width` broken between words, its continuation lines indented
    like it; a word longer than a line (a link) stays whole on a line of its own."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        out += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False) or [line]
    return "\n".join(out)


#: Mails to the operator, not to a player: no player's footer (home, stop all mail) and no
#: List-Unsubscribe header (one click on it would stop his sign-in links: locked out of /admin),
#: and sent even to an address on the suppression list (`deliver`).
OPERATOR_KINDS = frozenset({"sign_in"})
ANSWER_KINDS = frozenset({"reply_applied", "reply_failed", "reply_refused"})   # to a player's mail


def list_id() -> str:
    """The server's List-Id (RFC 2919): its name and its BASE_URL's host."""
    host = urlsplit(current_app.config["BASE_URL"]).hostname or "localhost"
    return f"pbem <pbem.{host}>"


def unsubscribe_url(address: str) -> str:
    """The link that stops all mail to this address (one click, RFC 8058)."""
    return links.url_of(links.UNSUBSCRIBE, address.strip().lower())


def thread_root(game_id: str, seat: int) -> str:
    return f"<{game_id}.{seat}@{mail_domain(current_app)}>"


def _new_message_id(game_id: str | None, seat: int | None) -> str:
    tag = f"{game_id}.{seat}." if game_id else ""
    return f"<{tag}{secrets.token_hex(8)}@{mail_domain(current_app)}>"


def queue(kind: str, to_name: str, to_addr: str, subject: str, context: dict, *,
          game_id: str | None = None, seat: int | None = None, from_name: str = "pbem",
          root: bool = False, reply_to: str | None = None, in_reply_to: str | None = None,
          status: str | None = None, language: str | None = None) -> Mail:
    """Render `mail/<kind>.txt|.html` and add the mail to the session (not committed): each
    ends with the footer (`mail/_footer.*`: the address's home, and a link to stop all mail),
    which an HTML mail includes before its `</body>` and a text one is given here. Its
    status is the address's (`settings.initial_status`) unless the caller has read it already.
    It speaks `language`, else the seat's (a mail about a game), else the address's; its
    subject and every phrase in `context` are said in it.

    A mail about a game joins the seat's thread (the invitation is its root)
    unless it answers a given message (`in_reply_to`).
    """
    context = {**context, "to_name": to_name}
    if game_id is not None and seat is not None and root:
        message_id = thread_root(game_id, seat)
    else:
        message_id = _new_message_id(game_id, seat)
        if in_reply_to is None and game_id is not None and seat is not None:
            in_reply_to = thread_root(game_id, seat)
    players = kind not in OPERATOR_KINDS
    if players:
        context["unsubscribe_url"] = unsubscribe_url(to_addr)
        context.setdefault("home_url", settings.home_url(to_addr))   # every game of this address
    app = current_app._get_current_object()   # type: ignore[attr-defined]
    with i18n.speaking(language or language_for(to_addr, game_id, seat)):
        # Its three templates rendered as `render_template` does, with the context processors'
        # values added once for the three (what they add does not change between them).
        app.update_template_context(context)
        env = app.jinja_env
        html = env.get_template(f"mail/{kind}.html").render(context)   # (its footer included)
        text = fold(env.get_template(f"mail/{kind}.txt").render(context).rstrip("\n") + "\n"
                    + (env.get_template("mail/_footer.txt").render(context) if players else ""))
        subject, from_name = i18n.say(subject), i18n.say(from_name)
    mail = Mail(kind=kind, game_id=game_id, seat=seat, to_name=clean(to_name),
                to_addr=to_addr.strip(), from_name=clean(from_name, FROM_LIMIT),
                subject=clean(subject, 300), text=text,
                html=html, message_id=message_id, in_reply_to=in_reply_to, reply_to=reply_to,
                status=status or settings.initial_status(kind, to_addr))   # held for a digest?
    db.session.add(mail)
    return mail


def language_for(to_addr: str, game_id: str | None, seat: int | None) -> str:
    """The language a mail speaks: the seat's for a mail about a game, else the address's
    (`settings.language_of`: a reminder of a game he reads in German is German too)."""
    if game_id is not None and seat is not None:
        spoken = gamelog.language_of_seat(game_id, seat)
        if spoken:
            return spoken
    return settings.language_of(to_addr)


# Headers set raw (From, To) go out exactly as written here: the email package must not refold them.
_POLICY = email.policy.default.clone(refold_source="none")


def _address(header: str, name: str, addr: str) -> str:
    """`name <addr>` as it goes on the wire.

    The email package (Python 3.11) drops the quotes around a display name it has to
    fold: `"evil@attacker.org xxxx…" <anna@example.org>`, long enough to fold, went out
    as the address evil@attacker.org…. So an ASCII name goes quoted on one unfolded line
    (at most a few hundred characters: well within the 998 a line may hold), and only a
    name that needs it as RFC 2047 encoded words, folded by `email.header` (readers such
    as Python's put a space between encoded words, so ASCII names are not split so).
    """
    name = clean(name, FROM_LIMIT)
    if not name or name.isascii():
        return formataddr((name, addr))
    words = Header(name, "utf-8", header_name=header).encode(linesep="\n")
    return f"{words}\n <{addr}>"


def _references(mail: Mail) -> str:
    """The thread a mail belongs to: the seat's thread root, then the message it answers."""
    if mail.game_id is None or mail.seat is None:
        return mail.in_reply_to or ""
    root = thread_root(mail.game_id, mail.seat)
    return root if mail.in_reply_to == root else f"{root} {mail.in_reply_to}"


def sender(mail_from: str, game_name: str) -> tuple[str, str]:
    """The display name and address a mail goes out from.

    A display name the operator put in MAIL_FROM ("Babel Club <games@example.org>") is shown
    exactly as configured: it is how his players and their providers know his server (a name
    that changes with every game reads like another sender each time), and the game and the
    opponents are in the Subject already. A bare address names the game instead ("Babel: Anna
    vs Bob", the row's `from_name`), as every mail did before the name could be configured.
    """
    configured, addr = parseaddr(mail_from)
    return clean(configured, FROM_LIMIT) or game_name, addr or "pbem@localhost"


def to_message(mail: Mail) -> EmailMessage:
    """The outbox row as an RFC 5322 message with a text and an HTML part."""
    name, addr = sender(current_app.config["MAIL_FROM"], mail.from_name)
    msg = EmailMessage(policy=_POLICY)
    msg.set_raw("From", _address("From", name, addr))
    msg.set_raw("To", _address("To", mail.to_name, mail.to_addr))
    msg["Subject"] = clean(mail.subject, 300)
    created = mail.created_at   # SQLite gives it back naive: it is UTC, not local time
    created = created if created.tzinfo else created.replace(tzinfo=UTC)
    msg["Date"] = formatdate(created.timestamp(), usegmt=True)
    msg["Message-ID"] = mail.message_id
    if mail.in_reply_to:
        msg["In-Reply-To"] = mail.in_reply_to
        msg["References"] = _references(mail)
    if mail.reply_to:   # our own address with a signed token: replies are moves
        msg["Reply-To"] = mail.reply_to
    # RFC 3834: an answer to a player's own mail is auto-replied, any other notice
    # auto-generated; either way no robot should answer it. Out-of-office replies are asked
    # not to answer at all (Exchange's header), and filters see one list per server.
    msg["Auto-Submitted"] = "auto-replied" if mail.kind in ANSWER_KINDS else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg["List-Id"] = list_id()
    if mail.kind not in OPERATOR_KINDS:
        # One click stops all mail to this address (RFC 8058): a POST to the link, never a GET.
        msg["List-Unsubscribe"] = f"<{unsubscribe_url(mail.to_addr)}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(mail.text)
    msg.add_alternative(mail.html, subtype="html")
    return msg
