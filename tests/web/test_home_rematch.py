"""Rematch, end to end: asked from the home or a finished game's page, confirmed by the other
players from their mailbox (a link with a button), then started with everybody invited; the
same players, kind and options; computers stay computers. Mail through the real SMTP server."""

from __future__ import annotations

import re

from sqlalchemy import select

from pbem.extensions import db
from pbem.play import turns
from pbem.players import settings
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import Game, Rematch, Seat
from pbem_web import ANNA, BOB, deliver, text_of  # tests/helpers

JSON = {"Accept": "application/json"}
REMATCH_LINK = re.compile(r"http://pbem\.test(/m/[A-Za-z0-9_.\-]+)")


def finished_game(app, players, bots=(), options=None, kind="babel", first=0, loser=0) -> str:
    with app.app_context():
        spec = turns.Spec(kind, list(players), options or {"sumerians": "top-run"}, first, 5,
                          bots=tuple(bots), takeover="easy")
        game_id = turns.create_game(spec).id
        turns.resign(game_id, loser)
    return game_id


def home_of(app, client, address):
    with app.app_context():
        path = settings.home_url(address).removeprefix("http://pbem.test")
    page = client.get(path).get_data(as_text=True)
    return path, re.search(r'name="csrf" value="([^"]+)"', page).group(1), page


def seats(app, game_id):
    with app.app_context():
        return [(s.name, s.email, s.bot) for s in db.session.scalars(
            select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))]


def test_a_rematch_from_home_starts_when_the_other_player_says_yes(app, client, smtp):
    old = finished_game(app, [("Anna", ANNA), ("Bob", BOB)], loser=1)
    path, csrf, page = home_of(app, client, ANNA)
    assert f'name="game" value="{old}"' in page
    assert client.post(path + "/rematch", data={"game": old}).status_code == 403   # no CSRF token
    asked = client.post(path + "/rematch", data={"game": old, "csrf": csrf}, headers=JSON)
    assert asked.status_code == 200 and asked.get_json()["started"] is False
    new = asked.get_json()["rematch"]
    with app.app_context():
        assert db.session.get(Game, new) is None   # nothing starts before Bob's yes
    deliver(app)
    [ask] = [m for m in smtp.to(BOB) if "asks for a rematch" in m["Subject"]]
    assert not [m for m in smtp.to(ANNA) if "asks for a rematch" in m["Subject"]]
    link = REMATCH_LINK.search(text_of(ask)).group(1)
    shown = client.get(link)   # a mail scanner opening the link starts nothing
    assert shown.status_code == 200 and "Play the rematch" in shown.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, new) is None
    # Bob's home offers him the rematch too.
    bob_path, bob_csrf, bob_page = home_of(app, client, BOB)
    assert "A rematch is asked for." in bob_page and "Play the rematch" in bob_page
    assert "Rematch asked: waiting" in client.get(path).get_data(as_text=True)
    # Asking again is the same rematch.
    again = client.post(path + "/rematch", data={"game": old, "csrf": csrf}, headers=JSON)
    assert again.get_json()["rematch"] == new
    yes = client.post(link, headers=JSON)
    assert yes.status_code == 200 and yes.get_json() == {
        "rematch": new, "started": True, "message": yes.get_json()["message"]}
    assert client.post(link).status_code == 410   # once
    with app.app_context():
        before, after = db.session.get(Game, old), db.session.get(Game, new)
        assert (after.kind, after.options, after.time_limit_days, after.takeover) == \
            (before.kind, before.options, before.time_limit_days, before.takeover)
        assert after.first == 1   # who starts moves on by one
    assert seats(app, new) == seats(app, old)
    deliver(app)
    for address in (ANNA, BOB):
        seat = 0 if address == ANNA else 1
        assert [m for m in smtp.to(address) if m["Message-ID"] == f"<{new}.{seat}@pbem.test>"]
    # Both homes list the new game, and the old one says its rematch started.
    data = client.get(path, headers=JSON).get_json()
    assert new in [g["game"] for g in data["games"]]
    assert "Rematch started" in client.get(path).get_data(as_text=True)


def test_a_rematch_from_the_finished_game_s_page_keeps_the_computer_a_computer(app, client, smtp):
    old = finished_game(app, [("Anna", ANNA), ("", "")], bots=(None, "random"), loser=0)
    with app.app_context():
        seat_path = links.path(links.SEAT, old, 0, gamelog.current_nonce(old, 0))
    page = client.get(seat_path).get_data(as_text=True)
    # The page signs its seat link anew (a second later, its time stamp differs): the same
    # seat's link, with the same nonce.
    form = re.search(r'action="/s/([^"]+)/rematch"', page)
    assert form is not None, "no rematch form"
    with app.app_context():
        assert links.read(links.SEAT, form.group(1)) == links.read(links.SEAT, seat_path[3:])
    answer = client.post(seat_path + "/rematch", headers=JSON).get_json()
    assert answer["started"] is True   # nobody else to ask
    assert seats(app, answer["rematch"]) == [("Anna", ANNA, None), ("Computer (random)", "", "random")]


def test_no_rematch_before_the_end_and_none_for_another_s_game(app, client):
    with app.app_context():
        running = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)],
                                               {"sumerians": "top-run"}, 0)).id
        seat_path = links.path(links.SEAT, running, 0, gamelog.current_nonce(running, 0))
    assert client.post(seat_path + "/rematch").status_code == 400
    assert "Rematch" not in client.get(seat_path).get_data(as_text=True)
    other = finished_game(app, [("Bob", BOB), ("Carl", "carl@example.org")])
    path, csrf, _ = home_of(app, client, ANNA)
    assert client.post(path + "/rematch", data={"game": other, "csrf": csrf}).status_code == 404
    with app.app_context():
        assert db.session.scalar(select(Rematch.id)) is None


def test_the_record_of_a_finished_game_mails_its_player_the_way_to_a_rematch(app, client, smtp):
    old = finished_game(app, [("Anna", ANNA), ("Bob", BOB)], loser=1)
    record = client.get(f"/games/{old}/record").get_data(as_text=True)
    assert f'action="/games/{old}/rematch"' in record
    deliver(app)
    smtp.clear()
    known = client.post(f"/games/{old}/rematch", data={"email": ANNA})
    stranger = client.post(f"/games/{old}/rematch", data={"email": "eve@example.org"})
    assert known.status_code == stranger.status_code == 303     # back to the record, which says
    assert known.headers["Location"] == stranger.headers["Location"]   # the same to anybody
    deliver(app)
    assert not smtp.to("eve@example.org")
    [mail] = smtp.to(ANNA)
    home_path = re.search(r"http://pbem\.test(/h/[A-Za-z0-9_.\-]+)", text_of(mail)).group(1)
    page = client.get(home_path).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    asked = client.post(home_path + "/rematch", data={"game": old, "csrf": csrf}, headers=JSON)
    assert asked.get_json()["started"] is False


def test_the_other_player_may_say_yes_from_his_home_too(app, client, smtp):
    old = finished_game(app, [("Anna", ANNA), ("Bob", BOB)], loser=1)
    path, csrf, _ = home_of(app, client, ANNA)
    new = client.post(path + "/rematch", data={"game": old, "csrf": csrf}, headers=JSON).get_json()["rematch"]
    bob_path, bob_csrf, _ = home_of(app, client, BOB)
    yes = client.post(bob_path + "/rematch", data={"game": old, "csrf": bob_csrf}, headers=JSON)
    assert yes.get_json()["started"] is True and yes.get_json()["rematch"] == new
    assert seats(app, new) == seats(app, old)


def test_a_rematch_keeps_the_time_bank(app, smtp):
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"}, 0,
                          None, bank=(7, 1, 14))
        game_id = turns.create_game(spec).id
        turns.resign(game_id, 1)
        from pbem.play import rematch
        row = rematch.ask(game_id, 0)
        assert turns.Spec.from_json(row.kind, row.spec).bank == (7, 1, 14)
