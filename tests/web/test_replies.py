"""Replies as moves: a player answers his turn mail with his steps.

The turn mail's Reply-To carries a signed token (`turns+TOKEN@host`); what the
player wrote above the quoted mail is his decision. Replies are built here the
way a mail client builds them, from the very turn mail the `smtp` fixture
received (To = its Reply-To, In-Reply-To = its Message-ID, the original
quoted below the steps), and go in through `ingest_bytes`, the
`flask ingest` command on standard input, or a real Maildir folder.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
import os
import re
from datetime import timedelta
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid, parseaddr
from functools import cache

import pytest

from pbem.games.babel import GAME
from pbem.games.rng import Rng
from pbem.mail.replies import reply_steps
from pbem_web import outbox_rows, text_of  # tests/helpers

ANNA, BOB, EVE = "anna@example.org", "bob@example.org", "eve@example.net"
EMAILS = (ANNA, BOB)
NAMES = ("Anna", "Bob")
PLAYERS = dict(zip(EMAILS, NAMES))
ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
LINK = re.compile(r"http://pbem\.test(/[ts]/[A-Za-z0-9_.\-]+)")
MAX_DECISIONS = 200
STALE = "this turn was already submitted"
FORGED = "its address does not belong to a turn of any game."
NOT_HIS = "it was not sent from the address that plays this seat."


# -- helpers ----------------------------------------------------------------------

def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def quoted(text: str) -> str:
    return "\n".join(("> " + line).rstrip() for line in text.splitlines())


def turn_link(msg) -> str | None:
    return next((p for p in LINK.findall(text_of(msg)) if p.startswith("/t/")), None)


def answer(mail, steps: str, sender: str | None = None, *, to: str | None = None,
           quote: bool = True, headers: dict | None = None, message_id: str | None = None) -> bytes:
    """A reply to `mail` as a mail client writes it: steps on top, the original quoted below."""
    sender = sender or parseaddr(str(mail["To"]))[1]
    reply = EmailMessage()
    reply["From"] = formataddr((PLAYERS.get(sender, "Somebody"), sender))
    reply["To"] = to if to is not None else str(mail["Reply-To"])
    reply["Subject"] = "Re: " + str(mail["Subject"])
    reply["Date"] = formatdate(localtime=True)
    reply["Message-ID"] = message_id or make_msgid(domain="mail.example.org")
    reply["In-Reply-To"] = str(mail["Message-ID"])
    reply["References"] = f"{mail['References'] or ''} {mail['Message-ID']}".strip()
    for name, value in (headers or {}).items():
        reply[name] = value
    body = steps
    if quote:
        body += f"\n\nOn {mail['Date']}, {mail['From']} wrote:\n{quoted(text_of(mail))}\n"
    reply.set_content(body)
    return reply.as_bytes()


def ingest(app, raw: bytes, recipients=()):
    from pbem.inbound.ingest import ingest_bytes
    with app.app_context():
        return ingest_bytes(raw, recipients)


def cli(app, *args, input=None) -> str:
    result = app.test_cli_runner().invoke(args=list(args), input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def new_game(app, seed: int, first: int = 0) -> str:
    return cli(app, "new-game", "--game", "babel", "--player", f"Anna <{ANNA}>",
               "--player", f"Bob <{BOB}>", "--first", str(first), "--seed", str(seed)).strip()


def rows(app, model) -> list:
    from sqlalchemy import select

    from pbem.extensions import db
    with app.app_context():
        found = db.session.scalars(select(model)).all()
        db.session.expunge_all()
        return found



def inbound(app) -> list[str]:
    from pbem.store.models import Inbound
    return sorted(r.result for r in rows(app, Inbound))


def token_of(app, mail):
    """What the token in a mail's Reply-To signs (None without one)."""
    from pbem.mail.replies import read_token
    found = re.fullmatch(r"turns\+([a-z2-7]+-[a-z2-7]+)@pbem\.test", str(mail["Reply-To"] or ""))
    with app.app_context():
        return read_token(found.group(1)) if found else None


def hand(state, seat: int) -> str:
    return GAME.view(state, seat)["players"][seat]["hand"]


def first_turn(hand: str) -> str:
    return f"move {hand[0]}\nsettle {hand[1]}\nbuild mine"


def owed(actions, game: str):
    loaded = actions.state(game)
    decisions = GAME.to_act(loaded.state)
    return loaded, (decisions[0] if decisions else None)


def changed_somewhere(token: str, at: int) -> list[str]:
    """Every token that differs from `token` in the character at `at` (case aside)."""
    return [token[:at] + c + token[at + 1:] for c in ALPHABET + "-"
            if c != token[at].lower()]


# -- reply tokens -------------------------------------------------------------------

def test_reply_token_round_trip(app):
    from pbem.mail.replies import ReplyToken, make_token, read_token
    from pbem.store import gamelog
    with app.app_context():
        for seat, seq in [(0, 0), (1, 1), (0, 37), (1, 10**6)]:
            game_id = gamelog.new_id()
            token = make_token(game_id, seat, seq)
            assert re.fullmatch(r"[a-z2-7]+-[a-z2-7]+", token)
            assert read_token(token) == ReplyToken(game_id, seat, seq)
        # Game ids made by new_id() hold "-" and "_": they survive the base32 round trip.
        assert read_token(make_token("a-_Z9", 1, 2)) == ReplyToken("a-_Z9", 1, 2)


def test_any_changed_character_is_refused(app):
    from pbem.mail.replies import make_token, read_token
    from pbem.store import gamelog
    with app.app_context():
        for seq in range(6):    # payloads of several lengths: base32 leaves spare bits at the end
            token = make_token(gamelog.new_id(), seq % 2, seq)
            for at in range(len(token)):
                for forged in changed_somewhere(token, at):
                    assert read_token(forged) is None, (token, forged)
            assert read_token(token[:-1]) is None and read_token(token + "a") is None
            assert read_token(token.replace("-", "")) is None and read_token("") is None
            assert read_token(token + "-" + token) is None


def test_upper_cased_token_still_reads(app):
    from pbem.mail.replies import ReplyToken, find_token, make_token, read_token
    with app.app_context():
        token = make_token("Gx7_-kQ2abcd", 1, 12)
        assert read_token(token.upper()) == ReplyToken("Gx7_-kQ2abcd", 1, 12)
        msg = parse(f"To: TURNS+{token.upper()}@PBEM.TEST\n\nmove M\n".encode())
        assert read_token(find_token(msg)) == ReplyToken("Gx7_-kQ2abcd", 1, 12)


@pytest.mark.parametrize("seq", [0, 9, 99, 10**3, 10**6, 10**9 - 1])
def test_local_part_fits_in_64_characters(app, seq):
    from pbem.mail.replies import reply_address
    from pbem.store import gamelog
    with app.app_context():
        for seat in (0, 1):
            local, _, domain = reply_address(gamelog.new_id(), seat, seq).rpartition("@")
            assert domain == "pbem.test" and local.startswith("turns+")
            assert len(local) <= 64, (seq, local)


def test_fallback_keys_still_read_and_unknown_keys_do_not(app):
    from pbem.mail.replies import ReplyToken, make_token, read_token
    with app.app_context():
        app.config["SECRET_KEY"] = "the-old-key"
        old = make_token("game1", 0, 3)
        app.config["SECRET_KEY"] = "an-unknown-key"
        unknown = make_token("game1", 0, 3)
        app.config.update(SECRET_KEY="the-new-key", SECRET_KEY_FALLBACKS=["the-old-key"])
        new = make_token("game1", 0, 3)
        assert len({old, unknown, new}) == 3
        assert read_token(old) == read_token(new) == ReplyToken("game1", 0, 3)
        assert read_token(unknown) is None
        app.config["SECRET_KEY_FALLBACKS"] = []
        assert read_token(old) is None and read_token(new) is not None


def test_reply_address_defaults_to_mail_from_and_is_configurable(app, actions, client, smtp):
    from pbem.mail.replies import make_token, reply_address
    with app.app_context():
        assert reply_address("g1", 0, 0) == f"turns+{make_token('g1', 0, 0)}@pbem.test"
        app.config["REPLY_ADDRESS"] = "moves@play.example.net"
        assert reply_address("g1", 0, 0) == f"moves+{make_token('g1', 0, 0)}@play.example.net"
    game = actions.create(first=0)
    invite = actions.last_mail(ANNA)
    assert re.fullmatch(r"moves\+[a-z2-7]+-[a-z2-7]+@play\.example\.net", str(invite["Reply-To"]))
    assert str(invite["From"]).endswith("<turns@pbem.test>")      # the sender stays MAIL_FROM
    loaded = actions.state(game)
    result = ingest(app, answer(invite, first_turn(hand(loaded.state, 0))))
    assert result.status == "applied", result
    assert actions.event_count(game) == 1
    assert str(actions.last_mail(BOB)["Reply-To"]).startswith("moves+")


# -- the steps in an answer ------------------------------------------------------------

STEPS = "move M\nsettle P\nbuild mine"
TOKEN_ADDR = "turns+mfrggzdfmzsq-abcdefghijklmnop@pbem.test"
ORIGINAL = """Hello Anna,

it is your turn in Babel: Anna vs Bob (play your turn).
Scores: Anna 0, Bob 0.

Play your turn:
  http://pbem.test/t/WyJhYmMiLDAsMF0.Z1Y2.abc

Or answer this mail with your steps, one per line (e.g. "move M"); quoted lines are ignored.

Your standing link to this game (it always shows your view; keep it to yourself):
  http://pbem.test/s/WyJhYmMiLDAsImsiXQ.Z1Y2.def

The game's record: http://pbem.test/games/abc/record"""


def reply_message(body: str, *, subtype: str = "plain", charset: str = "utf-8",
                  cte: str | None = None) -> EmailMessage:
    """A reply as it arrives: composed, sent as bytes, parsed again."""
    msg = EmailMessage()
    msg["From"] = "Anna <anna@example.org>"
    msg["To"] = TOKEN_ADDR
    msg["Subject"] = "Re: Babel with Bob: your turn"
    msg["Message-ID"] = make_msgid(domain="mail.example.org")
    msg.set_content(body, subtype=subtype, charset=charset, cte=cte)
    return parse(msg.as_bytes())


def raw_message(body: bytes, content_type: str, cte: str = "8bit", linesep: bytes = b"\n") -> EmailMessage:
    head = [b"From: Anna <anna@example.org>", f"To: {TOKEN_ADDR}".encode(),
            b"Subject: Re: Babel with Bob: your turn", b"MIME-Version: 1.0",
            f"Content-Type: {content_type}".encode(), f"Content-Transfer-Encoding: {cte}".encode()]
    return parse(linesep.join(head) + linesep + linesep + body)


def steps_of(msg) -> list[str]:
    return GAME.split_steps(reply_steps(msg))


GMAIL = "On Mon, 3 Mar 2025 at 10:00, Babel: Anna vs Bob <" + TOKEN_ADDR + "> wrote:"
PLAIN_REPLIES = {
    "gmail": f"{STEPS}\n\n{GMAIL}\n\n{quoted(ORIGINAL)}\n",
    "gmail-wrapped": (f"{STEPS}\n\nOn Mon, 3 Mar 2025 at 10:00, Babel: Anna vs Bob <\n"
                      f"{TOKEN_ADDR}> wrote:\n\n{quoted(ORIGINAL)}\n"),
    "wrapped-before-wrote": (f"{STEPS}\n\nOn Mon, 3 Mar 2025 at 10:00, Babel: Anna vs Bob <{TOKEN_ADDR}>\n"
                             f"wrote:\n{quoted(ORIGINAL)}\n"),
    "thunderbird-german": (f"{STEPS}\n\nAm 03.03.25 um 10:00 schrieb Babel: Anna vs Bob:\n"
                           f"{quoted(ORIGINAL)}\n"),
    "gmail-german-wrapped": (f"{STEPS}\n\nAm Mo., 3. März 2025 um 10:00 Uhr schrieb Babel: Anna vs Bob <\n"
                             f"{TOKEN_ADDR}>:\n\n{quoted(ORIGINAL)}\n"),
    "outlook-original-message": (f"{STEPS}\n\n-----Original Message-----\nFrom: Babel: Anna vs Bob "
                                 f"<turns@pbem.test>\nSent: Monday, March 3, 2025 10:00 AM\n"
                                 f"To: Anna <anna@example.org>\nSubject: Babel with Bob: your turn\n\n"
                                 f"{ORIGINAL}\n"),
    "outlook-underscores": (f"{STEPS}\n\n________________________________\nFrom: Babel: Anna vs Bob "
                            f"<{TOKEN_ADDR}>\nSent: Monday, March 3, 2025 10:00\nTo: Anna\n"
                            f"Subject: Babel with Bob: your turn\n\n{ORIGINAL}\n"),
    "from-block": (f"{STEPS}\n\nFrom: Babel <{TOKEN_ADDR}>\nDate: Mon, 3 Mar 2025 10:00\n"
                   f"Subject: Babel with Bob: your turn\n\n{ORIGINAL}\n"),
    "signature": f"{STEPS}\n\n-- \nAnna Example\nmove fast, settle slow\n\n{quoted(ORIGINAL)}\n",
    "signature-then-gmail": f"{STEPS}\n-- \nSent from my phone\n\n{GMAIL}\n{quoted(ORIGINAL)}\n",
    "semicolons-and-comments": ("move M; settle P   # my second card\nbuild mine\n\n"
                                f"{GMAIL}\n{quoted(ORIGINAL)}\n"),
    "blank-lines-around": f"\n\n  {STEPS.replace(chr(10), chr(10) + '  ')}  \n\n\n"
                          f"{GMAIL}\n{quoted(ORIGINAL)}",
}


@pytest.mark.parametrize("body", PLAIN_REPLIES.values(), ids=PLAIN_REPLIES.keys())
def test_steps_are_read_above_the_quoted_mail(body):
    msg = reply_message(body)
    assert steps_of(msg) == ["move M", "settle P", "build mine"]
    text = reply_steps(msg)
    assert "Hello Anna" not in text and "Original Message" not in text and "Sent from" not in text
    assert "wrote" not in text and "schrieb" not in text and "pbem.test/t/" not in text


def test_steps_above_bare_quoted_lines_leave_them_to_the_notation():
    """Without a quote header the `>` lines stay in the text; the notation parser skips them."""
    msg = reply_message(f"{STEPS}\n\n{quoted(ORIGINAL)}\n")
    assert reply_steps(msg).startswith(STEPS + "\n")
    assert steps_of(msg) == STEPS.splitlines()


@pytest.mark.parametrize("cte", ["quoted-printable", "base64", "8bit"])
def test_transfer_encodings(cte):
    body = f"move M  # Müde, aber los: „los“\nsettle P\nbuild mine\n\n{GMAIL}\n{quoted(ORIGINAL)}\n"
    msg = reply_message(body, cte=cte)
    assert msg["Content-Transfer-Encoding"] == cte
    assert reply_steps(msg).startswith("move M  # Müde, aber los: „los“\n")
    assert steps_of(msg) == STEPS.splitlines()


def test_quoted_printable_soft_line_breaks_and_encoded_nbsp():
    body = (b"move=C2=A0M\nsett=\nle P\nbuild mine=20\n\n"
            b"Am Mo., 3. M=C3=A4rz 2025 um 10:00 Uhr schrieb Babel <turns@pbem.test>:\n"
            b"> Hello Anna,\n")
    msg = raw_message(body, 'text/plain; charset="utf-8"', "quoted-printable")
    assert reply_steps(msg) == "move M\nsettle P\nbuild mine"


@pytest.mark.parametrize("charset, codec", [("iso-8859-1", "latin-1"), ("windows-1252", "cp1252"),
                                            ("iso-8859-15", "iso8859-15")])
def test_non_utf8_charsets(charset, codec):
    body = ("move M  # Grüße an Bob\nsettle P\nbuild mine\n\n-- \nAnna Müller\n\n"
            "Am Mo., 3. März 2025 um 10:00 Uhr schrieb Babel: Anna vs Bob <turns@pbem.test>:\n"
            f"{quoted(ORIGINAL)}\n")
    eight_bit = raw_message(body.encode(codec), f"text/plain; charset={charset}; format=flowed")
    assert reply_steps(eight_bit) == "move M  # Grüße an Bob\nsettle P\nbuild mine"
    quoted_printable = reply_message(body, charset=charset, cte="quoted-printable")
    assert quoted_printable.get_content_charset() == charset
    assert reply_steps(quoted_printable) == "move M  # Grüße an Bob\nsettle P\nbuild mine"


def test_an_unknown_charset_still_reads_the_steps():
    msg = raw_message(f"{STEPS}\n\n{GMAIL}\n{quoted(ORIGINAL)}\n".encode(),
                      "text/plain; charset=x-no-such-charset")
    assert reply_steps(msg) == STEPS


def test_crlf_line_ends():
    body = f"{STEPS}\n\n{GMAIL}\n\n{quoted(ORIGINAL)}\n".replace("\n", "\r\n").encode()
    on_the_wire = raw_message(body, "text/plain; charset=utf-8", "8bit", linesep=b"\r\n")
    assert reply_steps(on_the_wire) == STEPS
    import base64
    inside_base64 = raw_message(base64.encodebytes(body), "text/plain; charset=utf-8", "base64")
    assert "\r\n" in inside_base64.get_content()
    assert reply_steps(inside_base64) == STEPS
    wrapped = (f"{STEPS}\n\nOn Mon, 3 Mar 2025 at 10:00, Babel <\n{TOKEN_ADDR}> wrote:\n"
               f"{quoted(ORIGINAL)}\n").replace("\n", "\r\n").encode()
    assert reply_steps(raw_message(base64.encodebytes(wrapped), "text/plain", "base64")) == STEPS


def test_nbsp_is_a_space():
    body = ("move\u00a0M\u00a0\nsettle\u00a0P\nbuild mine\n\u00a0\n"
            f"On Mon, 3 Mar 2025 at 10:00,\u00a0Babel <{TOKEN_ADDR}>\u00a0wrote:\n{quoted(ORIGINAL)}\n")
    msg = reply_message(body, cte="quoted-printable")
    assert "\u00a0" not in reply_steps(msg)
    assert steps_of(msg) == ["move M", "settle P", "build mine"]
    assert GAME.split_steps(reply_steps(msg)) == STEPS.splitlines()


HTML_REPLIES = {
    "gmail": ('<div dir="ltr">move M<br>settle P<br>build mine<br></div><br>'
              '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, 3 Mar 2025 at 10:00, '
              f'Babel: Anna vs Bob &lt;<a href="mailto:{TOKEN_ADDR}">{TOKEN_ADDR}</a>&gt; wrote:<br></div>'
              '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">Hello Anna,<br><br>'
              'it is your turn in Babel: Anna vs Bob (play your turn).<br></blockquote></div>'),
    "outlook": ('<html><head><style type="text/css">p { margin: 0 }</style></head><body>'
                '<div style="font-family: Calibri">move&nbsp;M</div><div>settle P</div>'
                '<div>build mine</div><div><br></div><hr style="display:inline-block;width:98%">'
                '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Babel: Anna vs Bob '
                f'&lt;<a href="mailto:{TOKEN_ADDR}">{TOKEN_ADDR}</a>&gt;<br><b>Sent:</b> Monday, March 3, '
                '2025 10:00<br><b>Subject:</b> Babel with Bob: your turn</font></div>'
                '<div>Hello Anna,<br>it is your turn in Babel</div></body></html>'),
    "apple": ('<html><body><div>move M</div><div>settle P</div><div>build mine<br>'
              '<div><br><blockquote type="cite"><div>On 3 Mar 2025, at 10:00, Babel: Anna vs Bob '
              f'&lt;{TOKEN_ADDR}&gt; wrote:</div><br class="Apple-interchange-newline"><div>'
              'Hello Anna,<br>it is your turn</div></blockquote></div></div></body></html>'),
    "paragraphs": ("<p>move M</p><p>settle P</p><p>build mine</p>"
                   "<p>-- <br>Anna &amp; friends</p>"),
}


@pytest.mark.parametrize("html", HTML_REPLIES.values(), ids=HTML_REPLIES.keys())
def test_an_html_only_reply(html):
    msg = reply_message(html, subtype="html")
    assert msg.get_content_type() == "text/html" and not msg.is_multipart()
    assert steps_of(msg) == ["move M", "settle P", "build mine"]
    assert "<" not in reply_steps(msg) and "Hello" not in reply_steps(msg)


def test_plain_part_is_preferred_to_html():
    msg = EmailMessage()
    msg["From"], msg["To"] = "Anna <anna@example.org>", TOKEN_ADDR
    msg.set_content(f"{STEPS}\n\n{GMAIL}\n{quoted(ORIGINAL)}\n")
    msg.add_alternative("<p>pass</p>", subtype="html")
    assert reply_steps(parse(msg.as_bytes())) == STEPS


# -- ingest --------------------------------------------------------------------------

@pytest.fixture
def game(app, actions):
    """A game where Anna acts first; her invitation (it asks for her turn) is in her inbox."""
    game = new_game(app, seed=7, first=0)
    actions.deliver()
    return game


def first_reply(actions, game, steps=None, **kwargs) -> tuple[object, bytes]:
    invite = actions.last_mail(ANNA)
    loaded = actions.state(game)
    steps = first_turn(hand(loaded.state, 0)) if steps is None else steps
    return invite, answer(invite, steps, **kwargs)


def test_the_turn_mail_reply_to_names_the_seat_and_the_point_of_the_log(app, actions, game):
    from pbem.mail.replies import ReplyToken
    invite = actions.last_mail(ANNA)
    assert re.fullmatch(r"turns\+[a-z2-7]+-[a-z2-7]+@pbem\.test", str(invite["Reply-To"]))
    assert len(str(invite["Reply-To"]).split("@")[0]) <= 64
    assert token_of(app, invite) == ReplyToken(game, 0, 0)
    assert "answer this mail with your steps" in text_of(invite)
    bob = actions.last_mail(BOB)           # invited, but it is not his turn: nothing to answer
    assert bob["Reply-To"] is None


def test_a_valid_reply_is_applied_exactly_as_a_web_submission(app, actions, client, smtp):
    by_web, by_mail = new_game(app, seed=11), new_game(app, seed=11)
    actions.deliver()
    invites = {token_of(app, m).game_id: m for m in smtp.to(ANNA)}
    web_invite, mail_invite = invites[by_web], invites[by_mail]
    loaded = actions.state(by_mail)
    steps = first_turn(hand(loaded.state, 0))
    before = len(outbox_rows(app))

    response = client.post(turn_link(web_invite), data={"steps": steps, "action": "submit"})
    assert response.status_code == 303
    web_mails = outbox_rows(app)[before:]

    sloppy = "  " + steps.replace("\n", " ;  ").upper().replace("MINE", "mine") + "   # Anna's turn"
    output = cli(app, "ingest", input=answer(mail_invite, sloppy, sender="Anna@Example.ORG"))
    assert output.startswith(f"applied (game {by_mail}): ")
    mail_mails = outbox_rows(app)[before + len(web_mails):]

    web_event, mail_event = actions.state(by_web).events, actions.state(by_mail).events
    assert len(mail_event) == 1 == len(web_event)
    assert mail_event[0] == web_event[0] == {"v": 1, "type": "turn", "seat": 0, "steps": steps}
    assert output.strip().endswith(GAME.notation(mail_event[0]))
    assert inbound(app) == ["applied"]
    # The same mails: Bob's turn mail, with Anna's turn in notation and his own Reply-To.
    # (the second game of the same players says so in its subjects)
    assert [(m.kind, m.seat, m.to_addr, m.subject) for m in web_mails] == \
        [("turn", 1, BOB, "Babel with Anna: your turn, Bob")]
    assert [(m.kind, m.seat, m.to_addr, m.subject) for m in mail_mails] == \
        [("turn", 1, BOB, "Babel with Anna (game 2): your turn, Bob")]
    actions.deliver()
    bob = smtp.to(BOB)[-1]
    assert token_of(app, bob).game_id == by_mail and token_of(app, bob).seq == 1
    assert GAME.notation(mail_event[0]) in text_of(bob)
    assert not [m for m in smtp.to(ANNA) if m not in (web_invite, mail_invite)]   # nothing to Anna


def test_an_invalid_reply_is_answered_with_its_failing_step(app, actions, smtp, game):
    invite, raw = first_reply(actions, game, "settle A\nbuild mine")
    reply_id = parse(raw)["Message-ID"]
    result = ingest(app, raw)
    assert result.status == "failed" and result.game_id == game
    sentence = "step 1 (settle A): your figure is still on the quarry; move to a territory before you settle."
    assert str(result) == f"failed (game {game}): {sentence}"
    assert actions.event_count(game) == 0 and inbound(app) == ["failed"]
    failed = actions.last_mail(ANNA)
    assert failed["Subject"] == "Babel with Bob: your reply was not applied"
    assert failed["In-Reply-To"] == reply_id
    text = text_of(failed)
    assert sentence in " ".join(text.split()) and "nothing of it was played" in text
    assert "What we read as your steps:\n  settle A\n  build mine\n" in text
    assert "Hello Anna" not in text.split("What we read")[1]      # not the quoted mail
    assert turn_link(failed) is not None
    # The failure mail may be answered in turn: same seat, same point of the log.
    assert token_of(app, failed) == token_of(app, invite)
    assert len(smtp.to(BOB)) == 1                                   # only his invitation
    fixed = answer(failed, first_turn(hand(actions.state(game).state, 0)))
    assert ingest(app, fixed).status == "applied"
    assert actions.event_count(game) == 1


def test_an_empty_reply_fails_and_says_so(app, actions, game):
    _, raw = first_reply(actions, game, "Sorry, I will play tomorrow.\n")
    result = ingest(app, raw)
    assert result.status == "failed" and "step 1 (Sorry" in result.detail
    assert actions.event_count(game) == 0
    _, raw = first_reply(actions, game, "")
    result = ingest(app, raw)
    assert result.status == "failed" and "the turn has no steps" in result.detail


def test_a_stale_reply_is_refused_and_changes_nothing(app, actions, client, smtp, game):
    invite, raw = first_reply(actions, game)
    response = client.post(turn_link(invite), json={"steps": first_turn(hand(actions.state(game).state, 0))})
    assert response.status_code == 200
    actions.deliver()
    mails_before, bob_before = len(outbox_rows(app)), len(smtp.to(BOB))
    result = ingest(app, raw)
    assert result.status == "refused" and STALE in result.detail
    assert actions.event_count(game) == 1
    refusal = actions.last_mail(ANNA)
    assert refusal["Subject"] == "Babel with Bob: your reply was not applied"
    assert refusal["In-Reply-To"] == parse(raw)["Message-ID"] and refusal["Reply-To"] is None
    # It stays in the game's thread: the seat's thread root, then the reply it answers.
    assert refusal["References"] == f"<{game}.0@pbem.test> {parse(raw)['Message-ID']}"
    assert STALE in text_of(refusal) and "Nothing was changed" in text_of(refusal)
    assert len(outbox_rows(app)) == mails_before + 1 and len(smtp.to(BOB)) == bob_before
    # A second reply to the same old mail (another Message-ID) is just as stale.
    again = answer(invite, "pass")
    assert ingest(app, again).status == "refused" and actions.event_count(game) == 1


def test_a_reply_sent_again_after_it_was_applied_is_stale(app, actions, game):
    invite, raw = first_reply(actions, game)
    assert ingest(app, raw).status == "applied"
    resent = answer(invite, first_turn(hand(actions.state(game).state, 0)))
    result = ingest(app, resent)
    assert result.status == "refused" and STALE in result.detail
    assert actions.event_count(game) == 1


@pytest.mark.parametrize("how", ["changed-character", "other-game", "no-token", "unknown-game"])
def test_a_forged_token_is_dropped_unanswered(app, actions, smtp, game, how):
    """A token that names no seat leaves nobody to answer but the From, which anybody can
    forge: answering it would mail strangers (backscatter). Nothing is sent."""
    from pbem.mail.replies import make_token
    invite = actions.last_mail(ANNA)
    local, domain = str(invite["Reply-To"]).split("@")
    token = local.split("+", 1)[1]
    if how == "changed-character":
        at = len(token) // 3
        to = f"turns+{token[:at]}{'b' if token[at] != 'b' else 'c'}{token[at + 1:]}@{domain}"
    elif how == "other-game":
        with app.app_context():     # a well-formed token under another key
            key = app.config["SECRET_KEY"]
            app.config["SECRET_KEY"] = "guessed"
            to = f"turns+{make_token(game, 0, 0)}@{domain}"
            app.config["SECRET_KEY"] = key
    elif how == "no-token":
        to = "turns@pbem.test"
    else:
        with app.app_context():
            to = f"turns+{make_token('NoSuchGame', 0, 0)}@{domain}"
    raw = answer(invite, first_turn(hand(actions.state(game).state, 0)), to=to)
    mails = len(outbox_rows(app))
    result = ingest(app, raw)
    assert result.status == "dropped", result
    expected = "its game does not exist" if how == "unknown-game" else FORGED.rstrip(".")
    assert result.detail == expected
    assert actions.event_count(game) == 0 and len(outbox_rows(app)) == mails
    assert inbound(app) == ["dropped"]
    assert len(smtp.to(BOB)) == 1
    assert ingest(app, answer(invite, first_turn(hand(actions.state(game).state, 0)))).status == "applied"


@pytest.mark.parametrize("sender", [EVE, BOB])
def test_the_right_token_from_another_address_is_refused_to_the_seats_own_address(
        app, actions, smtp, game, sender):
    """Whoever sent it (a forged From, or the player from another mailbox), only the address that
    plays the seat hears of it; the sender gets nothing."""
    invite, raw = first_reply(actions, game, sender=sender)
    anna_before, bob_before = len(smtp.to(ANNA)), len(smtp.to(BOB))
    result = ingest(app, raw)
    assert result.status == "refused" and result.detail == NOT_HIS
    assert actions.event_count(game) == 0
    actions.deliver()
    assert not smtp.to(EVE) and len(smtp.to(BOB)) == bob_before
    [refusal] = smtp.to(ANNA)[anna_before:]
    assert refusal["Subject"] == "Babel with Bob: your reply was not applied"
    assert NOT_HIS in text_of(refusal) and refusal["In-Reply-To"] == parse(raw)["Message-ID"]
    assert ingest(app, answer(invite, first_turn(hand(actions.state(game).state, 0)))).status == "applied"


def vacation(invite) -> bytes:
    return answer(invite, "I am away until Monday.\n\n" + first_turn("MP"), quote=False,
                  headers={"Auto-Submitted": "auto-replied"})


def bulk(invite) -> bytes:
    return answer(invite, first_turn("MP"), headers={"Precedence": "bulk"})


def bounce(invite) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Mail Delivery System <MAILER-DAEMON@mx.example.org>"
    msg["To"] = str(invite["Reply-To"])
    msg["Subject"] = "Undelivered Mail Returned to Sender"
    msg["Message-ID"] = make_msgid(domain="mx.example.org")
    msg.set_content("This is the mail system at host mx.example.org.\n\n"
                    "I'm sorry to have to inform you that your message could not\n"
                    "be delivered to one or more recipients.\n\nsettle A\n")
    status = EmailMessage()
    status.set_content("Reporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; anna@example.org\n"
                       "Action: failed\nStatus: 5.1.1\n")
    msg.add_attachment(status)
    msg.add_attachment(invite)
    msg.set_type("multipart/report")
    msg.set_param("report-type", "delivery-status")
    return msg.as_bytes()


def postmaster(invite) -> bytes:
    """An auto-reply that says nothing of itself in its headers but comes from the postmaster."""
    raw = answer(invite, "settle A")
    return raw.replace(b"From: Anna <anna@example.org>", b"From: postmaster@example.org")


@pytest.mark.parametrize("make", [vacation, bulk, bounce, postmaster])
def test_automatic_mail_is_ignored_without_an_answer(app, actions, smtp, game, make):
    invite = actions.last_mail(ANNA)
    raw = make(invite)
    mails_before, received_before = len(outbox_rows(app)), len(smtp.messages)
    result = ingest(app, raw)
    assert result.status == "ignored", result
    assert actions.event_count(game) == 0 and inbound(app) == ["ignored"]
    actions.deliver()
    assert len(outbox_rows(app)) == mails_before and len(smtp.messages) == received_before


@pytest.mark.parametrize("kind", ["valid", "invalid", "forged"])
def test_the_same_message_twice_applies_once(app, actions, smtp, game, kind):
    steps = "settle A" if kind == "invalid" else None
    invite, raw = first_reply(actions, game, steps,
                              **({"to": "turns+aaaa-bbbb@pbem.test"} if kind == "forged" else {}))
    first = cli(app, "ingest", input=raw)
    assert first.startswith({"valid": "applied", "invalid": "failed", "forged": "dropped"}[kind])
    events, mails = actions.event_count(game), len(outbox_rows(app))
    actions.deliver()
    received = len(smtp.messages)
    second = cli(app, "ingest", input=raw)
    assert second == "duplicate: this message was ingested before\n"
    assert ingest(app, raw).status == "duplicate"
    assert actions.event_count(game) == events == (1 if kind == "valid" else 0)
    assert len(outbox_rows(app)) == mails
    actions.deliver()
    assert len(smtp.messages) == received
    assert len(inbound(app)) == 1


def test_a_message_without_message_id_is_known_by_its_bytes(app, actions, game):
    _, raw = first_reply(actions, game)
    raw = re.sub(rb"Message-ID: [^\n]*\n", b"", raw)
    assert parse(raw)["Message-ID"] is None
    assert ingest(app, raw).status == "applied"
    assert ingest(app, raw).status == "duplicate"
    assert actions.event_count(game) == 1


def test_the_envelope_recipient_carries_the_token(app, actions, game):
    """Forwarded, or sent by Bcc: the token is only in the envelope (`--recipient`)."""
    invite, raw = first_reply(actions, game, to="Babel <turns@pbem.test>")
    output = cli(app, "ingest", "--recipient", str(invite["Reply-To"]), input=raw)
    assert output.startswith(f"applied (game {game})")
    assert actions.event_count(game) == 1


def test_delivered_to_and_an_upper_cased_address_carry_the_token(app, actions, game):
    invite, raw = first_reply(actions, game, to="turns@pbem.test")
    raw = f"Delivered-To: {str(invite['Reply-To']).upper()}\n".encode() + raw
    assert ingest(app, raw).status == "applied"
    assert actions.event_count(game) == 1


def test_an_empty_stdin_is_a_usage_error(app):
    result = app.test_cli_runner().invoke(args=["ingest"], input=b"  \n")
    assert result.exit_code == 2 and "no message on standard input" in result.output


def test_a_maildir_is_read_once(app, actions, smtp, game, tmp_path):
    invite = actions.last_mail(ANNA)
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path, create=True)
    # An old message, already read: never looked at.
    old = mailbox.MaildirMessage(answer(invite, "settle A"))
    old.set_subdir("cur")
    old.add_flag("S")
    box.add(old)
    valid = (b"Return-Path: <anna@example.org>\nDelivered-To: " + str(invite["Reply-To"]).encode()
             + b"\n" + answer(invite, first_turn(hand(actions.state(game).state, 0))))
    keys = [box.add(valid), box.add(vacation(invite)),
            box.add(answer(invite, "pass", sender=EVE)), box.add(valid)]
    box.close()
    assert len(os.listdir(path / "new")) == 4 and len(os.listdir(path / "cur")) == 1

    output = cli(app, "ingest", "--maildir", str(path))
    lines = output.splitlines()
    assert len(lines) == 4, output
    assert sorted(line.split()[0].rstrip(":") for line in lines) == \
        ["applied", "duplicate", "ignored", "refused"]
    assert actions.event_count(game) == 1
    assert sorted(inbound(app)) == ["applied", "ignored", "refused"]
    assert os.listdir(path / "new") == []
    box = mailbox.Maildir(path, create=False)
    assert len(box) == 5
    for key in keys:
        message = box.get_message(key)
        assert message.get_subdir() == "cur" and "S" in message.get_flags()
    assert all(name.endswith(":2,S") for name in os.listdir(path / "cur"))
    assert parse(box.get_bytes(keys[0]))["Message-ID"] == parse(valid)["Message-ID"]

    mails = len(outbox_rows(app))
    assert cli(app, "ingest", "--maildir", str(path)) == ""
    assert actions.event_count(game) == 1 and len(outbox_rows(app)) == mails
    assert len(inbound(app)) == 3
    # New mail arrives: only it is read on the next run.
    bob_turn = actions.last_mail(BOB)
    box.add(answer(bob_turn, first_turn(hand(actions.state(game).state, 1))))
    output = cli(app, "ingest", "--maildir", str(path))
    assert output.startswith(f"applied (game {game})") and len(output.splitlines()) == 1
    assert actions.event_count(game) == 2


def with_header(raw: bytes, name: bytes, value: bytes) -> bytes:
    """The message with one header's raw value replaced, as no mail library would write it."""
    return re.sub(rb"(?m)^" + name + rb": .*$", name + b": " + value, raw, count=1)


CRLF_WORD = b"=?utf-8?q?x=0D=0ABcc=3A_eve=40example=2Enet?="
HOSTILE = {   # what: (how the reply is changed, what becomes of it)
    "long-sender": (lambda raw: with_header(raw, b"From", b"x" * 300 + b"@example.net"), "refused"),
    "long-message-id": (lambda raw: with_header(raw, b"Message-ID",
                                                b"<" + b"m" * 400 + b"@mail.example.org>"), "failed"),
    "crlf-message-id": (lambda raw: with_header(raw, b"Message-ID", CRLF_WORD), "failed"),
    "crlf-from": (lambda raw: with_header(raw, b"From", CRLF_WORD + b" <anna@example.org>"), "ignored"),
    "crlf-to": (lambda raw: with_header(raw, b"Cc", CRLF_WORD + b" <x@example.org>"), "ignored"),
}


@pytest.mark.parametrize("what", HOSTILE)
def test_hostile_headers_are_answered_safely_or_not_at_all(app, actions, smtp, game, tmp_path, what):
    """Never a crash (on PostgreSQL too): one bad message must not block a Maildir for good."""
    from pbem.store.models import FAILED
    change, status = HOSTILE[what]
    invite = actions.last_mail(ANNA)
    raw = change(answer(invite, "settle A", headers={"Cc": "Anna <anna@example.org>"}))
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path, create=True)
    box.add(raw)
    box.add(answer(invite, first_turn(hand(actions.state(game).state, 0))))
    output = cli(app, "ingest", "--maildir", str(path))
    assert sorted(line.split()[0].rstrip(":") for line in output.splitlines()) == \
        sorted(["applied", status]), output
    assert os.listdir(path / "new") == [] and actions.event_count(game) == 1
    assert cli(app, "ingest", input=raw).startswith("duplicate")
    actions.deliver()
    assert not [m for m in outbox_rows(app) if m.status == FAILED]
    answers = [m for m in outbox_rows(app) if m.kind in ("reply_failed", "reply_refused")]
    if status == "failed":
        [failed] = [m for m in smtp.to(ANNA) if "your reply was not applied" in str(m["Subject"])]
        assert "step 1 (settle A)" in text_of(failed) and failed["Bcc"] is None
        assert failed["In-Reply-To"] == f"<{game}.0@pbem.test>"      # the thread, not the bad id
    elif status == "refused":   # answered to the seat's own address, never to the sender
        assert [m.to_addr for m in answers] == [ANNA]
    else:
        assert answers == []
    assert not smtp.to(EVE)


# -- halving and whole games ------------------------------------------------------------

def simulate(seed: int, first: int) -> list[dict]:
    """The events a game of random replies makes: decision k answers with Rng(seed * 1000 + k)."""
    state = GAME.start(seed, {"sumerians": "top-run"}, 2, first)
    events = []
    while GAME.outcome(state) is None and len(events) < MAX_DECISIONS:
        [decision] = GAME.to_act(state)
        text = GAME.random_submission(state, decision.seat, Rng(seed * 1000 + len(events)))
        event = GAME.decide(state, decision.seat, text)
        state = GAME.apply(state, event)
        events.append(event)
    return events


@cache
def seed_with_discards(first: int) -> int:
    """The first seed whose random game has owed discards and a winner."""
    for seed in range(1, 500):
        events = simulate(seed, first)
        state = GAME.replay(seed, {"sumerians": "top-run"}, 2, first, events)
        if any(e["type"] == "discard" for e in events) and GAME.outcome(state).winner is not None:
            return seed
    raise AssertionError("no game with discards among the searched seeds")


def play_by_mail(app, actions, smtp, game: str, seed: int, until=None) -> int:
    """Each seat to act answers his latest mail with a random legal decision, through `flask
    ingest`, until the game is over (or `until(decision)`). Returns the replies applied."""
    applied = 0
    for _ in range(MAX_DECISIONS):
        loaded, decision = owed(actions, game)
        if decision is None or (until and until(decision)):
            return applied
        seat = decision.seat
        mail = actions.last_mail(EMAILS[seat])
        assert "your turn" in str(mail["Subject"]) and decision.label in text_of(mail)
        ref = token_of(app, mail)
        assert (ref.game_id, ref.seat, ref.seq) == (game, seat, loaded.seq)
        text = GAME.random_submission(loaded.state, seat, Rng(seed * 1000 + loaded.seq))
        output = cli(app, "ingest", input=answer(mail, text))
        assert output.startswith(f"applied (game {game}): "), (text, output)
        applied += 1
        after = actions.state(game)
        assert len(after.events) == loaded.seq + 1
        assert after.events[-1] == GAME.decide(loaded.state, seat, text)
    raise AssertionError(f"no end after {MAX_DECISIONS} decisions")


def test_owed_discards_by_mail_then_the_fresh_turn_mail(app, actions, smtp):
    seed = seed_with_discards(0)
    game = new_game(app, seed, first=0)
    play_by_mail(app, actions, smtp, game, seed, until=lambda d: d.kind == "discard")
    loaded, decision = owed(actions, game)
    seat, other = decision.seat, 1 - decision.seat
    count = loaded.state.discards_due(seat)
    cards = hand(loaded.state, seat)
    mail = actions.last_mail(EMAILS[seat])
    assert f"discard {count} card" in text_of(mail) and "(halving) before you" in text_of(mail)
    assert "the mail for the rest of your turn" in " ".join(text_of(mail).split())
    assert token_of(app, mail).seq == loaded.seq

    # The wrong number of cards first: answered with the sentence, nothing applied.
    wrong = "discard " + " ".join(cards[:count + 1])
    result = ingest(app, answer(mail, wrong))
    assert result.status == "failed" and f"step 1 ({wrong}): you owe" in result.detail
    failed = actions.last_mail(EMAILS[seat])
    assert "your reply was not applied" in str(failed["Subject"]) and result.detail in text_of(failed)
    assert actions.event_count(game) == loaded.seq

    theirs = len(smtp.to(EMAILS[other]))
    result = ingest(app, answer(mail, "discard " + " ".join(cards[:count])))
    assert result.status == "applied" and result.detail == "discard " + " ".join(sorted(cards[:count]))
    after, next_decision = owed(actions, game)
    assert after.events[-1] == {"v": 1, "type": "discard", "seat": seat,
                                "cards": "".join(sorted(cards[:count]))}
    assert next_decision.seat == seat and next_decision.kind == "turn"
    assert len(hand(after.state, seat)) == len(cards) - count + 3          # he has drawn

    # He is mailed his fresh turn (no page takes him there), the other seat nothing yet.
    fresh = actions.last_mail(EMAILS[seat])
    assert fresh["Subject"] == f"Babel with {NAMES[other]}: your turn, {NAMES[seat]}"
    assert ": play your turn." in text_of(fresh)
    ref = token_of(app, fresh)
    assert (ref.seat, ref.seq) == (seat, after.seq)
    assert len(smtp.to(EMAILS[other])) == theirs
    # The discard mail is used up.
    assert ingest(app, answer(mail, "discard " + " ".join(cards[:count]))).status == "refused"

    text = GAME.random_submission(after.state, seat, Rng(seed))
    result = ingest(app, answer(fresh, text))
    assert result.status == "applied", result
    assert actions.event_count(game) == after.seq + 1
    nxt = actions.last_mail(EMAILS[other])
    assert len(smtp.to(EMAILS[other])) == theirs + 1
    if GAME.outcome(actions.state(game).state) is None:
        assert token_of(app, nxt) is not None and token_of(app, nxt).seq == after.seq + 1


@pytest.mark.parametrize("created", ["cli", "form"])
def test_a_whole_game_played_only_by_mail_replies(app, actions, client, smtp, created):
    from pbem.store.models import Inbound
    if created == "cli":
        seed = seed_with_discards(1)
        game = new_game(app, seed, first=1)
    else:
        game = actions.create(first=0)
        seed = 3
    played = play_by_mail(app, actions, smtp, game, seed)

    loaded, decision = owed(actions, game)
    outcome = GAME.outcome(loaded.state)
    assert decision is None and outcome is not None
    assert actions.event_count(game) == len(loaded.events) == played
    assert [r.result for r in rows(app, Inbound)] == ["applied"] * played
    if created == "cli":
        assert any(e["type"] == "discard" for e in loaded.events)
    for seat, addr in enumerate(EMAILS):
        over = actions.last_mail(addr)
        assert str(over["Subject"]).endswith("the game is over")
        ending = GAME.ending(loaded.state, seat, list(NAMES))   # from the reader's side
        assert f"{ending}." in " ".join(text_of(over).split())
        assert over["Reply-To"] is None and turn_link(over) is None
    # Every mail that asked for a decision was answered once; a late answer to any, once the
    # game is over, is no move and gets no answer ("use your latest turn link" would be wrong).
    last = [m for m in smtp.to(EMAILS[loaded.events[-1]["seat"]]) if m["Reply-To"]][-1]
    mails = len(outbox_rows(app))
    assert ingest(app, answer(last, "pass")).status == "ignored"
    assert actions.event_count(game) == played and len(outbox_rows(app)) == mails


# -- no mail loop ----------------------------------------------------------------------------

def test_refusals_to_one_address_are_capped_per_hour(app, actions, smtp, game):
    from sqlalchemy import update

    from pbem.extensions import db
    from pbem.store.models import RateEvent
    invite = actions.last_mail(ANNA)
    anna_before = len(smtp.to(ANNA))
    results = [ingest(app, answer(invite, "pass", sender=EVE)).status for _ in range(12)]
    assert results == ["refused"] * 12
    actions.deliver()
    assert app.config["REFUSALS_PER_ADDRESS_PER_HOUR"] == 5
    assert len(smtp.to(ANNA)) - anna_before == 5 and not smtp.to(EVE)
    assert len(inbound(app)) == 12 and actions.event_count(game) == 0
    # Bob's seat is answered all the same: the cap is per address.
    from pbem.mail.replies import make_token
    with app.app_context():
        to_bob = f"turns+{make_token(game, 1, 0)}@pbem.test"
    bob_before = len(smtp.to(BOB))
    assert ingest(app, answer(invite, "pass", sender=EVE, to=to_bob)).status == "refused"
    actions.deliver()
    assert len(smtp.to(BOB)) == bob_before + 1
    # An hour later Anna's seat is answered again (once more, up to the cap).
    with app.app_context():
        db.session.execute(update(RateEvent).values(at=RateEvent.at - timedelta(hours=1, minutes=1)))
        db.session.commit()
    assert ingest(app, answer(invite, "pass", sender=EVE)).status == "refused"
    actions.deliver()
    assert len(smtp.to(ANNA)) - anna_before == 6
    # Anna herself can still play by mail.
    assert ingest(app, answer(invite, first_turn(hand(actions.state(game).state, 0)))).status == "applied"


def test_refusals_have_a_small_budget_for_everybody_together(app, actions, smtp):
    """Forged mails for many seats at once: beyond REFUSALS_PER_HOUR nobody is answered."""
    app.config["REFUSALS_PER_HOUR"] = 3
    games = [actions.create(first=0, emails=(f"p{i}@example.org", f"q{i}@example.org"))
             for i in range(5)]
    invites = [actions.last_mail(f"p{i}@example.org") for i in range(len(games))]
    smtp.clear()
    results = [ingest(app, answer(invite, "pass", sender=EVE)) for invite in invites]
    assert [r.status for r in results] == ["refused"] * 5
    assert [r.detail.endswith("(not answered: too many lately)") for r in results] == \
        [False] * 3 + [True] * 2
    actions.deliver()
    assert len(smtp.messages) == 3 and not smtp.to(EVE)


def test_our_own_refusal_bounced_back_is_ignored(app, actions, smtp, game):
    """A refusal that comes back (an auto-reply to it, or the mail itself) is not answered again."""
    invite = actions.last_mail(ANNA)
    anna_before = len(smtp.to(ANNA))
    ingest(app, answer(invite, "pass", sender=EVE))
    refusal = actions.last_mail(ANNA)
    assert "your reply was not applied" in refusal["Subject"]
    assert refusal["Auto-Submitted"] == "auto-replied"   # an answer to his mail (RFC 3834)
    looped = refusal.as_bytes()
    assert ingest(app, looped).status == "ignored"
    actions.deliver()
    assert len(smtp.to(ANNA)) == anna_before + 1


def test_steps_written_below_the_quote_are_read_when_nothing_is_above():
    body = (f"{GMAIL}\n> Hello Anna,\n> it is your turn\n\n"
            "move M\nsettle P\n> quoted again\nbuild mine\n\n-- \nAnna")
    assert steps_of(reply_message(body)) == ["move M", "settle P", "build mine"]
    wrapped = "On Mon, 3 Mar 2025 at 10:00, Babel: Anna vs Bob\n<x@y> wrote:\n> quoted\nmove M"
    assert steps_of(reply_message(wrapped)) == ["move M"]
    assert steps_of(reply_message("move M\n" + GMAIL + "\n> quoted\nmove H")) == ["move M"]


def test_turn_mails_show_the_players_own_position_so_he_can_answer_from_his_mailbox(app, actions, smtp):
    game = new_game(app, 1)
    actions.deliver()
    [invite] = smtp.to(ANNA)
    with app.app_context():
        from pbem.store import gamelog
        state = gamelog.load(game).state
    text = text_of(invite)
    assert f"Your hand: {' '.join(hand(state, 0))}" in text
    assert "Columns (top last): yours 1, your opponent's 1" in text
    assert hand(state, 1) not in text.replace(" ", "")     # never the opponent's hand


def test_a_maildir_is_read_in_order_of_arrival(app, actions, smtp, tmp_path):
    import mailbox
    game = new_game(app, 1)
    actions.deliver()
    [invite] = smtp.to(ANNA)
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    with app.app_context():
        from pbem.store import gamelog
        state = gamelog.load(game).state
    good = first_turn(hand(state, 0))
    for when, steps in ((100.9, "build theirs"), (100.25, good)):   # the good one came first
        message = mailbox.MaildirMessage(answer(invite, steps))
        message.set_date(when)
        box.add(message)
    out = cli(app, "ingest", "--maildir", str(tmp_path / "Maildir"))
    assert out.splitlines()[0].startswith("applied") and out.splitlines()[1].startswith("refused")
