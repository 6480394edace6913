"""Signed links: what each one opens, and for how long."""

import pytest

from pbem.policy import links
from pbem.store import gamelog


def json_get(client, path):
    return client.get(path, headers={"Accept": "application/json"})


def test_turn_link_acts_only_while_its_seat_owes_that_decision(actions, client):
    actions.create(first=0)
    anna = actions.links("anna@example.org")
    bob = actions.links("bob@example.org")
    assert anna["turn"] and bob["turn"] is None            # only the seat to act gets one
    assert json_get(client, anna["turn"]).get_json()["can_act"] is True
    assert json_get(client, anna["seat"]).get_json()["can_act"] is False   # seat links only look
    seat_page = client.get(anna["seat"]).data.decode()
    assert "Play your turn" in seat_page                    # ... and lead to the live turn link


def test_tampered_links_get_403_and_no_detail(actions, client):
    actions.create(first=0)
    turn = actions.links("anna@example.org")["turn"]
    forged = turn[:-3] + ("AAA" if not turn.endswith("AAA") else "BBB")
    for path in (forged, "/t/garbage", "/s/" + turn[3:], turn.replace("/t/", "/s/")):
        page = client.get(path)
        assert page.status_code == 403, path
        assert b"This link does not work" in page.data and b"Signature" not in page.data
        assert b"Lost your links?" in page.data and b'action="/links"' in page.data
        assert json_get(client, path).get_json() == {"error": "Forbidden."}


def test_links_for_a_seat_or_game_that_does_not_exist(actions, app, client):
    game = actions.create(first=0)
    with app.app_context():
        no_seat = links.path(links.TURN, game, 5, 0)
        no_game = links.path(links.TURN, "nosuchgame", 0, 0)
    assert client.get(no_seat).status_code == 403
    assert client.get(no_game).status_code == 404


def test_expired_link_offers_a_fresh_one_by_mail_and_invalidates_nothing(actions, app, client, smtp):
    game = actions.create(first=0)
    old = actions.links("anna@example.org")
    app.config["LINK_MAX_AGE_DAYS"] = -1           # every link is now past its age
    page = client.get(old["turn"])
    assert page.status_code == 410 and b"Mail me a fresh link" in page.data
    renewed = client.post(old["turn"] + "/renew")
    assert renewed.status_code == 202
    assert client.post(old["turn"] + "/renew").status_code == 429   # not twice in a row
    app.config["LINK_MAX_AGE_DAYS"] = 90
    mail = actions.last_mail("anna@example.org")
    assert "your links" in mail["Subject"]
    fresh = actions.links("anna@example.org")
    assert fresh["turn"] and fresh["seat"]
    # Freshly signed links to the same seat: anybody may press "renew", so nothing dies.
    assert client.get(old["seat"]).status_code == 200
    assert client.get(fresh["seat"]).status_code == 200
    assert json_get(client, fresh["turn"]).get_json()["can_act"] is True
    assert actions.event_count(game) == 0


def test_reissued_seat_link_kills_the_old_one(actions, app, client):
    game = actions.create(first=0)
    old = actions.links("bob@example.org")["seat"]
    assert client.get(old).status_code == 200
    with app.app_context():
        nonce = gamelog.reissue_nonce(game, 1)
        from pbem.extensions import db
        db.session.commit()
        new = links.path(links.SEAT, game, 1, nonce)
    assert client.get(old).status_code == 410
    assert client.get(new).status_code == 200


def test_rotated_keys_keep_old_links_working_until_removed(actions, app, client):
    actions.create(first=0)
    old = actions.links("anna@example.org")["turn"]
    old_key = app.config["SECRET_KEY"]
    app.config.update(SECRET_KEY="a-brand-new-key", SECRET_KEY_FALLBACKS=[old_key])
    assert client.get(old).status_code == 200
    with app.app_context():
        fresh = links.token(links.TURN, "x", 0, 0)
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get(old).status_code == 403
    with app.app_context():
        assert links.read(links.TURN, fresh).game_id == "x"   # new links are signed by the new key


@pytest.mark.parametrize("kind", [links.TURN, links.SEAT])
def test_link_payloads_must_be_well_formed(app, kind):
    from pbem.errors import LinkTampered
    with app.app_context():
        for bad in (["g", "0", 0], ["g", True, 0], ["g", 0], "g", [5, 0, 0]):
            token = links._serializer(kind).dumps(bad)
            with pytest.raises(LinkTampered):
                links.read(kind, token)
