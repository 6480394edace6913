"""The turn mail tells the others' turns since the reader's own in notation and in words, as
the turn page and the game-over mail do; its text folded for 80 columns (issue 17)."""

from __future__ import annotations

from html_tree import Page
from pbem.games.rng import Rng
from pbem.play import turns
from pbem.store import gamelog
from pbem_web import html_of, text_of  # tests/helpers

ANNA, BOB, CARL = "anna@example.org", "bob@example.org", "carl@example.org"
WEB = turns.Origin(turns.WEB, client="127.0.0.1")


def create(app, kind, players, seed):
    with app.app_context():
        return turns.create_game(turns.Spec(kind, list(players), {}, 0, None, seed)).id


def play_until(app, game: str, rng: Rng, until) -> gamelog.Loaded:
    """Random legal decisions through the turn service until `until(loaded, seat owing)`."""
    for _ in range(500):
        with app.app_context():
            loaded = gamelog.load(game)
            seat = loaded.engine.to_act(loaded.state)[0].seat
            if until(loaded, seat):
                return loaded
            text = loaded.engine.random_submission(loaded.state, seat, Rng(rng.below(1 << 30)))
            turns.submit(game, seat, loaded.seq, text, WEB)
    raise AssertionError("never reached")


def told_to(app, game: str, seat: int) -> list:
    from pbem.views.seatview import told_to as told
    with app.app_context():
        loaded = gamelog.load(game)
        return list(told(loaded, seat, list(loaded.names)))


def paragraphs(html: str) -> list[str]:
    return [" ".join(p.text().split()) for p in Page(html).root.all("p")]


def fits_80_columns(text: str) -> None:
    long = [line for line in text.splitlines() if len(line) > 78 and "://" not in line]
    assert long == [], long


def test_the_opponents_turn_in_words_in_the_turn_mail(app, actions):
    game = create(app, "babel", (("Anna", ANNA), ("Bob", BOB)), seed=7)
    with app.app_context():
        loaded = gamelog.load(game)
        hand = loaded.engine.view(loaded.state, 0)["players"][0]["hand"]
        turns.submit(game, 0, loaded.seq, f"move {hand[0]}\nsettle {hand[1]}\nbuild mine", WEB)
    [told] = told_to(app, game, 1)
    assert told.words.startswith("Anna moved to the ")

    mail = actions.last_mail(BOB)
    assert "your turn" in mail["Subject"]
    text = text_of(mail)
    fits_80_columns(text)
    lines = text.splitlines()
    at = lines.index("Anna's last turn:")
    # As in the game-over mail: the notation a reply would write, then the words, folded.
    assert lines[at + 1] == f"  {told.notation}"
    words = []
    for line in lines[at + 2:]:
        if not line:
            break
        assert line.startswith("  ") and not line.startswith("   ")
        words.append(line.strip())
    assert " ".join(words) == told.words

    html = html_of(mail)
    assert "Anna's last turn:" in paragraphs(html)
    assert " ".join(told.words.split()) in paragraphs(html)
    assert told.notation in html


def test_every_turn_since_the_readers_own_in_a_game_of_three(app, actions):
    players = (("Anna", ANNA), ("Bob", BOB), ("Carl", CARL))
    game = create(app, "babylonia", players, seed=11)
    play_until(app, game, Rng(5), lambda loaded, seat: (
        seat == 0 and sum(e["type"] == "turn" for e in loaded.events) == 3))
    told = told_to(app, game, 0)
    assert [t.name for t in told] == ["Bob", "Carl"]

    mail = actions.last_mail(ANNA)
    assert "your turn" in mail["Subject"]
    text = text_of(mail)
    print(text)                                       # read at 80 columns (pytest -s)
    fits_80_columns(text)
    flat = " ".join(text.split())
    # Each turn in the order played: in notation under its player's name, then in words.
    assert "Since your last turn: " + " ".join(
        " ".join(f"{t.name}: {t.notation} {t.words}".split()) for t in told) in flat

    html = html_of(mail)
    assert "Since your last turn:" in paragraphs(html)
    shown = paragraphs(html)
    assert [" ".join(t.words.split()) for t in told] == [p for p in shown
                                                        if p in {" ".join(t.words.split())
                                                                 for t in told}]
