"""Words between players: by page, by JSON and by mail reply; escaped, capped, rate-limited; in
the next mail each player gets; in the public record only after the end; hidden by the operator.
And private notes, seen by their writer only.

Mail goes through the real SMTP server of the `smtp` fixture; replies come in through
`ingest_bytes` as a mail client writes them (tests/helpers/pbem_web.py `reply_to`).
"""

from __future__ import annotations

import re

from sqlalchemy import func, select

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.store import gamelog
from pbem.store.models import Event, Message
from pbem_web import (  # tests/helpers
    ANNA,
    BOB,
    create,
    deliver,
    html_of,
    reply_to,
    seat_path,
    text_of,
    turn_path,
)

JSON = {"Accept": "application/json"}
NAMES = {ANNA: "Anna", BOB: "Bob"}
SCRIPT = '<script>alert("hi")</script> & <b>bold</b>'




def submission(app, game: str, seed: int = 1) -> tuple[int, str]:
    """The seat to act and a legal whole decision for it."""
    with app.app_context():
        loaded = gamelog.load(game)
        [decision] = loaded.engine.to_act(loaded.state)
        return decision.seat, loaded.engine.random_submission(loaded.state, decision.seat, Rng(seed))


def log_length(app, game: str) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Event)
                                 .where(Event.game_id == game))


def stored(app, game: str) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Message.text).where(Message.game_id == game)
                                       .order_by(Message.id)))


def turn_mails(app, smtp, addr: str) -> list:
    deliver(app)
    return [m for m in smtp.to(addr) if "your turn" in m["Subject"]]


def say(client, app, game, seat, text, **kw):
    return client.post(f"{seat_path(app, game, seat)}/messages", **kw,
                       **({} if "json" in kw else {"data": {"message": text}}))


# -- by page and JSON ---------------------------------------------------------------------------

def test_a_message_from_the_page_shows_escaped_on_every_players_page(app, client):
    game = create(client)
    response = say(client, app, game, 0, SCRIPT)
    assert response.status_code == 303
    assert response.headers["Location"] == f"{seat_path(app, game, 0)}?saved=talk#talk"
    assert stored(app, game) == [SCRIPT]
    for seat in (0, 1):
        page = client.get(seat_path(app, game, seat)).data.decode()
        assert "&lt;script&gt;alert(&#34;hi&#34;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
        assert "<script>alert" not in page and "<b>bold</b>" not in page
        data = client.get(seat_path(app, game, seat), headers=JSON).get_json()
        assert [(m["name"], m["text"]) for m in data["messages"]] == [("Anna", SCRIPT)]
    # On the turn page too (Anna is to act): the same conversation, and a box for words with the turn.
    page = client.get(turn_path(app, game, 0)).data.decode()
    assert "&lt;script&gt;alert" in page and 'name="message"' in page


def test_a_message_by_json_answers_the_seat_view(app, client):
    game = create(client)
    response = client.post(f"{seat_path(app, game, 1)}/messages", json={"message": "  Good luck!  "})
    assert response.status_code == 200
    assert [m["text"] for m in response.get_json()["messages"]] == ["Good luck!"]
    bad = client.post(f"{seat_path(app, game, 1)}/messages", json={"message": 42})
    assert bad.status_code == 400 and '"message"' in bad.get_json()["error"]
    empty = client.post(f"{seat_path(app, game, 1)}/messages", json={"message": " \n "})
    assert empty.status_code == 400
    assert stored(app, game) == ["Good luck!"]


def test_a_message_with_a_turn_reaches_the_next_mail_once(app, client, smtp):
    game = create(client)
    seat, steps = submission(app, game)
    assert seat == 0
    response = client.post(turn_path(app, game, 0), json={"steps": steps, "message": "Your move!"})
    assert response.status_code == 200, response.get_json()
    assert log_length(app, game) == 1 and stored(app, game) == ["Your move!"]
    [mail] = turn_mails(app, smtp, BOB)
    text = text_of(mail)
    assert "Said in this game since your last mail:\n\nAnna (" in text
    assert "\n  Your move!\n" in text
    assert "Your move!" in html_of(mail)
    # Bob answers on the page; Anna's next mail carries his words, and Bob's next one not Anna's again.
    say(client, app, game, 1, "Thanks, and one more thing")
    seat, steps = submission(app, game, 2)
    assert client.post(turn_path(app, game, seat), json={"steps": steps}).status_code == 200
    anna = turn_mails(app, smtp, ANNA)[-1]
    assert "Thanks, and one more thing" in text_of(anna) and "Your move!" not in text_of(anna)
    seat, steps = submission(app, game, 3)
    assert client.post(turn_path(app, game, seat), json={"steps": steps}).status_code == 200
    later = turn_mails(app, smtp, BOB)[-1]
    assert "Said in this game" not in text_of(later)


def test_a_long_message_is_wrapped_for_a_mail_of_80_columns(app, client, smtp):
    game = create(client)
    _, steps = submission(app, game)
    words = " ".join(["Babel"] * 60) + "\n" + "x" * 150
    assert client.post(turn_path(app, game, 0), json={"steps": steps, "message": words}).status_code == 200
    [mail] = turn_mails(app, smtp, BOB)
    text = text_of(mail)
    body = text.split("Said in this game since your last mail:")[1].split("Play your turn")[0]
    assert all(len(line) <= 78 for line in body.splitlines()), body
    assert "x" * 74 in body   # a word longer than a line is broken, not lost


def test_words_with_a_turn_from_the_page_without_javascript(app, client, smtp):
    """The composer's confirmation page carries the message to the submission."""
    game = create(client)
    _, steps = submission(app, game)
    path = turn_path(app, game, 0)
    confirm = client.post(path, data={"steps": steps, "message": "gl <hf>", "action": "confirm"})
    assert confirm.status_code == 200
    page = confirm.data.decode()
    assert 'name="message" value="gl &lt;hf&gt;"' in page
    done = client.post(path, data={"steps": steps, "message": "gl <hf>", "action": "submit"})
    assert done.status_code == 303
    assert stored(app, game) == ["gl <hf>"] and log_length(app, game) == 1


# -- caps ---------------------------------------------------------------------------------------

def test_a_message_over_the_cap_is_refused_and_so_is_its_turn(make_app, smtp):
    app = make_app(MESSAGE_MAX_CHARS=20, SUBMISSIONS_PER_CLIENT_PER_MINUTE=1000,
                   SUBMISSIONS_PER_ADDRESS_PER_MINUTE=1000)
    client = app.test_client()
    game = create(client)
    refused = client.post(f"{seat_path(app, game, 0)}/messages", json={"message": "y" * 21})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == ("Your message is 21 characters long; a message may "
                                           "have at most 20.")
    _, steps = submission(app, game)
    with_turn = client.post(turn_path(app, game, 0), json={"steps": steps, "message": "z" * 21})
    assert with_turn.status_code == 400
    assert stored(app, game) == [] and log_length(app, game) == 0
    assert client.post(f"{seat_path(app, game, 0)}/messages",
                       json={"message": "y" * 20}).status_code == 200


def test_messages_are_rate_limited_per_seat_in_the_database(make_app, smtp):
    app = make_app(MESSAGES_PER_SEAT_PER_HOUR=3)
    client = app.test_client()
    game = create(client)
    for n in range(3):
        assert say(client, app, game, 0, f"message {n}").status_code == 303
    refused = say(client, app, game, 0, "one too many", headers=JSON)
    assert refused.status_code == 429
    assert "please wait a little" in refused.get_json()["error"]
    assert say(client, app, game, 1, "Bob counts on his own").status_code == 303
    assert stored(app, game) == ["message 0", "message 1", "message 2", "Bob counts on his own"]


# -- the record ---------------------------------------------------------------------------------

def test_the_record_shows_messages_only_after_the_game(app, client):
    game = create(client)
    say(client, app, game, 0, "A secret plan <i>")
    record = f"/games/{game}/record"
    assert "A secret plan" not in client.get(record).data.decode()
    assert client.get(record, headers=JSON).get_json()["messages"] == []
    resigned = client.post(f"{seat_path(app, game, 1)}/resign", data={"confirm": "yes"})
    assert resigned.status_code == 303
    page = client.get(record).data.decode()
    assert "A secret plan &lt;i&gt;" in page
    assert [m["text"] for m in client.get(record, headers=JSON).get_json()["messages"]] == [
        "A secret plan <i>"]
    # "Good game" after the end is still possible.
    assert say(client, app, game, 1, "gg").status_code == 303
    assert "gg" in client.get(record).data.decode()


# -- the operator -------------------------------------------------------------------------------

def test_the_operator_hides_a_message_everywhere(app, client):
    game = create(client)
    say(client, app, game, 0, "Something rude")
    say(client, app, game, 1, "Something kind")
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["messages", "list", game]).output
    found = re.search(r"#(\d+) Anna, .*: 'Something rude'", listed)
    assert found, listed
    hidden = runner.invoke(args=["messages", "hide", found.group(1)])
    assert hidden.exit_code == 0 and hidden.output == f"hid message #{found.group(1)} of game {game}\n"
    assert "(hidden)" in runner.invoke(args=["messages", "list", game]).output
    for seat in (0, 1):
        page = client.get(seat_path(app, game, seat)).data.decode()
        assert "Something rude" not in page and "Something kind" in page
    again = runner.invoke(args=["messages", "hide", found.group(1)])
    assert again.exit_code != 0 and "hidden already" in again.output
    missing = runner.invoke(args=["messages", "hide", "999999"])
    assert missing.exit_code != 0 and "There is no message #999999" in missing.output
    client.post(f"{seat_path(app, game, 1)}/resign", data={"confirm": "yes"})
    record = client.get(f"/games/{game}/record").data.decode()
    assert "Something rude" not in record and "Something kind" in record


# -- by mail ------------------------------------------------------------------------------------

def ingest(app, raw: bytes):
    from pbem.inbound.ingest import ingest_bytes
    with app.app_context():
        return ingest_bytes(raw)


def test_a_reply_with_steps_and_a_say_line_applies_both(app, client, smtp):
    game = create(client)
    deliver(app)
    [invitation] = [m for m in smtp.to(ANNA) if m["Reply-To"]]
    _, steps = submission(app, game)
    result = ingest(app, reply_to(invitation, f"{steps}\nsay See you at the tower!", NAMES))
    assert result.status == "applied", result
    assert log_length(app, game) == 1 and stored(app, game) == ["See you at the tower!"]
    [mail] = turn_mails(app, smtp, BOB)
    assert "See you at the tower!" in text_of(mail)


def test_a_say_line_is_never_a_step_and_a_step_never_a_message(app, client, smtp):
    game = create(client)
    deliver(app)
    [invitation] = [m for m in smtp.to(ANNA) if m["Reply-To"]]
    _, steps = submission(app, game)
    # Words alone, though they read like a step: said, and nothing is played.
    first = steps.splitlines()[0]
    result = ingest(app, reply_to(invitation, f"Say {first}\nsay: and more", NAMES))
    assert result.status == "said", result
    assert stored(app, game) == [f"{first}\nand more"] and log_length(app, game) == 0
    # A reply of steps alone says nothing.
    result = ingest(app, reply_to(invitation, steps, NAMES))
    assert result.status == "applied", result
    assert stored(app, game) == [f"{first}\nand more"] and log_length(app, game) == 1
    # A quoted say line (the mail that carried it) is a quote: neither said nor played.
    [mail] = turn_mails(app, smtp, BOB)
    _, bob_steps = submission(app, game, 5)
    result = ingest(app, reply_to(mail, bob_steps, NAMES))
    assert result.status == "applied", result
    assert stored(app, game) == [f"{first}\nand more"]


def test_a_too_long_message_by_mail_is_refused_with_its_turn(make_app, smtp):
    app = make_app(MESSAGE_MAX_CHARS=10)
    client = app.test_client()
    game = create(client)
    deliver(app)
    [invitation] = [m for m in smtp.to(ANNA) if m["Reply-To"]]
    _, steps = submission(app, game)
    result = ingest(app, reply_to(invitation, f"{steps}\nsay this is far too long", NAMES))
    assert result.status == "refused" and "at most 10" in result.detail, result
    assert log_length(app, game) == 0 and stored(app, game) == []
    deliver(app)
    refusal = smtp.to(ANNA)[-1]
    assert "not applied" in refusal["Subject"] and "at most 10" in text_of(refusal)


# -- private notes ------------------------------------------------------------------------------

def test_notes_are_seen_by_their_writer_only(app, client, smtp):
    game = create(client)
    saved = client.post(f"{seat_path(app, game, 0)}/notes", data={"notes": "Bob hoards <Medes>"})
    assert saved.status_code == 303 and saved.headers["Location"].endswith("#notes")
    mine = client.get(seat_path(app, game, 0)).data.decode()
    assert "Bob hoards &lt;Medes&gt;</textarea>" in mine
    assert client.get(seat_path(app, game, 0), headers=JSON).get_json()["notes"] == "Bob hoards <Medes>"
    assert "Bob hoards" in client.get(turn_path(app, game, 0)).data.decode()
    theirs = client.get(seat_path(app, game, 1)).data.decode()
    assert "Bob hoards" not in theirs
    assert client.get(seat_path(app, game, 1), headers=JSON).get_json()["notes"] == ""
    _, steps = submission(app, game)
    client.post(turn_path(app, game, 0), json={"steps": steps})
    deliver(app)
    mails = smtp.to(ANNA) + smtp.to(BOB)
    assert mails and all("Bob hoards" not in text_of(m) + html_of(m) for m in mails)
    assert "Bob hoards" not in client.get(f"/games/{game}/record").data.decode()
    replaced = client.post(f"{seat_path(app, game, 0)}/notes", json={"notes": ""})
    assert replaced.status_code == 200 and replaced.get_json()["notes"] == ""


def test_script_in_a_message_is_escaped_in_the_html_mail(app, client, smtp):
    game = create(client)
    _, steps = submission(app, game)
    assert client.post(turn_path(app, game, 0), json={"steps": steps, "message": SCRIPT}).status_code == 200
    [mail] = turn_mails(app, smtp, BOB)
    body = html_of(mail)
    assert "&lt;script&gt;alert(&#34;hi&#34;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in body
    assert "<script" not in body and "<b>bold" not in body
    assert SCRIPT in text_of(mail)   # plain text is plain text


def test_hostile_input_to_the_new_routes_is_refused_or_cleaned_never_a_500(app, client):
    game = create(client)
    seat = seat_path(app, game, 0)
    for body in ({"message": ["a"]}, {"message": None}, ["message"], "text", {"message": {"a": 1}}):
        assert client.post(f"{seat}/messages", json=body).status_code == 400, body
    for body in ({"notes": 5}, ["notes"]):
        assert client.post(f"{seat}/notes", json=body).status_code == 400, body
    for days in (True, 1.5, -1, "9999999999", "", None, "²"):
        response = client.post(f"{seat}/vacation", json={"days": days})
        assert response.status_code == 400, (days, response.get_json())
    said = client.post(f"{seat}/messages", json={"message": "a\x00b\ud800c\u202ed\r\ne"})
    assert said.status_code == 200
    noted = client.post(f"{seat}/notes", json={"notes": "x\x00y\ud800z\tw"})
    assert noted.status_code == 200 and noted.get_json()["notes"] == "xyz\tw"
    assert stored(app, game) == ["abcd\ne"]
    big = client.post(f"{seat}/notes", data={"notes": "n" * 70_000})
    assert big.status_code == 413
    forged = client.post(seat.replace("/s/", "/s/x") + "/messages", json={"message": "hi"})
    assert forged.status_code in (403, 404)
