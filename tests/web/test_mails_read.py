"""Mails as players read them in a real client (mutt, 80 columns), and the small things of
issue 17 around them: every text line fits, the HTML invitation shows the game, names
instead of seat numbers, subjects that tell games apart, answers to replies that make sense,
the reply example that fits the decision owed, and words in the singular where there is one.

Mails are read from the outbox (what is sent is its rows: test_mail.py sends them over SMTP).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from league_mails import every_league_mail  # tests/helpers
from pbem.games.errors import GameError
from pbem.games.rng import Rng
from pbem.play import home_link
from pbem.players import settings
from pbem.views import homeview
from pbem_web import html_of, link_mails, outbox, play, play_until_owed, reply_to, text_of, too_long

ROOT = Path(__file__).resolve().parents[2]
#: Long names, as people write them: the lines naming them are the long ones.
LONG = ("Anna Katharina von Hohenzollern-Sigmaringen", "Bob",
        "Carl-Friedrich Müller-Lüdenscheidt")
EMAILS = ("anna@example.org", "bob@example.org", "carl@example.org")
WIDTH = 78






def new_game(app, kind: str, players: int, options=None, first: int | None = 0,
             names=LONG) -> str:
    from pbem.play import turns
    with app.app_context():
        spec = turns.Spec(kind, list(zip(names[:players], EMAILS[:players])), options or {}, first)
        return turns.create_game(spec).id




def loaded_game(app, game: str):
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        assert loaded.events is not None   # (read lazily: now, inside the app)
        return loaded


# -- every mail fits 80 columns --------------------------------------------------------------

def every_other_mail(app, client, game: str) -> None:
    """The mails a game's players get besides invitations, turns and the end: links, a
    replacement, a bounce, answers to replies, reminders, the links to all games, sign-in."""
    from pbem.extensions import db
    from pbem.inbound.ingest import STALE
    from pbem.mail import notify
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        link_mails(loaded)
        error = GameError("step 2 (settle P): you hold no Persian card to settle the Persians "
                          "with; settle a tribe whose cards you hold.")
        notify.reply_failed(loaded, 0, error, "move M\nsettle P\n> quoted line", None)
        notify.reply_refused(loaded, 0, STALE, None)
        listed = homeview.build(EMAILS[0])
        entries = [homeview.links_entry(e) for e in listed.yours + listed.others]
        if entries:
            notify.seat_links(EMAILS[0], entries + entries, settings.home_url(EMAILS[0]),
                              listed.games[0].name)
        notify.sign_in("operator@example.org", "http://pbem.test/admin/in/" + "y" * 80, 15)
        db.session.commit()
    later = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    assert app.test_cli_runner().invoke(args=["remind", "--now", later]).exit_code == 0


def every_home_mail(app, game: str, finished: str) -> None:
    """The mails of the home and of words between players: a vacation, a move mailed in
    confirmed, a new home link, a rematch asked and its link from the record, a digest."""
    from pbem.extensions import db
    from pbem.jobs import digest
    from pbem.mail import notify
    from pbem.play import rematch
    from pbem.policy import vacation
    from pbem.store import gamelog
    now = datetime.now(UTC)
    with app.app_context():
        loaded = gamelog.load(game)
        notify.vacation_started(loaded, 0, vacation.Away(now, now + timedelta(days=2), True), 3)
        notify.reply_applied(loaded, 0, "move A\nsettle A", None)
        db.session.commit()
        home_link.replace_home(EMAILS[1])
        rematch.ask(finished, 0)
        rematch.mail_home_for(finished, EMAILS[1], "192.0.2.9")
        settings.change(EMAILS[1], "Europe/Prague", "en", settings.DIGEST, False)
    play_until_owed(app, game, 1, 7)      # Bob's next turn mail is held for his digest
    with app.app_context():
        assert EMAILS[1] in digest.run(datetime.now(UTC))
        db.session.commit()


def every_challenge_mail(app, poster: str, stranger: str) -> None:
    """An open challenge posted (its poster's confirmation), and a stranger's offer to take it
    up (the link that seats him)."""
    from pbem.play import challenges
    from pbem.players import settings
    from pbem.views import challengeview
    with app.app_context():
        language = settings.language_of(poster) or "en"   # (a challenge speaks its own language)
        terms = challengeview.Terms("babylonia", 3, on_time=10, language=language)
        posted = challenges.post(terms, poster, LONG[0], "192.0.2.9").id
        challenges.confirm(posted)
        challenges.ask_to_accept(posted, stranger, LONG[2], language, "192.0.2.9")


def test_every_mail_of_every_game_fits_80_columns(app, client):
    from pbem.play import turns
    from pbem_web import create_by_form
    create_by_form(client, names=LONG[:2], emails=EMAILS[:2])      # the confirmation too
    babel = new_game(app, "babel", 2, {"sumerians": "top-run"})
    assert play(app, babel, 1) > 10
    tower = new_game(app, "babel-tower", 2, {"draft": "pick"})
    play(app, tower, 2)
    babylonia = new_game(app, "babylonia", 3)
    play(app, babylonia, 3)
    left = new_game(app, "babylonia", 3, first=0)   # a player leaves: a computer plays on
    play(app, left, 4, decisions=2)
    with app.app_context():
        turns.resign(left, 2)
    running = new_game(app, "babylonia", 3, first=1)
    play(app, running, 5, decisions=4)
    every_other_mail(app, client, running)
    waiting = new_game(app, "babel", 2, {"sumerians": "top-run"})
    play(app, waiting, 6, decisions=3)
    every_other_mail(app, client, waiting)
    every_home_mail(app, waiting, babel)
    # Public names as long as they may be (40): the final table still fits.
    every_league_mail(app, EMAILS[:2], ("Annabella Maximiliane von Hohenzollern x",
                                        "Bartholomew Fitzgerald-Montgomery Junior"))
    every_challenge_mail(app, EMAILS[0], EMAILS[2])

    mails = outbox(app)
    kinds = {kind for kind, *_ in mails}
    templates = {p.stem for p in (ROOT / "templates" / "mail").glob("*.txt")
                 if not p.stem.startswith("_")}
    assert kinds == templates, templates - kinds        # every kind of mail was read
    games = {game for *_, game in mails if game}
    assert {babel, tower, babylonia, left} <= games
    for kind, subject, text, html, to, _ in mails:
        assert not too_long(text), (kind, subject, to, too_long(text))
        assert "Seat 1" not in text and "Seat 2" not in text, (kind, subject)
        # Each ends with the footer, once: the way to stop all mail last (the HTML's included
        # by its template, the text's added to it).
        if kind == "sign_in":   # the operator's: no player's footer (`compose.OPERATOR_KINDS`)
            assert "\n-- \n" not in text and "/u/" not in text + html, (kind, text)
            continue
        assert text.count("\n-- \n") == 1 and re.search(r"\n  \S+/u/\S+$", text), (kind, text)
        assert html.count("/u/") == 1 and re.search(
            r'/u/[^"]+" style="color:#666">[^<]+</a>\.</p></body></html>$', html), (kind, html)


def test_a_long_line_is_folded_between_words_and_a_link_stays_whole():
    from pbem.mail.compose import fold
    link = "  http://pbem.test/t/" + "a" * 100
    text = "word " * 30 + "\n" + link + "\n  " + "indented " * 12
    folded = fold(text)
    assert not too_long(folded) and link in folded.splitlines()
    assert " ".join(folded.split()) == " ".join(text.split())
    assert all(line.startswith("  ") for line in folded.splitlines()[-2:])   # indented alike


# -- what the mails say --------------------------------------------------------------------

def test_the_html_invitation_shows_the_hand_and_board_its_text_has(app):
    game = new_game(app, "babel", 2, {"sumerians": "top-run"}, names=("Anna", "Bob"))
    (invite,) = [m for m in outbox(app) if m[0] == "invite" and m[4] == EMAILS[0]]
    _, _, text, html, _, _ = invite
    hand = re.search(r"Your hand: ([AHMPS ]+)", text).group(1).strip()
    assert f"Your hand: {hand}" in html and "Columns (top last)" in html
    assert game


def test_babylonia_mails_name_the_players_and_draw_a_board_to_answer_from(app, actions, smtp):
    from pbem.inbound.ingest import ingest_bytes
    game = new_game(app, "babylonia", 3, names=("Anna", "Bob", "Carl"))
    actions.deliver()
    invite = smtp.to(EMAILS[0])[-1]
    text = text_of(invite)
    assert "Seat " not in text and "Seat " not in html_of(invite)
    for name in ("Anna (you):", "Bob:", "Carl:"):
        assert f"\n    {name} 0 points" in text
    assert "Cities and ziggurats, with the hexes around them" in text
    assert re.search(r"\n    [a-q]\d+ city [MOP]+: ", text) and " city MS" not in text
    where = re.search(r"\n    central land: ([a-q]\d+)", text)
    assert where, text
    # Anna, first, plays exactly 1 token of her stand onto a hex the mail lists, by mail.
    kind = re.search(r"\n  Your stand: ([FPMO])", text).group(1)
    word = {"F": "farmer", "P": "priest", "M": "merchant", "O": "official"}[kind]
    with actions.app.app_context():
        result = ingest_bytes(reply_to(invite, f"{word} {where.group(1)}", {}))
    assert result.status == "applied", result
    loaded = loaded_game(actions.app, game)
    assert loaded.events[-1]["seat"] == 0 and where.group(1) in loaded.events[-1]["steps"]
    bob = actions.last_mail(EMAILS[1])   # Bob is next: his turn mail names Anna's turn
    assert "Anna's last turn:" in text_of(bob) and "Bob (you):" in text_of(bob)


def test_a_babylonia_card_mail_lists_the_cards_to_answer_with():
    from pbem.games.babylonia import GAME
    from pbem.games.babylonia.mailboard import lines
    from pbem.games.babylonia.view import view
    from pbem.games.base import StepOption
    state = GAME.start(7, {}, 3, 0)
    text = lines(state, 0, ["Anna", "Bob", "Carl"], view(state, 0), GAME.legal_steps(state, 0))
    assert text[0] == "Players:" and all(len(line) <= 76 for line in text)
    cards = lines(state, 1, ["Anna", "Bob", "Carl"], view(state, 1),
                  [StepOption("card 3", "take card 3"), StepOption("card 5", "take card 5")])
    assert 'Choose one ziggurat card (answer e.g. "card 3"):' in cards
    assert any(line.startswith("  3: ") for line in cards)


def test_games_against_the_same_players_have_subjects_that_tell_them_apart(app):
    names = ("Anna", "Bob")
    first = new_game(app, "babel", 2, {"sumerians": "top-run"}, names=names)
    second = new_game(app, "babel", 2, {"sumerians": "top-run"}, names=names)
    other = new_game(app, "babel-tower", 2, {"draft": "random"}, names=names)
    subjects = {(game, to): subject for kind, subject, _, _, to, game in outbox(app)}
    assert subjects[(first, EMAILS[0])] == "Babel with Bob: your turn"
    assert subjects[(second, EMAILS[0])] == "Babel with Bob (game 2): your turn"
    assert subjects[(second, EMAILS[1])] == "Babel with Anna (game 2): you are invited"
    assert "(game" not in subjects[(other, EMAILS[0])]       # another game: no number
    # The first game keeps its subjects when more are started.
    play(app, first, 1, decisions=1)
    assert outbox(app)[-1][1] == "Babel with Anna: your turn, Bob"
    # A reminder listing both games waiting for Bob tells them apart too.
    play(app, second, 1, decisions=1)
    later = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    assert app.test_cli_runner().invoke(args=["remind", "--now", later]).exit_code == 0
    reminder = [m for m in outbox(app) if m[0] == "reminder" and m[4] == EMAILS[1]][-1][2]
    assert "Babel with Anna: waiting" in reminder
    assert "Babel with Anna (game 2): waiting" in reminder


def test_an_empty_reply_is_not_answered_with_the_quoted_mail_as_steps(app, actions, smtp):
    from pbem.inbound.ingest import ingest_bytes
    new_game(app, "babel", 2, {"sumerians": "top-run"}, names=("Anna", "Bob"))
    invite = actions.last_mail(EMAILS[0])
    # Nothing above the quote (a blank reply, quote header and all): read below it, no steps.
    with app.app_context():
        result = ingest_bytes(reply_to(invite, "", {}))
    assert result.status == "failed"
    answer = actions.last_mail(EMAILS[0])
    text = text_of(answer)
    assert "What we read as your steps" not in text and "> Hello" not in text
    assert "We found no steps in it: only the mail you quoted" in text


def test_a_word_after_the_end_of_the_game_gets_no_answer(app, actions, smtp):
    from pbem.inbound.ingest import ingest_bytes
    from pbem.play import turns
    game = new_game(app, "babel", 2, {"sumerians": "top-run"}, names=("Anna", "Bob"))
    invite = actions.last_mail(EMAILS[0])        # asks for Anna's turn: it has a reply token
    with app.app_context():
        turns.resign(game, 1)                     # Bob resigns: the game is over
    actions.deliver()
    mails = len(outbox(app))
    with app.app_context():
        result = ingest_bytes(reply_to(invite, "Good game, Bob!", {}))
    assert result.status == "ignored" and result.game_id == game
    assert len(outbox(app)) == mails              # no "use your latest turn link"
    assert loaded_game(app, game).over


def test_the_game_over_mail_reads_as_a_sentence_for_three(app):
    from pbem.play import turns
    game = new_game(app, "babylonia", 3, names=("Anna", "Bob", "Carl"))
    with app.app_context():
        turns.abort(game, "The club closed.")
    text = [m for m in outbox(app) if m[0] == "over" and m[4] == EMAILS[0]][-1][2]
    assert "your game of Babylonia with Bob and Carl is over." in text
    assert "is over: Anna, Bob and Carl" not in text


# -- the reply example fits the decision owed -------------------------------------------------

def test_babel_tower_mails_ask_for_a_pick_in_the_draft_and_count_cubes_placed(app, client):
    game = new_game(app, "babel-tower", 2, {"draft": "pick"}, names=("Anna", "Bob"))
    (invite,) = [m for m in outbox(app) if m[0] == "invite" and m[4] == EMAILS[0]]
    text = invite[2]
    example = re.search(r'\(e\.g\. "([^"]+)"\)', text).group(1)
    assert re.fullmatch(r"pick [0-4]", example) and "place 3 SW UNE" not in text
    assert "Answer with one pick" in text
    play(app, game, 1, decisions=1)
    turn = outbox(app)[-1]
    assert turn[0] == "turn" and "Cubes placed: Anna 0, Bob 0." in turn[2]
    assert "Scores" not in turn[2] and "Scores" not in turn[3]
    record = client.get(f"/games/{game}/record").data.decode()
    assert "<h2>Cubes placed</h2>" in record and "<h2>Scores</h2>" not in record


def test_the_halving_mail_says_the_discards_go_alone_and_the_turn_mail_follows():
    from pbem.games.babel import GAME

    def halving(seed: int):
        state, rng = GAME.start(seed, {"sumerians": "top-run"}, 2, 0), Rng(seed)
        while GAME.to_act(state):
            decision = GAME.to_act(state)[0]
            if decision.kind == "discard":
                return state, decision
            text = GAME.random_submission(state, decision.seat, rng)
            state = GAME.apply(state, GAME.decide(state, decision.seat, text))
        return None

    state, decision = next(found for found in map(halving, range(1, 200)) if found)
    due = state.discards_due(decision.seat)
    example, note = GAME.reply_help(state, decision.seat)
    assert GAME.draft(state, decision.seat, example).done          # the example is the answer
    assert "alone" in note and "follows at once" in note
    assert "then play your turn" not in decision.label
    assert f"discard {due} card" in decision.label


# -- small things ---------------------------------------------------------------------------

def test_words_in_the_singular_where_there_is_one():
    from pbem.games.words import count
    from pbem.views.words import hours_and_days, plural
    assert (plural(1, "discard"), plural(2, "discard"), plural(0, "hour")) == \
        ("1 discard", "2 discards", "0 hours")
    assert (plural(1.0, "hour"), plural(1.5, "hour")) == ("1 hour", "1.5 hours")   # (settings)
    assert count(1, "discard") == "1 discard" and count(3, "card") == "3 cards"
    assert [hours_and_days(h) for h in (1, 5, 24, 25, 49)] == \
        ["1 hour", "5 hours", "1 day", "1 day 1 hour", "2 days 1 hour"]


def test_city_tiles_mark_officials_o_like_the_tokens(client, app):
    from pbem.games.babylonia import GAME
    from pbem.games.babylonia.view import shown_tile, view
    assert shown_tile("city MS") == "city MO" and shown_tile("field 5") == "field 5"
    assert shown_tile("cities in front, after the city SP at f10") == \
        "cities in front, after the city OP at f10"
    state = GAME.start(3, {}, 3, 0)
    assert any("S" in t for t in state.tiles.values() if t.startswith("city"))
    seen = view(state, 0)
    assert not [h for h in seen["hexes"] if (h["tile"] or "").startswith("city")
                and "S" in h["tile"]]
    from pbem.policy import links
    from pbem.store import gamelog
    game = new_game(app, "babylonia", 3, names=("Anna", "Bob", "Carl"))
    with app.app_context():
        path = links.path(links.SEAT, game, 0, gamelog.current_nonce(game, 0))
    page = client.get(path).data.decode()
    assert "O official" in page and "S official" not in page


def test_a_broken_link_says_what_happened_and_offers_the_lost_links_form(client, actions):
    actions.create(first=0)
    turn = actions.links(EMAILS[0])["turn"]
    for path in (turn[:-4] + "AAAA", "/t/garbage", "/s/nothing-here"):
        page = client.get(path)
        assert page.status_code == 403
        html = page.data.decode()
        assert "This link does not work" in html and "broken or unknown" in html
        assert "Lost your links?" in html and '<form method="post" action="/links">' in html
        assert "Forbidden." not in html
    # The form there mails the links of an address (to that address only).
    assert client.post("/links", data={"email": EMAILS[0]}).status_code in (200, 202, 303)


def test_babylonias_text_board_shows_nothing_the_seat_may_not_know():
    """A mail's board is the same in states that differ only in what the seat may not know."""
    from babylonia_twins import hide_all, redeal, shuffle_supply, turn_down_token
    from pbem.games.babylonia import GAME
    from pbem.games.babylonia.cli import walk
    names = ["Anna", "Bob", "Carl", "Dora"]
    checked = 0
    for seed, players in ((11, 3), (12, 2), (13, 4)):
        for n, (_, state) in enumerate(walk(seed, players, "basic", greedy=True)):
            if n % 5 or state.result is not None:
                continue
            for seat in range(players):
                rng = Rng.derived(seed * 100 + n, f"twins {seat}")
                before = GAME.summary(state, seat, names[:players])
                other = (seat + 1) % players
                for change, whose in ((redeal, other), (turn_down_token, other),
                                      (shuffle_supply, other), (hide_all, seat)):
                    twin = state.copy()
                    change(twin, whose, rng)
                    assert GAME.summary(twin, seat, names[:players]) == before
                    checked += 1
    assert checked > 50


def test_a_genuine_link_to_a_game_that_is_gone_points_to_lost_links_too(app, client):
    from pbem.policy import links
    with app.app_context():
        gone = links.path(links.TURN, "nosuchgame", 0, 0)
    page = client.get(gone)
    assert page.status_code == 404
    html = page.data.decode()
    assert "There is no such game." in html and "Lost your links?" in html
    assert client.get(gone, headers={"Accept": "application/json"}).get_json() == \
        {"error": "There is no such game."}
    assert "Lost your links?" not in client.get("/games/nosuchgame/record").data.decode()


def test_a_one_day_time_limit_reads_one_day(app, client):
    from pbem.play import turns
    from pbem.policy import links
    from pbem.store import gamelog
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", EMAILS[0]), ("Bob", EMAILS[1])],
                          {"sumerians": "top-run"}, 0, 1)
        game = turns.create_game(spec).id
        seat = links.path(links.SEAT, game, 0, gamelog.current_nonce(game, 0))
    for path in (seat, f"/games/{game}/record"):
        html = client.get(path).data.decode()
        assert "(1 day a turn)" in html and "1 days" not in html


def test_a_babel_turn_mail_gives_an_example_from_the_players_own_turn(app):
    game = new_game(app, "babel", 2, {"sumerians": "top-run"}, names=("Anna", "Bob"))
    (invite,) = [m for m in outbox(app) if m[0] == "invite" and m[4] == EMAILS[0]]
    example = re.search(r'\(e\.g\. "([^"]+)"\)', invite[2]).group(1)
    loaded = loaded_game(app, game)
    assert example in [o.notation for o in loaded.engine.legal_steps(loaded.state, 0)]
