"""How a player wants mail, chosen on his home, through the real SMTP server (`smtp`):
- a daily digest instead of a mail for every turn: turn mails are held in the outbox, one
  digest covers them, none is lost (going back to a mail per turn releases them);
- a short answer, in the game's thread, to a move he mailed in.

The clock is moved (the digest is told what time it is), never slept on."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from pbem.extensions import db
from pbem.games.babel.game import GAME
from pbem.jobs import digest
from pbem.play import turns
from pbem.players import settings
from pbem.store.models import PENDING, SENT, Mail
from pbem_web import ANNA, BOB, deliver, new_game, reply_to, text_of  # tests/helpers

NAMES = {ANNA: "Anna", BOB: "Bob"}
TURN_LINK = re.compile(r"http://pbem\.test(/t/[A-Za-z0-9_.\-]+)")


def first_turn(app, game_id: str, seat: int) -> str:
    from pbem.store import gamelog
    with app.app_context():
        hand = GAME.view(gamelog.load(game_id).state, seat)["players"][seat]["hand"]
    return f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"


def play(app, game_id: str, seat: int) -> None:
    """The seat's decision, as a random computer would make it (submitted as from the web)."""
    from pbem import bots
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game_id)
        assert loaded.decision_of(seat) is not None, (game_id, seat)
        text = bots.choose(loaded.engine, loaded.state.copy(), seat, "random", 7)
        turns.submit(game_id, seat, loaded.seq, text, turns.Origin(turns.WEB, client="192.0.2.1"))


def choose(app, address: str, mode: str, confirm: bool = False) -> None:
    with app.app_context():
        settings.change(address, "Europe/Berlin", "en", mode, confirm)


def statuses(app, address: str, kind: str = "turn") -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Mail.status).where(
            Mail.to_addr == address, Mail.kind == kind).order_by(Mail.id)))


def test_a_digest_player_gets_one_mail_a_day_for_all_games_waiting_for_him(app, smtp):
    choose(app, BOB, settings.DIGEST)
    games = [new_game(app), new_game(app, time_limit=3)]
    for game in games:   # Anna plays: Bob's turn in both
        play(app, game, 0)
    assert statuses(app, BOB) == [settings.HELD, settings.HELD]
    deliver(app)
    assert not [m for m in smtp.to(BOB) if "your turn" in m["Subject"]]   # held back
    now = datetime.now(UTC)
    with app.app_context():
        assert digest.run(now) == [BOB]
        assert digest.run(now + timedelta(hours=1)) == []   # one a day
    assert statuses(app, BOB) == [settings.DIGESTED, settings.DIGESTED]
    deliver(app)
    [mail] = [m for m in smtp.to(BOB) if m["Subject"].startswith("Today:")]
    assert mail["Subject"] == "Today: 2 games wait for your turn"
    text = text_of(mail)
    assert text.index("left, until") < text.index("no time limit")   # the deadline first
    assert "CET" in text or "CEST" in text                           # in his time zone
    links = TURN_LINK.findall(text)
    assert len(links) == 2
    assert all(len(line) <= 78 for line in text.splitlines() if "http" not in line)
    client = app.test_client()
    for link in links:   # each opens his live turn
        assert client.get(link, headers={"Accept": "application/json"}).get_json()["can_act"] is True
    # The next turn mail is held again, and waits a day for the next digest.
    before = len(statuses(app, BOB))
    play(app, games[0], 1)
    while len(statuses(app, BOB)) == before:   # Anna plays (discards, maybe) until Bob's turn
        play(app, games[0], 0)
    assert statuses(app, BOB)[-1] == settings.HELD
    with app.app_context():
        assert digest.run(now + timedelta(hours=2)) == []
        assert digest.run(now + timedelta(hours=24)) == [BOB]


def test_going_back_to_a_mail_per_turn_releases_the_held_mails(app, smtp):
    choose(app, BOB, settings.DIGEST)
    game = new_game(app)
    play(app, game, 0)
    assert statuses(app, BOB) == [settings.HELD]
    choose(app, BOB, settings.EACH)
    assert statuses(app, BOB) == [PENDING]
    deliver(app)
    assert statuses(app, BOB) == [SENT]
    assert [m for m in smtp.to(BOB) if m["Subject"] == "Babel with Anna: your turn, Bob"]


def test_a_digest_is_not_sent_when_nothing_waits_for_him_any_more(app, smtp):
    choose(app, BOB, settings.DIGEST)
    game = new_game(app)
    play(app, game, 0)
    play(app, game, 1)   # Bob played from his page before the digest went out
    with app.app_context():
        assert digest.run() == []
    assert statuses(app, BOB) == [settings.DIGESTED]
    deliver(app)
    assert not [m for m in smtp.to(BOB) if m["Subject"].startswith("Today:")]


def test_a_move_mailed_in_is_confirmed_in_its_thread_when_he_asked_for_it(app, smtp):
    from pbem.inbound.ingest import ingest_bytes
    choose(app, ANNA, settings.EACH, confirm=True)
    game = new_game(app)
    deliver(app)
    invite = smtp.to(ANNA)[-1]
    raw = reply_to(invite, first_turn(app, game, 0), NAMES)
    with app.app_context():
        assert ingest_bytes(raw).status == "applied"
    deliver(app)
    [answer] = [m for m in smtp.to(ANNA) if "your move was applied" in m["Subject"]]
    import email
    mine = email.message_from_bytes(raw)["Message-ID"]
    assert answer["In-Reply-To"] == mine
    assert mine in answer["References"] and f"<{game}.0@" in answer["References"]
    text = text_of(answer)
    assert "was applied:" in text and "Play your turn" not in text   # Bob's turn now
    assert all(len(line) <= 78 for line in text.splitlines() if "http" not in line)
    # Bob, who did not ask, hears nothing of his own moves but the next turn.
    bob_invite = [m for m in smtp.to(BOB) if "your turn" in m["Subject"]][-1]
    smtp.clear()
    with app.app_context():
        assert ingest_bytes(reply_to(bob_invite, first_turn(app, game, 1), NAMES)).status == "applied"
    deliver(app)
    assert not [m for m in smtp.to(BOB) if "applied" in m["Subject"]]
    assert [m for m in smtp.to(ANNA) if "your turn" in m["Subject"]]


def test_the_remind_command_sends_the_digest_too_for_servers_run_from_cron(app, smtp):
    choose(app, BOB, settings.DIGEST)
    play(app, new_game(app), 0)
    result = app.test_cli_runner().invoke(args=["remind"])
    assert result.exit_code == 0, result.output
    assert statuses(app, BOB) == [settings.DIGESTED]
    deliver(app)
    assert [m for m in smtp.to(BOB) if m["Subject"] == "Today: your turn in Babel with Anna"]


def test_a_digest_player_reads_the_words_his_held_turn_mails_did_not_carry(app, smtp):
    choose(app, BOB, settings.DIGEST)
    game = new_game(app)
    with app.app_context():
        from pbem import bots
        from pbem.store import gamelog
        loaded = gamelog.load(game)
        text = bots.choose(loaded.engine, loaded.state.copy(), 0, "random", 7)
        turns.submit(game, 0, loaded.seq, text, turns.Origin(turns.WEB, client="192.0.2.1"),
                     message="Good luck with the Hittites, Bob")
    with app.app_context():
        assert digest.run(datetime.now(UTC)) == [BOB]
    deliver(app)
    [today] = [m for m in smtp.to(BOB) if m["Subject"].startswith("Today")]
    assert "Anna said:" in text_of(today) and "Good luck with the Hittites, Bob" in text_of(today)


def test_a_turn_mail_held_after_its_player_went_back_to_a_mail_per_turn_is_sent(app, smtp):
    """A turn's transaction that did not see his change holds the mail by mistake (PostgreSQL:
    it read the setting before the change committed); the worker's next round sends it."""
    game = new_game(app)
    play(app, game, 0)
    with app.app_context():
        db.session.execute(update(Mail).where(Mail.to_addr == BOB, Mail.kind == "turn")
                           .values(status=settings.HELD))
        db.session.commit()
        digest.run(datetime.now(UTC))
    assert statuses(app, BOB) and set(statuses(app, BOB)) <= {PENDING, SENT}
