"""Several rate limits counted at once (`limits.take_all`): a submission is counted per client
and per seat's address in three statements, not six, and still exactly under concurrent
requests (on SQLite and on PostgreSQL, as the suite runs both)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import event, func, select, text

from pbem.errors import RateLimited
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.games.rng import Rng
from pbem.play import turns
from pbem.policy import limits
from pbem.store import gamelog
from pbem.store.models import RateEvent, RateLock, utcnow
from pbem.store.transaction import transaction
from pbem_web import at_once  # tests/helpers

ANNA = "anna@example.org"
#: Two limits of their own, told apart by their words.
WIDE = limits.Limit("test-wide", 5, timedelta(minutes=1), phrase("The wide limit is reached."))
NARROW = limits.Limit("test-narrow", 2, timedelta(minutes=1), phrase("The narrow limit is reached."))


def counted(key: str) -> int:
    return db.session.scalar(select(func.count()).select_from(RateEvent).where(RateEvent.key == key))


def refusal(counted_under) -> str:
    with pytest.raises(RateLimited) as refused:
        with transaction():
            limits.take_all(counted_under)
    return str(refused.value.message)


def test_two_limits_are_counted_in_three_statements(app):
    said: list[str] = []

    def heard(conn, cursor, statement, *args):
        said.append(statement)
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", heard)
        try:
            with transaction():
                limits.take_all([(WIDE, "x"), (NARROW, "y")])
        finally:
            event.remove(db.engine, "before_cursor_execute", heard)
        assert len(said) == 3, said
        assert counted("test-wide:x") == 1 and counted("test-narrow:y") == 1
        assert set(db.session.scalars(select(RateLock.key))) == {"test-wide:x", "test-narrow:y"}


@pytest.mark.parametrize("order", [1, -1])
def test_the_limit_reached_refuses_in_its_words_and_nothing_is_counted(app, order):
    """Whichever order the limits are given in, the one reached refuses; the other counts
    nothing either (the refused request is not counted under any key)."""
    pair = [(WIDE, "x"), (NARROW, "y")][::order]
    with app.app_context():
        for _ in range(2):
            with transaction():
                limits.take_all(pair)
        assert refusal(pair) == "The narrow limit is reached."
        assert counted("test-wide:x") == 2 and counted("test-narrow:y") == 2
        # Another narrow key: the wide one counts on, and is reached in its own words.
        for who in ("a", "b", "c"):
            with transaction():
                limits.take_all([(WIDE, "x"), (NARROW, who)][::order])
        assert refusal([(WIDE, "x"), (NARROW, "d")][::order]) == "The wide limit is reached."
        assert counted("test-wide:x") == 5 and counted("test-narrow:d") == 0


def test_when_both_are_reached_the_first_given_refuses(app):
    other = limits.Limit("test-other", 2, timedelta(minutes=1), phrase("The other limit."))
    with app.app_context():
        for _ in range(2):
            with transaction():
                limits.take_all([(NARROW, "x"), (other, "x")])
        assert refusal([(other, "x"), (NARROW, "x")]) == "The other limit."
        assert refusal([(NARROW, "x"), (other, "x")]) == "The narrow limit is reached."


def test_a_key_given_twice_counts_as_two_requests(app):
    with app.app_context():
        with transaction():
            limits.take_all([(NARROW, "x"), (NARROW, "x")])
        assert counted("test-narrow:x") == 2
        assert refusal([(NARROW, "y"), (NARROW, "y"), (NARROW, "y")]) == "The narrow limit is reached."
        assert counted("test-narrow:y") == 0


def test_the_window_slides_for_each_key(app):
    with app.app_context():
        for _ in range(2):
            with transaction():
                limits.take_all([(WIDE, "x"), (NARROW, "y")])
        later = limits.utcnow() + timedelta(minutes=1)   # a whole window on: none counts
        with transaction():
            limits.take_all([(WIDE, "x"), (NARROW, "y")], now=later)
        assert limits.used(NARROW, "y", later) == 1 and limits.used(WIDE, "x", later) == 1


def hammer(app, n: int, counted_under) -> list[str]:
    """n transactions at once, each counting `counted_under(i)`: "passed" or "refused" each."""

    def one(i: int) -> str:
        with app.app_context():
            try:
                with transaction():
                    limits.take_all(counted_under(i))
                return "passed"
            except RateLimited:
                return "refused"
            except Exception as error:   # a deadlock, a lock timeout: the test says which
                return repr(error)
            finally:
                db.session.remove()
    return at_once(n, one)


def test_forty_simultaneous_pairs_pass_a_limit_of_twenty_exactly(app):
    """Forty requests for one pair of keys, half of them naming the pair the other way round
    (the keys are locked in one order whatever the order given: no deadlock)."""
    wide = limits.Limit("test-wide", 30, timedelta(minutes=1), phrase("The wide limit is reached."))
    narrow = limits.Limit("test-narrow", 20, timedelta(minutes=1),
                          phrase("The narrow limit is reached."))
    results = hammer(app, 40, lambda i: [(wide, "x"), (narrow, "y")][::1 if i % 2 else -1])
    assert sorted(results) == ["passed"] * 20 + ["refused"] * 20
    with app.app_context():
        assert counted("test-wide:x") == 20 and counted("test-narrow:y") == 20


@pytest.mark.serial   # forty writers at once, each given 2.5 s: another test's load would time them out
def test_forty_clients_for_one_address_pass_its_limit_of_twenty_exactly(app):
    """As submissions are counted: a key per client, all of them for one address."""
    address = limits.Limit("test-address", 20, timedelta(minutes=1), phrase("The address."))
    client = limits.Limit("test-client", 1, timedelta(minutes=1), phrase("The client."))
    results = hammer(app, 40, lambda i: [(client, f"10.0.0.{i}"), (address, ANNA)])
    assert sorted(results) == ["passed"] * 20 + ["refused"] * 20
    with app.app_context():
        assert counted(f"test-address:{ANNA}") == 20
        assert db.session.scalar(select(func.count()).select_from(RateEvent)
                                 .where(RateEvent.key.like("test-client:%"))) == 20


def test_a_submission_refused_per_address_counts_nothing_per_client(make_app):
    app = make_app(SUBMISSIONS_PER_CLIENT_PER_MINUTE=100, SUBMISSIONS_PER_ADDRESS_PER_MINUTE=1)
    web = turns.Origin(turns.WEB, client="192.0.2.1")
    with app.app_context():
        games = [turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", "bob@example.org")],
                                              {}, 0)).id for _ in range(2)]
        for game in games:
            loaded = gamelog.load(game)
            text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
            if game == games[0]:
                turns.submit(game, 0, 0, text, web)
            else:
                with pytest.raises(RateLimited):
                    turns.submit(game, 0, 0, text, web)
        assert counted("submit-client:192.0.2.1") == 1 and counted(f"submit-address:{ANNA}") == 1
        assert gamelog.load(games[1]).seq == 0


def test_pruning_leaves_a_key_a_request_holds_and_never_waits_for_it(app, database_url):
    """Pruning old keys while a request holds one of them locked (its count not yet
    committed): the held key is left for the next round, the others go, and pruning does not
    wait (waiting could deadlock: the request may want a key pruning holds)."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite lets one writer in at a time: pruning waits for the request's commit")
    old = utcnow() - limits.KEEP - timedelta(hours=1)
    with app.app_context():
        db.session.add_all([RateLock(key="test-wide:a", at=old), RateLock(key="test-wide:b", at=old)])
        db.session.commit()
    holding, finish = threading.Event(), threading.Event()

    def request():
        with app.app_context():
            try:
                with transaction():
                    limits.take(WIDE, "a")   # locks the key "test-wide:a" until it commits
                    holding.set()
                    finish.wait(10)
            finally:
                db.session.remove()
    thread = threading.Thread(target=request)
    thread.start()
    try:
        assert holding.wait(10)
        with app.app_context():
            with transaction():
                db.session.execute(text("SET LOCAL lock_timeout = '2s'"))   # waiting fails the test
                limits.prune()
    finally:
        finish.set()
        thread.join(10)
    with app.app_context():
        assert set(db.session.scalars(select(RateLock.key))) == {"test-wide:a"}
        assert counted("test-wide:a") == 1
