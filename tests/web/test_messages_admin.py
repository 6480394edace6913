"""The operator hides a message from his `/admin` page of the game (signed in by a mailed link,
with the session's CSRF token, as every action there)."""

from __future__ import annotations

import html
import re

from pbem.policy import links
from pbem.store import gamelog
from pbem_web import ANNA, create, deliver, text_of  # tests/helpers

OPERATOR = "op@example.org"
SIGN_IN_LINK = re.compile(r"http://pbem\.test(/admin/in/[A-Za-z0-9_.\-]+)")
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
HIDE = re.compile(r'action="(/admin/games/[^/]+/messages/(\d+)/hide)"')


def sign_in(site, client, smtp) -> str:
    assert client.post("/admin", data={"email": OPERATOR}).status_code == 200
    deliver(site)
    link = SIGN_IN_LINK.search(text_of(smtp.to(OPERATOR)[-1])).group(1)
    assert client.post(link).status_code == 303
    return CSRF.search(client.get("/admin").get_data(as_text=True)).group(1)


def test_the_operator_hides_a_message_from_the_game_page(make_app, smtp):
    site = make_app(ADMIN_EMAIL=OPERATOR)
    client = site.test_client()
    game = create(client)
    with site.app_context():
        seat = links.path(links.SEAT, game, 0, gamelog.current_nonce(game, 0))
    client.post(f"{seat}/messages", data={"message": "Rude <words>"})
    csrf = sign_in(site, client, smtp)
    admin = client.get(f"/admin/games/{game}").get_data(as_text=True)
    assert "Rude &lt;words&gt;" in admin and "<words>" not in admin
    assert "<dt>Clock</dt><dd>no time limit</dd>" in admin
    [(action, message_id)] = HIDE.findall(admin)
    # Without the session's token nothing happens.
    assert client.post(action, data={"csrf": "forged"}).status_code in (400, 403)
    assert "Rude" in client.get(seat).get_data(as_text=True)
    done = client.post(action, data={"csrf": csrf})
    assert done.status_code == 303
    shown = html.unescape(client.get(done.headers["Location"]).get_data(as_text=True))
    assert f"Message #{message_id} is hidden" in shown and "(hidden)" in shown
    assert "Rude" not in client.get(seat).get_data(as_text=True)
    # A message of another game is not this page's to hide.
    other = create(client, emails=(ANNA, "carl@example.org"), names=("Anna", "Carl"))
    refused = client.post(f"/admin/games/{other}/messages/{message_id}/hide", data={"csrf": csrf})
    assert "There is no message" in html.unescape(
        client.get(refused.headers["Location"]).get_data(as_text=True))
