"""Ratings (`pbem.players.ratings`) moved by rated games played through the server: exactly as
OpenSkill's Plackett-Luce computes them from the places the rules give; a leaver last; an
aborted or unrated game changes nothing; computers rated under their level; the rebuild from
the logs gives the same numbers as the live updates; and a loss on time counts on the on-time
record and bars rated play for RATED_BAN_DAYS."""

from __future__ import annotations

from datetime import timedelta

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select, update

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.play import turns
from pbem.players import public, ratings, record
from pbem.store import gamelog
from pbem.store.models import GameResult, Rating, utcnow
from pbem.store.transaction import transaction
from pbem_web import at_once, seat_path, turn_path  # tests/helpers

JSON = {"Accept": "application/json"}
ANNA, BOB, CARL = "anna@example.org", "bob@example.org", "carl@example.org"
LIBRARY = PlackettLuce(mu=1500.0, sigma=350.0, beta=175.0, tau=5.0)   # the scale, written anew


def new_game(app, kind: str, players, rated=True, bots=(), options=None, first=0) -> str:
    with app.app_context():
        spec = turns.Spec(kind, list(players), options or {}, first, bots=tuple(bots), rated=rated)
        return turns.create_game(spec).id


def play_by_links(app, client, game_id: str, seed: int, stop_at: int | None = None) -> None:
    """Random legal decisions through the turn links (JSON), a computer's seat as the computer,
    to the end of the game (or to the log's length `stop_at`)."""
    rng = Rng(seed)
    while True:
        with app.app_context():
            loaded = gamelog.load(game_id)
            if loaded.over or loaded.seq == stop_at:
                return
            seat = loaded.engine.to_act(loaded.state)[0].seat
            text = loaded.engine.random_submission(loaded.state, seat, rng)
            bot = gamelog.bot_of(game_id, seat)
            if bot:
                turns.submit(game_id, seat, loaded.seq, text, turns.Origin(turns.BOT))
                continue
        response = client.post(turn_path(app, game_id, seat), json={"steps": text}, headers=JSON)
        assert response.status_code == 200, response.data[:300]


def stored(app) -> dict[tuple[str, str], tuple[float, float, int]]:
    with app.app_context():
        return {(r.player, r.game): (r.mu, r.sigma, r.games) for r in db.session.scalars(select(Rating))}


def result_of(app, game_id: str) -> GameResult:
    with app.app_context():
        return db.session.get(GameResult, game_id)


def expected(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    after = LIBRARY.rate([[LIBRARY.rating(mu=mu, sigma=sigma)] for mu, sigma in before],
                         ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]


def test_a_rated_game_played_to_the_end_moves_both_ratings_as_the_library_computes(app, client):
    with app.app_context():
        public.choose(ANNA, "Anna")
        public.choose(BOB, "Bob")
    game = new_game(app, "babel", [("Anna", ANNA), ("Bob", BOB)], options={"sumerians": "top-run"})
    play_by_links(app, client, game, seed=3)
    places = result_of(app, game).places
    (a_mu, a_sigma), (b_mu, b_sigma) = expected([(1500.0, 350.0)] * 2, places)
    assert stored(app) == {(ANNA, "babel"): (a_mu, a_sigma, 1), (BOB, "babel"): (b_mu, b_sigma, 1)}
    assert a_mu != b_mu or places[0] == places[1]
    # The second game starts from the first one's numbers.
    game = new_game(app, "babel", [("Bob", BOB), ("Anna", ANNA)], options={"sumerians": "top-run"})
    play_by_links(app, client, game, seed=4)
    (b2, b2s), (a2, a2s) = expected([(b_mu, b_sigma), (a_mu, a_sigma)], result_of(app, game).places)
    assert stored(app) == {(ANNA, "babel"): (a2, a2s, 2), (BOB, "babel"): (b2, b2s, 2)}
    # The ladder and the player page show them, rounded, under the public names.
    ladder = client.get("/ratings/babel", headers=JSON).get_json()["ladder"]
    assert sorted((r["name"], r["rating"], r["deviation"], r["games"]) for r in ladder) == sorted(
        [("Anna", round(a2), round(a2s), 2), ("Bob", round(b2), round(b2s), 2)])
    page = client.get("/p/anna", headers=JSON).get_json()
    assert page["name"] == "Anna" and page["ratings"]["babel"]["rating"] == round(a2)
    assert page["games"] == {"played": 2, "finished": 2}
    assert page["on_time"]["share"] == 1.0 and page["current"] == [] and page["leagues"] == []


def test_a_babylonia_game_of_three_is_rated_by_its_places(app, client):
    players = [("Anna", ANNA), ("Bob", BOB), ("Carl", CARL)]
    game = new_game(app, "babylonia", players)
    play_by_links(app, client, game, seed=11)
    places = result_of(app, game).places
    want = expected([(1500.0, 350.0)] * 3, places)
    got = stored(app)
    assert {a: got[(a, "babylonia")] for a in (ANNA, BOB, CARL)} == {
        a: (*want[i], 1) for i, a in enumerate((ANNA, BOB, CARL))}
    best = min(range(3), key=lambda s: places[s])
    assert got[([ANNA, BOB, CARL][best], "babylonia")][0] > 1500


def test_a_player_who_leaves_loses_and_the_computer_on_his_seat_is_not_rated(app, client):
    game = new_game(app, "babylonia", [("Anna", ANNA), ("Bob", BOB), ("Carl", CARL)])
    play_by_links(app, client, game, seed=5, stop_at=4)
    response = client.post(seat_path(app, game, 1) + "/resign", json={"confirm": True}, headers=JSON)
    assert response.status_code == 200, response.data[:300]
    play_by_links(app, client, game, seed=6)
    result = result_of(app, game)
    assert result.left and "1" in result.left
    places = list(result.places)
    places[1] = max(places) + 1       # below everyone, whatever the computer made of his seat
    want = expected([(1500.0, 350.0)] * 3, places)
    got = stored(app)
    assert set(got) == {(a, "babylonia") for a in (ANNA, BOB, CARL)}   # no computer row
    assert got[(BOB, "babylonia")] == (*want[1], 1)
    assert got[(BOB, "babylonia")][0] < 1500
    assert got[(BOB, "babylonia")][0] == min(mu for mu, _, _ in got.values())
    with app.app_context():
        assert record.on_time(BOB).left == 1


def test_an_aborted_game_and_an_unrated_game_change_no_rating(app, client):
    game = new_game(app, "babel", [("Anna", ANNA), ("Bob", BOB)], options={"sumerians": "top-run"})
    play_by_links(app, client, game, seed=3, stop_at=3)
    with app.app_context():
        turns.abort(game, "the host stops it")
    unrated = new_game(app, "babel", [("Anna", ANNA), ("Bob", BOB)], rated=False,
                       options={"sumerians": "top-run"})
    play_by_links(app, client, unrated, seed=3)
    assert result_of(app, game).reason == "aborted" and result_of(app, unrated) is not None
    assert stored(app) == {}
    with app.app_context():
        assert ratings.rebuild() == 1 and stored(app) == {}


def test_a_computer_is_rated_under_its_level_and_shown_on_the_ladder(app, client):
    with app.app_context():
        public.choose(ANNA, "Anna")
    game = new_game(app, "babel", [("Anna", ANNA), ("", "")], bots=(None, "random"),
                    options={"sumerians": "top-run"})
    play_by_links(app, client, game, seed=8)
    got = stored(app)
    assert set(got) == {(ANNA, "babel"), ("computer:random", "babel")}
    names = {r["name"] for r in client.get("/ratings/babel", headers=JSON).get_json()["ladder"]}
    assert names == {"Anna", "Computer (random)"}


def test_the_rebuild_from_the_logs_gives_the_live_numbers(app, client):
    with app.app_context():
        public.choose(ANNA, "Anna")
    three = [("Anna", ANNA), ("Bob", BOB), ("Carl", CARL)]
    for seed, (kind, players, bots, options) in enumerate([
            ("babel", three[:2], (), {"sumerians": "top-run"}),
            ("babel", [three[2], three[0]], (), {"sumerians": "top-run"}),
            ("babylonia", three, (), {}),
            ("babel", [three[1], ("", "")], (None, "random"), {"sumerians": "top-run"})]):
        play_by_links(app, client, new_game(app, kind, players, bots=bots, options=options), seed)
    live = stored(app)
    assert len(live) == 7 and any(games == 2 for _, _, games in live.values())
    with app.app_context(), transaction():   # spoilt: the rebuild must compute them anew
        db.session.execute(update(Rating).values(mu=0.0, sigma=1.0, games=99))
    runner = app.test_cli_runner()
    out = runner.invoke(args=["ratings", "rebuild"])
    assert out.exit_code == 0 and "rated 4 finished rated games" in out.output
    assert stored(app) == live


def test_a_loss_on_time_counts_and_bars_rated_play_for_the_days_set(app, make_app, client):
    game = new_game(app, "babel", [("Anna", ANNA), ("Bob", BOB)], options={"sumerians": "top-run"},
                    first=0)
    play_by_links(app, client, game, seed=3, stop_at=2)
    with app.app_context():
        loaded = gamelog.load(game)
        seat = loaded.engine.to_act(loaded.state)[0].seat
        loser = [ANNA, BOB][seat]
        turns.time_out(game, seat, loaded.seq)
        assert result_of(app, game).reason == "timeout"
        mine = record.on_time(loser)
        assert (mine.lost_on_time, mine.missed, mine.left) == (1, 1, 0)
        assert mine.decisions >= 1 and mine.share == mine.decisions / (mine.decisions + 1)
        assert not record.may_play_rated(loser)
        assert record.may_play_rated([ANNA, BOB][1 - seat])
        assert record.may_play_rated(loser, now=utcnow() + timedelta(days=7, minutes=1))
    off = make_app(RATED_BAN_DAYS=0)
    with off.app_context():
        assert record.may_play_rated(loser)


@pytest.mark.parametrize("game", ["chess", "babel%00"])
def test_the_ladder_of_no_such_game_is_not_found(client, game):
    assert client.get(f"/ratings/{game}").status_code == 404
    assert client.get("/p/nobody").status_code == 404


def test_two_rated_games_ending_at_once_both_count(app):
    """Two results for the same players at once: each row is locked while a result moves it,
    so neither overwrites the other."""
    played = [new_game(app, "babel", [("Anna", ANNA), ("Bob", BOB)], options={"sumerians": "top-run"})
              for _ in range(2)]

    def resign(i: int) -> str:
        with app.app_context():
            return turns.resign(played[i], 0).id
    assert sorted(at_once(2, resign)) == sorted(played)
    once = expected([(1500.0, 350.0)] * 2, [2, 1])
    twice = expected(once, [2, 1])
    assert stored(app) == {(ANNA, "babel"): (*twice[0], 2), (BOB, "babel"): (*twice[1], 2)}
