"""Every mail speaks its recipient's language (issue 18): a game with a German seat and a
Czech seat, and every kind of mail each of them gets — invitation, turn, reminder, reply
failed with an engine's error, digest, links, the end — read in German ("du") and Czech
("vy"): subject, text and HTML, none of a list of English sentences left, the text still
folded for 80 columns. Replies quote headers the German and Czech mail programs write.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest

from pbem.games.errors import GameError
from pbem_web import ANNA, BOB, outbox, play, play_until_owed, to_act, too_long  # tests/helpers

WIDTH = 78

#: English sentences of the mails' own words: none may be left in a German or Czech mail. (The
#: engines' own sentences, a decision's label "play your turn" or "Your hand: ...", are theirs.)
ENGLISH = ("Hello", "it is your turn", "your turn in", "You start", "Play your turn", "Your standing link",
           "The game's record", "All your games", "Stop all mail", "Never want mail",
           "The game as you see it", "Or answer this mail", "To say something to",
           "was not applied", "What we read as your steps", "waits for your turn",
           "Reminder:", "Today:", " with Bob", " with Anna", "here are your links",
           "is over", "Why:", "Said in this game", "Decline the game",
           "you are invited", "Anna vs Bob", "Anna and", "quoted lines are ignored",
           "You get one mail a day")

#: Sentences each language's mails say, by kind (subject, text or HTML hold each).
SAID = {
    "de": {
        "invite": ("Babel mit Bob: ", "Hallo Anna,", "du bist zu einem Spiel Babel mit Bob eingeladen",
                   "Spiel ablehnen", "Dein ständiger Link zu dieser Partie"),
        "turn": ("Babel mit Bob: du bist am Zug, Anna", "du bist am Zug in Babel mit Bob",
                 "Das Spiel, wie du es siehst:", "Deinen Zug spielen"),
        "reminder": ("Erinnerung: du bist am Zug in Babel mit Bob", "ein Spiel wartet auf deinen Zug:",
                     "wartet schon 3 Tage"),
        "reply_failed": ("deine Antwort wurde nicht ausgeführt", "Schritt 1 (",
                         "Was wir als deine Schritte gelesen haben:"),
        "digest": ("Heute: du bist am Zug in Babel mit Bob", "ein Spiel wartet auf deinen Zug:",
                   "Du bekommst eine Mail wie diese am Tag"),
        "links": ("Babel mit Bob: deine Links", "hier sind deine Links zu deinem Spiel Babel: "
                  "Anna gegen Bob."),
        "over": ("Babel mit Bob: das Spiel ist zu Ende", "dein Spiel Babel mit Bob ist zu Ende."),
    },
    "cs": {
        "invite": ("Babel (Anna): ", "Dobrý den, Bob,", "jste pozváni ke hře Babel",
                   "Odmítnout hru", "Váš stálý odkaz na tuto hru"),
        "turn": ("Babel (Anna): jste na tahu, Bob", "jste na tahu ve hře Babel (hrají také: Anna)",
                 "Hra, jak ji vidíte vy:", "Zahrát tah"),
        "reminder": ("Připomínka: jste na tahu ve hře Babel (Anna)", "jedna hra čeká na váš tah:",
                     re.compile(r"doba čekání:? \d+ (dny|dní)")),
        "reply_failed": ("vaše odpověď nebyla provedena", "krok 1 (",
                         "Co jsme přečetli jako vaše kroky:"),
        "digest": ("Dnes: jste na tahu ve hře Babel (Anna)", "jedna hra čeká na váš tah:",
                   "dostáváte jednou denně e-mail jako tento"),
        "links": ("Babel (Anna): vaše odkazy", "zde jsou vaše odkazy na vaši hru Babel: "
                  "Anna vs. Bob."),
        "over": ("Babel (Anna): hra skončila", "vaše hra Babel (hráli také: Anna) skončila."),
    },
}


def found(sentence, part: str) -> bool:
    return bool(sentence.search(part)) if isinstance(sentence, re.Pattern) else sentence in part








def languages_game(app) -> str:
    from pbem.play import turns
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"}, 0,
                          languages=("de", "cs"))
        return turns.create_game(spec).id


def reply_fails(app, game: str, seat: int) -> None:
    """A step the engine refuses, mailed back to the seat as a reply that failed."""
    from pbem.extensions import db
    from pbem.mail import notify
    from pbem.play import turns
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
        with pytest.raises(GameError) as refused:
            turns.submit(game, seat, loaded.seq, "nonsense step", turns.Origin(turns.OPERATOR))
        notify.reply_failed(gamelog.load(game), seat, refused.value, "nonsense step", None)
        db.session.commit()


def remind(app, days: int) -> None:
    later = (datetime.now(UTC) + timedelta(days=days, hours=1)).isoformat()
    assert app.test_cli_runner().invoke(args=["remind", "--now", later]).exit_code == 0


def digest_of_next_turn(app, game: str, address: str) -> None:
    """The address asked for a daily digest: his next turn mail is held, the digest sent."""
    from pbem.extensions import db
    from pbem.jobs import digest
    from pbem.players import settings
    seat, language = (0, "de") if address == ANNA else (1, "cs")
    with app.app_context():
        settings.change(address, "UTC", language, settings.DIGEST, False)
    play_until_owed(app, game, seat, 11)
    with app.app_context():
        assert digest.send(address)
        db.session.commit()
        settings.change(address, "UTC", language, settings.EACH, False)


@pytest.fixture
def mails(app):
    """Every kind of mail both players get in one game, each in his language."""
    from pbem.extensions import db
    from pbem.mail import notify
    from pbem.store import gamelog
    game = languages_game(app)
    play(app, game, 3, decisions=2)                  # turn mails
    first = to_act(app, game)
    remind(app, 3)                                   # the seat to act: a reminder
    reply_fails(app, game, first)
    play_until_owed(app, game, 1 - first, 4)
    remind(app, 6)                                   # the other seat: a reminder
    reply_fails(app, game, 1 - first)
    digest_of_next_turn(app, game, ANNA)
    digest_of_next_turn(app, game, BOB)
    with app.app_context():
        loaded = gamelog.load(game)
        notify.current_links(loaded, 0)
        notify.current_links(loaded, 1)
        db.session.commit()
    play(app, game, 5)                               # to the end: game-over mails
    return outbox(app)


@pytest.mark.parametrize(("address", "language"), [(ANNA, "de"), (BOB, "cs")])
def test_every_mail_a_seat_gets_speaks_its_language(mails, address, language):
    got = {}
    for kind, subject, text, html, to, _ in mails:
        if to != address:
            continue
        got.setdefault(kind, []).append((subject, text, html))
        for english in ENGLISH:
            assert english not in subject, (kind, english, subject)
            assert english not in text, (kind, english, text)
            assert english not in re.sub(r"<[^>]+>", "", html), (kind, english, html)
        assert not too_long(text), (kind, too_long(text))
        assert f'<html lang="{language}">' in html, kind
    assert set(SAID[language]) <= set(got), set(SAID[language]) - set(got)
    for kind, sentences in SAID[language].items():
        subject, text, html = got[kind][0]
        for sentence in sentences:
            assert any(found(sentence, part) for part in (subject, text, html)), (kind, sentence, text)
        # each mail's own words are in both parts, not only in one
        assert sentences[1] in text and sentences[1] in html.replace("&#39;", "'"), (kind, sentences[1])


def test_an_english_seat_mails_as_before(app):
    from pbem.play import turns
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"}, 0,
                          languages=("en", "de"))
        game = turns.create_game(spec).id
    play(app, game, 3, decisions=1)
    english = {kind: (subject, text) for kind, subject, text, _, to, _ in outbox(app) if to == ANNA}
    assert english["invite"][0] == "Babel with Bob: your turn"
    invite = english["invite"][1]
    assert "Hello Anna,\n\nyou are invited to a game of Babel with Bob.\nYou play Anna." in invite
    assert "Play your turn:" in english["invite"][1] and "Spiel" not in english["invite"][1]


def test_counted_words_take_each_languages_plural(app):
    from pbem import i18n
    from pbem.views.words import hours_and_days, listing, plural
    with app.app_context():
        said = {}
        for language in ("en", "de", "cs"):
            with i18n.speaking(language):
                said[language] = [i18n.say(hours_and_days(h)) for h in (1, 24, 49, 120)] + [
                    i18n.say(plural(1.5, "hour")), i18n.say(listing(["Anna", "Bob", "Carl"]))]
    assert said["en"] == ["1 hour", "1 day", "2 days 1 hour", "5 days", "1.5 hours", "Anna, Bob and Carl"]
    assert said["de"] == ["1 Stunde", "1 Tag", "2 Tage 1 Stunde", "5 Tage", "1,5 Stunden",
                          "Anna, Bob und Carl"]
    assert said["cs"][:4] == ["1 hodina", "1 den", "2 dny 1 hodina", "5 dní"]
    assert said["cs"][5] == "Anna, Bob a Carl"


@pytest.mark.parametrize("header", [
    "Am Di., 24. Nov. 2026 um 10:00 Uhr schrieb Babel <pbem@pbem.test>:",
    "Dne 24. 11. 2026 v 10:00 Babel napsal(a):",
    "út 24. 11. 2026 v 10:00 odesílatel Babel <pbem@pbem.test> napsal:",
    "-------- Původní zpráva --------",
    "Od: Babel <pbem@pbem.test>",
])
def test_a_reply_from_a_german_or_czech_mail_program_is_read_above_its_quote(header):
    from pbem.mail.replies import reply_steps
    msg = EmailMessage()
    msg.set_content(f"move A\nsettle P\n\n{header}\n> move H\n> Hallo Anna,\n")
    assert reply_steps(msg) == "move A\nsettle P"


def mails_read_module():
    """tests/web/test_mails_read.py, whose games play every kind of mail there is."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).with_name("test_mails_read.py")
    spec = importlib.util.spec_from_file_location("mails_read_for_languages", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("language", ["de", "cs"])
def test_every_kind_of_mail_fits_80_columns_in_german_and_czech(app, client, monkeypatch, language):
    """The 80-column test of every mail of played games, every mail in German, then Czech:
    longer words, still folded; no greeting or footer left in English."""
    from pbem.mail import compose, notify
    from pbem.players import settings
    monkeypatch.setattr(settings, "language_of", lambda *_, **__: language)   # a creator's default
    monkeypatch.setattr(settings, "seat_languages", lambda players, _: [language] * len(players))
    monkeypatch.setattr(compose, "language_for", lambda *_: language)
    monkeypatch.setattr(notify, "language_for", lambda *_: language)
    mails_read_module().test_every_mail_of_every_game_fits_80_columns(app, client)
    greeting = {"de": "Hallo", "cs": "Dobrý den"}[language]
    for kind, subject, text, html, _, _ in outbox(app):
        assert greeting in text and greeting in html, (kind, subject)
        assert "Hello" not in text and "Stop all mail" not in text, (kind, text)
        assert not too_long(text), (kind, too_long(text))
