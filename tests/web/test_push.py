"""Web Push (`pbem.mail.channel_send.post_push`), end to end through the server, against a
push endpoint on loopback started by the test, which reads each push as the browser would:
decrypted with the subscription's own keys (RFC 8291), its VAPID signature checked against
the server's key (RFC 8292). Headless Chromium has no push service (its `subscribe()` fails:
see tests/web/test_push_browser.py), so the subscription is POSTed as push.js posts it."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import http_ece
import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.mail.channel_send import deliver_notices
from pbem.players import settings
from pbem.policy import targets
from pbem.store.models import Channel, Notice
from pbem_web import BOB, create, deliver  # tests/helpers
from receivers import Browser, WebhookReceiver, vapid_claims  # tests/helpers


@pytest.fixture
def push_app(make_app):
    return make_app(WEBHOOK_ALLOW_PRIVATE=True, ADMIN_EMAIL="ops@pbem.test")


@pytest.fixture
def endpoint():
    made = WebhookReceiver(status=201)   # (what push services answer)
    yield made
    made.close()


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def subscribe(app, client, address: str, subscription, status: int = 200):
    path = home_path(app, address)
    page = client.get(path).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]
    answer = client.post(path + "/push", json={"csrf": csrf, "subscription": subscription},
                         headers={"Accept": "application/json"})
    assert answer.status_code == status, answer.get_data(as_text=True)
    return answer


def test_bobs_browser_gets_his_turn_encrypted_for_it_alone(push_app, endpoint):
    client = push_app.test_client()
    browser = Browser()
    subscribe(push_app, client, BOB, browser.subscription(endpoint.url))
    page = client.get(home_path(push_app, BOB)).get_data(as_text=True)
    assert f'data-key="{push_app.config["VAPID_PUBLIC_KEY"]}"' in page
    game = create(client, first=1)   # Bob's turn at once
    deliver(push_app)
    with push_app.app_context():
        assert deliver_notices().sent == 1
        assert deliver_notices().sent == 0
    [pushed] = endpoint.wait_for(1)
    assert pushed.headers["Content-Encoding"] == "aes128gcm"
    shown = json.loads(browser.decrypt(pushed.body))
    assert shown["title"].endswith("your turn") and "Babel with Anna" in shown["title"]
    assert shown["url"].startswith("http://pbem.test/t/")
    assert game not in pushed.body.decode("latin-1")   # (encrypted: nothing readable on the way)
    claims = vapid_claims(pushed.headers["Authorization"], push_app.config["VAPID_PUBLIC_KEY"])
    parts = urlsplit(endpoint.url)
    assert claims["aud"] == f"{parts.scheme}://{parts.netloc}" and claims["sub"] == "mailto:ops@pbem.test"
    assert int(pushed.headers["TTL"]) > 0
    page = client.get(home_path(push_app, BOB)).get_data(as_text=True)
    assert "A browser: last notice delivered" in page
    # Another browser cannot read it.
    with pytest.raises(http_ece.ECEException):
        Browser().decrypt(pushed.body)


def test_a_browser_that_unsubscribed_is_turned_off_at_once(push_app, endpoint):
    client = push_app.test_client()
    endpoint.status = 410   # the push service: this subscription is gone
    subscribe(push_app, client, BOB, Browser().subscription(endpoint.url))
    create(client, first=1)
    with push_app.app_context():
        assert deliver_notices().failed == 1
        channel = db.session.scalars(select(Channel)).one()
        assert channel.off_at is not None and "410" in channel.last_error
    page = client.get(home_path(push_app, BOB)).get_data(as_text=True)
    assert "A browser: turned off: push service: 410." in page


@pytest.mark.parametrize("subscription", [
    None, "x", {"endpoint": "http://127.0.0.1/x"},
    {"endpoint": "ftp://push.example/x", "keys": {"p256dh": "A" * 87, "auth": "A" * 22}},
    {"endpoint": "http://127.0.0.1/x", "keys": {"p256dh": "short", "auth": "A" * 22}},
    {"endpoint": "http://127.0.0.1/x", "keys": {"p256dh": "A" * 87, "auth": "!!"}},
])
def test_a_subscription_that_is_not_one_is_refused_and_nothing_is_written(push_app, subscription):
    client = push_app.test_client()
    answer = subscribe(push_app, client, BOB, subscription, status=400)
    assert "subscription" in answer.get_data(as_text=True)
    with push_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Channel)) == 0
        assert db.session.scalar(select(func.count()).select_from(Notice)) == 0


def test_the_vapid_key_is_made_once_and_kept(make_app, tmp_path):
    first = make_app(VAPID_KEY="")
    again = make_app(VAPID_KEY="")
    assert first.config["VAPID_PUBLIC_KEY"] == again.config["VAPID_PUBLIC_KEY"]
    assert len(first.config["VAPID_PUBLIC_KEY"]) == 87   # 65 bytes, base64url


def test_a_push_goes_to_the_address_its_check_resolved(push_app, endpoint, monkeypatch):
    """DNS rebinding, as for webhooks: the push service's name (here `.invalid`, which no
    resolver knows) is resolved once, by the check, and the push goes to that address, its
    Host header and its VAPID audience still the name."""
    port = urlsplit(endpoint.url).port
    looked_up = []

    def addresses(host):
        looked_up.append(host)
        return ["127.0.0.1"] if host == "push.invalid" else []
    monkeypatch.setattr(targets, "addresses", addresses)
    client = push_app.test_client()
    browser = Browser()
    subscribe(push_app, client, BOB, browser.subscription(f"http://push.invalid:{port}/push/1"))
    create(client, first=1)
    deliver(push_app)
    with push_app.app_context():
        assert deliver_notices().sent == 1
    [pushed] = endpoint.wait_for(1)
    assert pushed.headers["Host"] == f"push.invalid:{port}"
    assert json.loads(browser.decrypt(pushed.body))["title"].endswith("your turn")
    claims = vapid_claims(pushed.headers["Authorization"], push_app.config["VAPID_PUBLIC_KEY"])
    assert claims["aud"] == f"http://push.invalid:{port}"
    assert looked_up == ["push.invalid", "push.invalid"]   # subscribed, then checked before sending
