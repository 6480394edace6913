"""The operator's page (/admin): signing in through a mailed link, the session and its CSRF
token, the dashboard, and each action doing what its command does.

The sign-in link arrives as a real mail at the `smtp` fixture's server. The pages are read as
HTML; what they act on is checked in the database (through `pbem.play.operations`, as the commands
read it).
"""

from __future__ import annotations

import html
import re
import time

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.mail.bounces import Failure
from pbem.play import addresses, inbox, operations, turns
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import Mail, RateEvent
from pbem_web import ANNA, BOB, create, deliver, text_of  # tests/helpers

OPERATOR = "op@example.org"
SIGN_IN_LINK = re.compile(r"http://pbem\.test(/admin/in/[A-Za-z0-9_.\-]+)")
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
def site(make_app):
    return make_app(ADMIN_EMAIL=OPERATOR)


@pytest.fixture
def client(site):
    return site.test_client()


# -- helpers -------------------------------------------------------------------------------

def page(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def mailed_sign_in_link(site, smtp) -> str:
    deliver(site)
    mail = smtp.to(OPERATOR)[-1]
    assert mail["Subject"] == "Sign in to run the game server"
    return SIGN_IN_LINK.search(text_of(mail)).group(1)


def sign_in(site, client, smtp) -> str:
    """Ask for a link, open it from the mail, press its button; the session's CSRF token."""
    assert client.post("/admin", data={"email": OPERATOR}).status_code == 200
    link = mailed_sign_in_link(site, smtp)
    assert client.get(link).status_code == 200
    signed = client.post(link)
    assert signed.status_code == 303 and signed.headers["Location"] == "/admin"
    return csrf_of(client)


def csrf_of(client) -> str:
    dashboard = client.get("/admin")
    assert dashboard.status_code == 200 and "The server" in page(dashboard)
    return CSRF.search(dashboard.get_data(as_text=True)).group(1)


def signed_out(client) -> bool:
    return "Operator sign-in" in page(client.get("/admin"))


def play_one(site, game_id: str) -> None:
    with site.app_context():
        loaded = gamelog.load(game_id)
        decision = loaded.engine.to_act(loaded.state)[0]
        text = loaded.engine.random_submission(loaded.state, decision.seat, Rng(1))
        turns.submit(game_id, decision.seat, loaded.seq, text, turns.Origin(turns.BOT))


def summary(site, game_id: str):
    with site.app_context():
        return operations.summary(game_id)


def section(response, name: str) -> str:
    """One section of the dashboard, as HTML."""
    return re.search(rf'<section id="{name}">(.*?)</section>', response.get_data(as_text=True),
                     re.S).group(1)


def words(markup: str) -> str:
    """What a piece of HTML says, tags dropped and spaces collapsed."""
    text = " ".join(re.sub(r"<[^>]+>", " ", markup).split()).replace(" .", ".").replace(" ,", ",")
    return html.unescape(text)


def followed(client, response) -> str:
    """The page a 303 leads to (where the action's message is shown)."""
    assert response.status_code == 303, response.data
    return page(client.get(response.headers["Location"]))


def mails_to(site, address: str) -> int:
    with site.app_context():
        return db.session.scalar(select(func.count()).select_from(Mail).where(Mail.to_addr == address))


# -- off without ADMIN_EMAIL ------------------------------------------------------------------

def test_without_admin_email_there_is_no_operator_page(app):
    client = app.test_client()
    assert not app.config["ADMIN_EMAIL"]
    with app.app_context():
        token = links.sign(links.SIGN_IN, "op@example.org")
    for method, path in (("get", "/admin"), ("post", "/admin"), ("get", f"/admin/in/{token}"),
                         ("post", f"/admin/in/{token}"), ("get", "/admin/games/x"),
                         ("post", "/admin/mail/retry")):
        assert getattr(client, method)(path).status_code == 404, path


# -- signing in ---------------------------------------------------------------------------------

def test_the_operator_signs_in_with_the_link_mailed_to_admin_email(site, client, smtp):
    assert signed_out(client)
    asked = client.post("/admin", data={"email": " Op@Example.org "})
    assert asked.status_code == 200
    assert "If that is the operator's address, a sign-in link is on its way" in page(asked)
    link = mailed_sign_in_link(site, smtp)
    assert "within 60 minutes" in text_of(smtp.to(OPERATOR)[-1])

    # Opening the link (as a mail scanner does) shows a button and signs nobody in.
    opened = client.get(link)
    assert opened.status_code == 200 and "Sign in as the operator?" in page(opened)
    assert f'<form method="post" action="{link}"' in opened.get_data(as_text=True)
    assert signed_out(client)

    signed = client.post(link)
    assert signed.status_code == 303
    cookie = signed.headers["Set-Cookie"]
    assert cookie.startswith("pbem_operator=")
    assert "; HttpOnly" in cookie and "; SameSite=Strict" in cookie and "; Path=/admin" in cookie
    assert "; Secure" not in cookie          # BASE_URL is http here
    assert "Expires=" in cookie
    dashboard = page(client.get("/admin"))
    assert "The server" in dashboard and "Sign out" in dashboard


def test_the_session_cookie_is_secure_when_the_server_is_https(make_app, smtp):
    site = make_app(ADMIN_EMAIL=OPERATOR, BASE_URL="https://pbem.test")
    client = site.test_client()
    with site.app_context():
        token = links.sign(links.SIGN_IN, OPERATOR)
    signed = client.post(f"/admin/in/{token}", base_url="https://pbem.test")
    assert signed.status_code == 303 and "; Secure" in signed.headers["Set-Cookie"]


def test_any_other_address_gets_the_same_answer_and_no_mail(site, client, smtp):
    answers = {address: client.post("/admin", data={"email": address})
               for address in (OPERATOR, "stranger@example.org", "op@example.org.evil", "", "x" * 300)}
    pages = {(a.status_code, a.get_data(as_text=True)) for a in answers.values()}
    assert len(pages) == 1
    deliver(site)
    assert [rcpts for rcpts, _ in smtp.messages] == [[OPERATOR]]
    with site.app_context():
        assert db.session.scalar(select(func.count()).select_from(Mail)) == 1
        assert db.session.scalar(select(func.count()).select_from(RateEvent)) == 1


def test_the_sign_in_mail_has_no_unsubscribe_header_and_no_players_footer(site, client, smtp):
    """One click on a mail client's unsubscribe button stopped the sign-in links: the operator
    was locked out of /admin. His mail is not a player's: neither header nor footer."""
    client.post("/admin", data={"email": OPERATOR})
    deliver(site)
    [mail] = smtp.to(OPERATOR)
    assert mail["List-Unsubscribe"] is None and mail["List-Unsubscribe-Post"] is None
    body = text_of(mail) + mail.get_body(("html",)).get_content()
    for footer in ("/u/", "/h/", "Stop all mail", "Never want mail", "All your games"):
        assert footer not in body, footer
    assert SIGN_IN_LINK.search(text_of(mail))


def test_the_sign_in_mail_reaches_an_operator_who_unsubscribed_before(site, client, smtp):
    with site.app_context():
        addresses.suppress(OPERATOR)
    csrf = sign_in(site, client, smtp)       # the link arrives all the same
    assert csrf


def test_sign_in_links_are_mailed_at_most_three_times_an_hour(site, client, smtp):
    answers = {client.post("/admin", data={"email": OPERATOR}).get_data() for _ in range(5)}
    assert len(answers) == 1           # the fourth and fifth are answered the same
    assert mails_to(site, OPERATOR) == 3


def test_forged_expired_and_foreign_sign_in_links_are_refused(site, client, smtp, monkeypatch):
    link = sign_in_link_for(site, OPERATOR)
    for method in ("get", "post"):
        assert getattr(client, method)(link[:-3] + "xyz").status_code == 403
        assert getattr(client, method)(sign_in_link_for(site, "stranger@example.org")).status_code == 403
    monkeypatch.setattr(operations, "SIGN_IN_MAX_AGE", -1)      # every link is older than that
    assert client.get(link).status_code == 410 and client.post(link).status_code == 410
    assert signed_out(client)


def sign_in_link_for(site, address: str) -> str:
    with site.app_context():
        return links.path_of(links.SIGN_IN, address)


def test_changing_admin_email_ends_sessions_and_kills_mailed_links(site, client, smtp):
    sign_in(site, client, smtp)
    link = sign_in_link_for(site, OPERATOR)
    site.config["ADMIN_EMAIL"] = "new-op@example.org"
    assert signed_out(client)
    assert client.post(link).status_code == 403


def test_the_session_ends_twelve_hours_after_signing_in(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    game = create(client)
    with client.session_transaction(path="/admin") as session:   # the cookie's path
        session["operator"]["since"] = time.time() - 12 * 3600 - 1
    assert signed_out(client)
    refused = client.post(f"/admin/games/{game}/abort", data={"csrf": csrf, "why": "late"})
    assert refused.status_code == 403
    assert summary(site, game).state == "unstarted"


def test_signing_out(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    out = client.post("/admin/out", data={"csrf": csrf})
    assert out.status_code == 200 and "You are signed out." in page(out)
    assert signed_out(client)
    assert client.post("/admin/out", data={"csrf": csrf}).status_code == 403


# -- refused without a session, or without its CSRF token ----------------------------------------

def test_without_a_session_pages_lead_to_sign_in_and_actions_are_refused(site, client, smtp):
    game = create(client)
    for path in (f"/admin/games/{game}", f"/admin/games/{game}/delete", "/admin/quarantine/1"):
        response = client.get(path)
        assert response.status_code == 303 and response.headers["Location"] == "/admin", path
    actions = {f"/admin/games/{game}/abort": {"why": "x"},
               f"/admin/games/{game}/seats/1/address": {"address": "x@example.org"},
               f"/admin/games/{game}/seats/1/resend": {}, f"/admin/games/{game}/delete": {},
               "/admin/mail/retry": {}, "/admin/suppressions/clear": {"address": ANNA}}
    for path, data in actions.items():
        assert client.post(path, data={**data, "csrf": "guess"}).status_code == 403, path
    s = summary(site, game)
    assert s.state == "unstarted" and [p.address for p in s.players] == [ANNA, BOB]
    assert mails_to(site, ANNA) == 1


def test_an_action_without_this_sessions_csrf_token_is_refused(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    other = site.test_client()
    other_csrf = sign_in(site, other, smtp)
    assert other_csrf != csrf
    game = create(client)
    path = f"/admin/games/{game}/abort"
    for data in ({"why": "x"}, {"why": "x", "csrf": ""}, {"why": "x", "csrf": other_csrf},
                 {"why": "x", "csrf": csrf[:-1]}):
        refused = client.post(path, data=data)
        assert refused.status_code == 403 and "not from this session" in page(refused)
    assert client.post(path, json={"why": "x", "csrf": csrf}).status_code == 403
    assert summary(site, game).state == "unstarted"
    assert "The game is aborted" in followed(client, client.post(path, data={"why": "x", "csrf": csrf}))
    assert summary(site, game).result.reason == "aborted"


# -- the dashboard ----------------------------------------------------------------------------

def test_the_dashboard_shows_what_the_commands_list(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    waiting = create(client)
    stalled = create(client, names=("Carol", "Dave"), emails=("carol@example.org", "dave@example.org"))
    aborted = create(client)
    deliver(site)
    with site.app_context():
        invitation = db.session.scalar(select(Mail.id).where(Mail.game_id == stalled, Mail.seat == 0))
        inbox.bounce("k", "mailer-daemon@example.net", invitation,
                     Failure("carol@example.org", "5.1.1", "no such user"))
        turns.abort(aborted, "Carol & Dave's test")
        inbox.quarantine(b"Subject: <b>hi</b>\r\n\r\nbody", "cannot be read", "x@example.net", "<b>hi</b>")
        addresses.suppress("gone@example.org")
    response = client.get("/admin")
    raw = response.get_data(as_text=True)
    assert "<b>hi</b>" not in raw and "&lt;b&gt;hi&lt;/b&gt;" in raw       # escaped
    with site.app_context():
        listed = {which: [s.id for s in operations.summaries(which)]
                  for which in ("waiting", "stalled", "finished")}
    assert listed == {"waiting": [stalled, waiting], "stalled": [stalled], "finished": [aborted]}
    for which, ids in listed.items():
        shown = re.findall(r'href="/admin/games/([^"]+)"', section(response, which))
        assert shown == ids, which
    assert ("waiting for Anna <anna@example.org> for less than a minute"
            in words(section(response, "waiting")))
    assert "stalled" in words(section(response, "waiting"))          # marked; why is above
    assert "was not delivered" not in words(section(response, "waiting"))
    assert ("Carol's last mail ('Babel with Dave: your turn') was not delivered: failed, "
            "bounced (5.1.1): no such user") in words(section(response, "stalled"))
    assert ("nobody wins (the game was aborted). Why: Carol & Dave's test"
            in words(section(response, "finished")))
    assert f"#{invitation} to carol@example.org" in words(section(response, "mail"))
    assert "cannot be read" in words(section(response, "quarantine"))
    assert "gone@example.org" in words(section(response, "suppressed"))
    assert raw.count(f'name="csrf" value="{csrf}"') >= 3     # sign out, retry, clear


def test_the_game_page_gives_the_live_links_and_the_actions(site, client, smtp):
    sign_in(site, client, smtp)
    game = create(client)
    shown = client.get(f"/admin/games/{game}")
    text = page(shown)
    with site.app_context():
        detail = operations.detail(game)
    for _seat, link in detail.seat_links.items():
        assert f'href="{link.rsplit(".", 2)[0]}.' in text
    assert f'href="{detail.turn_links[0].rsplit(".", 2)[0]}.' in text
    for action in ("abort", "seats/0/address", "seats/1/address", "seats/0/resend", "delete"):
        assert f'/admin/games/{game}/{action}"' in text, action
    assert client.get("/admin/games/nosuchgame").status_code == 404


# -- each action does what its command does --------------------------------------------------------

def test_abort_from_the_page(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    game = create(client)
    play_one(site, game)
    empty = client.post(f"/admin/games/{game}/abort", data={"csrf": csrf, "why": "  "})
    assert "Give a reason" in followed(client, empty)
    assert summary(site, game).state == "running"
    done = client.post(f"/admin/games/{game}/abort", data={"csrf": csrf, "why": "The club closed."})
    assert "The game is aborted; its players are mailed why." in followed(client, done)
    result = summary(site, game).result
    assert (result.reason, result.winners, result.why) == ("aborted", (), "The club closed.")
    deliver(site)
    assert all("Why: The club closed." in text_of(smtp.to(a)[-1]) for a in (ANNA, BOB))
    again = client.post(f"/admin/games/{game}/abort", data={"csrf": csrf, "why": "again"})
    assert "The game is already over." in followed(client, again)


def test_set_address_from_the_page(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    game = create(client, emails=(ANNA, "bbo@example.org"))
    path = f"/admin/games/{game}/seats/1/address"
    bad = client.post(path, data={"csrf": csrf, "address": "not an address"})
    assert "is not a mail address" in followed(client, bad)
    missing = client.post(f"/admin/games/{game}/seats/5/address", data={"csrf": csrf, "address": BOB})
    assert "has no seat 5" in followed(client, missing)
    assert [p.address for p in summary(site, game).players] == [ANNA, "bbo@example.org"]
    done = client.post(path, data={"csrf": csrf, "address": "Bob@Example.org"})
    assert (f"Seat 1 now plays from {BOB}; the old links no longer work, and the game is mailed "
            "there.") in followed(client, done)
    assert [p.address for p in summary(site, game).players] == [ANNA, BOB]
    deliver(site)
    assert "you are invited" in smtp.to(BOB)[-1]["Subject"]


def test_resend_from_the_page(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    game = create(client)
    done = client.post(f"/admin/games/{game}/seats/1/resend", data={"csrf": csrf})
    assert "Seat 1 is mailed again." in followed(client, done)
    deliver(site)
    assert "your links" in smtp.to(BOB)[-1]["Subject"]      # Bob owes nothing: his links
    done = client.post(f"/admin/games/{game}/seats/0/resend", data={"csrf": csrf})
    assert "Seat 0 is mailed again." in followed(client, done)
    deliver(site)
    assert "your turn, Anna" in smtp.to(ANNA)[-1]["Subject"]   # Anna owes: her turn mail


def test_delete_from_the_page_asks_first(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    running, unstarted = create(client), create(client)
    play_one(site, running)
    asked = client.get(f"/admin/games/{running}/delete")
    assert "only unstarted or aborted games may be deleted" in followed(client, asked)
    refused = client.post(f"/admin/games/{running}/delete", data={"csrf": csrf})
    assert "only unstarted or aborted games may be deleted" in followed(client, refused)
    assert summary(site, running).state == "running"

    confirm = client.get(f"/admin/games/{unstarted}/delete")
    assert confirm.status_code == 200
    assert "mails: 2" in page(confirm) and "seats: 2" in page(confirm) and "events: 0" in page(confirm)
    assert summary(site, unstarted).state == "unstarted"      # asking deletes nothing
    done = client.post(f"/admin/games/{unstarted}/delete", data={"csrf": csrf})
    assert f"Game {unstarted} is deleted." in followed(client, done)
    assert client.get(f"/admin/games/{unstarted}").status_code == 404
    with site.app_context():
        assert [s.id for s in operations.summaries()] == [running]


def test_clear_a_suppression_from_the_page(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    with site.app_context():
        addresses.suppress(ANNA)
    done = client.post("/admin/suppressions/clear", data={"csrf": csrf, "address": ANNA})
    assert f"{ANNA} is mailed again." in followed(client, done)
    again = client.post("/admin/suppressions/clear", data={"csrf": csrf, "address": ANNA})
    assert "is not on the suppression list" in followed(client, again)
    with site.app_context():
        assert addresses.suppressions() == []


def test_retry_failed_mail_from_the_page(site, client, smtp):
    csrf = sign_in(site, client, smtp)
    create(client)
    deliver(site)
    with site.app_context():
        mail_id = db.session.scalar(select(Mail.id).where(Mail.to_addr == BOB))
        inbox.bounce("k", "mailer-daemon@example.net", mail_id, Failure(BOB, "5.1.1", "gone"))
    assert f"#{mail_id} to {BOB}" in section(client.get("/admin"), "mail")
    done = client.post("/admin/mail/retry", data={"csrf": csrf})
    assert "1 failed mail(s) queued again." in followed(client, done)
    before = len(smtp.to(BOB))
    deliver(site)
    assert len(smtp.to(BOB)) == before + 1
    assert "None." in section(client.get("/admin"), "mail")


def test_a_quarantined_message_is_shown_escaped(site, client, smtp):
    sign_in(site, client, smtp)
    with site.app_context():
        shown = inbox.quarantine(b"Subject: x\r\n\r\n<script>alert(1)</script>\xff", "unreadable").id
    response = client.get(f"/admin/quarantine/{shown}")
    assert response.status_code == 200
    raw = response.get_data(as_text=True)
    assert "<script>alert" not in raw and "&lt;script&gt;alert(1)&lt;/script&gt;\ufffd" in raw
    assert client.get(f"/admin/quarantine/{shown + 1}").status_code == 404


def test_the_operators_pages_are_english_whatever_his_browser_prefers(site, client, smtp):
    csrf_of_session = sign_in(site, client, smtp)
    assert csrf_of_session
    game = create(client, time_limit=3)
    shown = page(client.get(f"/admin/games/{game}", headers={"Accept-Language": "de"}))
    assert "3 days per move" in shown or "3 days" in shown, shown
    assert "Tage" not in shown and "Anna gegen Bob" not in shown


def test_quarantined_mail_shows_its_sender_and_subject(make_app, smtp):
    """A message too large to parse, fed in as the MTA's pipe does: the dashboard and its page
    name who sent it and its subject, read from its header block."""
    site = make_app(ADMIN_EMAIL=OPERATOR, INGEST_MAX_BYTES=2000)
    client = site.test_client()
    raw = b"From: Carol <carol@example.org>\r\nSubject: my turn, attached\r\n\r\n" + b"x" * 3000
    assert site.test_cli_runner().invoke(args=["ingest"], input=raw).exit_code == 0
    sign_in(site, client, smtp)
    listed = words(section(client.get("/admin"), "quarantine"))
    assert "from carol@example.org" in listed and "“my turn, attached”" in listed, listed
    one = page(client.get("/admin/quarantine/1"))
    assert "carol@example.org" in one and "my turn, attached" in one


def test_the_dashboard_and_the_jobs_command_show_what_the_background_work_has_before_it(
        site, client, smtp):
    sign_in(site, client, smtp)   # (its mail delivered: nothing pending)
    with site.app_context():
        turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("", "")], {"sumerians": "top-run"},
                                     1, bots=(None, "easy")))
        create(client)
    board = page(client.get("/admin"))
    section = board[board.index('id="background"'):board.index('id="stalled"')]
    assert "<strong>3</strong> to send now" in section   # the invitations: Anna, then Anna and Bob
    assert "<strong>0</strong> reminders or time limits due now" in section
    assert "<strong>1</strong> decisions to make" in section and "0 being thought about" in section
    said = site.test_cli_runner().invoke(args=["jobs"])
    assert said.exit_code == 0
    lines = said.output.splitlines()
    if site.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        assert lines[0] == "queues: none (SQLite: one process does the work in a loop)"
        assert "<table class=\"queues\">" not in section
    else:   # the commits deferred their jobs: one delivery (it waits: the next commits' mail
        # goes with it), and the computer's thinking
        queues = {line.split()[0]: line.split()[1:] for line in lines[1:5]}
        assert lines[0].split() == ["queue", "due", "later", "running", "failed", "stalled",
                                    "oldest", "due"]
        assert list(queues) == ["mail", "due", "bots", "fleet"]
        assert queues["mail"][0] == "1" and queues["bots"][:5] == ["1", "0", "0", "0", "0"]
        assert "<th scope=\"row\">bots</th><td>1</td><td class=\"wide\">0</td>" in section
    assert "mail: 3 to send now (the oldest for " in said.output
    assert "people: 0 reminders or time limits due now; the next at " in said.output
    assert "computers: 1 decisions to make (the oldest for " in said.output
    assert ", 0 being thought about" in said.output


def queue_row(board: str, queue: str) -> list[str]:
    """The cells of a queue's row in the dashboard's table."""
    row = re.search(rf'<th scope="row">{queue}</th>(.*?)</tr>', board).group(1)
    return re.findall(r"<td[^>]*>([^<]*)</td>", row)


def test_a_failed_job_is_shown_and_retried_from_the_page(site, client, smtp):
    """PostgreSQL: a real worker (procrastinate's, in a thread) fails a job whose game does not
    exist; the page lists it with its arguments, and its button puts it back in its queue."""
    from pbem.jobs import engine
    from pbem.jobs.worker import start_in_background
    if site.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite keeps no jobs: one process loops over the work")
    csrf = sign_in(site, client, smtp)
    with site.app_context():
        engine.defer_thinking(db.session, [("no-such-game", 1, 0)])
        db.session.commit()
    stop = start_in_background(site)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with site.app_context():
                failed = operations.failed_jobs()
            if failed:
                break
            time.sleep(0.2)
    finally:
        stop.set()
    [job] = failed
    assert (job.queue, job.task, job.args) == ("bots", "think", {"game_id": "no-such-game",
                                                                  "seat": 1, "seq": 0})
    board = page(client.get("/admin"))
    # (the fleet's periodic jobs come and go in the queues beside it: only the failed are fixed)
    assert queue_row(board, "bots")[3] == "1"   # due, later, running, failed

    assert f"bots · think · job {job.id}" in board
    response = client.post("/admin/jobs/retry", data={"csrf": csrf, "job": str(job.id)})
    assert response.status_code == 303
    board = page(client.get("/admin"))
    assert "1 failed job(s) queued again." in board
    assert queue_row(board, "bots")[3] == "0" and int(queue_row(board, "bots")[0]) >= 1
    with site.app_context():
        assert operations.failed_jobs() == []
