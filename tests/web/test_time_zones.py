"""Deadlines in each player's own time zone (his home's setting; UTC, said so, without one):
in turn mails, reminders, and on the seat and turn pages. One function formats them all
(`settings.local_deadline`); the JSON API keeps UTC in `deadline` and adds `deadline_local`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from tests.web.test_reminders import play, reminder_mails, seat_path, start_at, turn_path  # its helpers

from pbem.games.rng import Rng
from pbem.jobs import reminders
from pbem.players import settings
from pbem.policy import deadlines
from pbem.store import gamelog
from pbem_web import ANNA, BOB, create, deliver, html_of, text_of  # tests/helpers

BERLIN = ZoneInfo("Europe/Berlin")
JSON = {"Accept": "application/json"}
DAY = timedelta(days=1)


def in_berlin(app) -> None:
    with app.app_context():
        settings.change(ANNA, "Europe/Berlin", "en", settings.EACH, False)


def deadline(app, game: str, seat: int) -> datetime:
    with app.app_context():
        found = deadlines.deadline(gamelog.load(game), seat)
    assert found is not None
    return found


def berlin(moment: datetime) -> str:
    local = moment.astimezone(BERLIN)
    assert local.tzname() in ("CET", "CEST")
    return f"{local:%a %d %b %Y, %H:%M} {local.tzname()}"


def utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%a %d %b %Y, %H:%M} UTC"


def narrow(text: str) -> None:
    """The deadline's lines of a mail, read at 80 columns: none longer than 78 (a turn's
    notation, quoted as played, may be longer: not this test's matter)."""
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if "runs out" in line]
    assert at, text
    shown = [line for i in at for line in lines[i:i + 2]]
    assert all(len(line) <= 78 or "://" in line for line in shown), shown


def turn_mails(app, smtp, address: str) -> list:
    deliver(app)
    return [m for m in smtp.to(address) if "your turn" in m["Subject"]]


def marked(moment, words) -> str:
    """A deadline as a page prints it: in the player's zone, marked for the browser's own."""
    iso = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")
    return f'<time class="local" datetime="{iso}">{words(moment)}</time>'


def test_turn_mails_and_pages_show_each_player_s_deadline_in_his_own_time_zone(app, client, smtp):
    in_berlin(app)
    game = create(client, first=0, time_limit=3)
    annas = deadline(app, game, 0)
    [invitation] = turn_mails(app, smtp, ANNA)
    text = text_of(invitation)
    assert f"Your time for this turn runs out on {berlin(annas)}\n(3 days a turn)." in text
    assert "UTC" not in text
    assert f"runs out on <strong>{berlin(annas)}</strong> (3 days a turn)" in html_of(invitation)
    narrow(text)
    # Her pages say it in her time; the JSON keeps UTC beside it.
    for path in (turn_path(app, game, 0), seat_path(app, game, 0)):
        page = client.get(path).get_data(as_text=True)
        # (in her zone: the browser adds no time of its own; in UTC it does, below)
        assert f"Your time for this turn runs out on <strong>{berlin(annas)}</strong>" in page, path
    data = client.get(turn_path(app, game, 0), headers=JSON).get_json()
    assert data["deadline"] == f"{annas.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    assert data["deadline_local"] == berlin(annas)

    # Bob chose no time zone: his mail and page say UTC.
    play(app, client, game, Rng(1))
    bobs = deadline(app, game, 1)
    [bob_turn] = [m for m in turn_mails(app, smtp, BOB) if "your turn, Bob" in m["Subject"]]
    assert f"Your time for this turn runs out on {utc(bobs)}\n(3 days a turn)." in text_of(bob_turn)
    narrow(text_of(bob_turn))
    page = client.get(turn_path(app, game, 1)).get_data(as_text=True)
    assert f"runs out on <strong>{marked(bobs, utc)}</strong>" in page

    # Anna's next turn mail: in Berlin's time again.
    play(app, client, game, Rng(2))
    again = deadline(app, game, 0)
    [*_, anna_turn] = turn_mails(app, smtp, ANNA)
    assert anna_turn["Subject"].endswith("your turn, Anna")
    assert f"Your time for this turn runs out on {berlin(again)}\n" in text_of(anna_turn)


def test_reminders_show_the_deadline_in_summer_time_or_in_utc(app, client, smtp):
    in_berlin(app)
    annas_game = create(client, first=0, time_limit=7)                     # Anna to move
    bobs_game = create(client, names=("Bob", "Anna"), emails=(BOB, ANNA), first=0, time_limit=7)
    for game in (annas_game, bobs_game):
        start_at(app, game, datetime(2026, 7, 1, 10, 0, tzinfo=UTC))
    with app.app_context():
        report = reminders.run(datetime(2026, 7, 3, 10, 0, tzinfo=UTC))
    assert sorted(report.reminded) == [ANNA, BOB] and report.timeouts == []
    [annas] = reminder_mails(app, smtp, ANNA)
    text = text_of(annas)
    assert "  Your time runs out Wed 08 Jul 2026, 12:00 CEST\n" in text
    assert "your time runs out Wed 08 Jul 2026, 12:00 CEST" in html_of(annas)
    narrow(text)
    [bob_s] = reminder_mails(app, smtp, BOB)
    assert "  Your time runs out Wed 08 Jul 2026, 10:00 UTC\n" in text_of(bob_s)
    narrow(text_of(bob_s))


def test_a_winter_deadline_is_in_cet(app, client, smtp):
    in_berlin(app)
    game = create(client, first=0, time_limit=3)
    start_at(app, game, datetime(2026, 12, 20, 9, 15, tzinfo=UTC))
    with app.app_context():
        reminders.run(datetime(2026, 12, 22, 9, 15, tzinfo=UTC))
    [mail] = reminder_mails(app, smtp, ANNA)
    assert "  Your time runs out Wed 23 Dec 2026, 10:15 CET\n" in text_of(mail)
