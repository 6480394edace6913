"""Open challenges through the server (`pbem.play.challenges`, `pbem.web.challenges`): posted and
confirmed by mail, accepted by strangers who confirm from theirs, the game started when the seats
are full and played to the end by links, both ratings moved as OpenSkill computes; a challenge
for three at Babylonia; the abuse limits of game creation on posting and on accepting; withdrawn
and expired challenges refused; two players racing for the last seat: one gets it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select, update

from pbem.extensions import db
from pbem.play import turns
from pbem.players import public
from pbem.store import gamelog
from pbem.store.models import Challenge, Game, GameResult, Rating, Seat, utcnow
from pbem_web import at_once, deliver, play_by_links, text_of  # tests/helpers

JSON = {"Accept": "application/json"}
ANNA, BOB, CARL, DORA = "anna@example.org", "bob@example.org", "carl@example.org", "dora@example.org"
LIBRARY = PlackettLuce(mu=1500.0, sigma=350.0, beta=175.0, tau=5.0)   # the ratings' scale
URL = re.compile(r"http://pbem\.test(/(?:ch|cw|ca)/[A-Za-z0-9_.\-]+)")



def result_of(app, game_id: str) -> GameResult | None:
    with app.app_context():
        return db.session.get(GameResult, game_id)


def mailed_paths(app, smtp, address: str) -> list[str]:
    deliver(app)
    mails = smtp.to(address)
    assert mails, f"no mail to {address}"
    return URL.findall(text_of(mails[-1]))


def post(client, **fields) -> str:
    body = {"game": "babel", "seats": 2, "address": ANNA, "name": "Anna",
            "option.sumerians": "top-run", "days": 7, **fields}
    response = client.post("/challenges", json=body, headers=JSON)
    assert response.status_code == 202, response.data
    return response.get_json()["challenge"]


def posted_and_confirmed(app, client, smtp, **fields) -> str:
    challenge = post(client, **fields)
    poster = fields.get("address", ANNA)
    confirm, withdraw = mailed_paths(app, smtp, poster)
    assert confirm.startswith("/ch/") and withdraw.startswith("/cw/")
    assert client.get(confirm).status_code == 200          # a GET shows it, lists nothing
    assert listed(client) == []
    response = client.post(confirm, headers=JSON)
    assert response.status_code == 200 and response.get_json()["status"] == "open"
    return challenge


def listed(client) -> list[dict]:
    response = client.get("/challenges", headers=JSON)
    assert response.status_code == 200
    return response.get_json()["challenges"]


def ask(client, challenge: str, address: str, status=202, **fields):
    response = client.post(f"/challenges/{challenge}/accept", json={"address": address, **fields},
                           headers=JSON)
    assert response.status_code == status, response.data
    return response


def take_seat(app, client, smtp, challenge: str, address: str, status=None):
    ask(client, challenge, address, name=address.split("@")[0].title())
    [path] = mailed_paths(app, smtp, address)
    assert path.startswith("/ca/")
    page = client.get(path)
    assert page.status_code == 200
    response = client.post(path, headers=JSON)
    if status is not None:
        assert response.status_code == status, response.data
    return response


def test_a_rated_challenge_posted_accepted_by_a_stranger_and_played_to_the_end(app, client, smtp):
    with app.app_context():
        public.choose(ANNA, "Anna")
        public.choose(BOB, "Bob")
    challenge = posted_and_confirmed(app, client, smtp, rated=True, lowest=1000, highest=2000)
    [shown] = listed(client)
    assert shown["poster"]["name"] == "Anna" and shown["rated"] and shown["seats"] == 2
    assert shown["poster"]["rating"] is None and shown["rating_range"] == [1000, 2000]
    assert ANNA not in client.get("/challenges").get_data(as_text=True)
    response = take_seat(app, client, smtp, challenge, BOB, status=201)
    assert response.get_json()["game"] == challenge
    assert listed(client) == []
    with app.app_context():
        game = db.session.get(Game, challenge)
        assert game is not None and game.rated
        seats = db.session.execute(select(Seat.email, Seat.name).where(Seat.game_id == challenge)
                                   .order_by(Seat.seat)).all()
        assert [tuple(s) for s in seats] == [(ANNA, "Anna"), (BOB, "Bob")]
    deliver(app)
    assert any("invited" in str(m["Subject"]) or "turn" in str(m["Subject"]) for m in smtp.to(BOB))
    play_by_links(app, client, challenge, seed=5)
    places = result_of(app, challenge).places
    after = LIBRARY.rate([[LIBRARY.rating(mu=1500.0, sigma=350.0)] for _ in range(2)],
                         ranks=[float(p) for p in places])
    with app.app_context():
        rows = {r.player: (r.mu, r.sigma, r.games) for r in db.session.scalars(select(Rating))}
    assert rows == {ANNA: (after[0][0].mu, after[0][0].sigma, 1),
                    BOB: (after[1][0].mu, after[1][0].sigma, 1)}


def test_a_challenge_for_three_at_babylonia_starts_when_its_third_seat_is_taken(app, client, smtp):
    challenge = posted_and_confirmed(app, client, smtp, game="babylonia", seats=3,
                                     clock="bank:7+1/14")
    response = take_seat(app, client, smtp, challenge, BOB, status=200)
    assert response.get_json()["status"] == "open"
    [shown] = listed(client)
    assert shown["taken"] == 2 and shown["poster"]["name"] is None
    take_seat(app, client, smtp, challenge, CARL, status=201)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Seat)
                                 .where(Seat.game_id == challenge)) == 3
        assert not db.session.get(Game, challenge).rated
    play_by_links(app, client, challenge, seed=2)
    assert result_of(app, challenge) is not None


def test_the_poster_and_a_seated_player_cannot_take_another_seat(app, client, smtp):
    challenge = posted_and_confirmed(app, client, smtp, game="babylonia", seats=3)
    ask(client, challenge, ANNA)
    [path] = mailed_paths(app, smtp, ANNA)[-1:]
    assert "your own challenge" in client.get(path).get_data(as_text=True)
    assert client.post(path, headers=JSON).status_code == 403
    take_seat(app, client, smtp, challenge, BOB, status=200)
    [path] = mailed_paths(app, smtp, BOB)
    assert client.post(path, headers=JSON).status_code == 403   # his second click


def test_a_rated_challenge_needs_a_public_name_and_terms_are_checked_on_the_accept_page(app, client, smtp):
    response = client.post("/challenges", json={"game": "babel", "address": ANNA, "rated": True},
                           headers=JSON)
    assert response.status_code == 400 and "public name" in response.get_json()["error"]
    with app.app_context():
        public.choose(ANNA, "Anna")
        public.choose(CARL, "Carl")
    challenge = posted_and_confirmed(app, client, smtp, rated=True, lowest=1600)
    ask(client, challenge, BOB)   # the same answer for any address
    [path] = mailed_paths(app, smtp, BOB)
    assert "public name" in client.get(path).get_data(as_text=True)
    assert client.post(path, headers=JSON).status_code == 403
    take_seat(app, client, smtp, challenge, CARL, status=403)   # 1500 < 1600
    assert len(listed(client)) == 1


def test_a_player_without_a_public_name_gives_a_name_on_the_accept_page(app, client, smtp):
    response = client.post("/challenges", json={"game": "babel", "address": ANNA}, headers=JSON)
    assert response.status_code == 400 and "name" in response.get_json()["error"]
    challenge = posted_and_confirmed(app, client, smtp)
    ask(client, challenge, BOB)
    [path] = mailed_paths(app, smtp, BOB)
    assert 'name="name"' in client.get(path).get_data(as_text=True)
    assert client.post(path, headers=JSON).status_code == 400   # no name: no seat
    assert client.post(path, data={"name": "Bobby"}).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(Seat.name).where(Seat.game_id == challenge,
                                                         Seat.seat == 1)) == "Bobby"


def test_an_on_time_minimum_refuses_a_newcomer(app, client, smtp):
    challenge = posted_and_confirmed(app, client, smtp, on_time=80)
    response = take_seat(app, client, smtp, challenge, BOB, status=403)
    assert "on time" in response.get_json()["error"]


def test_withdrawn_and_expired_challenges_cannot_be_accepted(app, client, smtp):
    challenge = posted_and_confirmed(app, client, smtp)
    ask(client, challenge, BOB)
    [accept] = mailed_paths(app, smtp, BOB)
    _, withdraw = URL.findall(text_of(smtp.to(ANNA)[0]))
    assert client.post(withdraw, headers=JSON).get_json()["status"] == "withdrawn"
    assert listed(client) == []
    assert client.post(accept, headers=JSON).status_code == 410
    ask(client, challenge, CARL, status=410)

    second = posted_and_confirmed(app, client, smtp, address=DORA)
    ask(client, second, BOB)
    [accept] = mailed_paths(app, smtp, BOB)
    with app.app_context():
        db.session.execute(update(Challenge).where(Challenge.id == second)
                           .values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    assert listed(client) == []
    assert client.post(accept, headers=JSON).status_code == 410
    ask(client, second, CARL, status=410)


def test_the_poster_withdraws_from_his_home(app, client, smtp):
    from pbem.players import settings
    challenge = posted_and_confirmed(app, client, smtp)
    with app.app_context():
        home = settings.home_url(ANNA).removeprefix("http://pbem.test")
    page = client.get(home).get_data(as_text=True)
    assert f"/challenges/{challenge}/withdraw" in page
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    response = client.post(f"{home}/challenges/{challenge}/withdraw", data={"csrf": csrf})
    assert response.status_code == 303
    assert listed(client) == []


def test_posting_and_accepting_count_under_the_limits_of_game_creation(make_app, smtp):
    app = make_app(PROPOSALS_PER_ADDRESS_PER_DAY=2, PROPOSALS_PER_CLIENT_PER_DAY=100)
    client = app.test_client()
    post(client)
    post(client)
    response = client.post("/challenges", json={"game": "babel", "address": ANNA, "name": "Anna"},
                           headers=JSON)
    assert response.status_code == 429
    challenge = post(client, address=DORA)
    confirm, _ = mailed_paths(app, smtp, DORA)
    client.post(confirm)
    ask(client, challenge, BOB)
    ask(client, challenge, BOB)
    ask(client, challenge, BOB, status=429)   # his address mailed as often as one may today
    app = make_app(PROPOSALS_PER_ADDRESS_PER_DAY=100, PROPOSALS_PER_CLIENT_PER_DAY=1)
    client = app.test_client()
    other = {"REMOTE_ADDR": "10.0.0.7"}   # a client that asked nothing yet
    for address, status in ((CARL, 202), ("erik@example.org", 429)):
        response = client.post(f"/challenges/{challenge}/accept", json={"address": address},
                               headers=JSON, environ_base=other)
        assert response.status_code == status, response.data


def test_two_players_racing_for_the_last_seat_one_gets_it(app, client, smtp):
    challenge = posted_and_confirmed(app, client, smtp)
    paths = []
    for address in (BOB, CARL):
        ask(client, challenge, address, name=address.split("@")[0].title())
        paths += mailed_paths(app, smtp, address)

    def confirm(i: int) -> int:
        return app.test_client().post(paths[i], headers=JSON).status_code

    assert sorted(at_once(2, confirm)) == [201, 410]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Seat)
                                 .where(Seat.game_id == challenge)) == 2
        assert db.session.get(Challenge, challenge).taken == 2




def test_the_start_page_posts_a_challenge_and_the_list_offers_the_computer(app, client, smtp):
    csrf = client.start_csrf()
    form = {"csrf": csrf, "game": "babylonia", "seats": "3", "time_limit": "7", "clock": "",
            "language": "de", "days": "3", "name": "Anna", "address": ANNA}
    response = client.post("/challenges", data=form)
    assert response.status_code == 303 and response.headers["Location"] == "/challenges?sent=posted"
    assert "went to the address you gave" in client.get("/challenges?sent=posted").get_data(as_text=True)
    [confirm, _] = mailed_paths(app, smtp, ANNA)
    assert "Herausforderung" in str(smtp.to(ANNA)[-1]["Subject"])   # in the language chosen
    client.post(confirm)
    page = client.get("/challenges").get_data(as_text=True)
    assert "Babylonia" in page and 'href="/?against=computer"' in page
    start = client.get("/?against=computer").get_data(as_text=True)
    assert re.search(r'<select name="bot1">.*?<option value="normal" selected', start, re.S)
    # A form without the start page's token is refused, and shown again.
    assert client.post("/challenges", data={**form, "csrf": None}).status_code == 403


def test_the_rated_box_makes_a_rated_game_and_computers_show_their_ratings(app, client, smtp):
    from pbem_web import started
    response = client.post("/games", data={"game": "babel", "option.sumerians": "top-run",
                                           "name0": "Anna", "email0": ANNA, "bot1": "normal",
                                           "rated": "on"})
    game = started(client, response)
    with app.app_context():
        assert db.session.get(Game, game).rated
    assert "rated 1" not in client.get("/").get_data(as_text=True)
    play_by_links(app, client, game, seed=1)
    with app.app_context():
        computer = db.session.get(Rating, ("computer:normal", "babel"))
        assert computer is not None and computer.games == 1
    page = client.get("/").get_data(as_text=True)
    assert f"Babel {round(computer.mu)}" in page


@pytest.mark.parametrize("language", ["en", "de", "cs"])
def test_the_challenge_mails_read_at_80_columns(app, client, smtp, language):
    from pbem_web import outbox, too_long
    challenge = posted_and_confirmed(app, client, smtp, language=language, game="babylonia",
                                     seats=3, clock="bank:14+2/30")
    ask(client, challenge, BOB, name="Bob", language=language)
    mails = {kind: text for kind, _, text, _, _, _ in outbox(app)}
    for kind in ("challenge", "challenge_accept"):
        assert not too_long(mails[kind]), (kind, too_long(mails[kind]))
        print(mails[kind])


def test_an_unconfirmed_challenge_is_forgotten_by_the_workers_round(app, client, smtp):
    from pbem.jobs import reminders
    forgotten, kept = post(client), posted_and_confirmed(app, client, smtp, address=DORA)
    later = utcnow() + timedelta(hours=app.config["PROPOSAL_HOURS"] + 1)
    with app.app_context():
        reminders.run(later)
        assert db.session.get(Challenge, forgotten) is None
        assert db.session.get(Challenge, kept) is not None
    [confirm, _] = URL.findall(text_of(smtp.to(ANNA)[0]))
    assert client.post(confirm, headers=JSON).status_code == 410


def test_a_loss_on_time_bars_rated_challenges_not_unrated_ones(app, client, smtp):
    with app.app_context():
        for address, name in ((ANNA, "Anna"), (CARL, "Carl"), (DORA, "Dora")):
            public.choose(address, name)
        game = turns.create_game(turns.Spec("babel", [("Carl", CARL), ("Dora", DORA)],
                                            {"sumerians": "top-run"}, 0)).id
        turns.time_out(game, 0, gamelog.load(game).seq)   # Carl's clock ran out
    response = client.post("/challenges", json={"game": "babel", "address": CARL, "rated": True},
                           headers=JSON)
    assert response.status_code == 403 and "loss on time" in response.get_json()["error"]
    rated = posted_and_confirmed(app, client, smtp, rated=True)
    refused = take_seat(app, client, smtp, rated, CARL, status=403)
    assert "loss on time" in refused.get_json()["error"]
    take_seat(app, client, smtp, rated, DORA, status=201)   # the winner is not barred
    unrated = posted_and_confirmed(app, client, smtp)
    take_seat(app, client, smtp, unrated, CARL, status=201)
