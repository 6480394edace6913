"""Vacation from the home: a player starts and ends it there (a POST with the page's CSRF
token, through `pbem.policy.vacation` as from a seat's page); every clock of his address stops
meanwhile, and the home (page and JSON) says until when and how many days are left."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from tests.web.test_vacation import create, seat_path, vacations  # the vacation tests' helpers

from pbem.play import turns
from pbem.players import settings
from pbem.policy import deadlines
from pbem.store import gamelog
from pbem_web import ANNA, BOB  # tests/helpers

CAROL = "carol@example.org"
JSON = {"Accept": "application/json"}
DAY = timedelta(days=1)


@pytest.fixture
def app(make_app):
    return make_app(VACATION_DAYS_PER_YEAR=3)


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def deadline(app, game: str, seat: int) -> datetime | None:
    with app.app_context():
        return deadlines.deadline(gamelog.load(game), seat)


def test_a_vacation_started_and_ended_from_the_home_stops_and_restarts_every_clock(app, client):
    first, second = create(app, 7), create(app, 3)
    carols = create(app, 7, (("Carol", CAROL), ("Bob", BOB)))
    before = {g: deadline(app, g, 0) for g in (first, second, carols)}
    path = home_path(app, ANNA)
    page = client.get(path).get_data(as_text=True)
    assert "You have <strong>3 days</strong> left this year" in page
    assert client.get(path, headers=JSON).get_json()["vacation"] == {"until": None, "days_left": 3}

    # Without the page's CSRF token nothing starts.
    assert client.post(path + "/vacation", data={"days": "2"}).status_code == 403
    assert vacations(app, ANNA) == []

    answer = client.post(path + "/vacation", data={"days": "2", "csrf": csrf_of(page)}, follow_redirects=True)
    assert answer.status_code == 200
    [(starts, ends, automatic)] = vacations(app, ANNA)
    assert ends - starts == 2 * DAY and not automatic
    with app.app_context():
        until = settings.local_deadline(ends, settings.of(ANNA))
    shown = answer.get_data(as_text=True)
    assert f"You are on vacation until {until}: the clocks of all your games" in shown
    assert f"You are on vacation until <strong>{until}</strong>" in shown
    assert "I am back: end my vacation" in shown and "Start my vacation" not in shown
    assert client.get(path, headers=JSON).get_json()["vacation"] == {
        "until": ends.replace(microsecond=0).isoformat(), "days_left": 1}
    # Both of Anna's games wait two days longer; Carol's clock runs on.
    assert deadline(app, first, 0) == before[first] + 2 * DAY
    assert deadline(app, second, 0) == before[second] + 2 * DAY
    assert deadline(app, carols, 0) == before[carols]
    # Her opponent sees it on his page, as talk shows it.
    bobs = client.get(seat_path(app, first, 1)).get_data(as_text=True)
    assert f"Anna is on vacation until {ends:%Y-%m-%d %H:%M} UTC" in bobs

    # Back the same day: the clocks run again (the day begun counts).
    back = client.post(path + "/vacation", data={"action": "end", "csrf": csrf_of(shown)},
                       follow_redirects=True)
    assert back.status_code == 200
    assert "Welcome back: your vacation has ended" in back.get_data(as_text=True)
    [(_, ended, _)] = vacations(app, ANNA)
    assert ended < ends and ended - starts < DAY
    assert deadline(app, first, 0) == before[first] + (ended - starts)
    assert client.get(path, headers=JSON).get_json()["vacation"] == {"until": None, "days_left": 2}
    assert "You have <strong>2 days</strong> left" in back.get_data(as_text=True)


def test_the_home_shows_the_vacation_in_the_player_s_time_zone(app, client):
    create(app, 7)
    with app.app_context():
        settings.change(ANNA, "Europe/Berlin", "en", settings.EACH, False)
    path = home_path(app, ANNA)
    csrf = csrf_of(client.get(path).get_data(as_text=True))
    client.post(path + "/vacation", data={"days": "1", "csrf": csrf})
    [(_, ends, _)] = vacations(app, ANNA)
    local = ends.astimezone(settings.ZoneInfo("Europe/Berlin"))
    page = client.get(path).get_data(as_text=True)
    assert f"until <strong>{local:%a %d %b %Y, %H:%M} {local.tzname()}</strong>" in page
    assert local.tzname() in ("CET", "CEST")


def test_json_starts_and_ends_a_vacation_and_refusals_name_the_input(app, client):
    create(app, 7)
    path = home_path(app, ANNA)
    csrf = csrf_of(client.get(path).get_data(as_text=True))
    too_many = client.post(path + "/vacation", json={"days": 4, "csrf": csrf}, headers=JSON)
    assert too_many.status_code == 400
    assert "3 vacation days left this year; 4 were asked for" in too_many.get_data(as_text=True)
    bad = client.post(path + "/vacation", data={"days": "a week", "csrf": csrf})
    assert bad.status_code == 400 and "days=&#39;a week&#39;" in bad.get_data(as_text=True)
    assert vacations(app, ANNA) == []

    started = client.post(path + "/vacation", json={"days": 3, "csrf": csrf}, headers=JSON)
    assert started.status_code == 200
    assert started.get_json()["vacation"]["days_left"] == 0
    assert started.get_json()["vacation"]["until"] is not None
    again = client.post(path + "/vacation", json={"days": 1, "csrf": csrf}, headers=JSON)
    assert again.status_code == 400 and "on vacation already" in again.get_data(as_text=True)
    ended = client.post(path + "/vacation", json={"end": True, "csrf": csrf}, headers=JSON)
    assert ended.status_code == 200 and ended.get_json()["vacation"]["until"] is None
    [(starts, ends, _)] = vacations(app, ANNA)
    assert ends - starts < DAY and ends <= datetime.now(UTC)


def test_the_home_s_deadlines_stand_still_during_a_vacation_and_know_time_banks(app, client):
    per_turn = create(app, 3)
    with app.app_context():
        banked = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)],
                                              {"sumerians": "top-run"}, 0, bank=(5, 1, 10))).id
    path = home_path(app, ANNA)

    def listed() -> dict[str, str | None]:
        return {e["game"]: e["deadline"] for e in client.get(path, headers=JSON).get_json()["games"]}

    def iso(moment: datetime) -> str:
        return moment.astimezone(UTC).replace(microsecond=0).isoformat()

    # The bank's deadline is the seat's (not "no time limit").
    assert listed() == {per_turn: iso(deadline(app, per_turn, 0)),
                        banked: iso(deadline(app, banked, 0))}
    before = {g: deadline(app, g, 0) for g in (per_turn, banked)}
    csrf = csrf_of(client.get(path).get_data(as_text=True))
    assert client.post(path + "/vacation", data={"days": "2", "csrf": csrf}).status_code == 303
    # Two days away: both deadlines two days later, on the home as on the seat's pages.
    assert {g: deadline(app, g, 0) for g in before} == {g: d + 2 * DAY for g, d in before.items()}
    assert listed() == {g: iso(d + 2 * DAY) for g, d in before.items()}
    page = client.get(path).get_data(as_text=True)
    assert "4 days 23 hours left" in page or "5 days left" in page   # the per-turn game's


def test_a_server_without_vacation_days_offers_none_on_the_home(make_app):
    app = make_app(VACATION_DAYS_PER_YEAR=0)
    client = app.test_client()
    create(app, 7)
    path = home_path(app, ANNA)
    page = client.get(path).get_data(as_text=True)
    assert "Your games" in page and 'id="vacation"' not in page
    csrf = csrf_of(page)
    refused = client.post(path + "/vacation", data={"days": "1", "csrf": csrf})
    assert refused.status_code == 400 and "0 vacation days left" in refused.get_data(as_text=True)
