"""A player who left a game of three or four (a computer took his seat): what he reads of its
end, and what his links still do.

The game is a random four-player Babylonia whose winner is known in advance (the engine is
played through once on its own, with the same seed and the same decisions), so that the
player who leaves is the one whose seat the computer goes on to win: his result must still
be that he left, never "You win", on his page, in his JSON, his mail, his home and the stored
result; and his links show the game but act no more (messages, notes, language, vacation,
mail replies), refused with nothing written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select
from tests.conftest import links_in, text_of

from pbem import games
from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.play import rematch, turns
from pbem.players import settings
from pbem.store import gamelog
from pbem.store.models import GameResult, Message, Note, Seat, Vacation
from pbem_web import deliver, seat_path  # tests/helpers

JSON = {"Accept": "application/json"}
PLAYERS = [("Anna", "anna@example.org"), ("Bob", "bob@example.org"),
           ("Carl", "carl@example.org"), ("Dora", "dora@example.org")]
LEAVES_AFTER = 6    # decisions made before the winner's player resigns


@dataclass(frozen=True)
class Plan:
    seed: int        # the game's seed
    play: int        # the seed of the random decisions
    winner: int      # the seat that wins (its player leaves: the computer wins it)


def plan() -> Plan:
    """A seed whose random game has one winner, not seat 0 (the creator), played through the
    engine alone: the same decisions through the server make the same game."""
    engine = games.get("babylonia")
    for seed in range(1, 60):
        state, rng = engine.start(seed, {}, 4, 0), Rng(seed * 7)
        while engine.outcome(state) is None:
            seat = engine.to_act(state)[0].seat
            state = engine.apply(state, engine.decide(
                state, seat, engine.random_submission(state, seat, rng)))
        outcome = engine.outcome(state)
        if outcome.winner not in (None, 0):
            return Plan(seed, seed * 7, outcome.winner)
    raise AssertionError("no seed found")


def play_to_the_end(app, game_id: str, rng: Rng, stop_at: int | None = None) -> None:
    """The planned decisions through the turn service: people as the operator, a seat a
    computer took as the computer (so the game is the one planned)."""
    while True:
        with app.app_context():
            loaded = gamelog.load(game_id)
            if loaded.over or loaded.seq == stop_at:
                return
            seat = loaded.engine.to_act(loaded.state)[0].seat
            text = loaded.engine.random_submission(loaded.state, seat, rng)
            by = turns.BOT if gamelog.bot_of(game_id, seat) else turns.OPERATOR
            turns.submit(game_id, seat, loaded.seq, text, turns.Origin(by))


@pytest.fixture(scope="module")
def planned() -> Plan:
    return plan()


def game_left_by_the_winner(app, planned: Plan, finish: bool = True) -> tuple[str, int]:
    """The planned game, its winner's player resigning after a few decisions; played to its
    end unless not `finish`. (game id, the turn the computer plays from)."""
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babylonia", PLAYERS, {}, 0, seed=planned.seed,
                                               takeover="random")).id
    rng = Rng(planned.play)
    play_to_the_end(app, game_id, rng, stop_at=LEAVES_AFTER)
    with app.app_context():
        turns.resign(game_id, planned.winner)
        assert gamelog.bot_of(game_id, planned.winner) == "random"
    if finish:
        play_to_the_end(app, game_id, rng)
    return game_id, LEAVES_AFTER + 1


def count(app, model, *where) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model).where(*where)) or 0


# -- his result ------------------------------------------------------------------------------

def test_a_player_who_left_reads_that_he_left_never_that_he_won(app, client, smtp, planned):
    game_id, turn = game_left_by_the_winner(app, planned)
    leaver = planned.winner
    name, address = PLAYERS[leaver]
    with app.app_context():
        loaded = gamelog.load(game_id)
        assert loaded.engine.outcome(loaded.state).winner == leaver   # the computer won it
    left = f"You left at turn {turn}; the computer that took your seat finished in place 1 of 4"

    # His game-over mail
    deliver(app)
    over = text_of(smtp.to(address)[-1])
    assert "is over" in over and left in " ".join(over.split())
    assert "You win" not in over
    # His page: no win, no rematch to ask for, nothing "until your next turn"
    path = seat_path(app, game_id, leaver)
    page = client.get(path).get_data(as_text=True)
    assert left in page and "You win" not in page
    assert "/rematch" not in page and "until your next turn" not in page
    # His JSON
    view = client.get(path, headers=JSON).get_json()
    assert view["ending"].startswith(left) and "You win" not in view["ending"]
    assert view["left"] == {"turn": turn, "place": 1}
    # His home, page and JSON
    with app.app_context():
        home = settings.home_url(address).removeprefix("http://pbem.test")
    entry = next(g for g in client.get(home, headers=JSON).get_json()["games"]
                 if g["game"] == game_id)
    assert entry["outcome"] == left
    home_page = client.get(home).get_data(as_text=True)
    finished = re.search(rf'<li class="game finished" data-game="{game_id}">.*?</li>',
                         home_page, re.S).group(0)
    assert left in finished and "You won" not in finished and "rematch" not in finished
    # The stored result says who left: the computer's win is not his
    with app.app_context():
        result = db.session.get(GameResult, game_id)
        assert result.winners == [leaver] and result.left == {str(leaver): turn}
        assert result.places[leaver] == 1 and sorted(result.places) == [1, 2, 3, 4]
        # Nor may he ask for a rematch (the others may ask him)
        with pytest.raises(BadInput):
            rematch.ask(game_id, leaver)
    assert client.post(path + "/rematch").status_code == 400

    # The others read who won: the seat, named as the computer's since that turn
    other = next(s for s in range(4) if s != leaver)
    theirs = client.get(seat_path(app, game_id, other), headers=JSON).get_json()
    assert theirs["ending"].startswith(f"{name} (bot from turn {turn}) wins")
    assert theirs["left"] is None


def test_a_player_whose_computer_finished_lower_reads_its_place(app, client, planned):
    """The same game, left by another player: his computer did not win."""
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babylonia", PLAYERS, {}, 0, seed=planned.seed,
                                               takeover="random")).id
    rng = Rng(planned.play)
    play_to_the_end(app, game_id, rng, stop_at=LEAVES_AFTER)
    leaver = next(s for s in (1, 2, 3) if s != planned.winner)
    with app.app_context():
        turns.resign(game_id, leaver)
    play_to_the_end(app, game_id, rng)
    with app.app_context():
        loaded = gamelog.load(game_id)
        place = loaded.engine.places(loaded.state)[leaver]
        assert db.session.get(GameResult, game_id).left == {str(leaver): LEAVES_AFTER + 1}
    view = client.get(seat_path(app, game_id, leaver), headers=JSON).get_json()
    assert place > 1
    assert view["ending"].startswith(f"You left at turn {LEAVES_AFTER + 1}; the computer that "
                                     f"took your seat finished in place {place} of 4. ")


# -- his links act no more -------------------------------------------------------------------

def test_a_player_who_left_cannot_say_note_change_language_or_take_vacation(app, client, planned):
    game_id, turn = game_left_by_the_winner(app, planned, finish=False)
    leaver = planned.winner
    path = seat_path(app, game_id, leaver)
    page = client.get(path).get_data(as_text=True)
    # His page offers none of it, and has no next turn to speak of
    assert "on the board." in page and "until your next turn" not in page
    for form in ("/messages", "/notes", "/language", "/vacation"):
        assert f'action="{path}{form}"' not in page, form
    attempts = [("/messages", {"message": "I am back"}), ("/notes", {"notes": "mine"}),
                ("/language", {"language": "de"}), ("/vacation", {"days": 2})]
    for route, body in attempts:
        as_json = client.post(path + route, json=body, headers=JSON)
        assert as_json.status_code == 409, (route, as_json.get_json())
        assert "You left this game" in as_json.get_json()["error"]
        as_form = client.post(path + route, data=body)
        assert as_form.status_code == 409 and "You left this game" in as_form.get_data(as_text=True)
    assert count(app, Message, Message.game_id == game_id) == 0
    assert count(app, Note, Note.game_id == game_id) == 0
    assert count(app, Vacation) == 0
    with app.app_context():
        assert db.session.get(Seat, (game_id, leaver)).language == "en"
    # Who has not left still may
    other = next(s for s in range(4) if s != leaver)
    assert client.post(seat_path(app, game_id, other) + "/messages", json={"message": "hi"},
                       headers=JSON).status_code == 200
    assert count(app, Message, Message.game_id == game_id) == 1


def test_a_player_who_left_has_his_mail_replies_refused(app, client, smtp, planned):
    from email.message import EmailMessage

    from pbem.inbound.ingest import ingest_bytes
    from pbem.mail.replies import reply_address
    game_id, _ = game_left_by_the_winner(app, planned, finish=False)
    leaver = planned.winner
    name, address = PLAYERS[leaver]
    with app.app_context():
        loaded = gamelog.load(game_id)
        to = reply_address(game_id, leaver, loaded.seq)

    def reply(body: str) -> str:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{name} <{address}>", to, "Re: your turn"
        msg.set_content(body)
        with app.app_context():
            return ingest_bytes(msg.as_bytes(), [to]).status

    deliver(app)
    before = len(smtp.to(address))
    assert reply("say I am back") == "refused"
    assert reply("farmer a1") == "refused"
    assert count(app, Message, Message.game_id == game_id) == 0
    deliver(app)
    refusals = [text_of(m) for m in smtp.to(address)[before:]]
    assert len(refusals) == 2 and all("You left this game" in " ".join(t.split())
                                      for t in refusals)


# -- nobody to talk to -------------------------------------------------------------------------

def test_no_message_box_or_say_hint_where_every_other_seat_is_a_computer(app, client, smtp):
    with app.app_context():
        alone = turns.create_game(turns.Spec("babylonia", [("Anna", PLAYERS[0][1]), ("", ""), ("", "")],
                                             {}, 0, bots=(None, "random", "random"))).id
        company = turns.create_game(turns.Spec("babylonia", [*PLAYERS[:2], ("", "")], {}, 0,
                                               bots=(None, None, "random"))).id
    deliver(app)
    mails = {m["Message-ID"].split(".")[0].strip("<"): m for m in smtp.to(PLAYERS[0][1])}
    for game_id, talks in ((alone, False), (company, True)):
        for path in (seat_path(app, game_id, 0),
                     links_in(mails[game_id])["turn"]):    # her standing page, her turn page
            page = client.get(path).get_data(as_text=True)
            assert ('name="message"' in page) is talks, (game_id, path)
            assert ('id="talk"' in page) is talks, (game_id, path)
        assert ('"say "' in text_of(mails[game_id])) is talks
        assert (client.get(seat_path(app, game_id, 0), headers=JSON).get_json()["can_talk"]
                is talks)


# -- the takeover told --------------------------------------------------------------------------

def test_the_takeover_mail_does_not_assume_the_leaver_is_a_man(app, smtp):
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babylonia", PLAYERS, {}, 0,
                                               languages=("en", "de", "cs", "en"))).id
        turns.resign(game_id, 3)    # Dora
    deliver(app)
    said = {address: smtp.to(address)[-1] for _, address in PLAYERS[:3]}
    subjects = {address: str(m["Subject"]) for address, m in said.items()}
    assert subjects[PLAYERS[0][1]].endswith(": Dora left; a computer plays that seat now")
    assert subjects[PLAYERS[1][1]].endswith(": Dora ist ausgestiegen; jetzt spielt ein Computer "
                                            "diesen Platz")
    assert subjects[PLAYERS[2][1]].endswith(": Dora odchází ze hry; místo teď hraje počítač")
    bodies = " ".join(" ".join(text_of(m).split()) for m in said.values())
    assert "to Dora vzdává" in bodies and "Dora resigned" in bodies
    for his in ("him", "his", "für ihn", "něj", "vzdal(a)", "opustil"):
        assert not re.search(rf"\b{re.escape(his)}\b", bodies + " ".join(subjects.values())), his


# -- who won and why, on the record and the operator's page -------------------------------------

def test_the_record_and_the_operators_page_say_who_won_and_why(make_app, smtp, planned):
    from tests.web.test_operator_page import OPERATOR, sign_in
    app = make_app(ADMIN_EMAIL=OPERATOR)
    client = app.test_client()
    game_id, turn = game_left_by_the_winner(app, planned)
    name = PLAYERS[planned.winner][0]
    said = f"{name} (bot from turn {turn}) wins: "
    record = client.get(f"/games/{game_id}/record").get_data(as_text=True)
    result = " ".join(re.search(r'<p class="status">(.*?)</p>', record, re.S).group(1).split())
    assert said in result and "Points: " in result and "cities left on the board" in result
    assert "most points wins" not in result          # the rule is no explanation
    data = client.get(f"/games/{game_id}/record", headers=JSON).get_json()
    assert data["ending"].startswith(said)
    sign_in(app, client, smtp)
    for path in ("/admin", f"/admin/games/{game_id}"):
        page = " ".join(client.get(path).get_data(as_text=True).split())
        assert said in page and "Points: " in page, path


def test_the_tower_records_chart_counts_cubes_placed(app, client):
    with app.app_context():
        game_id = turns.create_game(turns.Spec("babel-tower", PLAYERS[:2], {}, 0)).id
    page = client.get(f"/games/{game_id}/record").get_data(as_text=True)
    assert 'class="axistitle">cubes placed</text>' in page
    with app.app_context():
        other = turns.create_game(turns.Spec("babylonia", PLAYERS[:2], {}, 0)).id
    assert 'class="axistitle">score</text>' in client.get(f"/games/{other}/record").get_data(
        as_text=True)
