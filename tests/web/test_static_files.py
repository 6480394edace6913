"""Static files: the shared stylesheet and script name no game; each game's own styles and script
live beside its templates, are served like static files, and are linked on its pages only.

A game's words are derived from the registry (each installed game's name and title) and from
the game's own files (the classes and custom properties its stylesheet defines, the classes
its templates use), so a game added later is checked without changing this file.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbem import games
from pbem.policy import links
from pbem_web import started  # tests/helpers

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SHARED_CSS = ROOT / "static" / "pbem.css"
SHARED_JS = ROOT / "static" / "pbem.js"
NAMES = list(games.INSTALLED)

CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
CSS_CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")            # .card, .t-A (not .5rem)
CSS_PROPERTY = re.compile(r"(--[\w-]+)\s*:")                 # a custom property defined
CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
JINJA = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.DOTALL)
JS_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
JS_CLASS_CALL = re.compile(r'classList\.\w+\(\s*"([\w-]+)"|className\s*=\s*"([^"]*)"')
JS_SETS_CLASS = re.compile(r'classList\.(?:add|toggle)\(\s*"([\w-]+)"|className\s*=\s*"([^"]*)"')


def game_folder(name: str) -> Path:
    return TEMPLATES / "games" / name


def own_file(name: str, suffix: str) -> Path | None:
    path = game_folder(name) / f"{name}.{suffix}"
    return path if path.is_file() else None


def css_classes(css: str) -> set[str]:
    return set(CSS_CLASS.findall(CSS_COMMENT.sub("", css)))


def template_classes(text: str) -> set[str]:
    """The literal class names of a template's class attributes (not those Jinja computes:
    `seat{{ s }}` or `t-{{ c }}` are no class name here)."""
    found = set()
    for value in CLASS_ATTRIBUTE.findall(JINJA.sub(lambda m: " " if m[0][1] in "%#" else "\0", text)):
        found.update(word for word in value.split() if re.fullmatch(r"[A-Za-z_][\w-]*", word))
    return found


def js_strings(js: str) -> list[str]:
    return [a or b for a, b in JS_STRING.findall(js)]


def shared_vocabulary() -> set[str]:
    """Classes the shared layer itself puts on pages: those of the templates outside
    templates/games/ (`current` on the record's turn list) and those pbem.js sets (`playable`
    and `chosen` on a board's places). A game may style them on its own elements."""
    words = set()
    for path in TEMPLATES.rglob("*.html"):
        if "games" not in path.relative_to(TEMPLATES).parts:
            words |= template_classes(path.read_text(encoding="utf-8"))
    for added, assigned in JS_SETS_CLASS.findall(SHARED_JS.read_text(encoding="utf-8")):
        words.update((added + " " + assigned).split())
    return words


def game_words(name: str) -> set[str]:
    """The game's name and the words of its title: "babel-tower", "babel", "tower", "cuboro"."""
    title = games.get(name).title
    return {name.lower()} | {w.lower() for w in re.split(r"[^\w-]+", f"{name} {title}") + name.split("-")
                             if len(w) >= 4}


def game_classes(name: str) -> set[str]:
    """A game's own classes: those its stylesheet defines, and those its templates use that the
    shared stylesheet does not style; but not the shared vocabulary."""
    own = css_classes(own_file(name, "css").read_text(encoding="utf-8")) if own_file(name, "css") else set()
    used = set()
    for path in game_folder(name).glob("*.html"):
        used |= template_classes(path.read_text(encoding="utf-8"))
    return (own | (used - css_classes(SHARED_CSS.read_text(encoding="utf-8")))) - shared_vocabulary()


def game_properties(name: str) -> set[str]:
    css = own_file(name, "css")
    return set(CSS_PROPERTY.findall(CSS_COMMENT.sub("", css.read_text(encoding="utf-8")))) if css else set()


def css_offences(css: str, name: str) -> list[str]:
    """Where a stylesheet names the game `name`: its words anywhere (comments too), its classes
    in selectors, its custom properties."""
    found = [w for w in game_words(name) if w in css.lower()]
    rules = CSS_COMMENT.sub("", css)
    found += [f".{c}" for c in game_classes(name)
              if re.search(r"\." + re.escape(c) + r"(?![\w-])", rules)]
    found += [p for p in game_properties(name) if re.search(re.escape(p) + r"(?![\w-])", rules)]
    return sorted(found)


def script_classes(js: str) -> set[str]:
    """The classes a script names: in selectors (`"form.discard"`) and the classes it sets."""
    words = set()
    for call, assigned in JS_CLASS_CALL.findall(js):
        words.update((call + " " + assigned).split())
    for string in js_strings(js):
        words.update(CSS_CLASS.findall(string))
    return words


def js_offences(js: str, name: str) -> list[str]:
    """Where a script names the game `name`: its words anywhere (comments too), its classes."""
    found = [w for w in game_words(name) if w in js.lower()]
    found += sorted(game_classes(name) & script_classes(js))
    return sorted(found)


# -- the shared files name no game ------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_shared_stylesheet_names_no_game(name):
    assert css_offences(SHARED_CSS.read_text(encoding="utf-8"), name) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_shared_script_names_no_game(name):
    assert js_offences(SHARED_JS.read_text(encoding="utf-8"), name) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_checks_would_catch_a_games_rules_in_the_shared_files(name):
    """The words are not empty: each game's own stylesheet, pasted into the shared one, fails."""
    assert game_words(name) >= {name}
    css = own_file(name, "css")
    assert css, f"{name} has no stylesheet beside its templates"
    offences = css_offences(SHARED_CSS.read_text(encoding="utf-8") + css.read_text(encoding="utf-8"), name)
    assert len(offences) >= 5, offences
    assert js_offences(f'document.querySelector("section.{sorted(game_classes(name))[0]}");', name)


def test_the_derived_words_hold_what_each_game_owns():
    assert {"babel", "babylonia", "tower", "cuboro"} <= set().union(*map(game_words, NAMES))
    assert {"territory", "card", "pickcard", "discard", "still"} <= game_classes("babel")
    assert {"--A", "--S"} <= game_properties("babel")
    assert {"floor", "cell", "tcube", "placing"} <= game_classes("babel-tower")
    assert {"hexmap", "hx", "chip", "zcard"} <= game_classes("babylonia")
    assert {"current", "playable", "chosen"} <= shared_vocabulary()          # the shared layer's
    assert not {"board", "side", "score", "empty", "note"} & set().union(*map(game_classes, NAMES))


def test_babels_discard_counter_is_babels():
    js = own_file("babel", "js").read_text(encoding="utf-8")
    assert 'document.querySelector("form.discard")' in js and "dataset.owed" in js
    assert "discard" not in SHARED_JS.read_text(encoding="utf-8")


# -- each game's files are served like static files -------------------------------------------

def served_files():
    return [(name, path.name) for name in NAMES for path in sorted(game_folder(name).iterdir())
            if path.suffix in (".css", ".js")]


@pytest.mark.parametrize("name, filename", served_files())
def test_a_games_files_are_served_like_static_files(client, name, filename):
    response = client.get(f"/static/games/{name}/{filename}")
    assert response.status_code == 200
    assert response.data == (game_folder(name) / filename).read_bytes()
    assert response.mimetype == {".css": "text/css", ".js": "text/javascript"}[Path(filename).suffix]
    shared = client.get("/static/pbem.css")
    assert response.headers["Cache-Control"] == shared.headers["Cache-Control"]
    assert response.headers["ETag"] and response.headers["Last-Modified"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    again = client.get(f"/static/games/{name}/{filename}",
                       headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and not again.data


@pytest.mark.parametrize("path", [
    "/static/games/chess/chess.css",                 # no such game
    "/static/games/babel/board.html",                # a template's source
    "/static/games/babel/help.html",
    "/static/games/babel/nothing.css",               # no such file
    "/static/games/babylonia/babel.css",             # another game's file
    "/static/games/babel/babel.CSS",
    "/static/games/babel/babel.css.map",
    "/static/games/babel/.babel.css",
    "/static/games/babel/babel.css%00",
    "/static/games/babel/babel.css%00.js",
    "/static/games/babel",
    "/static/games/babel/",
    "/static/games/",
    "/static/games/%2e%2e/base.html",
    "/static/games/%2e%2e/play/page.html",
    "/static/games/..%2f..%2fpbem/config.py",
    "/static/games/babel/..%2f..%2f..%2fpbem%2fconfig.py",
    "/static/games/babel/%2e%2e%2fbabylonia%2fbabylonia.css",
])
def test_anything_else_is_404(client, path):
    response = client.get(path)
    assert response.status_code == 404, (path, response.data[:200])


def test_no_path_leaves_the_games_folders(app, tmp_path, monkeypatch):
    """With a folder of templates holding a stylesheet beside games/, a game named `..` (as
    /static/games/%2e%2e/ arrives) would serve it: only installed games are served."""
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    (folder / "games" / "babel" / "babel.css").write_text(".mine {}")
    (folder / "games" / "babel" / "notes.txt").write_text("notes")
    (folder / "secret.css").write_text(".secret {}")
    (folder / "secret.js").write_text("secret")
    monkeypatch.setattr(app, "template_folder", str(folder))
    client = app.test_client()
    assert client.get("/static/games/babel/babel.css").data == b".mine {}"    # the folder is used
    for path in ("/static/games/%2e%2e/secret.css", "/static/games/../secret.js",
                 "/static/games/babel/%2e%2e%2f%2e%2e%2fsecret.css", "/static/games/babel/notes.txt",
                 "/static/games/babel/..%2f..%2fsecret.css", "/static/games/./babel/babel.css"):
        assert client.get(path).status_code == 404, path
    monkeypatch.setitem(games.INSTALLED, "..", "nowhere:GAME")   # the check that keeps it out
    assert client.get("/static/games/%2e%2e/secret.css").data == b".secret {}"


# -- and linked on that game's pages only ------------------------------------------------------

LINKED = re.compile(r'<link rel="stylesheet" href="([^"]+)">|<script src="([^"]+)" defer></script>')


def linked(html: str) -> tuple[list[str], list[str]]:
    head = html.split("</head>")[0]
    found = LINKED.findall(head)
    return [css for css, _ in found if css], [js for _, js in found if js]


def expected(name: str) -> tuple[list[str], list[str]]:
    return (["/static/pbem.css"] + ([f"/static/games/{name}/{name}.css"] if own_file(name, "css") else []),
            ["/static/pbem.js"] + ([f"/static/games/{name}/{name}.js"] if own_file(name, "js") else []))


def new_game(client, name: str) -> str:
    engine = games.get(name)
    data = {"game": name, "first": "0"}
    for seat in range(engine.min_seats):
        data[f"name{seat}"], data[f"email{seat}"] = f"P{seat}", f"p{seat}@example.org"
    return started(client, client.post("/games", data=data))


@pytest.mark.parametrize("name", NAMES)
def test_a_games_pages_link_its_own_files_after_the_shared_ones(app, client, actions, name):
    game = new_game(client, name)
    with app.app_context():
        turn = links.path(links.TURN, game, 0, 0)
    pages = {"turn page": turn, "seat page": actions.links("p1@example.org")["seat"],
             "record": f"/games/{game}/record", "record, first turn": f"/games/{game}/record?turn=0"}
    others = [other for other in NAMES if other != name]
    for what, path in pages.items():
        response = client.get(path)
        assert response.status_code == 200, what
        html = response.get_data(as_text=True)
        css, js = expected(name)
        if what.startswith("record"):    # the record's own script (▶ Play), shared by every game
            js = js + ["/static/record.js"]
        assert linked(html) == (css, js), what
        for other in others:
            assert f"/static/games/{other}/" not in html, (what, other)
        assert "<style" not in html and " style=" not in html, what        # the CSP allows no inline style
        assert "script-src 'self'; style-src 'self'" in response.headers["Content-Security-Policy"]
        for href in sum(linked(html), []):
            assert client.get(href).status_code == 200, href


def test_pages_that_show_no_game_link_only_the_shared_files(client):
    for path in ("/", "/no-such-page"):
        assert linked(client.get(path).get_data(as_text=True)) == (["/static/pbem.css"], ["/static/pbem.js"])


def test_every_game_has_its_stylesheet_beside_its_templates():
    for name in NAMES:
        assert own_file(name, "css"), name
        assert not list((ROOT / "static").rglob(f"*{name}*")), name


def test_files_are_served_without_touching_the_database(app, client):
    """A stylesheet or script is a file: serving one checks out no database connection."""
    from sqlalchemy import event

    from pbem.extensions import db
    from pbem.web.gamestatic import game_files
    checkouts: list[int] = []

    def count(*args):
        checkouts.append(1)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "checkout", count)
    try:
        with app.test_request_context():
            paths = ["/static/pbem.css", "/static/pbem.js"] + [
                url for name in NAMES for suffix in ("css", "js") for url in game_files(name, suffix)]
        for path in paths:
            assert client.get(path).status_code == 200, path
        assert checkouts == []
        # A page that reads the database does: the listener hears it (the start page reads
        # nothing, and on SQLite a page no longer sets its connection up without a query).
        assert client.get("/games/nosuchgame/record").status_code == 404
        assert checkouts
    finally:
        event.remove(engine, "checkout", count)
