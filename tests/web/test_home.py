"""The player's home (`/h/<token>`): exactly his games, in the order he needs them, as a page
and as JSON from one view; a home link that is replaced stops working; nobody sees another's
games; the listing reads a fixed number of queries however many games there are.

Runs on SQLite, and on PostgreSQL too when PBEM_TEST_DATABASE_URL is set. Deadlines come from
moved game times, never from sleeping; mail goes through the real SMTP server (`smtp`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import event, select, update

from pbem.extensions import db
from pbem.play import turns
from pbem.players import settings
from pbem.store.models import Game, GameResult
from pbem.store.transaction import transaction
from pbem.views import homeview
from pbem_web import deliver, text_of  # tests/helpers
from pbem_web import new_game as made_game

ANNA, BOB, CARL, DAVE = (f"{n}@example.org" for n in ("anna", "bob", "carl", "dave"))
JSON = {"Accept": "application/json"}
HOME = re.compile(r"http://pbem\.test(/h/[A-Za-z0-9_.\-]+)")
DAY = timedelta(days=1)


def new_game(app, players, first=0, time_limit=None, age=timedelta(0)) -> str:
    """A game of Babel made as the operator makes it, started `age` ago."""
    game_id = made_game(app, players, first, time_limit)
    with app.app_context():
        if age:
            with transaction():
                db.session.execute(update(Game).where(Game.id == game_id)
                                   .values(created_at=datetime.now(UTC) - age))
    return game_id


def finish(app, game_id: str, loser: int, ended: datetime) -> None:
    with app.app_context():
        turns.resign(game_id, loser)
        with transaction():
            db.session.execute(update(GameResult).where(GameResult.game_id == game_id)
                               .values(ended_at=ended))


def home_path(app, address: str) -> str:
    with app.app_context():
        return settings.home_url(address).removeprefix("http://pbem.test")


def anna_s_games(app):
    """Anna's games, each in a different place on her home; and one game she is not in."""
    a, b = ("Anna", ANNA), ("Bob", BOB)
    g = {
        "later": new_game(app, [a, b], 0, time_limit=7),                    # 7 days left
        "urgent": new_game(app, [b, a], 1, time_limit=3, age=2 * DAY),      # 1 day left
        "unlimited": new_game(app, [a, ("Carl", CARL)], 0, age=3 * DAY),    # no deadline
        "theirs": new_game(app, [a, b], 1, age=DAY),                        # Bob's turn
        "won_old": new_game(app, [a, ("Carl", CARL)], 0),
        "won_new": new_game(app, [a, b], 0),
    }
    now = datetime.now(UTC)
    finish(app, g["won_old"], 0, now - 5 * DAY)   # Anna resigned: Carl won
    finish(app, g["won_new"], 1, now - DAY)       # Bob resigned: Anna won
    g["stranger"] = new_game(app, [("Carl", CARL), ("Dave", DAVE)], 0)
    return g


ORDER = ["urgent", "later", "unlimited", "theirs", "won_new", "won_old"]


def test_the_home_lists_exactly_his_games_waiting_for_him_then_others_then_finished(app, client):
    g = anna_s_games(app)
    data = client.get(home_path(app, ANNA), headers=JSON).get_json()
    assert data["address"] == ANNA
    assert [e["game"] for e in data["games"]] == [g[k] for k in ORDER]
    by = {e["game"]: e for e in data["games"]}
    assert [by[g[k]]["your_turn"] for k in ORDER] == [True, True, True, False, False, False]
    assert by[g["urgent"]]["seat"] == 1 and by[g["later"]]["seat"] == 0
    assert by[g["urgent"]]["deadline"] < by[g["later"]]["deadline"]
    assert by[g["unlimited"]]["deadline"] is None
    assert by[g["theirs"]]["opponents"] == ["Bob"]
    assert by[g["won_new"]]["outcome"].startswith("You won")
    assert by[g["won_old"]]["outcome"].startswith("Carl won")
    assert [by[g[k]]["outcome"] for k in ORDER[:4]] == [None] * 4
    # Her turns link to the turn; the others to her standing link.
    assert all(by[g[k]]["url"].startswith("http://pbem.test/t/") for k in ORDER[:3])
    assert all(by[g[k]]["url"].startswith("http://pbem.test/s/") for k in ORDER[3:])
    # Each link opens her own seat in that game.
    page = client.get(by[g["urgent"]]["url"].removeprefix("http://pbem.test"))
    assert page.status_code == 200 and "Anna" in page.get_data(as_text=True)


def test_the_page_shows_the_same_games_in_the_same_order_as_the_json(app, client):
    g = anna_s_games(app)
    path = home_path(app, ANNA)
    data = client.get(path, headers=JSON).get_json()
    page = client.get(path).get_data(as_text=True)
    assert re.findall(r'data-game="([^"]+)"', page) == [e["game"] for e in data["games"]]
    for entry in data["games"]:   # each entry's link is on the page (up to the signature's
        # timestamp: the two requests may fall into different seconds)
        signed = entry["url"].removeprefix("http://pbem.test")
        assert signed[:signed.rindex(".", 0, signed.rindex("."))] in page
    assert g["stranger"] not in page
    assert "1 day left" in page or "23 hours" in page   # the urgent one, in words
    assert "no time limit" in page and "waiting for Bob" in page and "You won" in page


def test_deadlines_show_in_the_player_s_time_zone(app, client):
    game = new_game(app, [("Anna", ANNA), ("Bob", BOB)], 0, time_limit=3)
    with app.app_context():
        settings.change(ANNA, "Asia/Tokyo", "en", settings.EACH, False)
        deadline = db.session.get(Game, game).created_at
        deadline = (deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)) + 3 * DAY
    local = deadline.astimezone(settings.ZoneInfo("Asia/Tokyo")).strftime("%a %d %b %Y, %H:%M JST")
    page = client.get(home_path(app, ANNA)).get_data(as_text=True)
    assert f"until {local}" in page and "times in Asia/Tokyo" in page
    with app.app_context():
        assert settings.local_deadline(deadline, settings.of(BOB)).endswith(" UTC")


def test_one_address_never_sees_another_s_games(app, client):
    g = anna_s_games(app)
    carl = client.get(home_path(app, CARL), headers=JSON).get_json()
    assert carl["address"] == CARL
    assert {e["game"] for e in carl["games"]} == {g["unlimited"], g["won_old"], g["stranger"]}
    dave = client.get(home_path(app, DAVE), headers=JSON).get_json()
    assert [e["game"] for e in dave["games"]] == [g["stranger"]]
    # A token is no key to another address: changing a character of it is refused.
    path = home_path(app, ANNA)
    forged = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    assert client.get(forged, headers=JSON).status_code == 403
    nobody = client.get(home_path(app, "nobody@example.org"), headers=JSON).get_json()
    assert nobody["address"] == "nobody@example.org" and nobody["games"] == []


def test_a_replaced_home_link_stops_working_and_the_new_one_is_mailed(app, client, smtp):
    anna_s_games(app)
    old = home_path(app, ANNA)
    page = client.get(old).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    assert client.post(old + "/replace", data={"csrf": "wrong"}).status_code == 403
    assert client.get(old).status_code == 200   # a refused form changed nothing
    assert client.post(old + "/replace", data={"csrf": csrf}).status_code == 200
    assert client.get(old).status_code == 410
    assert client.get(old, headers=JSON).status_code == 410
    deliver(app)
    mail = [m for m in smtp.to(ANNA) if "new home link" in m["Subject"]][-1]
    new = HOME.search(text_of(mail)).group(1)
    assert new != old and client.get(new).status_code == 200


def test_settings_are_posted_with_the_page_s_csrf_token(app, client):
    path = home_path(app, ANNA)
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)
    form = {"time_zone": "Europe/Berlin", "language": "de", "mail_mode": "digest",
            "confirm_replies": "on"}
    assert client.post(path + "/settings", data=form).status_code == 403
    answer = client.post(path + "/settings", data={**form, "csrf": csrf}, follow_redirects=True)
    # (the home speaks the language just chosen: German)
    assert answer.status_code == 200
    assert "Deine Einstellungen wurden gespeichert" in answer.get_data(as_text=True)
    with app.app_context():
        assert settings.of(ANNA) == settings.Settings(ANNA, "Europe/Berlin", "de", "digest", True)
    bad = client.post(path + "/settings", data={**form, "csrf": csrf, "time_zone": "Mars/Olympus"})
    assert bad.status_code == 400 and "ist keine Zeitzone" in bad.get_data(as_text=True)
    with app.app_context():
        assert settings.of(ANNA).time_zone == "Europe/Berlin"


def test_the_listing_reads_the_same_few_queries_for_one_game_or_many(app):
    new_game(app, [("Anna", ANNA), ("Bob", BOB)], 0)

    def queries() -> int:
        with app.app_context():
            count = [0]

            def counted(*args):
                count[0] += 1
            event.listen(db.engine, "before_cursor_execute", counted)
            try:
                assert homeview.build(ANNA).games
            finally:
                event.remove(db.engine, "before_cursor_execute", counted)
            db.session.remove()
            return count[0]

    one = queries()
    anna_s_games(app)
    # settings, his seats, their seats, his vacation and spans, his public name
    assert queries() == one <= 6


def test_every_mail_links_the_home_and_the_links_mail_says_where_to_move(app, client, smtp):
    g = anna_s_games(app)
    deliver(app)
    homes = {HOME.search(text_of(m)).group(1) for m in smtp.to(ANNA)}   # signed at various times
    assert len(smtp.to(ANNA)) >= 6 and all(
        client.get(h, headers=JSON).get_json()["address"] == ANNA for h in homes)
    smtp.clear()
    assert client.post("/links", data={"email": ANNA}).status_code == 303
    deliver(app)
    text = text_of(smtp.to(ANNA)[-1])
    assert "it is your turn in 3 of your 4 running games" in text
    yours, others = text.split("Waiting for others:")
    assert yours.count("Play your turn:") == 3 and "Play your turn" not in others
    assert "waiting for Bob" in others
    assert client.get(HOME.search(text).group(1), headers=JSON).get_json()["address"] == ANNA
    assert g["stranger"] not in text
    assert all(len(line) <= 78 for line in text.splitlines() if "http" not in line)


def test_a_game_finished_before_results_were_kept_still_shows_its_result(app, client):
    game = new_game(app, [("Anna", ANNA), ("Bob", BOB)], 0)
    with app.app_context():
        turns.resign(game, 1)
        with transaction():   # as if it had ended before the results table
            db.session.execute(GameResult.__table__.delete())
        assert db.session.scalar(select(GameResult.game_id)) is None
    data = client.get(home_path(app, ANNA), headers=JSON).get_json()
    assert data["games"][0]["outcome"].startswith("You won")


def test_settings_by_json_change_only_what_they_name(app, client):
    path = home_path(app, ANNA)
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)
    answer = client.post(path + "/settings", json={"csrf": csrf, "confirm_replies": True})
    assert answer.status_code == 200
    assert answer.get_json()["address"] == ANNA and answer.get_json()["games"] == []
    answer = client.post(path + "/settings", json={"csrf": csrf, "time_zone": "America/New_York"})
    assert answer.status_code == 200
    with app.app_context():
        assert settings.of(ANNA) == settings.Settings(ANNA, "America/New_York", "en", "each", True)
    assert client.post(path + "/settings", json={"csrf": csrf, "language": ["de"]}).status_code == 400
    assert client.post(path + "/settings", json=["csrf"]).status_code in (400, 403)


def test_names_are_escaped_on_the_home(app, client):
    new_game(app, [("Anna", ANNA), ("<script>alert(1)</script>", BOB)], 1)
    page = client.get(home_path(app, ANNA)).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
