"""What a submission reads: each row it needs once per transaction (the game, its seats, its
clock, an address's settings), and never what an earlier transaction read (issue 14)."""

from __future__ import annotations

from sqlalchemy import event, select, text, update
from tests.web.test_turn import first_turn, hand_of  # the turn tests' helpers

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.play import addresses, turns
from pbem.policy import clocks
from pbem.store import gamelog
from pbem.store.models import Clock, Mail, Seat, Takeover
from pbem.store.transaction import writing

ANNA, BOB, ROBERT = "anna@example.org", "bob@example.org", "robert@example.org"
JSON = {"Accept": "application/json"}
#: A first turn submitted from the web: the game and the page's facts; the seats with the
#: clock; two rate limits (a lock, a count and a row for both); the event; the game's vacations
#: (is Anna back; who is away, for Bob's mail); Bob's turn mail (its facts: his seat link,
#: whether the game has messages, how many such games he plays, his settings; the mail); then
#: the page after it (its facts). 35 before the rows were read once, 19 before the limits were
#: counted together and the clock and the vacations read with what else asked for them, 14
#: before a mail's facts were read in one round trip, 11 before the address's settings were
#: read with them. The index of what is due costs 6 more at the commit (`pbem.policy.due`: the
#: game's rows deleted; who owes, which seats are computers', whether it has a time bank, the
#: reminders sent this turn; the new rows), so that no worker's round reads every game; and on
#: PostgreSQL one more, the NOTIFY that wakes the mail senders (`pbem.mail.wakeup`). Bob's
#: channels beside mail are counted with his mail's facts (`pbem.players.channels`): nothing
#: more when he has none.
SUBMIT_STATEMENTS = 17


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


def test_a_textual_write_forgets_the_reads_of_the_tables_it_names_only(app, actions):
    """Plain SQL that writes says which tables (`transaction.writing`): a rate limit counted in
    a submission keeps its seats; a write of the seats reads them anew; one that names no
    tables forgets every read."""
    game = actions.create(first=0)

    def written(statement) -> int:
        return statements(app, lambda: (db.session.execute(statement), gamelog.address_of(game, 0)))[1]
    with app.app_context():
        assert gamelog.address_of(game, 0) == ANNA   # read, and kept
        assert written(writing(text("UPDATE rate_locks SET at = at"), "rate_locks")) == 1
        assert written(writing(text("UPDATE seats SET bot = bot"), "seats")) == 2
        assert written(text("UPDATE rate_locks SET at = at")) == 2
        assert written(writing(text("UPDATE rate_locks SET at = at"))) == 2   # (names none: all)


def test_a_row_added_in_the_transaction_is_read_anew_before_it_is_flushed(app, actions):
    """A kept read answers without a query, which would have flushed the row first: the row
    added to the session forgets its table's reads at once."""
    game = actions.create(first=0)
    with app.app_context():
        assert gamelog.takeovers(game) == {}   # read, and kept
        db.session.add(Takeover(game_id=game, seat=1, seq=0, reason="resigned", level="normal"))
        assert list(gamelog.takeovers(game)) == [1]
        db.session.rollback()


def test_a_game_s_time_bank_is_read_with_its_seats_and_anew_once_written(app, actions):
    game = actions.create(first=0)
    with app.app_context():
        _, made = statements(app, lambda: (gamelog.bot_of(game, 0), clocks.of_game(game, None),
                                           gamelog.address_of(game, 1)))
        assert made == 1 and clocks.of_game(game, None).kind == clocks.NONE
        db.session.add(Clock(game_id=game, start_days=3, increment_days=1, cap_days=5))
        assert clocks.of_game(game, None) == clocks.bank(3, 1, 5)
        db.session.rollback()


def test_an_address_s_settings_read_with_a_mail_s_facts_are_what_settings_of_answers(app, actions):
    """A mail's facts read its address's settings (`settings.read_with`): kept for the
    transaction, unless it read them already, or the session holds the row (here changed and
    not written yet), which `settings.of` answers from; the next transaction reads anew."""
    from pbem.players import settings
    from pbem.store.models import AddressSettings
    row = (BOB, "Europe/Prague", "cs", settings.DIGEST, 1, "n1", "5,6", "22:00", "07:00")

    def read_with(address: str, values: tuple) -> None:   # as the facts do, in a transaction
        db.session.execute(text("SELECT 1"))
        settings.read_with(address, values)
    with app.app_context():
        _, made = statements(app, lambda: read_with(" Bob@Example.org", row))
        assert made == 1 and settings.of(BOB) == settings.Settings(
            BOB, "Europe/Prague", "cs", settings.DIGEST, True, "n1")
        assert settings.of(BOB).rest.days == {5, 6}   # his rest too (`rest.of` answers it)
        read_with(BOB, (None,) * 9)   # read already: that read stands
        assert settings.of(BOB).language == "cs"
        db.session.rollback()
        read_with(BOB, (None,) * 9)   # no row: the defaults
        assert settings.of(BOB) == settings.Settings(BOB)
        db.session.rollback()
        db.session.add(AddressSettings(address=BOB, home_nonce="", time_zone="UTC",
                                       language="de", mail_mode=settings.EACH,
                                       confirm_replies=False))
        assert db.session.execute(   # a new row: plain SQL (the facts) flushes it first
            text("SELECT language FROM address_settings WHERE address = :a"), {"a": BOB}).scalar() == "de"
        db.session.commit()
        with db.session.no_autoflush:
            changed = db.session.get(AddressSettings, BOB)
            changed.language = "cs"   # changed in the session, not written yet
            read_with(BOB, (BOB, "UTC", "de", settings.EACH, 0, ""))
            assert settings.of(BOB).language == "cs"
        db.session.rollback()
