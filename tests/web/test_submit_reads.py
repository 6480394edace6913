"""What a submission and a page read: as many statements as their budgets allow, each row as
it is now (never what an earlier transaction, or this one before a write, read)."""

from __future__ import annotations

from sqlalchemy import event, select, update
from tests.web.test_turn import first_turn, hand_of  # the turn tests' helpers

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.play import addresses, turns
from pbem.policy import clocks
from pbem.store import gamelog
from pbem.store.models import Clock, Mail, Seat, Takeover

ANNA, BOB, ROBERT = "anna@example.org", "bob@example.org", "robert@example.org"
JSON = {"Accept": "application/json"}
#: A first turn submitted from the web (JSON): the game's new events and the page's facts; the
#: seats (with the time bank) once for the checks and once for the decision's transaction, its
#: mails and its dues (`gamelog.seats_read_once`: issue 27 removed the cache of every read
#: within a transaction, at 17 statements then, and every read fresh made 33); two rate limits
#: (a lock, a count and a row for both); the event; the game's vacations (his return); Bob's
#: turn mail (its facts, his settings twice, the mail); the index of what is due (5, at the
#: commit: `pbem.policy.due`); the page's facts again for the answer (a message said with the
#: decision shows in it). On PostgreSQL the mail's `deliver` job besides, inserted by
#: procrastinate on the transaction's connection (its own cursor: not counted here).
SUBMIT_STATEMENTS = 19
#: A turn page: the game's new events (the replay cache holds the rest), and the seat's facts.
PAGE_STATEMENTS = 2


def statements(app, request) -> tuple[object, int]:
    """What `request()` returned, and how many SQL statements it made."""
    count = [0]

    def counted(*args):
        count[0] += 1
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", counted)
    try:
        answer = request()
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    return answer, count[0]


def test_a_submission_through_the_web_reads_each_row_once(app, client, actions):
    game = actions.create(first=0)
    link = actions.links(ANNA)["turn"]
    steps = first_turn(hand_of(client, link))   # (the game viewed: in the replay cache)
    response, made = statements(app, lambda: client.post(link, json={"steps": steps},
                                                         headers=JSON))
    assert response.status_code == 200, response.data
    assert actions.event_count(game) == 1 and "your turn" in actions.last_mail(BOB)["Subject"]
    assert made <= SUBMIT_STATEMENTS
    page, made = statements(app, lambda: client.get(link))
    assert page.status_code == 200 and made <= PAGE_STATEMENTS


def _mailed_to(app, game: str) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Mail.to_addr).where(Mail.game_id == game)
                                       .order_by(Mail.id)))


def test_an_address_corrected_between_two_transactions_gets_the_next_mail(app, actions):
    game = actions.create(first=0)
    with app.app_context():   # one session for both transactions, as a long-lived process has
        loaded = gamelog.load(game)
        assert gamelog.address_of(game, 1) == BOB   # read in this transaction...
        db.session.commit()                       # ...which ends
        with db.engine.begin() as operator:       # the operator corrects it, from elsewhere
            operator.execute(update(Seat).where(Seat.game_id == game, Seat.seat == 1)
                             .values(email=ROBERT))
        text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
        turns.submit(game, 0, 0, text, turns.Origin(turns.OPERATOR))
    assert _mailed_to(app, game)[-1] == ROBERT


def test_a_seat_written_in_the_transaction_is_read_anew_in_it(app, actions):
    game = actions.create(first=0)
    with app.app_context():
        assert gamelog.address_of(game, 1) == BOB   # read in the transaction set_address goes on in
        addresses.set_address(game, 1, ROBERT)
    assert _mailed_to(app, game)[-1] == ROBERT    # his new links, to the corrected address


def test_a_row_added_in_the_transaction_is_read_anew_before_it_is_flushed(app, actions):
    game = actions.create(first=0)
    with app.app_context():
        assert gamelog.takeovers(game) == {}   # read, and kept
        db.session.add(Takeover(game_id=game, seat=1, seq=0, reason="resigned", level="normal"))
        assert list(gamelog.takeovers(game)) == [1]
        db.session.rollback()


def test_a_game_s_time_bank_is_read_anew_once_written(app, actions):
    game = actions.create(first=0)
    with app.app_context():
        assert clocks.of_game(game, None).kind == clocks.NONE
        db.session.add(Clock(game_id=game, start_days=3, increment_days=1, cap_days=5))
        assert clocks.of_game(game, None) == clocks.bank(3, 1, 5)
        db.session.rollback()


def test_a_block_that_writes_no_seat_reads_them_once_and_the_next_reads_anew(app, actions):
    game, other = actions.create(first=0), actions.create(first=0)
    with app.app_context():
        def asks() -> list:
            return [gamelog.address_of(game, 1), gamelog.bot_of(game, 0), gamelog.takeovers(game),
                    clocks.of_game(game, None).kind, gamelog.address_of(other, 1)]
        with gamelog.seats_read_once(game):
            answers, made = statements(app, asks)
        assert answers == [BOB, None, {}, clocks.NONE, BOB]
        assert made == 2   # this game's seats once; the other game's, as outside a block
        db.session.execute(update(Seat).where(Seat.game_id == game, Seat.seat == 1)
                           .values(email=ROBERT))
        with gamelog.seats_read_once(game):
            assert gamelog.address_of(game, 1) == ROBERT
        assert gamelog.address_of(game, 1) == ROBERT
        db.session.rollback()
