"""The home's list of time zones (issue 26): places only, no old alias (`US/Eastern`, `GB`,
`Etc/GMT+5`, `Asia/Calcutta`); an alias is still taken when posted (a choice made before, or a
device that names one), and shown as chosen."""

from __future__ import annotations

import re
from html import unescape

from pbem.players import settings
from pbem_web import ANNA, create  # tests/helpers

ALIASES = ["US/Eastern", "GB", "Etc/GMT+5", "Etc/UTC", "Asia/Calcutta", "Europe/Kiev", "Japan",
           "SystemV/EST5", "America/Buenos_Aires", "Canada/Pacific"]


def home_of(app, client):
    with app.app_context():
        path = settings.home_url(ANNA).removeprefix("http://pbem.test")
    return path, unescape(client.get(path).get_data(as_text=True))


def listed(page: str) -> list[str]:
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S).group(0)
    return re.findall(r"<option(?: value=\"[^\"]*\")?[^>]*>([^<]+)</option>", select)


def test_the_list_names_places_and_leaves_old_aliases_out(app, client):
    create(client)
    _, page = home_of(app, client)
    zones = listed(page)
    assert zones[0] == "UTC" and len(zones) == len(set(zones)) > 300
    for place in ("Europe/Prague", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Europe/Kyiv"):
        assert place in zones
    for alias in ALIASES:
        assert alias not in zones


def test_an_alias_posted_is_still_taken_and_shown_as_chosen(app, client):
    create(client)
    path, page = home_of(app, client)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    answer = client.post(path + "/settings", data={"csrf": csrf, "time_zone": "US/Eastern",
                                                   "language": "en", "mail_mode": "each"})
    assert answer.status_code == 303
    with app.app_context():
        assert settings.of(ANNA).time_zone == "US/Eastern"
    _, page = home_of(app, client)
    assert "<option selected>US/Eastern</option>" in page
    assert listed(page).count("US/Eastern") == 1
