"""Babel Tower: the preview of a placement shows the tower after it, the chosen cube outlined
as the player's own, as the confirmation does (issue 17): in the JSON preview (`draft_marks`),
in the page's preview fragment, and without JavaScript in the turn page's draft (where the
confirmation's "No, back to editing" leads)."""

from __future__ import annotations

from html_tree import page
from pbem.games.babel_tower import GAME
from pbem_web import ANNA, BOB

JSON = {"Accept": "application/json"}


def new_game(app) -> str:
    result = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel-tower", "--player", f"Anna <{ANNA}>", "--player",
        f"Bob <{BOB}>", "--first", "0", "--seed", "3", "--option", "draft=random"])
    assert result.exit_code == 0, result.output
    return result.output.strip()


def placed(app, client, actions, game: str, count: int) -> tuple[str, str]:
    """`count` cubes placed (each seat's first legal way); the turn link of the seat to place
    next and that seat's first legal way."""
    for n in range(count + 1):
        seat = n % 2
        link = actions.links((ANNA, BOB)[seat])["turn"]
        step = next(o.notation for o in GAME.legal_steps(actions.state(game).state, seat))
        if n == count:
            return link, step
        assert client.post(link, data={"steps": step, "action": "submit"}).status_code == 303
    raise AssertionError


def floor_of(after_view: dict, corner: str) -> int:
    return max(i for i, f in enumerate(after_view["floors"]) if f.get(corner))


def test_the_json_preview_marks_the_chosen_cube(app, client, actions):
    game = new_game(app)
    link, step = placed(app, client, actions, game, 5)
    corner = step.split()[2]
    answer = client.post(link + "/preview", json={"steps": step}).get_json()
    assert answer["done"] is True
    assert answer["draft_marks"] == {"placed": {"floor": floor_of(answer["view"], corner),
                                                "corner": corner}}
    assert answer["view"]["floors"][answer["draft_marks"]["placed"]["floor"]][corner]
    # The opponent's last cube stays in `marks`; an unfinished or illegal draft marks nothing.
    assert answer["marks"]["placed"] and answer["marks"] != answer["draft_marks"]
    assert client.post(link + "/preview", json={"steps": ""}).get_json()["draft_marks"] == {}
    assert client.post(link + "/preview",
                       json={"steps": "place 9 NW -"}).get_json()["draft_marks"] == {}


def test_the_preview_fragment_outlines_the_chosen_cube_on_the_tower_after_it(app, client, actions):
    game = new_game(app)
    link, step = placed(app, client, actions, game, 5)
    fragment = page(client.post(link + "/preview", data={"steps": step},
                                headers={"Accept": "text/html"}))
    picture = fragment.one("svg", "towerpic")
    assert picture.attrs["data-cubes"] == "6"
    assert [g.attrs["data-corner"] for g in picture.all("g", "last")] == [step.split()[2]]
    assert fragment.one("span", "lastmark").text() == "your placement"


def test_without_javascript_the_draft_page_previews_the_tower_after_the_placement(
        app, client, actions):
    game = new_game(app)
    link, step = placed(app, client, actions, game, 5)
    cube, corner = step.split()[1:3]
    # The confirmation's "No, back to editing" posts the draft back to the turn page.
    confirmation = page(client.post(link, data={"compose": step, "action": "confirm"}))
    back = confirmation.one("button", value="preview")
    assert back.attrs["name"] == "action"
    shown = page(client.post(link, data={"steps": step, "action": "preview"}))
    preview = shown.one("section", "towerpreview")
    assert preview.one("h2").text() == "Your placement"
    words = GAME.explain(None, 0, step)[0]
    assert preview.one("p", "words").text() == words[0].upper() + words[1:] + "."
    picture = preview.one("svg", "towerpic")
    assert picture.attrs["data-cubes"] == "6"
    assert [g.attrs["data-corner"] for g in picture.all("g", "last")] == [corner]
    assert preview.one("span", "lastmark").text() == "your placement"
    assert [c.one("span", "cube").text() for c in preview.all("div", "last")] == [cube]
    # On to the confirmation with the same step; the other ways are still offered below it.
    form = preview.one("form", "placeit")
    assert form.one("input", type="hidden", name="steps").attrs["value"] == step
    assert form.one("button", name="action").attrs["value"] == "confirm"
    assert shown.one("form", "towerplace").all("button", name="compose", value=step)
    # The tower as it stands is still drawn above, the opponent's last cube marked there.
    board = [s for s in shown.all("svg", "towerpic") if s not in preview.all("svg", "towerpic")]
    assert [b.attrs["data-cubes"] for b in board] == ["5"]
    assert board[0].all("g", "last")
    # A page with no draft, or an illegal one, has no preview.
    assert not page(client.get(link)).all("section", "towerpreview")
    refused = client.post(link, data={"steps": "place 9 NW -", "action": "preview"})
    assert not page(refused).all("section", "towerpreview")
