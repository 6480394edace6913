"""A player's webhook (`pbem.players.channels`, `pbem.mail.notices`, `pbem.mail.channel_send`),
end to end through the server, against a receiver on loopback started by the test that checks
each notice's HMAC with the secret the home shows:
- a turn, a game's end: one signed notice each, sent once, whatever the worker runs again;
  its mail still goes;
- a receiver that fails: retried with backoff, turned off after repeated failures, and the
  home says why; the mail went all the same;
- the worker sends a notice at once, woken by the commit (not its next poll);
- a URL the server must not call: refused with a clear error, nothing written.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.mail.channel_send import deliver_notices
from pbem.players import channels, settings
from pbem.policy import targets
from pbem.store.models import FAILED, SENT, Channel, Notice, utcnow
from pbem_web import ANNA, BOB, create, deliver, play_until_owed  # tests/helpers


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page)[1]


def set_webhook(app, client, address: str, url: str, status: int = 303):
    path = home_path(app, address)
    page = client.get(path).get_data(as_text=True)
    answer = client.post(path + "/webhook", data={"url": url, "csrf": csrf_of(page)})
    assert answer.status_code == status, answer.get_data(as_text=True)
    return answer


def shown_secret(app, client, address: str) -> str:
    page = client.get(home_path(app, address)).get_data(as_text=True)
    return re.search(r'<code class="secret">([^<]+)</code>', page)[1]


def verified(secret: str, received) -> dict:
    """The notice's JSON, once its signature is checked as a receiver would."""
    expected = "sha256=" + hmac.new(secret.encode(), received.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(received.headers["X-Pbem-Signature"], expected)
    return json.loads(received.body)


def notices(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Notice))


def test_bobs_turn_reaches_his_webhook_signed_and_once(hook_app, receiver, smtp):
    client = hook_app.test_client()
    set_webhook(hook_app, client, BOB, receiver.url)
    secret = shown_secret(hook_app, client, BOB)
    game = create(client, first=0)   # Anna plays first: nothing for Bob's webhook yet but his invitation
    deliver(hook_app)
    with hook_app.app_context():
        assert deliver_notices().sent == 1
    [invited] = receiver.wait_for(1)
    body = verified(secret, invited)
    assert body["notice"]["kind"] == "invite" and body["notice"]["game"] == game
    assert body["content"] == body["text"] and "Babel with Anna" in body["content"]
    assert invited.headers["X-Pbem-Notice"] == str(body["id"])

    play_until_owed(hook_app, game, 1, seed=3)   # Anna's turn is done: Bob's turn
    deliver(hook_app)
    with hook_app.app_context():
        assert deliver_notices().sent == 1
        assert deliver_notices().sent == 0   # sent once, however often the worker looks
    [_, turn] = receiver.wait_for(2)
    body = verified(secret, turn)
    assert body["notice"]["kind"] == "turn"
    assert "your turn, Bob" in body["notice"]["subject"]
    assert body["notice"]["url"].startswith("http://pbem.test/t/")   # his turn link opens
    assert body["content"] == f"{body['notice']['subject']}\n{body['notice']['url']}"
    assert len(receiver.received) == 2
    # The mail went as before, with the same subject.
    assert [m for m in smtp.to(BOB) if m["Subject"] == body["notice"]["subject"]]
    # Anna has no channel: none of her mails made a notice.
    with hook_app.app_context():
        assert {c.address for c in db.session.scalars(select(Channel))} == {BOB}
    page = client.get(home_path(hook_app, BOB)).get_data(as_text=True)
    assert "Last notice delivered" in page


def test_a_failing_webhook_is_retried_then_turned_off_and_the_home_says_why(hook_app, receiver, smtp):
    client = hook_app.test_client()
    receiver.status = 500
    set_webhook(hook_app, client, BOB, receiver.url)
    create(client, first=1)   # Bob's turn at once: his invitation says so
    deliver(hook_app)
    assert any(m["Subject"].endswith("your turn") for m in smtp.to(BOB))   # mail: the fallback
    now = utcnow()
    with hook_app.app_context():
        assert deliver_notices(now).retrying == 1
        assert deliver_notices(now + timedelta(seconds=10)).retrying == 0   # backing off
        notice = db.session.scalars(select(Notice)).one()
        assert notice.attempts == 1 and notice.status == "pending"
        page = hook_app.test_client().get(home_path(hook_app, BOB)).get_data(as_text=True)
        assert "The last notice failed" in page and "HTTP 500" in page
        assert deliver_notices(now + timedelta(seconds=31)).retrying == 1     # 30 s later
        assert deliver_notices(now + timedelta(seconds=62)).retrying == 0     # then 60 s
        assert deliver_notices(now + timedelta(seconds=92)).failed == 1       # 3rd failure: off
        channel = db.session.scalars(select(Channel)).one()
        assert channel.off_at is not None and channel.failures == 3
        assert db.session.scalars(select(Notice.status)).one() == FAILED
    assert len(receiver.received) == 3
    page = client.get(home_path(hook_app, BOB)).get_data(as_text=True)
    assert "Turned off after 3 failed deliveries in a row: HTTP 500" in page
    # Turned off: the next notices are not even written, until he saves the webhook again.
    with hook_app.app_context():
        assert channels.live(BOB) == []
    receiver.status = 204
    set_webhook(hook_app, client, BOB, receiver.url)
    with hook_app.app_context():
        assert [c.failures for c in channels.live(BOB)] == [0]


def test_the_worker_sends_a_notice_when_its_commit_wakes_it(hook_app, receiver):
    from pbem.jobs.worker import start_in_background
    client = hook_app.test_client()
    set_webhook(hook_app, client, BOB, receiver.url)
    stop = start_in_background(hook_app, deliver_every=60.0, remind_every=3600.0, bots_every=0)
    try:
        threading.Event().wait(0.5)   # (the worker's first round, and its wait)
        create(client, first=1)
        assert len(receiver.wait_for(1, timeout=10)) == 1   # long before the 60 s poll
        for _ in range(100):   # (marked sent in the transaction that sent it, just after)
            with hook_app.app_context():
                if db.session.scalars(select(Notice.status)).all() == [SENT]:
                    break
                db.session.remove()
            threading.Event().wait(0.05)
        else:
            raise AssertionError("the notice was never marked sent")
    finally:
        stop.set()


@pytest.mark.parametrize("url", ["ftp://example.org/hook", "javascript:alert(1)", "hook",
                                 "http://127.0.0.1:9/hook", "http://localhost/hook",
                                 "http://10.1.2.3/hook", "http://[::1]/hook",
                                 "http://169.254.169.254/latest/meta-data",
                                 "http://example.org:port/hook"])
def test_a_url_the_server_must_not_call_is_refused_and_nothing_is_written(app, url):
    client = app.test_client()   # (production's rule: no private targets)
    answer = set_webhook(app, client, ANNA, url, status=400)
    assert "webhook" in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Channel)) == 0


def test_json_sets_and_removes_a_webhook_and_shows_its_state(hook_app, receiver):
    client = hook_app.test_client()
    path = home_path(hook_app, ANNA)
    csrf = csrf_of(client.get(path).get_data(as_text=True))
    shown = client.post(path + "/webhook", json={"url": receiver.url, "csrf": csrf},
                        headers={"Accept": "application/json"}).get_json()
    [hook] = shown["channels"]
    assert hook["kind"] == "webhook" and hook["target"] == receiver.url and hook["on"]
    renewed = client.post(path + "/webhook", json={"action": "secret", "csrf": csrf},
                          headers={"Accept": "application/json"}).get_json()
    assert renewed["channels"][0]["secret"] != hook["secret"]
    gone = client.post(path + "/webhook", json={"action": "remove", "csrf": csrf},
                       headers={"Accept": "application/json"}).get_json()
    assert gone["channels"] == [] and notices(hook_app) == 0


def test_a_reminder_and_the_game_s_end_reach_the_webhook_too(hook_app, receiver):
    from pbem.jobs import reminders
    from pbem.play import turns
    client = hook_app.test_client()
    set_webhook(hook_app, client, BOB, receiver.url)
    secret = shown_secret(hook_app, client, BOB)
    game = create(client, first=1)   # Bob's turn, waiting
    with hook_app.app_context():
        reminders.run(utcnow() + timedelta(hours=49))   # (REMIND_AFTER_HOURS: 48)
        turns.resign(game, 0)   # Anna resigns: the game is over
        assert deliver_notices().sent == 3
    kinds = [verified(secret, got)["notice"]["kind"] for got in receiver.wait_for(3)]
    assert kinds == ["invite", "reminder", "over"]
    reminder = verified(secret, receiver.received[1])
    assert reminder["notice"]["url"].startswith("http://pbem.test/t/")   # one game: its turn
    assert reminder["content"].startswith("Reminder: your turn in Babel with Anna")


def test_every_notice_says_only_what_its_own_mail_says_to_its_own_address(hook_app, receiver):
    """Over a whole game with both players' webhooks: each notice's channel is its mail's
    address's, its subject the mail's, its link one the mail carries (nothing of the other
    seat's reaches a player's channel)."""
    from pbem.store.models import Mail
    from pbem_web import play
    client = hook_app.test_client()
    set_webhook(hook_app, client, ANNA, receiver.url)
    set_webhook(hook_app, client, BOB, receiver.url)
    game = create(client, first=0)
    play(hook_app, game, seed=5)   # (to its end)
    with hook_app.app_context():
        rows = db.session.execute(select(Notice, Channel, Mail).join(
            Channel, Channel.id == Notice.channel_id).join(Mail, Mail.id == Notice.mail_id)).all()
        assert len(rows) > 4
        assert {n.kind for n, _, _ in rows} >= {"invite", "turn", "over"}
        for notice, channel, mail in rows:
            assert channel.address == mail.to_addr.lower()
            assert notice.body["notice"]["subject"] == mail.subject
            url = notice.body["notice"]["url"]
            assert url is None or url in mail.text, (url, mail.kind)
        mails = db.session.scalar(select(func.count()).select_from(Mail).where(
            Mail.kind.in_(("invite", "turn", "over"))))
        assert len(rows) == mails   # one notice per notice mail: none missing, none twice


def test_a_webhook_is_called_at_the_address_its_check_resolved(hook_app, receiver, monkeypatch):
    """DNS rebinding: a name may answer a public address to the check and a private one to the
    connection. The sender connects where the check looked, by no second lookup: here the name
    (`.invalid`, which no resolver knows) resolves only through the check's own lookup, so a
    second lookup would find nothing, and the notice still arrives, its Host header the name."""
    port = urlsplit(receiver.url).port
    looked_up = []

    def addresses(host):
        looked_up.append(host)
        return ["127.0.0.1"] if host == "hooks.invalid" else []
    monkeypatch.setattr(targets, "addresses", addresses)
    client = hook_app.test_client()
    set_webhook(hook_app, client, BOB, f"http://hooks.invalid:{port}/hook")
    create(client, first=0)
    deliver(hook_app)
    with hook_app.app_context():
        assert deliver_notices().sent == 1
    [invited] = receiver.wait_for(1)
    assert invited.headers["Host"] == f"hooks.invalid:{port}"
    assert looked_up == ["hooks.invalid", "hooks.invalid"]   # set, then checked before sending


def test_mail_is_the_fallback_every_notice_mail_goes_while_the_webhook_fails(hook_app, receiver, smtp):
    """A whole game with Bob's webhook answering 500 until it is turned off: each of his notice
    mails (invitation, turns, the end) still reaches his mailbox, the same subjects his webhook
    was sent while it was on; none waited for the webhook."""
    from pbem.mail.notices import NOTICE_KINDS
    from pbem.store.models import Mail
    from pbem_web import play
    client = hook_app.test_client()
    receiver.status = 500
    set_webhook(hook_app, client, BOB, receiver.url)
    game = create(client, first=0)
    moment = utcnow()
    while True:
        made = play(hook_app, game, seed=9, decisions=1)
        deliver(hook_app)
        moment += timedelta(hours=1)   # (past every backoff: each notice tried again)
        with hook_app.app_context():
            deliver_notices(moment)
        if not made:
            break
    with hook_app.app_context():
        mails = db.session.scalars(select(Mail).where(Mail.to_addr == BOB,
                                                      Mail.kind.in_(NOTICE_KINDS))).all()
        assert {m.kind for m in mails} >= {"invite", "turn", "over"}
        assert {m.status for m in mails} == {SENT}
        [channel] = db.session.scalars(select(Channel)).all()
        assert channel.off_at is not None   # (CHANNEL_FAILURE_LIMIT: 3)
        assert FAILED in set(db.session.scalars(select(Notice.status)))
    got = [m["Subject"] for m in smtp.to(BOB)]
    assert all(m.subject in got for m in mails)
    tried = {json.loads(r.body)["notice"]["subject"] for r in receiver.received}
    assert tried and tried <= {m.subject for m in mails}
