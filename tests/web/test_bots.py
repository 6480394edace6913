"""Computers at the table: seated at creation, taking the seat of a player who leaves a game of
three or four, playing through the worker's bot loop exactly as people play (mails, pages, the
record), once per decision however many workers race for it."""

from __future__ import annotations

import re
import threading

from sqlalchemy import func, select
from tests.conftest import BASE_URL, links_in, text_of

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.jobs import computers
from pbem.play import turns
from pbem.store import gamelog
from pbem.store.models import Event, Game, Mail, Proposal, Seat, Takeover

JSON = {"Accept": "application/json"}
ANNA, BOB, CARL = "anna@example.org", "bob@example.org", "carl@example.org"
CONFIRM = re.compile(re.escape(BASE_URL) + r"(/c/[A-Za-z0-9_.\-]+)")


# -- helpers ---------------------------------------------------------------------------

def deliver(app) -> None:
    from pbem.mail.deliver import deliver_due
    with app.app_context():
        deliver_due()


def computers_play(app) -> int:
    """The worker's bot loop, round after round until no computer owes a decision."""
    played = 0
    with app.app_context():
        while done := computers.run():
            played += len(done)
    return played


def loaded(app, game_id: str) -> gamelog.Loaded:
    with app.app_context():
        return gamelog.load(game_id)


def random_steps(app, game_id: str, seat: int, salt: int) -> str:
    """What a person decides: a random legal decision (the test plays people at random)."""
    game = loaded(app, game_id)
    return game.engine.random_submission(game.state, seat, Rng.derived(salt, f"person:{seat}"))


def same_turn(app, one: str, other: str) -> bool:
    """Two turn links for the same decision (each signed when it was made)."""
    from pbem.policy import links
    with app.app_context():
        return (links.read(links.TURN, one.rsplit("/", 1)[1])
                == links.read(links.TURN, other.rsplit("/", 1)[1]))


def count(app, model, *where) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def turn_link_of(smtp, address: str) -> str | None:
    mails = smtp.to(address)
    return links_in(mails[-1])["turn"] if mails else None


def play_people(app, client, smtp, game_id: str, people: dict[int, str], limit: int = 2000) -> int:
    """Play the game to its end: people by the turn links in their latest mails (random legal
    decisions submitted as JSON), computers by the bot loop. How many people's turns."""
    turns_played = 0
    for step in range(limit):
        computers_play(app)
        deliver(app)
        game = loaded(app, game_id)
        if game.over:
            return turns_played
        owing = [d.seat for d in game.engine.to_act(game.state) if d.seat in people]
        assert owing, f"nobody to play: {game.engine.to_act(game.state)}"
        seat = owing[0]
        path = turn_link_of(smtp, people[seat])
        assert path, f"no turn link mailed to seat {seat}"
        view = client.get(path, headers=JSON).get_json()
        assert view["can_act"], (seat, view["seq"], game.seq)
        response = client.post(path, json={"steps": random_steps(app, game_id, seat, step)})
        assert response.status_code == 200, response.get_json()
        turns_played += 1
    raise AssertionError("the game did not end")


# -- creating games with computers ----------------------------------------------------

def test_a_person_plays_a_computer_to_the_end_by_his_mailed_links(app, client, smtp):
    response = client.post("/games", json={"game": "babel-tower", "name0": "Anna", "email0": ANNA,
                                           "bot1": "normal", "first": "1"})
    assert response.status_code == 202, response.get_json()
    deliver(app)
    confirm = CONFIRM.search(text_of(smtp.to(ANNA)[-1])).group(1)
    assert "Computer (normal)" in text_of(smtp.to(ANNA)[-1])
    assert client.post(confirm, headers=JSON).status_code == 201
    game_id = response.get_json()["game"]
    with app.app_context():
        seats = db.session.scalars(select(Seat).where(Seat.game_id == game_id)
                                   .order_by(Seat.seat)).all()
        assert [(s.name, s.email, s.bot) for s in seats] == [
            ("Anna", ANNA, None), ("Computer (normal)", "", "normal")]

    people_turns = play_people(app, client, smtp, game_id, {0: ANNA})

    game = loaded(app, game_id)
    outcome = game.engine.outcome(game.state)
    assert outcome is not None and people_turns > 0
    assert count(app, Event, Event.game_id == game_id, Event.seat == 1) > 0   # the computer played
    assert count(app, Mail, Mail.to_addr == "") == 0                          # and was never mailed
    over = smtp.to(ANNA)[-1]
    assert "is over" in text_of(over) and "Computer (normal)" in text_of(over)
    record = client.get(f"/games/{game_id}/record", headers=JSON).get_json()
    assert record["names"] == ["Anna", "Computer (normal)"] and record["outcome"]
    page = client.get(links_in(over)["seat"]).get_data(as_text=True)
    assert "Computer (normal)" in page


def test_a_computer_that_starts_plays_at_once_and_the_person_is_mailed_his_turn(app, client, smtp):
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("", "")],
                                               {"sumerians": "top-run"}, 1, bots=(None, "easy"))).id
    deliver(app)
    assert "/t/" not in text_of(smtp.to(ANNA)[-1])    # invited: the computer plays first
    assert computers_play(app) == 1
    deliver(app)
    mail = smtp.to(ANNA)[-1]
    assert "your turn" in str(mail["Subject"]) and links_in(mail)["turn"]
    assert loaded(app, game_id).names == ["Anna", "Computer (easy)"]


def test_a_game_of_only_computers_or_an_unknown_level_is_refused_with_nothing_written(app, client):
    asks = [
        ({"game": "babel", "bot0": "normal", "bot1": "easy"}, "person"),
        ({"game": "babel", "name0": "Anna", "email0": ANNA, "bot1": "genius"}, "'genius'"),
        ({"game": "babylonia", "name0": "Anna", "email0": ANNA, "bot1": "easy", "bot2": "hard"},
         "'hard'"),
        ({"game": "babel", "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB,
          "takeover": "genius"}, "'genius'"),
        ({"game": "babel", "name0": "Anna", "email0": ANNA, "bot1": ["easy"]}, "text"),
    ]
    for body, words in asks:
        response = client.post("/games", json=body, headers=JSON)
        assert response.status_code == 400, body
        assert words in response.get_json()["error"], (body, response.get_json())
    form = client.post("/games", data={"game": "babel", "name0": "Anna", "email0": ANNA,
                                       "bot1": "genius"})
    assert form.status_code == 400 and "genius" in form.get_data(as_text=True)
    assert count(app, Proposal) == count(app, Mail) == count(app, Game) == 0

    for players in (["bot:normal", "bot:easy"], ["Anna <anna@example.org>", "bot:genius"]):
        args = ["new-game", "--game", "babel"] + [a for p in players for a in ("--player", p)]
        result = app.test_cli_runner().invoke(args=args)
        assert result.exit_code == 2, result.output
    assert count(app, Game) == count(app, Seat) == count(app, Mail) == 0


def test_the_cli_seats_a_computer(app):
    result = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
        "--player", "bot:strong", "--player", "bot:strong", "--takeover", "easy"])
    assert result.exit_code == 0, result.output
    game_id = result.output.strip()
    with app.app_context():
        assert gamelog.bots(game_id) == {1: "strong", 2: "strong"}
        assert loaded(app, game_id).names == ["Anna", "Computer (strong)", "Computer 2 (strong)"]
        assert db.session.get(Game, game_id).takeover == "easy"
    assert count(app, Mail, Mail.game_id == game_id) == 1   # Anna's invitation only


# -- a player leaves a game of three --------------------------------------------------------

def test_a_player_who_resigns_from_three_hands_his_seat_to_a_computer_and_the_game_goes_on(
        app, client, smtp):
    with app.app_context():
        game_id = turns.create_game(turns.Spec(
            "babylonia", [("Anna", ANNA), ("Bob", BOB), ("Carl", CARL)], {}, 0)).id
    people = {0: ANNA, 1: BOB, 2: CARL}
    for step in range(4):   # a few turns each, through the mailed links
        deliver(app)
        game = loaded(app, game_id)
        seat = game.engine.to_act(game.state)[0].seat
        path = turn_link_of(smtp, people[seat])
        assert client.post(path, json={"steps": random_steps(app, game_id, seat, step)}
                           ).status_code == 200
    deliver(app)
    carl_turn = turn_link_of(smtp, CARL)
    carl_seat = links_in(smtp.to(CARL)[-1])["seat"]
    before = loaded(app, game_id).seq

    response = client.post(carl_seat + "/resign", json={"confirm": True}, headers=JSON)
    assert response.status_code == 200, response.get_json()
    view = response.get_json()
    assert view["outcome"] is None and view["bot"] == "normal" and view["turn_link"] is None
    assert view["names"][2] == f"Carl (bot from turn {before + 1})"
    with app.app_context():
        assert gamelog.bots(game_id) == {2: "normal"}
        left = db.session.get(Takeover, (game_id, 2))
        assert (left.seq, left.reason, left.level) == (before, "resigned", "normal")
    assert loaded(app, game_id).seq == before          # no event: the engine never hears of it
    deliver(app)
    for address in (ANNA, BOB):
        told = text_of(smtp.to(address)[-1])
        assert "Carl resigned" in told and f"from turn {before + 1} on" in told
    assert "you resigned" in text_of(smtp.to(CARL)[-1])
    carl_mails = len(smtp.to(CARL))
    if carl_turn:   # his old turn link no longer acts
        assert client.post(carl_turn, json={"steps": "x"}).status_code == 409
    assert client.post(carl_seat + "/resign", json={"confirm": True}).status_code == 409

    play_people(app, client, smtp, game_id, {0: ANNA, 1: BOB})

    game = loaded(app, game_id)
    outcome = game.engine.outcome(game.state)
    assert outcome is not None and outcome.reason != "resigned"
    assert count(app, Event, Event.game_id == game_id, Event.seat == 2, Event.seq > before) > 0
    deliver(app)
    assert len(smtp.to(CARL)) == carl_mails + 1 and "is over" in text_of(smtp.to(CARL)[-1])
    record = client.get(f"/games/{game_id}/record").get_data(as_text=True)
    assert f"Carl (bot from turn {before + 1})" in record
    assert "Carl (bot)</strong>" in record   # the turns it played say so


def test_the_last_person_who_resigns_ends_the_game_and_two_player_games_end_as_before(app, client):
    with app.app_context():
        three = turns.create_game(turns.Spec("babylonia", [("Anna", ANNA), ("", ""), ("", "")], {},
                                             0, bots=(None, "random", "random"))).id
        two = turns.create_game(turns.Spec("babylonia", [("Anna", ANNA), ("Bob", BOB)], {}, 0)).id
        turns.resign(three, 0)
        turns.resign(two, 1)
        for game_id, loser in ((three, 0), (two, 1)):
            game = gamelog.load(game_id)
            outcome = game.engine.outcome(game.state)
            assert outcome is not None and outcome.reason == "resigned" and loser not in outcome.winners
        assert count(app, Takeover) == 0


def test_a_player_who_runs_out_of_time_in_a_game_of_three_hands_his_seat_over(app, client, smtp):
    from datetime import UTC, datetime, timedelta

    from pbem.jobs import reminders
    with app.app_context():
        game_id = turns.create_game(turns.Spec(
            "babylonia", [("Anna", ANNA), ("Bob", BOB), ("Carl", CARL)], {}, 0,
            time_limit_days=3, takeover="easy")).id
        report = reminders.run(datetime.now(UTC) + timedelta(days=4))
        assert report.timeouts == [game_id]
        assert gamelog.bots(game_id) == {0: "easy"}
        assert db.session.get(Takeover, (game_id, 0)).reason == "timeout"
        # The computer has no clock: the next run neither times it out nor reminds it.
        assert reminders.run(datetime.now(UTC) + timedelta(days=5)).timeouts == []
    assert computers_play(app) == 1
    assert not loaded(app, game_id).over and loaded(app, game_id).seq == 1
    deliver(app)
    assert "Anna ran out of time" in text_of(smtp.to(BOB)[-2])
    assert "you ran out of time" in text_of(smtp.to(ANNA)[-1])


# -- workers racing -----------------------------------------------------------------------

def test_two_workers_racing_for_one_computer_decision_apply_it_once(make_app):
    first = make_app()
    second = make_app(first.config["SQLALCHEMY_DATABASE_URI"])
    with first.app_context():
        game_ids = [turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("", "")],
                                                 {"sumerians": "top-run"}, 1,
                                                 bots=(None, "random"))).id for _ in range(3)]
    # Both workers find the same decisions owed, then decide them at the same moment.
    for game_id in game_ids:
        with first.app_context():
            owed = [(w.game.id, w.seat, w.seq) for w in computers.owed()]
        assert (game_id, 1, 0) in owed
        barrier, results = threading.Barrier(2), []

        def worker(app, barrier=barrier, results=results, game_id=game_id):
            with app.app_context():
                barrier.wait()
                results.append(computers.play(game_id, 1, 0))

        threads = [threading.Thread(target=worker, args=(app,)) for app in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(results) == 2 and sum(r is not None for r in results) == 1, results
        assert count(first, Event, Event.game_id == game_id) == 1
        assert count(first, Mail, Mail.game_id == game_id, Mail.kind == "turn") == 1
    # The loser's stale view of the race changes nothing either.
    with second.app_context():
        assert computers.play(game_ids[0], 1, 0) is None
        assert computers.run() == []


def test_the_computers_seed_is_derived_from_the_game_and_hides_it():
    seeds = {computers.bot_seed(12345, "g", seat, seq) for seat in range(3) for seq in range(5)}
    assert len(seeds) == 15 and 12345 not in seeds
    assert computers.bot_seed(12345, "g", 1, 2) == computers.bot_seed(12345, "g", 1, 2)
    assert all(0 <= s < 2 ** 63 for s in seeds)


# -- the JSON API for outside bots -----------------------------------------------------------

def test_a_seat_that_owes_two_decisions_in_a_row_is_told_and_answered_its_next_turn_link(
        app, client, smtp):
    """Babel Tower's last picker places first: a JSON submission says where to go on, and the
    player is mailed (a client of the API has no page to go on in)."""
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babel-tower", [("Anna", ANNA), ("Bob", BOB)],
                                               {}, 0)).id
    people = {0: ANNA, 1: BOB}
    twice = 0
    for step in range(200):
        deliver(app)
        game = loaded(app, game_id)
        if game.over:
            break
        seat = game.engine.to_act(game.state)[0].seat
        seat_link = links_in(smtp.to(people[seat])[-1])["seat"]
        view = client.get(seat_link, headers=JSON).get_json()
        assert view["turn_link"] and view["turn_link"].startswith(BASE_URL + "/t/")
        turn = view["turn_link"][len(BASE_URL):]
        mails_before = len(smtp.to(people[seat]))
        answer = client.post(turn, json={"steps": random_steps(app, game_id, seat, step)})
        assert answer.status_code == 200
        after = answer.get_json()
        again = loaded(app, game_id).decision_of(seat)
        if again is not None:
            twice += 1
            assert after["next"].startswith(BASE_URL + "/t/")
            assert same_turn(app, after["next"], after["turn_link"])
            deliver(app)
            assert len(smtp.to(people[seat])) == mails_before + 1
            assert same_turn(app, BASE_URL + links_in(smtp.to(people[seat])[-1])["turn"], after["next"])
            assert client.get(after["next"][len(BASE_URL):], headers=JSON).get_json()["can_act"]
        else:
            assert after["turn_link"] is None and "/s/" in after["next"]
    assert twice >= 1


def test_a_takeover_and_the_players_own_decision_at_the_same_moment_never_both_count(make_app):
    """The clock takes a seat over while its player submits: one of them wins, never both."""
    from pbem.errors import AlreadySubmitted
    first = make_app()
    second = make_app(first.config["SQLALCHEMY_DATABASE_URI"])
    people = [("Anna", ANNA), ("Bob", BOB), ("Carl", CARL)]
    with first.app_context():   # a stale view of the log loses, with nothing written
        game_id = turns.create_game(turns.Spec("babylonia", people, {}, 0)).id
        stale = gamelog.load(game_id)
        text = stale.engine.random_submission(stale.state, 0, Rng(1))
        turns.submit(game_id, 0, 0, text, turns.Origin(turns.MAIL))
        try:
            turns.take_over(stale, 0, "timeout")
            raise AssertionError("a takeover of a seat that decided meanwhile")
        except AlreadySubmitted:
            pass
        assert gamelog.bots(game_id) == {} and count(first, Takeover) == 0
    outcomes = []
    for round_ in range(4):
        with first.app_context():
            game_id = turns.create_game(turns.Spec("babylonia", people, {}, 0)).id
            game = gamelog.load(game_id)
            text = game.engine.random_submission(game.state, 0, Rng(round_))
        barrier, results = threading.Barrier(2), {}

        def person(app, barrier=barrier, results=results, game_id=game_id, text=text):
            with app.app_context():
                barrier.wait()
                try:
                    turns.submit(game_id, 0, 0, text, turns.Origin(turns.MAIL))
                    results["person"] = True
                except AlreadySubmitted:
                    results["person"] = False

        def clock(app, barrier=barrier, results=results, game_id=game_id):
            with app.app_context():
                barrier.wait()
                results["clock"] = turns.time_out(game_id, 0, 0) is not None

        threads = [threading.Thread(target=person, args=(first,)),
                   threading.Thread(target=clock, args=(second,))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        events = count(first, Event, Event.game_id == game_id)
        taken = count(first, Takeover, Takeover.game_id == game_id)
        assert results["person"] != results["clock"], results
        assert (events, taken) == ((1, 0) if results["person"] else (0, 1))
        outcomes.append(results["person"])
    assert outcomes   # (which side wins each round is the databases' to decide)
