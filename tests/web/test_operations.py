"""Running a server: the outbox's status and failed mail, several senders at once, links asked
for by address, and resigning.

Mail travels over sockets to real aiosmtpd servers on loopback: the `smtp` fixture's, or a
small one below that refuses the recipients a test names (a 550, as a real server does for an
unknown user). Commands run through `app.test_cli_runner()`. Rate limits that count in the
database are moved past their windows by moving their rows' times back, never by sleeping.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
import threading
from collections import Counter
from datetime import timedelta
from itertools import permutations

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.store import gamelog
from pbem.store.models import Event, Game, RateEvent
from pbem_web import (  # tests/helpers
    create,
    deliver,
    free_port,
    outbox_rows,
    seat_path,
    text_of,
    turn_path,
)

ANNA, BOB, CAROL, DAVE = "anna@example.org", "bob@example.org", "carol@example.org", "dave@example.org"
LINK = re.compile(r"http://pbem\.test(/[ts]/[A-Za-z0-9_.\-]+)")
JSON = {"Accept": "application/json"}


# -- helpers -----------------------------------------------------------------------

def paths_in(msg) -> dict:
    paths = LINK.findall(text_of(msg))
    return {"turn": [p for p in paths if p.startswith("/t/")],
            "seat": [p for p in paths if p.startswith("/s/")]}



def loaded(app, game: str):
    with app.app_context():
        loaded = gamelog.load(game)
        _ = loaded.events   # read the log now: it is read lazily, inside the app
        return loaded


def event_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Event))


def signed(path: str) -> str:
    """What a link says, without its timestamp: two links made for the same thing in different
    seconds differ only there."""
    return path.rsplit(".", 2)[0]


def page_text(response) -> str:
    return html.unescape(response.data.decode())


def age_rate_events(app, key: str, by: timedelta) -> None:
    """Move the requests counted under `key` back in time: the window passes without sleeping."""
    with app.app_context():
        for row in db.session.scalars(select(RateEvent).where(RateEvent.key == key)):
            row.at = row.at - by
        db.session.commit()


def replace_links_by_mail(app, client, smtp, seat_link: str) -> str:
    """Ask from a seat page to replace its links, then press the button behind the link that
    the mail to the seat's own address carries; the replacement link."""
    asked = client.post(seat_link + "/replace")
    assert asked.status_code == 202, asked.data
    deliver(app)
    mail = smtp.messages[-1][1]
    assert "replace your links?" in mail["Subject"]
    link = re.search(r"http://pbem\.test(/r/\S+)", text_of(mail)).group(1)
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 200
    return link


def alert(name: str, subject: str) -> str:
    return f'A mail to {name} ("{subject}") could not be delivered'


# -- an SMTP server that refuses whom a test says ------------------------------------


class Picky:
    """An aiosmtpd handler: recipients in `refused` get a 550 at RCPT, everybody else's mail
    is accepted and kept."""

    def __init__(self):
        self.refused: set[str] = set()
        self.received: list = []
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.received.append((list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, addr: str) -> list:
        with self.lock:
            return [m for rcpts, m in self.received if addr in rcpts]


@pytest.fixture
def picky(app):
    handler = Picky()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    app.config["MAIL_URL"] = f"smtp://127.0.0.1:{port}"
    try:
        yield handler
    finally:
        controller.stop()


def game_with_a_failed_mail(app, client, picky) -> tuple[str, str]:
    """Anna and Bob's game, delivered; then Carol and Dave's, whose mail to Dave is refused."""
    one = create(client)
    assert (deliver(app).sent, len(picky.received)) == (2, 2)
    picky.refused.add(DAVE)
    two = create(client, names=("Carol", "Dave"), emails=(CAROL, DAVE))
    report = deliver(app)
    assert (report.sent, report.retrying, report.failed) == (1, 0, 1)
    return one, two


# -- the outbox's status and failed mail ----------------------------------------------------

def test_mail_status_lists_the_counts_and_each_failed_mail_with_its_error(app, client, picky):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["mail", "status"])
    assert result.exit_code == 0, result.output
    assert result.output == "0 pending, 0 sent, 0 failed, 0 suppressed\n"
    game_with_a_failed_mail(app, client, picky)
    create(client, names=("Erin", "Finn"), emails=("erin@example.org", "finn@example.org"))
    result = runner.invoke(args=["mail", "status"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2 pending, 3 sent, 1 failed, 0 suppressed"
    [dave] = [r for r in outbox_rows(app) if r.status == "failed"]
    assert dave.to_addr == DAVE and dave.subject == "Babel with Carol: you are invited"
    assert len(lines) == 2
    assert lines[1].startswith(f"failed #{dave.id} to {DAVE} ('Babel with Carol: you are invited'), "
                               "1 attempt(s): recipient refused")
    assert "550" in lines[1] and "No such user here" in lines[1]


def test_mail_status_also_lists_mail_that_failed_after_too_many_transient_tries(app, client):
    app.config.update(MAIL_URL=f"smtp://127.0.0.1:{free_port()}", MAIL_RETRY_LIMIT=1)  # nobody listens
    create(client)
    assert deliver(app).failed == 2
    result = app.test_cli_runner().invoke(args=["mail", "status"])
    lines = result.output.splitlines()
    assert lines[0] == "0 pending, 0 sent, 2 failed, 0 suppressed"
    assert [line.split(" ")[3] for line in lines[1:]] == [ANNA, BOB]
    assert all("1 attempt(s): ConnectionRefusedError" in line for line in lines[1:]), lines


def test_retry_failed_requeues_and_sends_the_failed_mail_once_the_server_accepts(app, client, picky):
    _, game = game_with_a_failed_mail(app, client, picky)
    runner = app.test_cli_runner()
    # Still refused: requeued, tried once more, failed again.
    result = runner.invoke(args=["deliver", "--retry-failed"])
    assert result.exit_code == 0, result.output
    assert result.output == "requeued 1 failed mail(s)\nsent 0, retrying 0, failed 1\n"
    assert picky.to(DAVE) == []
    # A plain run does not retry it.
    assert runner.invoke(args=["deliver"]).output == "sent 0, retrying 0, failed 0\n"
    picky.refused.clear()
    assert runner.invoke(args=["deliver"]).output == "sent 0, retrying 0, failed 0\n"
    assert picky.to(DAVE) == []
    # The server accepts now: the retry sends it, once.
    result = runner.invoke(args=["deliver", "--retry-failed"])
    assert result.output == "requeued 1 failed mail(s)\nsent 1, retrying 0, failed 0\n"
    [invite] = picky.to(DAVE)
    assert invite["Message-ID"] == f"<{game}.1@pbem.test>"
    assert invite["Subject"] == "Babel with Carol: you are invited"
    [seat] = paths_in(invite)["seat"]
    data = client.get(seat, headers=JSON).get_json()
    assert (data["game"], data["seat"]) == (game, 1)
    assert runner.invoke(args=["mail", "status"]).output == "0 pending, 4 sent, 0 failed, 0 suppressed\n"
    assert [r.status for r in outbox_rows(app)] == ["sent"] * 4
    result = runner.invoke(args=["deliver", "--retry-failed"])
    assert result.output == "requeued 0 failed mail(s)\nsent 0, retrying 0, failed 0\n"
    arrived = Counter(m["Message-ID"] for _, m in picky.received)
    assert set(arrived.values()) == {1} and set(arrived) == {r.message_id for r in outbox_rows(app)}


def test_a_failed_mail_shows_on_the_record_and_on_the_players_pages(app, client, picky):
    other, game = game_with_a_failed_mail(app, client, picky)
    note = alert("Dave", "Babel with Carol: you are invited")
    pages = {"record": f"/games/{game}/record", "carol's turn": turn_path(app, game, 0),
             "carol's seat": seat_path(app, game, 0), "dave's seat": seat_path(app, game, 1)}
    for what, path in pages.items():
        response = client.get(path)
        assert response.status_code == 200, what
        assert page_text(response).count(note) == 1, what
    assert "the server will not try again unless its operator asks it to" in \
        page_text(client.get(pages["carol's turn"]))
    # Other games do not show it, and neither do mails that are merely pending.
    create(client, names=("Erin", "Finn"), emails=("erin@example.org", "finn@example.org"))
    for path in (f"/games/{other}/record", seat_path(app, other, 0), turn_path(app, other, 0)):
        assert "could not be delivered" not in page_text(client.get(path)), path
    pending = outbox_rows(app)[-1].game_id
    assert "could not be delivered" not in page_text(client.get(f"/games/{pending}/record"))
    # Once the operator retries it and it goes out, the pages no longer show it.
    picky.refused.clear()
    assert "sent 3," in app.test_cli_runner().invoke(args=["deliver", "--retry-failed"]).output
    for what, path in pages.items():
        assert "could not be delivered" not in page_text(client.get(path)), what


# -- several senders at once ---------------------------------------------------------

PLAYERS = [f"p{i}@example.org" for i in range(5)]
SENDERS = 6


@pytest.mark.serial   # concurrent senders, each given 2.5 s: another test's load would time them out
def test_several_senders_at_once_send_every_mail_exactly_once_in_order_per_recipient(app, client, smtp):
    """Six senders, each in its own app context (its own database session), work one outbox at
    once. On PostgreSQL they claim rows with FOR UPDATE SKIP LOCKED; on SQLite, which has no row
    locks, by a conditional update. No mail goes out twice, and a recipient's mails arrive in the
    order they were written."""
    from pbem.mail.deliver import deliver_due
    for n, (a, b) in enumerate(permutations(PLAYERS, 2)):     # 20 games: 8 mails to each player
        create(client, names=(a[:2], b[:2]), emails=(a, b), first=n % 2)
    written = outbox_rows(app)
    assert len(written) == 40 and {r.status for r in written} == {"pending"}
    assert Counter(r.to_addr for r in written) == {p: 8 for p in PLAYERS}
    barrier = threading.Barrier(SENDERS, timeout=30)
    reports, errors = [], []

    def sender():
        try:
            with app.app_context():
                barrier.wait()
                reports.append(deliver_due())
        except Exception as error:           # noqa: BLE001 -- reported below
            errors.append(repr(error))

    threads = [threading.Thread(target=sender) for _ in range(SENDERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert len(reports) == SENDERS
    assert sum(r.sent for r in reports) == 40
    assert sum(r.retrying + r.failed for r in reports) == 0
    rows = outbox_rows(app)
    assert all(r.status == "sent" and r.attempts == 1 and r.sent_at is not None for r in rows)
    arrived = Counter(m["Message-ID"] for _, m in smtp.messages)
    assert len(smtp.messages) == 40
    assert set(arrived.values()) == {1}
    assert set(arrived) == {r.message_id for r in rows}
    for player in PLAYERS:
        assert ([m["Message-ID"] for m in smtp.to(player)] ==
                [r.message_id for r in written if r.to_addr == player]), player
    # Nothing is left for a later sender.
    assert deliver(app).sent == 0 and len(smtp.messages) == 40


# -- "send me my links" ----------------------------------------------------------------

LINKS_SENT = ("If {addr} plays a game here, a mail with fresh links to its running games is on its "
              "way to that address.")


LINKS_SENT_PAGE = ("If that address plays a game here, a mail with fresh links to its running games "
                   "is on its way to it.")


def landed_page(client, response):
    """The start page a form asking for links leads to (redirect after POST, no address in it)."""
    assert response.status_code == 303 and response.headers["Location"] == "/?sent=links#links"
    return client.get(response.headers["Location"])


def ask(client, addr, client_ip="192.0.2.1", **kwargs):
    return client.post("/links", data={"email": addr}, environ_base={"REMOTE_ADDR": client_ip},
                       **kwargs)


def anna_in_three_games(app, client, smtp):
    """Anna plays Bob (her turn) and Carol (Carol's turn), and resigned against Dave."""
    bob = create(client, first=0)
    carol = create(client, names=("Carol", "Anna"), emails=(CAROL, ANNA), first=0)
    dave = create(client, names=("Anna", "Dave"), emails=(ANNA, DAVE), first=0)
    response = client.post(seat_path(app, dave, 0) + "/resign", data={"confirm": "yes"})
    assert response.status_code == 303
    deliver(app)
    smtp.clear()
    return bob, carol, dave


def test_asking_for_links_mails_only_that_address_fresh_links_to_its_running_games(app, client, smtp):
    bob, carol, dave = anna_in_three_games(app, client, smtp)
    old = {game: seat_path(app, game, seat) for game, seat in ((bob, 0), (carol, 1), (dave, 0))}
    others = [seat_path(app, bob, 1), seat_path(app, carol, 0), seat_path(app, dave, 1)]
    events = event_count(app)
    response = ask(client, "  Anna@Example.ORG ")
    assert LINKS_SENT_PAGE in page_text(landed_page(client, response))
    assert deliver(app).sent == 1
    [(rcpts, mail)] = smtp.messages                      # one mail, to that address only
    assert rcpts == [ANNA] and [a.addr_spec for a in mail["To"].addresses] == [ANNA]
    assert mail["Subject"] == "Your links to your games"
    text = text_of(mail)
    assert "Babel: Anna vs Bob (your turn)" in text and "Babel: Carol vs Anna (waiting for Carol)\n" in text
    assert "Dave" not in text                            # a game that is over is not listed
    found = paths_in(mail)
    assert len(found["turn"]) == 1 and len(found["seat"]) == 2
    # The links open Anna's seats; they are her live links, freshly signed: since anybody may
    # ask for anybody's links, asking never makes a link stop working.
    fresh = {}
    for path in found["seat"]:
        data = client.get(path, headers=JSON).get_json()
        fresh[data["game"]] = path
        assert data["seat"] == {bob: 0, carol: 1}[data["game"]]
    assert set(fresh) == {bob, carol}
    for game in (bob, carol):
        assert client.get(old[game]).status_code == 200
        assert client.get(fresh[game]).status_code == 200
        assert signed(fresh[game]) == signed(old[game])
    turn = client.get(found["turn"][0], headers=JSON).get_json()
    assert (turn["game"], turn["seat"], turn["can_act"]) == (bob, 0, True)
    # Nothing else changed: the other players' links and the finished game's link still work.
    for path in others + [old[dave]]:
        assert client.get(path).status_code == 200, path
    assert event_count(app) == events


def test_an_unknown_address_gets_the_same_answer_and_no_mail(app, client, smtp):
    anna_in_three_games(app, client, smtp)
    mails = len(outbox_rows(app))
    known, unknown = ask(client, ANNA), ask(client, "nobody@example.org")
    assert known.status_code == unknown.status_code == 303
    assert known.headers["Location"] == unknown.headers["Location"]
    assert LINKS_SENT_PAGE in page_text(landed_page(client, unknown))
    as_json = client.post("/links", json={"email": "nobody2@example.org"},
                          environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert as_json.status_code == 202
    assert as_json.get_json() == {"message": LINKS_SENT.format(addr="nobody2@example.org")}
    assert len(outbox_rows(app)) == mails + 1                 # Anna's, and nobody else's
    deliver(app)
    assert [rcpts for rcpts, _ in smtp.messages] == [[ANNA]]
    # Not an address at all: refused, and nothing is counted or mailed.
    assert ask(client, "not an address").status_code == 400
    assert client.post("/links", json={"email": 5}).status_code == 400


def tokenless(answer) -> bytes:
    """The page without its forms' CSRF token (made for each client, each second)."""
    return re.sub(rb'name="csrf" value="[^"]*"', b"", answer.data)


def test_asking_for_links_is_limited_per_address(app, client, smtp):
    bob, _, _ = anna_in_three_games(app, client, smtp)
    first = ask(client, ANNA)
    assert first.status_code == 303
    mails = len(outbox_rows(app))
    # Again within the interval, from another client too: the same answer, and nothing is sent.
    for ip in ("192.0.2.1", "198.51.100.7"):
        again = ask(client, ANNA, client_ip=ip)
        assert again.status_code == 303 and tokenless(again) == tokenless(first)
    assert len(outbox_rows(app)) == mails
    deliver(app)
    [mail] = smtp.to(ANNA)
    live = seat_path(app, bob, 0)
    assert signed(live) in map(signed, paths_in(mail)["seat"])   # the mailed links are the live ones
    # Once the interval has passed, asking sends the links again (and still kills none).
    interval = app.config["LINK_REQUEST_INTERVAL_SECONDS"]
    assert interval == 600
    age_rate_events(app, f"links-address:{ANNA}", timedelta(seconds=interval + 1))
    assert ask(client, ANNA).status_code == 303
    assert len(outbox_rows(app)) == mails + 1
    deliver(app)
    assert len(smtp.to(ANNA)) == 2
    assert client.get(live).status_code == 200
    assert signed(seat_path(app, bob, 0)) in map(signed, paths_in(smtp.to(ANNA)[-1])["seat"])


def test_asking_for_links_is_limited_per_client(app, client, smtp):
    assert app.config["LINK_REQUESTS_PER_CLIENT_PER_HOUR"] == 10     # the default
    app.config["LINK_REQUESTS_PER_CLIENT_PER_HOUR"] = 3
    anna_in_three_games(app, client, smtp)
    mails = len(outbox_rows(app))
    for i in range(3):
        assert ask(client, f"stranger{i}@example.org", client_ip="192.0.2.9").status_code == 303
    refused = ask(client, ANNA, client_ip="192.0.2.9")
    assert refused.status_code == 429
    assert "Too many requests for links" in page_text(refused)
    as_json = client.post("/links", json={"email": ANNA}, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert as_json.status_code == 429 and "Too many requests" in as_json.get_json()["error"]
    assert len(outbox_rows(app)) == mails                     # nothing was mailed to Anna
    # Another client may still ask, and Anna gets her links.
    assert ask(client, ANNA, client_ip="198.51.100.7").status_code == 303
    assert len(outbox_rows(app)) == mails + 1
    # An hour later the first client may ask again.
    age_rate_events(app, "links-client:192.0.2.9", timedelta(hours=1, seconds=1))
    assert ask(client, BOB, client_ip="192.0.2.9").status_code == 303
    assert len(outbox_rows(app)) == mails + 2
    deliver(app)
    assert sorted(rcpts[0] for rcpts, _ in smtp.messages) == [ANNA, BOB]


# -- resigning -------------------------------------------------------------------------------

def over_mails(smtp, addr) -> list:
    return [m for m in smtp.to(addr) if m["Subject"].endswith("the game is over")]


def test_resigning_asks_for_confirmation_first(app, client, smtp):
    game = create(client, first=0)
    deliver(app)
    [seat] = paths_in(smtp.to(ANNA)[0])["seat"]
    payload = signed(seat)
    page = client.get(seat)
    assert re.search(rf'href="{re.escape(payload)}\.[^"/]+/resign"', page.data.decode())   # offered
    mails, events = len(outbox_rows(app)), event_count(app)
    confirm = client.get(seat + "/resign")
    assert confirm.status_code == 200
    text = page_text(confirm)
    assert "Resign this game of Babel?" in text and "Bob wins" in text
    assert 'name="confirm" value="yes"' in text
    assert re.search(rf'href="{re.escape(payload)}\.[^"/]+">No, back to the game', text)
    for body in ({}, {"confirm": "no"}, {"confirm": "true"}, {"steps": "resign"}):
        response = client.post(seat + "/resign", data=body)
        assert response.status_code == 200 and "Resign this game of Babel?" in page_text(response)
    for body in ({}, {"confirm": False}, {"confirm": "yes"}, {"confirm": 1}, [], "x"):
        response = client.post(seat + "/resign", json=body)   # JSON clients get JSON
        assert response.status_code == 400 and '"confirm": true' in response.get_json()["error"]
    assert (len(outbox_rows(app)), event_count(app)) == (mails, events)
    assert loaded(app, game).engine.outcome(loaded(app, game).state) is None
    assert client.get(paths_in(smtp.to(ANNA)[0])["turn"][0], headers=JSON).get_json()["can_act"]


def test_resigning_with_confirmation_ends_the_game_and_both_players_are_told(app, client, smtp):
    game = create(client, first=0)
    deliver(app)
    anna = paths_in(smtp.to(ANNA)[0])
    response = client.post(anna["seat"][0] + "/resign", data={"confirm": "yes"})
    assert response.status_code == 303
    assert signed(response.headers["Location"]) == signed(anna["seat"][0])
    after = loaded(app, game)
    assert after.events == [{"v": 1, "type": "resign", "seat": 0}]
    outcome = after.engine.outcome(after.state)
    assert (outcome.winner, outcome.reason) == (1, "resigned")
    deliver(app)
    for addr, other, ending in ((ANNA, "Bob", "Bob wins: you resigned."),
                                (BOB, "Anna", "You win: Anna resigned.")):
        [mail] = over_mails(smtp, addr)
        assert mail["Subject"] == f"Babel with {other}: the game is over"
        assert ending in text_of(mail)
    record = page_text(client.get(f"/games/{game}/record"))
    assert "Result:</strong> Bob wins: Anna resigned." in record
    seat_page = page_text(client.get(anna["seat"][0]))
    assert "The game is over:</strong>\n  Bob wins: you resigned." in seat_page
    assert "/resign" not in seat_page
    assert client.get(anna["turn"][0], headers=JSON).get_json()["can_act"] is False
    # A game that is over cannot be resigned again, by either seat.
    mails, events = len(outbox_rows(app)), event_count(app)
    bob_seat = paths_in(smtp.to(BOB)[0])["seat"][0]
    for seat in (anna["seat"][0], bob_seat):
        assert client.get(seat + "/resign").status_code == 400
        assert client.post(seat + "/resign", data={"confirm": "yes"}).status_code == 400
        assert client.post(seat + "/resign", json={"confirm": True}).status_code == 400
    assert (len(outbox_rows(app)), event_count(app)) == (mails, events)


def test_resigning_by_json_and_by_the_seat_that_is_not_to_act(app, client, smtp):
    game = create(client, first=0)
    response = client.post(seat_path(app, game, 1) + "/resign", json={"confirm": True})
    assert response.status_code == 200
    data = response.get_json()
    assert data["outcome"] == {"winner": 0, "winners": [0], "reason": "resigned",
                               "description": "the opponent resigned"}
    assert data["can_act"] is False and data["seat"] == 1 and data["game"] == game
    assert loaded(app, game).events == [{"v": 1, "type": "resign", "seat": 1}]
    deliver(app)
    for addr, ending in ((ANNA, "You win: Bob resigned."), (BOB, "Anna wins: you resigned.")):
        [mail] = over_mails(smtp, addr)
        assert ending in text_of(mail)
    assert client.post(seat_path(app, game, 0) + "/resign", json={"confirm": True}).status_code == 400


def test_a_replaced_or_forged_seat_link_cannot_resign(app, client, smtp):
    game = create(client, first=0)
    old = seat_path(app, game, 0)
    replace_links_by_mail(app, client, smtp, old)        # Anna's links leaked: she replaces them
    new = seat_path(app, game, 0)
    assert signed(new) != signed(old)
    events = event_count(app)
    assert client.get(old + "/resign").status_code == 410
    assert client.post(old + "/resign", data={"confirm": "yes"}).status_code == 410
    assert client.post(old + "/resign", json={"confirm": True}).status_code == 410
    forged = new[:-3] + ("AAA" if not new.endswith("AAA") else "BBB")
    assert client.post(forged + "/resign", data={"confirm": "yes"}).status_code == 403
    turn = turn_path(app, game, 0)
    assert client.post(turn + "/resign", data={"confirm": "yes"}).status_code in (404, 405)
    assert event_count(app) == events
    with app.app_context():
        assert db.session.get(Game, game) is not None
    # The live link still can.
    assert client.post(new + "/resign", data={"confirm": "yes"}).status_code == 303
    assert loaded(app, game).events[-1]["type"] == "resign"


def test_a_game_id_never_starts_like_a_command_line_option():
    from pbem.store import gamelog
    assert not any(gamelog.new_id().startswith("-") for _ in range(2000))
