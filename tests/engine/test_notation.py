"""The turn notation (docs/games/babel-notation.md, "Turn notation").

The parser is forgiving about form; the formatter is canonical; parse(format(steps)) == steps;
format(parse(text)) is canonical and idempotent; malformed input of any kind raises only
`NotationError`, which names the 1-based step and its text.
"""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.games.babel import GAME
from pbem.games.babel.notation import (
    MAX_STEPS,
    MAX_TEXT,
    canonical,
    format_steps,
    one_line,
    parse,
    parse_steps,
    split,
)
from pbem.games.babel.steps import (
    Build,
    Destroy,
    Discard,
    Emigrate,
    Halve,
    Jump,
    Migrate,
    Move,
    Pass,
    Rob,
    Settle,
    Switch,
)
from pbem.games.errors import GameError, NotationError

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- forgiving reading -----------------------------------------------------------------------

@pytest.mark.parametrize("word, letter", [
    ("A", "A"), ("a", "A"), ("assyrians", "A"), ("Assyrians", "A"), ("ASSYRIANS", "A"),
    ("H", "H"), ("h", "H"), ("hittites", "H"), ("hitites", "H"), ("Hitites", "H"),
    ("HITTITES", "H"), ("M", "M"), ("medes", "M"), ("Medes", "M"), ("P", "P"),
    ("persians", "P"), ("PerSians", "P"), ("S", "S"), ("s", "S"), ("sumerians", "S"),
    ("Sumerians", "S"),
])
def test_tribes_by_letter_or_name_in_any_case(word, letter):
    assert parse(f"move {word}") == [Move(letter)]
    assert parse(f"emigrate {word}") == [Emigrate(letter)]
    assert parse(f"halve {word}") == [Halve(letter)]
    assert parse(f"settle {word}") == [Settle((letter,))]
    assert parse(f"discard {word}") == [Discard((letter,))]


def test_keywords_in_any_case():
    assert parse("MOVE h\nSettle S s\nBUILD Mine\nJuMp THEIRS\nDESTROY\nRob\nSWITCH\nPass") == [
        Move("H"), Settle(("S", "S")), Build("mine"), Jump("theirs"), Destroy(), Rob(), Switch(),
        Pass()]


def test_own_and_opp_are_mine_and_theirs():
    assert parse("build own; build opp; jump OWN; jump Opp") == [
        Build("mine"), Build("theirs"), Jump("mine"), Jump("theirs")]
    assert parse("build mine; build theirs") == [Build("mine"), Build("theirs")]


def test_several_cards_as_words_names_commas_or_runs_of_letters():
    expected = [Settle(("S", "S", "A"))]
    for text in ("settle S S A", "settle s s a", "settle SSA", "settle ssa", "settle S, S, A",
                 "settle sumerians sumerians assyrians", "settle SS assyrians",
                 "settle  S\tS   A  "):
        assert parse(text) == expected, text
    assert parse("discard AAM") == [Discard(("A", "A", "M"))]


def test_migrate_takes_two_territories_by_letter_or_name():
    assert parse("migrate H S") == [Migrate("H", "S")]
    assert parse("Migrate hittites Sumerians") == [Migrate("H", "S")]
    assert parse("migrate hitites medes") == [Migrate("H", "M")]


def test_semicolons_newlines_blank_lines_and_comments():
    text = """
    # Anna's turn
    switch          # take Bob's Medes card

    migrate H S;  switch ;destroy
    move A; settle H   # comment; with a semicolon
    ;;
    rob\r
    """
    assert parse(text) == [Switch(), Migrate("H", "S"), Switch(), Destroy(), Move("A"),
                           Settle(("H",)), Rob()]


def test_lines_quoted_in_a_mail_reply_are_ignored():
    text = ("move S\n"
            "> On Monday the server wrote:\n"
            ">> move H; settle HHH\n"
            "   > build mine\n"
            "settle S\n")
    assert parse(text) == [Move("S"), Settle(("S",))]


def test_empty_text_has_no_steps():
    for text in ("", "   ", "\n\n", "# only a comment", "> quoted\n# comment\n;;"):
        assert parse(text) == []
        assert canonical(text) == ""


def test_parse_steps_keeps_each_steps_text_as_written():
    parsed = parse_steps("MOVE h ;  settle s s  # two\n")
    assert parsed == [(Move("H"), "MOVE h"), (Settle(("S", "S")), "settle s s")]


# -- canonical writing -----------------------------------------------------------------------

def test_format_is_canonical():
    steps = parse("MOVE h; settle s sumerians; build OWN; jump opp; migrate hittites s; "
                  "emigrate medes; halve p; discard assyrians a m; destroy; rob; switch")
    assert format_steps(steps) == ("move H\nsettle S S\nbuild mine\njump theirs\nmigrate H S\n"
                                   "emigrate M\nhalve P\ndiscard A A M\ndestroy\nrob\nswitch")
    assert one_line(steps[:3]) == "move H; settle S S; build mine"
    assert format_steps([Pass()]) == "pass"
    assert format_steps([]) == ""


TRIBE = st.sampled_from("AHMPS")
COLUMN = st.sampled_from(["mine", "theirs"])
CARDS = st.lists(TRIBE, min_size=1, max_size=7).map(tuple)
STEP = st.one_of(
    st.builds(Move, TRIBE), st.builds(Settle, CARDS), st.builds(Build, COLUMN),
    st.builds(Migrate, TRIBE, TRIBE), st.just(Destroy()), st.just(Rob()),
    st.builds(Emigrate, TRIBE), st.just(Switch()), st.builds(Jump, COLUMN),
    st.builds(Halve, TRIBE), st.builds(Discard, CARDS), st.just(Pass()),
)
STEPS = st.lists(STEP, max_size=25)


@PROPERTY
@given(STEPS)
def test_parse_of_format_is_the_identity(steps):
    text = format_steps(steps)
    assert parse(text) == steps
    assert parse(one_line(steps)) == steps


def is_canonical(text: str) -> bool:
    lines = text.split("\n") if text else []
    for line in lines:
        keyword, *words = line.split(" ")
        if keyword != keyword.lower() or line != line.strip() or "  " in line:
            return False
        for word in words:
            if word not in ("mine", "theirs") and word not in tuple("AHMPS"):
                return False
    return True


NAMES = {
    "A": ["a", "A", "assyrians", "Assyrians", "ASSYRIANS"],
    "H": ["h", "H", "hittites", "Hittites", "hitites", "HITITES"],
    "M": ["m", "M", "medes", "Medes", "MEDES"],
    "P": ["p", "P", "persians", "Persians"],
    "S": ["s", "S", "sumerians", "SUMERIANS"],
}
COLUMN_WORDS = {"mine": ["mine", "MINE", "own", "Own"],
                "theirs": ["theirs", "Theirs", "opp", "OPP"]}


@st.composite
def messy(draw, step):
    """One step written as a player might: any case, names, aliases, commas, runs of letters."""
    def case(word):
        return draw(st.sampled_from([word, word.upper(), word.capitalize()]))

    def tribe(t):
        return draw(st.sampled_from(NAMES[t]))

    keyword = case(str(step).split(" ")[0])
    match step:
        case Move(t) | Emigrate(t) | Halve(t):
            words = [tribe(t)]
        case Settle(ts) | Discard(ts):
            if draw(st.booleans()):
                words = ["".join(draw(st.sampled_from([t, t.lower()])) for t in ts)]
            else:
                words = [tribe(t) for t in ts]
        case Build(c) | Jump(c):
            words = [draw(st.sampled_from(COLUMN_WORDS[c]))]
        case Migrate(x, y):
            words = [tribe(x), tribe(y)]
        case _:
            words = []
    sep = draw(st.sampled_from([" ", "  ", "\t", ", "]))
    if keyword and words:
        return keyword + draw(st.sampled_from([" ", "\t", "   "])) + sep.join(words)
    return keyword


@st.composite
def messy_text(draw):
    steps = draw(STEPS)
    out = []
    for step in steps:
        if draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from(["\n", "\n\n", "\r\n", ";", " ; "])))
        if draw(st.integers(0, 6)) == 0:
            quoted = draw(st.sampled_from(["move A", "settle SSS; build mine", "x"]))
            out.append("\n> " + quoted + "\n")
        out.append(draw(st.sampled_from(["", " ", "  "])) + draw(messy(step)))
        if draw(st.integers(0, 4)) == 0:
            out.append(" # " + draw(st.sampled_from(["comment", "move A; build mine", "#", ""])))
            out.append("\n")
        else:
            out.append(draw(st.sampled_from(["\n", ";", " ;", "; ", "\r\n", "\n\n"])))
    return steps, "".join(out)


@PROPERTY
@given(messy_text())
def test_messy_text_reads_as_its_steps_and_formats_canonically(case):
    steps, text = case
    assert parse(text) == steps
    formatted = canonical(text)
    assert formatted == format_steps(steps)
    assert is_canonical(formatted)
    assert canonical(formatted) == formatted


# -- malformed input ----------------------------------------------------------------------------

def check_error(text, error):
    """A NotationError names the 1-based step and the step as written."""
    assert isinstance(error, NotationError) and isinstance(error, GameError)
    assert isinstance(error.message, str) and error.message
    if error.step is not None:
        pieces = split(text)
        assert 1 <= error.step <= len(pieces)
        assert error.text == pieces[error.step - 1]
        assert str(error).startswith(f"step {error.step} ({error.text}): ")
        # Every step before the failing one reads.
        parse("\n".join(pieces[:error.step - 1]))


def parse_or_error(text):
    try:
        return parse(text)
    except NotationError as error:
        check_error(text, error)
        return None


@PROPERTY
@given(st.text())
@example(",")
@example(" , ;move A")
@example("move")
@example("settle")
@example("settle ,")
@example("migrate A")
@example("build")
@example("build up")
@example("destroy now")
@example("\x00")
@example("move A\x85move B")
@example("move \u0130")
def test_any_text_reads_or_raises_a_notation_error(text):
    parse_or_error(text)


JUNK = st.text(alphabet=st.sampled_from(list("movesettlbuidmigraHAMPSahmps ;,#>\n\r\t-1ĀİK'\"")),
               max_size=200)


@PROPERTY
@given(JUNK)
def test_notation_like_junk_reads_or_raises_a_notation_error(text):
    steps = parse_or_error(text)
    if steps is not None:
        assert parse(format_steps(steps)) == steps


@PROPERTY
@given(STEPS, st.integers(min_value=0, max_value=30), st.sampled_from([
    "fly", "move", "move X", "move A A", "settle", "settle X", "build", "build here",
    "migrate A", "migrate A B", "destroy A", "rob me", "switch S", "jump", "jump 2",
    "halve", "emigrate", "discard", "discard 3", "pass now", "moove A", ",",
]))
def test_an_error_names_the_failing_step(steps, where, bad):
    where = min(where, len(steps))
    pieces = [str(s) for s in steps]
    pieces.insert(where, bad)
    text = "\n".join(pieces)
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert error.step == where + 1
    assert error.text == bad
    check_error(text, error)


def test_error_messages_are_sentences_a_player_understands():
    with pytest.raises(NotationError) as caught:
        parse("move A; settle S; buidl mine")
    assert str(caught.value) == ("step 3 (buidl mine): 'buidl' is not a step; did you mean build? "
                                 "steps are move, settle, build, migrate, destroy, rob, emigrate, "
                                 "switch, jump, halve, discard, pass.")
    with pytest.raises(NotationError) as caught:
        parse("settle X")
    assert str(caught.value).startswith("step 1 (settle X): 'X' is not a tribe")
    with pytest.raises(NotationError) as caught:
        parse("move A\nbuild up")
    assert str(caught.value).startswith("step 2 (build up): 'up' is not a column")
    assert caught.value.to_json() == {"error": str(caught.value), "step": 2}


def test_huge_input_is_refused_quickly_with_a_notation_error():
    for text in ("move A\n" * 200_000, "x" * 10_000_000, "settle " + "S" * (MAX_TEXT + 1)):
        with pytest.raises(NotationError) as caught:
            parse(text)
        assert "at most" in str(caught.value)
    with pytest.raises(NotationError) as caught:
        parse("rob;" * (MAX_STEPS + 1))
    assert "at most" in str(caught.value)
    # Up to the limits, long turns read.
    assert len(parse("rob;" * MAX_STEPS)) == MAX_STEPS
    word = "settle " + "S" * (MAX_TEXT - 7)
    assert parse(word) == [Settle(("S",) * (MAX_TEXT - 7))]
    # A huge unknown keyword still reads quickly as an error of step 1.
    with pytest.raises(NotationError) as caught:
        parse("q" * (MAX_TEXT - 1))
    assert caught.value.step == 1


def test_an_empty_submission_is_refused_as_notation_at_step_1():
    state = GAME.start(1, {}, 2, 0)
    for text in ("", "  \n", "# nothing"):
        with pytest.raises(NotationError) as caught:
            GAME.decide(state, 0, text)
        assert caught.value.step == 1
