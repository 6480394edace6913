"""Helpers the server's tests share: reading mails, creating games, delivering mail."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable, Mapping
from datetime import datetime
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid, parseaddr
from typing import TypeVar

from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

ANNA, BOB = "anna@example.org", "bob@example.org"

#: The forms of the start page, which carry its CSRF token.
START_FORMS = ("/games", "/links")
#: The public record's rematch form carries the same token (the start page's is made alike).
RECORD_FORM = re.compile(r"/games/[^/]+/rematch")
START_CSRF = re.compile(r'<form method="post" action="/games"[^>]*>\s*<input type="hidden" name="csrf" '
                        r'value="([^"]+)"')


class StartPageClient(FlaskClient):
    """The test client, which sends the start page's forms as a browser does: with the CSRF
    token of the page, read from `GET /` (from the same client address) unless the test gives
    a `csrf` field itself (or none: `csrf=None` in `data` leaves it out)."""

    def open(self, *args, **kwargs):
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path")
        data = kwargs.get("data")
        if (kwargs.get("method") == "POST" and isinstance(path, str)
                and (path in START_FORMS or RECORD_FORM.fullmatch(path)) and isinstance(data, dict)):
            data = MultiDict(data)
            if "csrf" not in data:   # (the token is made for the client: the same address)
                data["csrf"] = self.start_csrf(kwargs.get("environ_base"))
            elif data["csrf"] is None:
                del data["csrf"]
            kwargs["data"] = data
        return super().open(*args, **kwargs)

    def start_csrf(self, environ_base=None) -> str:
        page = super().open("/", method="GET", **({"environ_base": environ_base} if environ_base else {}))
        assert page.status_code == 200
        found = START_CSRF.search(page.get_data(as_text=True))
        assert found, "no CSRF token in the start page's form"
        return found.group(1)

T = TypeVar("T")


def at_once(n: int, work: Callable[[int], T]) -> list[T]:
    """`work(0)` to `work(n - 1)`, each in a thread of its own, started together behind a
    barrier (concurrent requests): their results, in the order they finished."""
    barrier, results, lock = threading.Barrier(n, timeout=60), [], threading.Lock()

    def one(i: int):
        barrier.wait()
        result = work(i)
        with lock:
            results.append(result)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(results) == n
    return results


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content().replace("\r\n", "\n")


def reply_to(mail, steps: str, names: Mapping[str, str], *, quote: str = "header") -> bytes:
    """A reply to `mail` as a mail client writes it, from the address it went to (named by
    `names`): steps on top, the original quoted below (after an "On ... wrote:" line, or bare
    `>` lines, or not at all)."""
    sender = parseaddr(str(mail["To"]))[1]
    reply = EmailMessage()
    reply["From"] = formataddr((names.get(sender, "Somebody"), sender))
    reply["To"] = str(mail["Reply-To"])
    reply["Subject"] = "Re: " + str(mail["Subject"])
    reply["Date"] = formatdate(localtime=True)
    reply["Message-ID"] = make_msgid(domain="mail.example.org")
    reply["In-Reply-To"] = str(mail["Message-ID"])
    quoted = "\n".join(("> " + line).rstrip() for line in text_of(mail).splitlines())
    body = steps
    if quote == "header":
        body += f"\n\nOn {mail['Date']}, {mail['From']} wrote:\n{quoted}\n"
    elif quote == "bare":
        body += f"\n\n{quoted}\n"
    reply.set_content(body)
    return reply.as_bytes()


def new_game(app, players=(("Anna", ANNA), ("Bob", BOB)), first: int | None = 0,
             time_limit: int | None = None, kind: str = "babel", **spec) -> str:
    """A game made as the operator's `new-game` makes it (invitations queued, no confirmation):
    `players` as (name, address) seat by seat, Babel with the Sumerians' top run unless `kind`
    says otherwise; `spec` the rest of a turns.Spec (bots, bank, options, rated…)."""
    from pbem.play import turns
    options = spec.pop("options", {"sumerians": "top-run"} if kind == "babel" else {})
    with app.app_context():
        return turns.create_game(turns.Spec(kind, list(players), options, first, time_limit,
                                            **spec)).id


def create(client, names=("Anna", "Bob"), emails=(ANNA, BOB), first=0, time_limit=None) -> str:
    """A game of Babel as the operator's `new-game` makes it (its invitations queued, and no
    confirmation: the start page's way is tested on its own); its id."""
    from pbem.play import turns
    with client.application.app_context():
        spec = turns.Spec("babel", list(zip(names, emails)), {"sumerians": "top-run"}, first,
                          time_limit)
        return turns.create_game(spec).id


def create_by_form(client, names=("Anna", "Bob"), emails=(ANNA, BOB), first=0,
                   time_limit=None) -> str:
    """A game of Babel asked for through the start page's form and confirmed by its creator."""
    data = {"game": "babel", "first": str(first), "option.sumerians": "top-run"}
    for i, (n, e) in enumerate(zip(names, emails)):
        data[f"name{i}"], data[f"email{i}"] = n, e
    if time_limit is not None:
        data["time_limit"] = str(time_limit)
    return started(client, client.post("/games", data=data))


def started(client, response) -> str:
    """The game a POST to /games asked for (a 303 to its page, or 202 JSON), confirmed by its
    creator; its id."""
    if response.status_code == 202:
        return confirm(client, response.get_json()["game"])
    assert response.status_code == 303, response.data
    return confirm(client, response.headers["Location"].split("/")[2])


def confirm(client, game_id: str) -> str:
    """The creator's confirmation of a game asked for on the start page (the button behind the
    link in his mail); the game's id."""
    from pbem.policy import links
    with client.application.app_context():
        path = links.path_of(links.CONFIRM, game_id)
    response = client.post(path)
    assert response.status_code == 303, response.data
    assert response.headers["Location"].startswith(f"/games/{game_id}/record"), response.headers
    return game_id


def deliver(app, now: datetime | None = None):
    """Send the outbox's due mail (to the test's SMTP server)."""
    from pbem.mail.deliver import deliver_due
    with app.app_context():
        return deliver_due(now=now)


def seat_path(app, game: str, seat: int) -> str:
    """The seat's live standing link (its newest nonce)."""
    from pbem.policy import links
    from pbem.store import gamelog
    with app.app_context():
        return links.path(links.SEAT, game, seat, gamelog.current_nonce(game, seat))


def turn_path(app, game: str, seat: int) -> str:
    """The link to the decision the seat owes at the log's current point."""
    from pbem.policy import links
    from pbem.store import gamelog
    with app.app_context():
        return links.path(links.TURN, game, seat, gamelog.load(game).seq,
                          gamelog.current_nonce(game, seat))


#: The longest line of a mail's text part (pbem.mail.compose.TEXT_WIDTH): read at 80 columns.
MAIL_WIDTH = 78


def too_long(text: str) -> list[str]:
    """The lines of a text part longer than 78 characters, but for a link alone on its line
    (which cannot be broken)."""
    import re
    return [line for line in text.splitlines()
            if len(line) > MAIL_WIDTH and not re.fullmatch(r"\s*https?://\S+", line)]


def outbox(app) -> list:
    """Every mail written, oldest first: (kind, subject, text, html, to, game)."""
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.store.models import Mail
    with app.app_context():
        return [(m.kind, m.subject, m.text, m.html, m.to_addr, m.game_id)
                for m in db.session.scalars(select(Mail).order_by(Mail.id))]


def outbox_rows(app) -> list:
    """Every outbox row, oldest first, detached from the session (its columns as attributes)."""
    from types import SimpleNamespace

    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.store.models import Mail
    with app.app_context():
        return [SimpleNamespace(**{c.name: getattr(r, c.name) for c in Mail.__table__.columns})
                for r in db.session.scalars(select(Mail).order_by(Mail.id))]


def play_by_links(app, client, game_id: str, seed: int) -> None:
    """Random legal decisions through the turn links (JSON), to the end of the game; a seat a
    computer plays decides through the turn service, as the worker would."""
    from pbem.games.rng import Rng
    from pbem.play import turns
    from pbem.store import gamelog
    rng = Rng(seed)
    while True:
        with app.app_context():
            loaded = gamelog.load(game_id)
            if loaded.over:
                return
            seat = loaded.engine.to_act(loaded.state)[0].seat
            text = loaded.engine.random_submission(loaded.state, seat, rng)
            if gamelog.bot_of(game_id, seat):
                turns.submit(game_id, seat, loaded.seq, text, turns.Origin(turns.BOT))
                continue
        response = client.post(turn_path(app, game_id, seat), json={"steps": text},
                               headers={"Accept": "application/json"})
        assert response.status_code == 200, response.data[:300]


def play(app, game: str, seed: int, decisions: int | None = None) -> int:
    """Random legal decisions through the turn service (as the operator: no rate limits),
    to the end of the game or for `decisions`; how many were made."""
    from pbem.games.rng import Rng
    from pbem.play import turns
    from pbem.store import gamelog
    rng, made = Rng(seed), 0
    while decisions is None or made < decisions:
        with app.app_context():
            loaded = gamelog.load(game)
            if loaded.over:
                return made
            seat = loaded.engine.to_act(loaded.state)[0].seat
            text = loaded.engine.random_submission(loaded.state, seat, rng)
            turns.submit(game, seat, loaded.seq, text, turns.Origin(turns.OPERATOR))
        made += 1
    return made


def to_act(app, game: str) -> int:
    """The seat that owes the game's next decision."""
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        assert not loaded.over, f"{game} is over"
        return loaded.engine.to_act(loaded.state)[0].seat


def play_until_owed(app, game: str, seat: int, seed: int) -> None:
    """Random decisions until another seat owes one, then until `seat` does: his turn comes
    anew, with its turn mail (a deal can give a player two decisions in a row, so a count of
    decisions cannot say whose turn comes next)."""
    while to_act(app, game) == seat:
        play(app, game, seed, decisions=1)
    while to_act(app, game) != seat:
        play(app, game, seed, decisions=1)


def link_mails(loaded) -> None:
    """Every mail about links, to the first two seats of a game (in the caller's app context,
    committed by the caller): its current links, the new ones after a replacement, the offer
    to replace them, and the second seat cannot be reached (told to the first)."""
    from pbem.mail import notify
    notify.current_links(loaded, 0)
    notify.links_replaced(loaded, 0)
    notify.replace_links(loaded, 0, "http://pbem.test/r/" + "x" * 90)
    notify.unreachable(loaded, 1)


def free_port() -> int:
    """A TCP port free on loopback now (for a server a test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
