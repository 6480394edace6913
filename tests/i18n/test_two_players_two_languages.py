"""Issue 18's game: Klaus reads German, Jana reads Czech, and they play Babel against each
other to its end, by their links (turn pages, previews, confirmations and submits through the
Flask test client) and by mail replies ingested through the real path, written with the
tribes' German and Czech names. Each sees only his language: every page and mail he gets has
words of his language, none of the English sentences and words of today's pages, none of the
other player's language. An illegal step, on the page and by mail, is refused in the player's
language naming the step. The public record speaks the visitor's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from pbem.games.rng import Rng
from pbem_web import html_of, reply_to, text_of

from .conftest import Read, english_in, plain, report, speak, visible

KLAUS, JANA = "klaus@example.de", "jana@example.cz"
NAMES = ("Klaus", "Jana")
ADDRESSES = (KLAUS, JANA)
LANGUAGES = ("de", "cs")
SEED = 11
MAX_DECISIONS = 200
TURN_LINK = re.compile(r"http://pbem\.test(/t/[A-Za-z0-9_.\-]+)")
SEAT_LINK = re.compile(r"http://pbem\.test(/s/[A-Za-z0-9_.\-]+)")

#: The tribes as the printed editions name them (A H M P S), as a player writes them in a reply.
TRIBE_NAMES = {
    "de": {"A": "Assyrer", "H": "Hethiter", "M": "Meder", "P": "Perser", "S": "Sumerer"},
    "cs": {"A": "Asyřané", "H": "Chetité", "M": "Médové", "P": "Peršané", "S": "Sumerové"},
}
#: Steps whose words after the keyword are tribes.
TRIBE_STEPS = {"move", "settle", "migrate", "emigrate", "halve", "discard"}

#: Words only German writes (of which a German page has some, a Czech page none) and words only
#: Czech writes, its tribes' names among them; letters only one of the two languages has.
OWN_WORDS = {
    "de": {"und", "der", "das", "dein", "deine", "deinen", "deiner", "du", "dich", "dir", "ist",
           "nicht", "zug", "spiel", "partie", "schritt", "wartet", "mit", "hethiter", "perser",
           "meder", "assyrer", "sumerer"},
    "cs": {"jste", "vaše", "váš", "vás", "vám", "tah", "tahu", "hra", "hry", "hru", "hře",
           "není", "krok", "čeká", "nebo", "jsou", "který", "která", "chetité", "peršané",
           "médové", "asyřané", "sumerové", "chetitů", "peršanů"},
}
OWN_LETTERS = {"de": set("äöüß"), "cs": set("řěůž")}   # (not "č", "š": "Čeština" is a choice)
OTHER = {"de": "cs", "cs": "de"}

#: Sentences of today's English pages and mails no German or Czech reader may find.
ENGLISH_SENTENCES = ("It is your turn", "You play", "Waiting for", "The game is over",
                     "Submit turn", "Yes, submit my turn", "your turn", "Lost your links",
                     "is not a tribe", "you hold", "Reply with", "Hello", "wins:", "You win")

WORD = re.compile(r"[^\W\d_]+")


def rewritten(steps: str, language: str) -> str:
    """Steps in notation with every tribe letter written as the tribe's name in `language`
    (`settle S S A` -> `settle Sumerer Sumerer Assyrer`), as a player writes a reply."""
    lines = []
    for line in steps.splitlines():
        words = line.split()
        if words and words[0].lower() in TRIBE_STEPS:
            tribes = [TRIBE_NAMES[language][letter.upper()] for word in words[1:] for letter in word]
            words = [words[0], *tribes]
        lines.append(" ".join(words))
    return "\n".join(lines)


def in_language(read: Read, language: str, names=NAMES, whole: bool = True) -> list[str]:
    """What is wrong with a page or mail for a reader of `language` ([] when nothing); a part
    of a page (`whole` false: a preview) may hold no word of his language, but no other."""
    words = {w.lower() for w in WORD.findall(read.text)}
    wrong = []
    if whole and not words & OWN_WORDS[language]:
        wrong.append(f"no {language} word ({sorted(OWN_WORDS[language])[:6]}…)")
    foreign = words & OWN_WORDS[OTHER[language]]
    letters = set(read.text) & OWN_LETTERS[OTHER[language]]
    if foreign or letters:
        wrong.append(f"{OTHER[language]} words {sorted(foreign)} letters {sorted(letters)}")
    sentences = [s for s in ENGLISH_SENTENCES if s.lower() in read.text.lower()]
    if sentences:
        wrong.append(f"English sentences {sentences}")
    english = sorted({w.lower() for w, _ in english_in(read.text, names)})
    if english:
        wrong.append(f"English words {english}")
    return [f"{read.where}: " + "; ".join(wrong)] if wrong else []


@dataclass
class Player:
    seat: int
    language: str
    address: str
    mails_read: int = 0
    by_mail: bool = False          # the next decision: by a mail reply (else by the link)
    refused_on_page: bool = False
    refused_by_mail: bool = False
    replies_applied: int = 0
    pages: int = 0
    previews: int = 0
    carried: str | None = None     # a turn link the page sent him on to (after discarding)


@dataclass
class Table:
    """Two players who act on what they are given (links, mails) and read everything."""
    app: object
    client: object
    smtp: object
    game: str = ""
    players: list[Player] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    mails: int = 0

    def deliver(self):
        from pbem.mail.deliver import deliver_due
        with self.app.app_context():
            deliver_due()

    def read_page(self, player: Player, where: str, response, partial: bool = False) -> str:
        html = response.data.decode()
        read = Read(f"{NAMES[player.seat]}'s {where}", visible(html))
        self.problems += in_language(read, player.language, whole=not partial)
        player.pages += 1
        return html

    def read_mails(self, player: Player) -> list:
        """The mails he got since he last looked, each read in both parts."""
        self.deliver()
        mails = self.smtp.to(player.address)
        new = mails[player.mails_read:]
        player.mails_read = len(mails)
        for mail in new:
            subject = str(mail["Subject"])
            for part, text in (("text", plain(text_of(mail))), ("html", visible(html_of(mail)))):
                self.problems += in_language(Read(f"mail {subject!r} to {NAMES[player.seat]} ({part})",
                                                  f"{subject} {text}"), player.language)
            self.mails += 1
        return new

    def newest_decision_mail(self, player: Player):
        """The newest mail to him with a turn link: the one his decision answers."""
        mails = self.smtp.to(player.address)
        return next(m for m in reversed(mails) if TURN_LINK.search(text_of(m)))

    def owed(self):
        from pbem.store import gamelog
        with self.app.app_context():
            loaded = gamelog.load(self.game)
            assert loaded.events is not None   # (read lazily: now, inside the app)
        decisions = loaded.engine.to_act(loaded.state)
        return loaded, (decisions[0] if decisions else None)


def compose(engine, state, seat: int, rng: Rng) -> str:
    """A turn chosen among the legal steps, step after step on the draft (builds, jumps and the
    skills first, so that the game ends), ending when it may; the decision's text."""
    steps: list[str] = []
    for _ in range(10):
        draft = engine.draft(state, seat, "\n".join(steps))
        options = engine.legal_steps(draft.state, seat)
        ends = [o for o in options if o.ends]
        others = [o for o in options if not o.ends]
        strong = [o for o in others if o.notation.split()[0] in ("build", "jump", "rob", "destroy")]
        if strong:
            steps.append(rng.choice(strong).notation)
        elif ends and (not others or len(steps) >= 3 or rng.below(3) == 0):
            break
        elif others:
            steps.append(rng.choice(others).notation)
        else:
            break
    text = engine.submission(steps)
    try:
        engine.decide(state, seat, text)
        return text
    except Exception:   # a first-turn dead end: the engine's own random decision
        return engine.random_submission(state, seat, rng)


def error_of(said: str, step: str) -> str:
    """The part of a page or mail around the refused step (for the report)."""
    at = max(said.find(step), 0)
    return said[max(0, at - 120):at + 200]


def illegal_step(state, seat: int) -> str:
    """A step he may not take: a move to a tribe whose card he does not hold, or, holding all
    five, settling one card more of a tribe than he holds."""
    held = state.players[seat].hand_letters()
    missing = [t for t in "AHMPS" if t not in held]
    if missing:
        return f"move {missing[0]}"
    return "settle " + " ".join("A" * (held.count("A") + 1))


def play_by_link(table: Table, player: Player, loaded, decision, rng: Rng) -> None:
    client, engine, state = table.client, loaded.engine, loaded.state
    link = player.carried or TURN_LINK.search(text_of(table.newest_decision_mail(player))).group(1)
    player.carried = None
    page = client.get(link)
    assert page.status_code == 200, link
    table.read_page(player, f"turn page (decision {loaded.seq + 1})", page)
    if decision.kind == "discard":
        text = engine.random_submission(state, player.seat, rng)
        response = client.post(link, data={"compose": ["discard", *text.split()[1:]], "action": "submit"})
    else:
        if not player.refused_on_page:
            wrong = illegal_step(state, player.seat)
            refused = client.post(link, data={"steps": wrong, "action": "submit"})
            assert refused.status_code == 422, refused.data[:300]
            html = table.read_page(player, f"page refusing {wrong!r}", refused)
            said = visible(html)
            step_word = {"de": "Schritt 1", "cs": "krok 1"}[player.language]
            if not re.search(re.escape(step_word) + r" \(" + re.escape(wrong), said, re.I):
                table.problems.append(f"the page refusing {wrong!r} in {player.language} does not say "
                                      f"{step_word!r} ({wrong}): {error_of(said, wrong)}")
            player.refused_on_page = True
        text = compose(engine, state, player.seat, rng)
        steps = [] if text == "pass" else text.splitlines()
        for n in range(1, len(steps) + 1):   # each step as the page's script previews it
            preview = client.post(link + "/preview", data={"steps": "\n".join(steps[:n])})
            assert preview.status_code == 200, preview.data[:300]
            table.read_page(player, f"preview of {steps[:n]}", preview, partial=True)
            player.previews += 1
        confirmation = client.post(link, data={"steps": text, "action": "confirm"})
        assert confirmation.status_code == 200, confirmation.data[:300]
        table.read_page(player, f"confirmation of {text!r}", confirmation)
        response = client.post(link, data={"steps": text, "action": "submit"})
    assert response.status_code == 303, (text, response.data[:500])
    location = response.headers["Location"]
    after = client.get(location)
    assert after.status_code == 200
    table.read_page(player, f"page after submitting {text!r}", after)
    if location.startswith("/t/"):   # discarded: his turn goes on at once
        player.carried = location


def mail_in(table: Table, raw: bytes):
    from pbem.inbound.ingest import ingest_bytes
    with table.app.app_context():
        return ingest_bytes(raw)


def play_by_mail(table: Table, player: Player, loaded, decision, rng: Rng) -> None:
    engine, state, names = loaded.engine, loaded.state, dict(zip(ADDRESSES, NAMES))
    mail = table.newest_decision_mail(player)
    if decision.kind != "discard" and not player.refused_by_mail:
        keyword = illegal_step(state, player.seat).split()[0]
        wrong = rewritten(illegal_step(state, player.seat), player.language)
        mail_in(table, reply_to(mail, wrong, names))
        assert table.owed()[0].seq == loaded.seq, "an illegal reply was applied"
        [failed] = table.read_mails(player)
        said = plain(text_of(failed))
        step_word = {"de": "Schritt 1", "cs": "krok 1"}[player.language]
        if not re.search(re.escape(step_word) + r" \(" + keyword, said, re.I):
            table.problems.append(f"the mail refusing {wrong!r} in {player.language} does not say "
                                  f"{step_word!r} ({keyword} …): {error_of(said, keyword)}")
        player.refused_by_mail = True
    if decision.kind == "discard":
        text = engine.random_submission(state, player.seat, rng)
    else:
        text = compose(engine, state, player.seat, rng)
    written = rewritten(text, player.language)
    mail_in(table, reply_to(mail, written, names))
    after, _ = table.owed()
    assert after.seq == loaded.seq + 1, f"the reply {written!r} of {NAMES[player.seat]} was not applied"
    assert after.events[-1] == engine.decide(state, player.seat, text)   # the names read as letters
    player.replies_applied += 1


def test_a_german_and_a_czech_player_play_babel_to_its_end(app, client, smtp):
    from pbem.play import turns
    for address, language in zip(ADDRESSES, LANGUAGES):
        speak(app, [address], language)     # both confirm replies: the answer is read too
    with app.app_context():
        spec = turns.Spec("babel", list(zip(NAMES, ADDRESSES)), {"sumerians": "top-run"}, 0,
                          seed=SEED, languages=LANGUAGES)
        table = Table(app, client, smtp, turns.create_game(spec).id)
    table.players = [Player(seat, language, address)
                     for seat, (language, address) in enumerate(zip(LANGUAGES, ADDRESSES))]
    rng = Rng(SEED)
    seat_links = {}
    for player in table.players:
        [invitation] = table.read_mails(player)
        seat_links[player.seat] = SEAT_LINK.search(text_of(invitation)).group(1)
        table.read_page(player, "seat page at the start", client.get(seat_links[player.seat]))

    for _ in range(MAX_DECISIONS):
        loaded, decision = table.owed()
        if decision is None:
            break
        player = table.players[decision.seat]
        if player.by_mail and not player.carried:
            play_by_mail(table, player, loaded, decision, rng)
        else:
            play_by_link(table, player, loaded, decision, rng)
        player.by_mail = not player.by_mail
        for each in table.players:
            table.read_mails(each)
    else:
        raise AssertionError(f"no end after {MAX_DECISIONS} decisions")

    loaded, _ = table.owed()
    assert loaded.engine.outcome(loaded.state) is not None
    for player in table.players:
        assert player.refused_on_page and player.refused_by_mail and player.replies_applied >= 3
        assert player.previews >= 3
        table.read_page(player, "seat page at the end", client.get(seat_links[player.seat]))
        table.read_page(player, "resign page", client.get(seat_links[player.seat] + "/resign"))

    # The record, public, in the visitor's language.
    record = f"/games/{table.game}/record"
    for language in LANGUAGES:
        page = client.get(record, headers={"Accept-Language": f"{language}, en;q=0.5"})
        assert page.status_code == 200
        table.problems += in_language(Read(f"record for Accept-Language {language}",
                                           visible(page.data.decode())), language)
        middle = client.get(record + "?turn=3&step=1", headers={"Accept-Language": language})
        table.problems += in_language(Read(f"record at turn 3 for Accept-Language {language}",
                                           visible(middle.data.decode())), language)
    english = visible(client.get(record, headers={"Accept-Language": "en"}).data.decode())
    assert "Result:" in english and " wins: " in english       # English stays English
    assert not set(english) & (OWN_LETTERS["cs"] | OWN_LETTERS["de"])

    assert table.mails >= 20
    assert not table.problems, (f"{len(table.problems)} pages and mails not in their reader's language:\n"
                                + "\n".join(table.problems[:80]))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tribes_names_of_a_language_read_as_its_letters(language):
    from pbem.games.babel import notation

    def steps(text):
        return [step for step, _written in notation.parse_steps(text)]
    for letter, name in TRIBE_NAMES[language].items():
        assert steps(f"move {name}") == steps(f"move {letter}")
        assert steps(f"settle {name.upper()} {name.lower()}") == steps(f"settle {letter} {letter}")
    names = TRIBE_NAMES[language]
    assert rewritten("settle S S A\nbuild mine", language) == \
        f"settle {names['S']} {names['S']} {names['A']}\nbuild mine"


def test_the_checks_find_english_and_the_other_language():
    """The reading itself: a German page with English or Czech left is found wrong."""
    assert in_language(Read("de", "Du bist am Zug, Klaus."), "de") == []
    assert in_language(Read("cs", "Jste na tahu, Jano."), "cs") == []
    [wrong] = in_language(Read("p", "Du bist am Zug: Waiting for the other player."), "de")
    assert "English sentences ['Waiting for']" in wrong and "'player'" in wrong
    [wrong] = in_language(Read("p", "Jste na tahu. Hethiter"), "cs")
    assert "de words ['hethiter']" in wrong
    assert report([Read("x", "Dein Zug: the game")]).splitlines()[:2] == [
        "words (in how many pages or mails): game 1, the 1", "x: 2 English words: game, the"]
