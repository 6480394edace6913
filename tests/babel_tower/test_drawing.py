"""The tower's picture (drawing.py): what it draws from a view, in which order, and what it marks."""

from __future__ import annotations

from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.drawing import drawing, last_placed
from pbem.games.rng import Rng


def played(placements: int, seed: int = 5):
    """A random game with `placements` cubes on the tower (a random deal)."""
    state = GAME.start(seed, {"draft": "random"}, 2, 0)
    rng = Rng(seed)
    steps = []
    while state.placed() < placements and not GAME.is_over(state):
        step = GAME.random_submission(state, state.to_move, rng)
        steps.append(step)
        state = GAME.apply(state, GAME.decide(state, state.to_move, step))
    return state, steps


def test_every_placed_cube_is_drawn_with_a_stud_or_dent_on_each_face_it_shows():
    state, steps = played(9)
    view = GAME.view(state, None)
    picture = drawing(view)
    assert len(picture["cubes"]) == state.placed()
    for cube in picture["cubes"]:
        cell = view["floors"][cube["floor"] - 1][cube["corner"]]
        assert [f["face"] for f in cube["faces"]] == ["U", "S", "E"]
        assert {f["face"]: f["bump"] for f in cube["faces"]} == {f: f in cell["bumps"] for f in "USE"}
        assert f"a {cell['cube']}," in cube["title"]
    # The free corners of the floor being built are drawn too, to tap.
    assert {f["corner"] for f in picture["free"]} == {
        c for c, p in view["floors"][view["floor"]].items() if p is None}


def test_floors_are_painted_upwards_and_back_to_front():
    state, _ = played(10)
    painted = drawing(GAME.view(state, None))["painted"]
    order = [(p["floor"], {"NW": 0, "NE": 1, "SW": 1, "SE": 2}[p["corner"]]) for p in painted]
    assert order == sorted(order)
    assert len(painted) == 12      # two floors and a half: ten cubes and two free corners


def test_the_picture_grows_with_the_tower():
    low = drawing(GAME.view(played(1)[0], None))
    high = drawing(GAME.view(played(13)[0], None))
    assert float(high["height"]) > float(low["height"])
    assert high["width"] == low["width"]


def test_the_last_placed_cube_is_the_highest_at_its_corner():
    state, steps = played(6)
    view = GAME.view(state, None)
    last = steps[-1]
    corner = last.split()[2]
    floor, where = last_placed(view, last)
    assert where == corner and view["floors"][floor][corner] is not None
    assert all(view["floors"][f][corner] is None for f in range(floor + 1, 6))
    marked = [c for c in drawing(view, last)["cubes"] if c["last"]]
    assert [(c["floor"] - 1, c["corner"]) for c in marked] == [(floor, corner)]
    assert last_placed(view, "pick 3") is None and last_placed(view, None) is None
    assert not any(c["last"] for c in drawing(view, "pick 3")["cubes"])


def test_the_marked_cube_is_the_one_the_step_placed_even_with_a_cube_above_it():
    """The waiting player's page marks the opponent's last cube, which may have one of his own
    above it by now: the mark goes to the cube of that type and those bumps."""
    view = {"floor": 2, "phase": "build", "floors": [
        {c: {"cube": 1, "bumps": "S", "seat": 0} for c in ("NW", "NE", "SW", "SE")},
        {"SE": {"cube": 3, "bumps": "DNW", "seat": 1}, "NW": None, "NE": None, "SW": None},
        {}, {}, {}, {}]}
    view["floors"][0]["SE"] = {"cube": 2, "bumps": "NW", "seat": 1}
    assert last_placed(view, "place 2 SE WN") == (0, "SE")       # faces in any order
    assert last_placed(view, "place 3 SE DNW") == (1, "SE")
    assert last_placed(view, "place 4 SE UDNE") is None           # not on the tower
    assert last_placed(view, "place 9 XX") is None                # not a step at all
