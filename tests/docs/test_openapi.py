"""The JSON API's description (docs/api/openapi.yaml), checked against the app.

- The description is a valid OpenAPI 3.1 document (openapi-spec-validator).
- It describes exactly the app's routes that answer JSON: every route of the app is either
  described (path and method) or named below as answering pages only, and the description
  names no route the app does not have.
- Real requests, through a whole game and its side roads (the start page's JSON, a turn
  previewed, refused and submitted, messages, notes, vacation, language, links mailed and
  replaced, resigning, a rematch, a declined game, the home, the record), answer with a status
  the description lists for that operation, and their bodies validate against its schema
  (jsonschema, draft 2020-12, as OpenAPI 3.1 says); every operation described is met at least
  once, so no part of the description goes unchecked.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from pbem.players import settings
from pbem.policy import links
from pbem.store import gamelog
from pbem_web import ANNA, BOB, outbox, seat_path, to_act, turn_path  # tests/helpers

SPEC_FILE = Path(__file__).resolve().parents[2] / "docs" / "api" / "openapi.yaml"
JSON = {"Accept": "application/json"}
CARL = "carl@example.org"

#: The app's routes that answer pages only (with `Accept: application/json` they answer only
#: their errors as JSON), each with why.
PAGES_ONLY = {
    ("/", "get"): "the start page",
    ("/games/{game_id}/proposed", "get"): "the page after asking for a game by the form",
    ("/c/{token}", "get"): "the creator's confirmation page, whose button POSTs",
    ("/d/{token}", "get"): "declining asks first, on a page",
    ("/r/{token}", "get"): "the page whose button replaces the links",
    ("/u/{token}", "get"): "the page whose button unsubscribes",
    ("/m/{token}", "get"): "the page whose button says yes to a rematch",
    ("/s/{token}/resign", "get"): "resigning asks first, on a page",
    ("/s/{token}/decline", "get"): "declining asks first, on a page",
    ("/s/{token}/rematch", "get"): "the page a rematch asked for lands on (redirect after POST)",
    ("/h/{token}/rematch", "get"): "the page a rematch asked for lands on (redirect after POST)",
    ("/h/{token}/feed.atom", "get"): "a feed reader's: Atom, never JSON (docs/players.md)",
    ("/h/{token}/deadlines.ics", "get"): "a calendar's: iCalendar, never JSON (docs/players.md)",
    ("/ch/{token}", "get"): "the page whose button lists a challenge",
    ("/cw/{token}", "get"): "the page whose button withdraws a challenge",
    ("/ca/{token}", "get"): "the page whose button takes a seat in a challenge",
    ("/h/{token}/league", "get"): "the home's form for a new league",
    ("/lc/{token}", "get"): "the page whose button opens a player's league",
    ("/static/{filename}", "get"): "static files",
    ("/static/games/{game}/{filename}", "get"): "a game's stylesheet and script",
}
#: Whole parts of the app that are pages for one person, never an API.
PAGES_ONLY_PREFIXES = ("/admin", "/outbox")

PATH_LINK = re.compile(r"http://pbem\.test(/[a-z]{1,2}/[A-Za-z0-9_.\-]+)")


def load_spec() -> dict:
    return yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8"))


def app_routes(app) -> set[tuple[str, str]]:
    """(OpenAPI path, method) of every route the app has, `<int:seat>` written `{seat}`."""
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add((path, method.lower()))
    return routes


def test_the_description_is_valid_openapi():
    validate(load_spec())


@pytest.fixture
def api_app(make_app):
    """The app as production runs it but for the outbox (links are read from the mails) and
    the rate limits, which tests pass far faster than people (and a webhook on loopback)."""
    return make_app(OUTBOX_PAGE=True, SUBMISSIONS_PER_CLIENT_PER_MINUTE=100_000,
                    SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100_000,
                    PREVIEWS_PER_CLIENT_PER_MINUTE=100_000, VACATION_DAYS_PER_YEAR=30,
                    WEBHOOK_ALLOW_PRIVATE=True)


def test_every_route_that_answers_json_is_described_and_nothing_else(api_app):
    described = {(path, method) for path, item in load_spec()["paths"].items()
                 for method in item if method in ("get", "post", "put", "patch", "delete")}
    routes = {r for r in app_routes(api_app) if not r[0].startswith(PAGES_ONLY_PREFIXES)}
    assert described - routes == set(), "described, but the app has no such route"
    assert routes - described - set(PAGES_ONLY) == set(), "routes neither described nor pages only"
    assert described & set(PAGES_ONLY) == set(), "both described and said to answer pages only"


class Checked:
    """A test client whose every JSON answer is checked against the description."""

    def __init__(self, app, spec: dict):
        self.client, self.spec, self.met = app.test_client(), spec, set()
        self.routes = {(rule.rule, rule.endpoint) for rule in app.url_map.iter_rules()}
        self.adapter = app.url_map.bind("pbem.test")

    def _template(self, path: str, method: str) -> str:
        rule, _ = self.adapter.match(path.split("?")[0], method=method.upper(), return_rule=True)
        return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)

    def request(self, method: str, path: str, expect: int, **kwargs):
        headers = {**JSON, **kwargs.pop("headers", {})}
        response = self.client.open(path, method=method.upper(), headers=headers, **kwargs)
        assert response.status_code == expect, (method, path, response.status_code, response.data[:300])
        template = self._template(path, method)
        operation = self.spec["paths"][template][method]
        documented = operation["responses"].get(str(expect))
        if documented is not None and "$ref" in documented:   # a response the operations share
            documented = self.spec["components"]["responses"][documented["$ref"].rsplit("/", 1)[1]]
        assert documented is not None, f"{method.upper()} {template} answered {expect}, not described"
        assert response.mimetype == "application/json", (template, response.mimetype)
        schema = documented["content"]["application/json"]["schema"]
        validator = Draft202012Validator({**schema, "components": self.spec["components"]})
        errors = sorted(validator.iter_errors(response.get_json()), key=lambda e: list(e.path))
        assert not errors, f"{method.upper()} {template} {expect}: " + "; ".join(
            f"{list(e.path)}: {e.message[:200]}" for e in errors[:5])
        self.met.add((template, method, str(expect)))
        return response.get_json()

    def get(self, path, expect=200, **kw):
        return self.request("get", path, expect, **kw)

    def post(self, path, expect=200, **kw):
        return self.request("post", path, expect, **kw)


def mailed_links(app, to: str, prefix: str) -> list[str]:
    """The paths of the links of one kind (`/m/`, `/d/` …) mailed to an address, oldest first."""
    return [p for _, _, text, _, addr, _ in outbox(app) if addr == to
            for p in PATH_LINK.findall(text) if p.startswith(prefix)]


def league_link(app, to: str, prefix: str) -> str:
    """The last league link of a kind (`/lc/`, `/lj/`) mailed to an address."""
    found = [p for _, _, text, _, addr, _ in outbox(app) if addr == to
             for p in re.findall(r"http://pbem\.test(/l[cj]/[A-Za-z0-9_.\-]+)", text)
             if p.startswith(prefix)]
    return found[-1]


def home_csrf(client, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_real_answers_validate_against_the_description(api_app):
    spec = load_spec()
    api = Checked(api_app, spec)
    app = api_app

    # A game asked for by JSON, confirmed by its creator's link.
    asked = api.post("/games", 202, json={"game": "babel", "name0": "Anna", "email0": ANNA,
                                          "name1": "Bob", "email1": BOB, "first": "0",
                                          "option.sumerians": "top-run"})
    api.post("/games", 400, json={"game": "babel", "name0": "Anna", "email0": ANNA,
                                  "name1": "Bob", "bot1": "genius"})
    with app.app_context():
        confirm_path = links.path_of(links.CONFIRM, asked["game"])
    game = api.post(confirm_path, 201)["game"]
    api.post(confirm_path, 410)

    # Anna's turn: viewed, previewed, refused, submitted; the used link conflicts.
    turn = turn_path(app, game, 0)
    seat = seat_path(app, game, 0)
    view = api.get(turn)
    hand = view["view"]["players"][0]["hand"]
    api.post(turn + "/preview", json={"steps": f"move {hand[0]}"})
    api.post(turn, 422, json={"steps": "settle A"})
    api.post(turn, json={"steps": f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"})
    api.post(turn, 409, json={"steps": "pass"})
    told = api.get(seat_path(app, game, 1))["told"]   # Bob is told Anna's turn
    assert [t["name"] for t in told] == ["Anna"]
    api.get("/t/forged-link", 403)

    # Her seat: its view, words, notes, vacation, language.
    api.get(seat)
    api.post(seat + "/messages", json={"message": "Good luck!"})
    api.post(seat + "/notes", json={"notes": "Keep the Medes."})
    api.post(seat + "/vacation", json={"days": 1})
    api.post(seat + "/vacation", json={"end": True})
    api.post(seat + "/vacation", 400, json={"days": "many"})
    api.post(seat + "/language", json={"language": "de"})
    api.post(seat + "/language", json={"language": "en"})
    # The game's webhook, for the group's channel: set, renewed, refused, removed, set again.
    api.post(seat + "/webhook", json={"url": "http://127.0.0.1:9/game-hook"})
    api.post(seat + "/webhook", json={"action": "secret"})
    api.post(seat + "/webhook", 400, json={"url": "ftp://example.org/"})
    api.post(seat + "/webhook", json={"action": "remove"})
    api.post(seat + "/webhook", json={"url": "http://127.0.0.1:9/game-hook"})

    # Links: replaced, mailed again (a seat is mailed its links once in a few minutes), asked
    # for on the start page.
    api.post(seat + "/replace", 202)
    replace = mailed_links(app, ANNA, "/r/")[-1]
    api.post(turn_path(app, game, to_act(app, game)) + "/renew", 202)
    api.post(seat_path(app, game, to_act(app, game)) + "/renew", 429)
    api.post("/links", 202, json={"email": ANNA})
    api.post(replace, json={})
    seat = seat_path(app, game, 0)

    # The record, the home.
    api.get(f"/games/{game}/record")
    with app.app_context():
        home = settings.home_url(ANNA).removeprefix("http://pbem.test")
    api.get(home)
    csrf = home_csrf(api.client, home)
    api.post(home + "/settings", json={"csrf": csrf, "time_zone": "Europe/Prague"})
    api.post(home + "/vacation", json={"csrf": csrf, "days": 1})
    api.post(home + "/vacation", json={"csrf": csrf, "end": True})
    api.post(home + "/rest", json={"csrf": csrf, "rest_days": [5, 6], "quiet_from": "22:00",
                                   "quiet_until": "07:00"})
    api.post(home + "/rest", 400, json={"csrf": csrf, "rest_days": [0, 1, 2, 3]})
    api.post(home + "/settings", 403, json={"csrf": "forged", "time_zone": "Europe/Prague"})
    # Channels beside mail: a webhook, a browser's subscription, one removed.
    api.post(home + "/webhook", json={"csrf": csrf, "url": "http://127.0.0.1:9/hook"})
    api.post(home + "/webhook", json={"csrf": csrf, "action": "secret"})
    api.post(home + "/webhook", 400, json={"csrf": csrf, "url": "ftp://example.org/"})
    browser = {"endpoint": "http://127.0.0.1:9/push",
               "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}
    api.post(home + "/push", json={"csrf": csrf, "subscription": browser})
    api.post(home + "/push", 400, json={"csrf": csrf, "subscription": {"endpoint": "x"}})
    with app.app_context():
        from pbem.players import channels
        pushed = next(c.id for c in channels.live(ANNA) if c.kind == "push")
    api.post(home + "/channel/remove", json={"csrf": csrf, "channel": pushed})
    api.post(home + "/channel/remove", 400, json={"csrf": csrf, "channel": pushed})
    api.post(home + "/webhook", json={"csrf": csrf, "action": "remove"})

    # A public name; the player page and the ladder (rated games come later in the issue's
    # challenges: the ladder may be empty here).
    api.post(home + "/name", json={"csrf": csrf, "name": "Anna"})
    api.post(home + "/name", 400, json={"csrf": csrf, "name": "@"})
    api.get("/p/anna")
    api.get("/p/nobody-here", 404)
    api.get("/ratings/babel")
    api.get("/ratings/chess", 404)

    # Open challenges: posted, listed, taken up seat by seat until the game starts; others
    # withdrawn by their links and from the home.
    api.post("/challenges", 400, json={"game": "chess", "address": ANNA})
    posted = api.post("/challenges", 202, json={"game": "babylonia", "seats": 3, "address": ANNA,
                                                "time_limit": "7"})["challenge"]
    api.post(mailed_links(app, ANNA, "/ch/")[-1])
    assert [c["id"] for c in api.get("/challenges")["challenges"]] == [posted]
    for address, taken in ((BOB, 200), (CARL, 201)):
        api.post(f"/challenges/{posted}/accept", 202, json={"address": address, "name": "Bo"})
        api.post(mailed_links(app, address, "/ca/")[-1], taken)
    api.post(f"/challenges/{posted}/accept", 410, json={"address": "dora@example.org"})
    for withdrawn in ("link", "home"):
        other = api.post("/challenges", 202, json={"game": "babel", "address": ANNA})["challenge"]
        api.post(mailed_links(app, ANNA, "/ch/")[-1])
        if withdrawn == "link":
            api.post(mailed_links(app, ANNA, "/cw/")[-1])
        else:
            api.post(f"{home}/challenges/{other}/withdraw", json={"csrf": csrf})
    assert api.get("/challenges")["challenges"] == []
    # A league of Anna's from her home, opened by the link mailed to her; Bob asks to join,
    # chooses a public name as he joins from his link, and leaves again (the link is spent).
    starts = (datetime.now(UTC) + timedelta(days=3)).date().isoformat()
    terms = {"csrf": csrf, "name": "Spring Babel", "game": "babel", "least": 2, "most": 4,
             "starts": starts, "clock": "move:3", "rated": True, "min_on_time": None}
    league = api.post(home + "/league", 202, json=terms)["league"]
    api.post(home + "/league", 400, json={**terms, "least": 5})
    api.post(league_link(app, ANNA, "/lc/"))
    api.get("/leagues")
    api.get(f"/leagues/{league}")
    api.get("/leagues/nothing", 404)
    api.post(f"/leagues/{league}/join", 202, json={"email": BOB})
    join = league_link(app, BOB, "/lj/")
    api.get(join)
    api.post(join, 400, json={"action": "join"})   # he has no public name yet
    api.post(join, json={"action": "join", "name": "Bob"})
    api.post(join, json={"action": "leave"})
    api.get(join, 410)

    # Resigning asks first, then ends the game; a rematch is asked for and confirmed.
    api.post(seat + "/resign", 400, json={})
    api.post(seat + "/resign", json={"confirm": True})
    api.post(seat + "/rematch")
    api.post(home + "/rematch", json={"csrf": csrf, "game": game})
    api.post(f"/games/{game}/rematch", 202, json={"email": BOB})
    api.post(mailed_links(app, BOB, "/m/")[-1])

    # A game declined from the seat, another from the invitation's own link.
    with app.app_context():
        from pbem.play import turns
        other = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Carl", CARL)],
                                             {"sumerians": "top-run"}, 0)).id
        third = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Carl", CARL)],
                                             {"sumerians": "top-run"}, 0)).id
        assert not gamelog.load(other).over
    api.post(seat_path(app, third, 0) + "/renew", 202)
    api.post(seat_path(app, other, 1) + "/decline", 400, json={})
    api.post(seat_path(app, other, 1) + "/decline", json={"confirm": True})
    decline = [p for p in mailed_links(app, CARL, "/d/")][-1]
    api.post(decline, json={"confirm": True})
    with app.app_context():
        assert gamelog.load(third).over and gamelog.load(other).over

    # Never mail me again; and the home link replaced.
    api.post(mailed_links(app, CARL, "/u/")[-1], json={})
    api.post(home + "/replace", json={"csrf": csrf})

    described = {(path, method) for path, item in spec["paths"].items() for method in item
                 if method in ("get", "post")}
    assert described - {(p, m) for p, m, _ in api.met} == set(), "described operations never met"
