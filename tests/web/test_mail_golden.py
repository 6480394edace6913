"""The mails of whole games, byte for byte: a safety net for work on how mails are composed.

Random games of Babel, Babel Tower and Babylonia are played through the web app (each decision
a POST to its turn link, some with words to the others, a resignation that hands a seat to a
computer, a computer's seat, a second game against the same players), with seats reading
English, German and Czech, clocks in two time zones, players on vacation and an address that
takes a daily digest; the mails about links, the answers to mail replies and every other kind
of mail are written too. Every mail the outbox holds afterwards (its kind, addresses, names,
subject, text and HTML, thread and status) is compared with `mail_golden.txt`, which holds them
as they are, one after the other under a `==== NNNN kind address` line: a change to a mail shows
in the file's diff as the lines that changed.

Made deterministic rather than blurred: game ids, seeds and nonces are counted, the clock stands
at a moment the test moves on, the secret key is fixed; only what is random by design is
replaced (the random part of a Message-ID) and the timed links, which carry the second they were
signed in, are written as what they sign (checked: each must open). A change that makes a mail differ
by one character fails, showing the lines that differ.

- `PBEM_MAIL_GOLDEN_DUMP=DIR`: writes every mail, as compared, to DIR (one file a mail): run it
  before and after a change and `diff -r` the two to see what changed.
- `PBEM_MAIL_GOLDEN_UPDATE=1`: writes `mail_golden.txt` anew, for a change meant to show in mails.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from pbem.games.rng import Rng
from pbem_web import link_mails  # tests/helpers

GOLDEN = Path(__file__).with_name("mail_golden.txt")
BASE_URL = "http://pbem.test"
ANNA, BOB, CARL, DORA = ("anna@example.org", "bob@example.org", "carl@example.org",
                         "dora@example.org")
#: The moment the games start at (far ahead: no clock of the test ever runs out for real, as
#: `deadlines.expired` asks the real clock), and how far it moves on with each decision.
START = datetime(2096, 3, 20, 9, 30, tzinfo=UTC)
STEP = timedelta(hours=5, minutes=13)


class Clock:
    """`pbem.store.models.utcnow`'s clock: a moment the test sets, plus a microsecond a call (so that
    rows written one after the other are still in order: a game's number in its subject)."""

    def __init__(self, at: datetime):
        self.at, self.calls = at, 0

    def now(self, tz=None) -> datetime:
        self.calls += 1
        moment = self.at + timedelta(microseconds=self.calls)
        return moment.astimezone(tz) if tz is not None else moment.replace(tzinfo=None)


@pytest.fixture
def golden_app(make_app, monkeypatch):
    from sqlalchemy.orm import configure_mappers

    from pbem.players import settings
    from pbem.store import gamelog, models
    configure_mappers()   # (its annotations read before `datetime` is the test's clock)
    clock = Clock(START)
    monkeypatch.setattr(models, "datetime", clock)
    ids, nonces = itertools.count(1), itertools.count(1)
    monkeypatch.setattr(gamelog, "new_id", lambda: f"game{next(ids):04d}")

    def nonce() -> str:
        return f"nonce{next(nonces):06d}"
    monkeypatch.setattr(gamelog, "new_nonce", nonce)
    monkeypatch.setattr(settings, "new_nonce", nonce)
    seeds = itertools.count(1001)   # (a game asked for on the start page has no seed given)
    monkeypatch.setattr(gamelog, "secrets", SimpleNamespace(randbits=lambda bits: next(seeds)))
    app = make_app(SECRET_KEY="the-golden-mails-key", OUTBOX_PAGE=True,
                   SUBMISSIONS_PER_CLIENT_PER_MINUTE=100_000,
                   SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100_000,
                   PREVIEWS_PER_CLIENT_PER_MINUTE=100_000, VACATION_DAYS_PER_YEAR=20)
    app.golden_clock = clock
    return app


# -- playing ----------------------------------------------------------------------------------

def create(app, kind: str, players, languages, *, seed: int, options=None, time_limit=None,
           bank=None, bots=(), takeover="random") -> str:
    from pbem.play import turns
    with app.app_context():
        spec = turns.Spec(kind, list(players), options or {}, 0, time_limit, seed,
                          bots=tuple(bots), takeover=takeover, bank=bank,
                          languages=tuple(languages))
        return turns.create_game(spec).id


def turn_path(app, game: str, seat: int, seq: int) -> str:
    from pbem.policy import links
    with app.app_context():
        return links.path(links.TURN, game, seat, seq)


def seat_path(app, game: str, seat: int) -> str:
    from pbem.policy import links
    from pbem.store import gamelog
    with app.app_context():
        return links.path(links.SEAT, game, seat, gamelog.current_nonce(game, seat))


def play(app, client, game: str, seed: int, *, say_every: int = 0, resign: tuple = (),
         away: tuple = (), decisions: int = 1000) -> None:
    """Random legal decisions, each a POST to the seat's turn link (a computer's by the
    worker's round), until the game ends or `decisions` were made. Every `say_every`-th says
    something with it; `resign`: (decision number, seat) resigns that seat then; `away`:
    (decision number, address, days) that address goes on vacation then."""
    from pbem.jobs import computers
    from pbem.policy import vacation
    from pbem.store import gamelog
    rng = Rng(seed)
    for made in range(decisions):
        app.golden_clock.at += STEP
        if away and made == away[0]:
            with app.app_context():
                vacation.start(away[1], away[2])
        if resign and made == resign[0]:
            answer = client.post(seat_path(app, game, resign[1]) + "/resign", json={"confirm": True})
            assert answer.status_code == 200, answer.get_json()
        with app.app_context():
            loaded = gamelog.load(game)
            if loaded.over:
                return
            seat = loaded.engine.to_act(loaded.state)[0].seat
            computer = gamelog.bot_of(game, seat)
            text = loaded.engine.random_submission(loaded.state, seat, Rng(rng.below(1 << 30)))
            seq = loaded.seq
        if computer:
            with app.app_context():
                assert computers.run(), "the computer did not play"
            continue
        body = {"steps": text}
        if say_every and made % say_every == 0:
            body["message"] = (f"Decision {made}: well played, I think — and a long sentence "
                               "that a text mail has to wrap, as people write them.")
        answer = client.post(turn_path(app, game, seat, seq), json=body)
        assert answer.status_code == 200, answer.get_json()
    with app.app_context():
        assert decisions < 1000 or gamelog.load(game).over, "the game did not end"


def other_mails(app, game: str) -> None:
    """The mails about links and the answers to mail replies, for the game as it stands."""
    from pbem.extensions import db
    from pbem.games.errors import GameError
    from pbem.inbound.ingest import STALE
    from pbem.mail import notify
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        link_mails(loaded)
        notify.reply_failed(loaded, 0, GameError("step 2 (settle P): you hold no Persian card."),
                            "move M\nsettle P\n> quoted", "<asked@mail.example.org>")
        notify.reply_refused(loaded, 1, STALE, "<asked@mail.example.org>")
        notify.reply_applied(loaded, 0, "move M", "<asked@mail.example.org>")
        db.session.commit()


def play_everything(app) -> None:
    from pbem.players import settings
    client = app.test_client()
    with app.app_context():
        settings.change(ANNA, "Europe/Prague", "en", settings.EACH, False)
        settings.change(DORA, "America/New_York", "cs", settings.DIGEST, False)

    first = create(app, "babel", [("Anna", ANNA), ("Bob", BOB)], ("en", "de"), seed=11,
                   options={"sumerians": "top-run"}, time_limit=3)
    play(app, client, first, 101, say_every=5, decisions=9)
    other_mails(app, first)
    play(app, client, first, 102, away=(3, BOB, 2))
    # Against the same player again: its subjects say "(game 2)"; it ends by a resignation.
    second = create(app, "babel", [("Anna", ANNA), ("Bob", BOB)], ("cs", "en"), seed=12)
    play(app, client, second, 103, resign=(7, 1))
    tower = create(app, "babel-tower", [("Carl", CARL), ("Dora", DORA)], ("cs", "de"), seed=13,
                   bank=(3, 1, 5))
    play(app, client, tower, 104, say_every=4)
    computer = create(app, "babel-tower", [("Bob", BOB), ("Computer", "")], ("cs", "en"),
                      seed=14, bots=(None, "random"))
    play(app, client, computer, 105)
    three = create(app, "babylonia", [("Anna", ANNA), ("Carl", CARL), ("Dora", DORA)],
                   ("de", "en", "cs"), seed=15, time_limit=2)
    # Carl leaves after a while: a computer plays his seat, and he hears only how it ends.
    play(app, client, three, 106, say_every=6, resign=(10, 1), away=(4, DORA, 3))
    running = create(app, "babel", [("Anna", ANNA), ("Dora", DORA)], ("de", "cs"), seed=16,
                     options={"sumerians": "top-run"}, time_limit=1)
    play(app, client, running, 107, decisions=3)
    the_other_mails(app, client, running, first)


def the_other_mails(app, client, running: str, finished: str) -> None:
    """The mails that are not about a game's turns, once each: a game asked for on the start
    page, the links to all games, the operator's sign-in, reminders and a digest (a day later:
    a clock ran out, so a vacation starts by itself), a new home link, a rematch."""
    from pbem.extensions import db
    from pbem.mail import notify
    from pbem.play import home_link, rematch
    from pbem.players import settings
    from pbem.views import homeview
    from pbem_web import create_by_form
    create_by_form(client, names=("Carl", "Bob"), emails=(CARL, BOB))
    with app.app_context():
        listed = homeview.build(ANNA)
        entries = [homeview.links_entry(e) for e in listed.yours + listed.others]
        notify.seat_links(ANNA, entries, settings.home_url(ANNA), "Anna")
        notify.sign_in("operator@example.org", BASE_URL + "/admin/in/" + "y" * 80, 15)
        db.session.commit()
    later = (app.golden_clock.at + timedelta(days=1, hours=2)).isoformat()
    assert app.test_cli_runner().invoke(args=["remind", "--now", later]).exit_code == 0
    with app.app_context():
        home_link.replace_home(BOB)
        rematch.ask(finished, 0)
        rematch.mail_home_for(finished, BOB, "192.0.2.9")


# -- what is compared ---------------------------------------------------------------------------

TIMED_LINK = re.compile(re.escape(BASE_URL)
                        + r"/(t|s|c|r|d|h|m|admin/in)/([A-Za-z0-9_\-]+\.[A-Za-z0-9_.\-]+)")
MESSAGE_ID = re.compile(r"(?<=[.<])[0-9a-f]{16}(?=@)")


def signed(app, kind: str, token: str) -> str:
    """What a timed link signs, checked (it opens), as the mail is compared."""
    from pbem.policy import links
    with app.app_context():
        if kind in ("t", "s"):
            link = links.read(links.TURN if kind == "t" else links.SEAT, token)
            payload = [link.game_id, link.seat, link.seq if kind == "t" else link.nonce]
        else:
            one = {short: name for name, short in links.ONE_THING.items()}[kind]
            payload = links.unsign(one, token)
    return f"{BASE_URL}/{kind}/<signed {payload!r}>"


def outbox(app) -> list[str]:
    """Every mail of the outbox, oldest first, each as one text."""
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.store.models import Mail
    with app.app_context():
        mails = db.session.scalars(select(Mail).order_by(Mail.id)).all()
        rows = [(m.kind, m.game_id, m.seat, m.status, m.to_name, m.to_addr, m.from_name,
                 m.reply_to, m.message_id, m.in_reply_to, m.subject, m.text, m.html)
                for m in mails]
    out = []
    for (kind, game, seat, status, to_name, to_addr, from_name, reply_to, message_id, in_reply_to,
         subject, text, html) in rows:
        said = (f"kind: {kind}\ngame: {game} seat: {seat} status: {status}\n"
                f"to: {to_name} <{to_addr}>\nfrom: {from_name}\nreply-to: {reply_to}\n"
                f"message-id: {MESSAGE_ID.sub('*', message_id)}\nin-reply-to: {in_reply_to}\n"
                f"subject: {subject}\n\n{text}\n-- html --\n{html}\n")
        out.append(TIMED_LINK.sub(lambda m: signed(app, m.group(1), m.group(2)), said))
    return out


def recorded_form(mails: list[str]) -> str:
    """The mails as the golden file holds them: each under a line naming its number, kind and
    recipient."""
    def title(n: int, mail: str) -> str:
        head = dict(line.split(": ", 1) for line in mail.split("\n\n", 1)[0].splitlines()
                    if ": " in line and not line.startswith("game"))
        return f"==== {n:04d} {head['kind']} {head['to'].split('<')[-1].rstrip('>') or '-'}"
    return "".join(f"{title(n, mail)}\n{mail}" for n, mail in enumerate(mails, 1))


def test_every_mail_of_whole_games_is_as_recorded(golden_app):
    play_everything(golden_app)
    mails = outbox(golden_app)
    assert len(mails) > 100
    for mail in mails:   # nothing volatile left: no timed token, no random Message-ID
        assert not re.search(r"/[tscrdhm]/[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.", mail), mail[:400]
    if dump := os.environ.get("PBEM_MAIL_GOLDEN_DUMP"):
        Path(dump).mkdir(parents=True, exist_ok=True)
        for n, mail in enumerate(mails, 1):
            (Path(dump) / f"{n:04d}.txt").write_text(mail)
    mine = recorded_form(mails)
    if os.environ.get("PBEM_MAIL_GOLDEN_UPDATE"):
        GOLDEN.write_text(mine)
    recorded = GOLDEN.read_text()
    if mine != recorded:
        differ = list(difflib.unified_diff(recorded.splitlines(), mine.splitlines(),
                                           "recorded", "now", n=2, lineterm=""))
        pytest.fail(f"the mails differ from the recorded ones ({len(mails)} mails; "
                    "PBEM_MAIL_GOLDEN_UPDATE=1 records them):\n" + "\n".join(differ[:120]),
                    pytrace=False)
