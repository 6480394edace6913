"""Rest days and quiet hours (`pbem.policy.rest`), through the server: the home sets them, a
deadline moves on over a weekend of rest as over a vacation (in the player's own time zone,
summer time ending on it too), a game that forbids rest days ignores them, the others see why
a deadline is late, and no reminder goes out in quiet hours: the dues index holds its end.

Moments are chosen, never waited for. Runs on SQLite, and on PostgreSQL too when
PBEM_TEST_DATABASE_URL is set."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update
from tests.web.test_home import home_path  # its helpers

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.jobs import reminders
from pbem.play import turns
from pbem.players import settings
from pbem.policy import due, rest
from pbem.policy.deadlines import utc, waiting
from pbem.store.models import AddressSettings, Due, Game, Mail, Reminder
from pbem.store.transaction import transaction
from pbem.views import homeview
from pbem.web import lobby
from pbem_web import seat_path  # tests/helpers

ANNA, BOB = "anna@example.org", "bob@example.org"
PRAGUE, AUCKLAND = ZoneInfo("Europe/Prague"), ZoneInfo("Pacific/Auckland")
WEEKEND = (5, 6)   # Saturday, Sunday


def local(zone: ZoneInfo, *when: int) -> datetime:
    return datetime(*when, tzinfo=zone).astimezone(UTC)   # type: ignore[misc]


def game_at(app, started: datetime, limit: int | None = 3, rest_days: bool = True,
            first: int = 0) -> str:
    """A game of Babel, Anna to move first, started at `started`."""
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"},
                          first, limit, rest_days=rest_days)
        game_id = turns.create_game(spec).id
        with transaction():
            db.session.execute(update(Game).where(Game.id == game_id).values(created_at=started))
            due.refresh([game_id])   # (an UPDATE by hand: no ORM row for the hooks to see)
    return game_id


def resting(app, address: str, zone: str, days=WEEKEND, quiet=("", "")) -> None:
    with app.app_context():
        settings.change(address, zone, "en", settings.EACH, False)
        settings.change_rest(address, days, *quiet)


def deadline_of(app, game_id: str, now: datetime) -> homeview.Entry:
    with app.app_context():
        [entry] = [e for e in homeview.build(ANNA, now).yours if e.game == game_id]
        [w] = [w for w in waiting(game_id) if w.seat == 0]
        assert w.deadline == entry.deadline   # the worker's deadline is the home's
        assert due.disagreements() == []      # and the index holds it
    return entry


def test_a_weekend_of_rest_moves_a_deadline_on_by_the_weekend_summer_time_ending_on_it(app):
    resting(app, ANNA, "Europe/Prague")
    # Thursday 22 Oct 2026, 10:00 in Prague; 3 days a turn: Thursday 10:00 to Saturday 00:00
    # is 38 hours, the weekend (49 hours: the clocks go back on Sunday) stands still, and the
    # other 34 hours end on Tuesday at 10:00, Prague time (CET by then).
    game = game_at(app, local(PRAGUE, 2026, 10, 22, 10))
    entry = deadline_of(app, game, local(PRAGUE, 2026, 10, 22, 12))
    assert entry.deadline == local(PRAGUE, 2026, 10, 27, 10)
    assert entry.after_rest
    with app.app_context():
        assert entry.deadline_local == "Tue 27 Oct 2026, 10:00 CET"
    # Without rest days: 72 hours from the turn's start (09:00 on Sunday, CET).
    with app.app_context():
        settings.change_rest(ANNA, [], "", "")
    plain = deadline_of(app, game, local(PRAGUE, 2026, 10, 22, 12))
    assert plain.deadline == local(PRAGUE, 2026, 10, 25, 9) and not plain.after_rest


def test_rest_days_are_his_days_in_his_time_zone(app):
    # Friday 20 Nov 2026, 20:00 UTC is already Saturday 09:00 in Auckland: a day a turn.
    started = datetime(2026, 11, 20, 20, tzinfo=UTC)
    resting(app, ANNA, "Pacific/Auckland")
    game = game_at(app, started, limit=1)
    # Her Saturday and Sunday end on Monday 00:00 in Auckland (Sunday 11:00 UTC): a day later.
    assert deadline_of(app, game, started).deadline == local(AUCKLAND, 2026, 11, 24, 0)
    with app.app_context():
        settings.change(ANNA, "UTC", "en", settings.EACH, False)   # the same days, in UTC
    # Friday 20:00 to midnight, then Monday 00:00 to 20:00.
    assert deadline_of(app, game, started).deadline == datetime(2026, 11, 23, 20, tzinfo=UTC)


def test_a_game_that_forbids_rest_days_runs_his_clock_through_them(app, client):
    resting(app, ANNA, "Europe/Prague")
    started = local(PRAGUE, 2026, 10, 22, 10)
    strict = game_at(app, started, rest_days=False)
    entry = deadline_of(app, strict, started)
    assert entry.deadline == started + timedelta(days=3) and not entry.after_rest
    with app.app_context():
        assert db.session.get(Game, strict).rest_days is False
    # The lobby's box says the same (a creator's JSON too).
    spec = turns.Spec.from_json("babel", turns.Spec("babel", [], {}, rest_days=False).to_json())
    assert spec.rest_days is False
    assert turns.Spec.from_json("babel", {"players": [], "options": {}}).rest_days is True
    form = {"game": "babel", "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB}
    with app.test_request_context():
        assert lobby.spec_from({**form, "no_rest_days": "on"}).rest_days is False   # the box
        assert lobby.spec_from({**form, "rest_days": False}).rest_days is False     # JSON
        assert lobby.spec_from(form).rest_days is True


def test_the_others_see_that_his_deadline_falls_after_his_rest_days(app, client):
    resting(app, ANNA, "Europe/Prague")
    game = game_at(app, datetime.now(UTC))
    page = client.get(seat_path(app, game, 1)).get_data(as_text=True)   # Bob's page
    said = re.search(r'<p class="resting">([^<]*)</p>', page)
    assert said and "Anna's time runs out" in said.group(1)
    assert "Saturday and Sunday" in said.group(1)
    # His JSON says it too, for a program of his.
    [rest] = client.get(seat_path(app, game, 1), headers={"Accept": "application/json"}).get_json()["resting"]
    assert (rest["seat"], rest["name"], rest["days"]) == (0, "Anna", "Saturday and Sunday")
    assert rest["deadline"].endswith(" UTC")
    anna = client.get(seat_path(app, game, 0)).get_data(as_text=True)
    assert 'class="resting"' not in anna            # her own deadline says it on her home
    strict = game_at(app, datetime.now(UTC), rest_days=False)
    assert 'class="resting"' not in client.get(seat_path(app, strict, 1)).get_data(as_text=True)


def test_no_reminder_in_quiet_hours_it_waits_for_their_end(app, smtp):
    app.config["REMIND_AFTER_HOURS"] = 48
    resting(app, ANNA, "Europe/Prague", days=(), quiet=("22:00", "07:00"))
    # No clock: her reminder is due 48 hours after the start, Saturday 23:00 in Prague.
    started = local(PRAGUE, 2026, 11, 12, 23)
    game = game_at(app, started, limit=None)
    with app.app_context():
        [row] = db.session.scalars(select(Due).where(Due.game_id == game)).all()
        assert utc(row.due_at) == local(PRAGUE, 2026, 11, 15, 7)   # the end of her quiet hours
        reminders.run(local(PRAGUE, 2026, 11, 14, 23, 30))          # in them: nothing is due
        assert db.session.scalars(select(Reminder)).all() == []
        reminders.run(local(PRAGUE, 2026, 11, 15, 22, 30))   # a late round, in the next ones
        assert db.session.scalars(select(Reminder)).all() == []
        reminders.run(local(PRAGUE, 2026, 11, 16, 7, 1))
        [sent] = db.session.scalars(select(Reminder)).all()
        assert sent.kind == due.WAITING
        assert db.session.scalars(select(Mail).where(Mail.to_addr == ANNA,
                                                     Mail.kind == "reminder")).all()
        assert due.disagreements() == []


def test_a_warning_that_would_come_after_the_deadline_goes_before_the_quiet_hours(app):
    app.config["REMIND_BEFORE_HOURS"] = 1
    resting(app, ANNA, "Europe/Prague", days=(), quiet=("22:00", "07:00"))
    # A day a turn from Monday 06:00: the deadline is Tuesday 06:00, in her quiet hours; its
    # warning (05:00) would wait for 07:00, after it: it goes out at 21:59 on Monday.
    game = game_at(app, local(PRAGUE, 2026, 11, 16, 6), limit=1)
    with app.app_context():
        [w] = [w for w in waiting(game) if w.seat == 0]
        times = due.reminder_times(w, *due.windows())
    assert times[due.DEADLINE] == local(PRAGUE, 2026, 11, 16, 21, 59)
    assert times[due.WAITING] == local(PRAGUE, 2026, 11, 18, 7)     # (Wednesday 06:00: quiet)


def test_the_home_sets_rest_days_and_quiet_hours_and_refuses_what_is_wrong(app, client):
    path = home_path(app, ANNA)
    page = client.get(path).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    assert 'name="rest_day" value="5"' in page and 'name="quiet_from"' in page
    answer = client.post(path + "/rest", data={"csrf": csrf, "rest_day": ["5", "6"],
                                               "quiet_from": "22:30", "quiet_until": "06:45"})
    assert answer.status_code == 303 and answer.location.endswith("?saved=rest#rest")
    home = client.get(path, headers={"Accept": "application/json"}).get_json()
    assert home["rest"] == {"days": [5, 6], "quiet": ["22:30", "06:45"]}
    for bad in ({"rest_day": ["0", "1", "2", "3"]}, {"rest_day": ["7"]}, {"rest_day": ["x"]},
                {"quiet_from": "25:00", "quiet_until": "07:00"},
                {"quiet_from": "22:00", "quiet_until": ""},
                {"quiet_from": "07:00", "quiet_until": "07:00"}):
        refused = client.post(path + "/rest", data={"csrf": csrf, **bad})
        assert refused.status_code == 400, bad
        assert 'class="error"' in refused.get_data(as_text=True) or "error" in refused.get_data(as_text=True)
    assert client.post(path + "/rest", data={"rest_day": ["1"]}).status_code == 403   # no csrf
    with app.app_context():   # nothing refused was written
        row = db.session.get(AddressSettings, ANNA)
        assert (row.rest_days, row.quiet_from, row.quiet_until) == ("5,6", "22:30", "06:45")
    assert client.post(path + "/rest", json={"csrf": csrf, "rest_days": [6]}).get_json()["rest"] == {
        "days": [6], "quiet": None}


@pytest.mark.parametrize("days, quiet", [([0, 1, 2, 3], ("", "")), ([9], ("", "")),
                                         ([], ("22:00", "")), ([], ("7:00", "08:00"))])
def test_wrong_rest_is_refused_by_the_one_check(days, quiet):
    with pytest.raises(BadInput):
        rest.checked(days, *quiet)


def test_his_mail_and_page_say_that_his_rest_days_are_not_counted(app, client):
    resting(app, ANNA, "Europe/Prague")
    game = game_at(app, datetime.now(UTC), limit=7)   # (7 days always hold a weekend)
    said = "Your rest days (Saturday and Sunday) before then are not"
    with app.app_context():
        [invite] = db.session.scalars(select(Mail).where(Mail.to_addr == ANNA)).all()
        [bobs] = db.session.scalars(select(Mail).where(Mail.to_addr == BOB)).all()
    assert said in invite.text and said in invite.html and said not in bobs.text
    assert said in client.get(seat_path(app, game, 0)).get_data(as_text=True)
    strict = game_at(app, datetime.now(UTC), limit=7, rest_days=False)
    assert said not in client.get(seat_path(app, strict, 0)).get_data(as_text=True)
