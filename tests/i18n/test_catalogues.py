"""The catalogues: every sentence marked in the code is translated into German and Czech,
none empty or fuzzy, each keeping its placeholders; and the marked sentences are all there.

`pybabel extract` (babel.cfg) is what a translator runs; this test runs the same extraction.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from pbem import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.ENGLISH]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
            "phrase": None, "phrase_n": (1, 2)}
METHODS = [("pbem/**.py", "python"), ("templates/**.html", "jinja2"), ("templates/**.txt", "jinja2")]
BRACES = re.compile(r"\{(\w*)[^{}]*\}")
PERCENT = re.compile(r"%\((\w+)\)[sd]")


def placeholders(text: str) -> set[str]:
    return set(BRACES.findall(text)) | set(PERCENT.findall(text))


def entries(language: str):
    for path in i18n.catalogue_files(language):
        with path.open("rb") as f:
            for message in read_po(f, locale=language):
                if message.id:
                    yield path.name, message


@pytest.fixture(scope="module")
def marked() -> dict[str, set[str]]:
    """Every message id marked in the code and templates, with the files that say it."""
    found: dict[str, set[str]] = defaultdict(set)
    for filename, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS, options_map={"templates/**": {}}):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found[msgid].add(filename)
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_is_translated_and_not_fuzzy(language):
    bad = [f"{area}: {m.id!r}" for area, m in entries(language)
           if m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,))]
    assert not bad, f"{len(bad)} entries untranslated or fuzzy in {language}:\n" + "\n".join(bad[:40])


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language):
    bad = []
    for area, m in entries(language):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            got = placeholders(s)
            # a singular form may leave out the count ("eine Karte"), never add a placeholder
            if got - wanted or (wanted - got) - {"n", "num"}:
                bad.append(f"{area}: {ids[0]!r} -> {s!r}")
    assert not bad, "\n".join(bad[:40])


def test_the_two_languages_translate_the_same_sentences():
    ids = {lang: {(area, m.id if isinstance(m.id, str) else m.id[0]) for area, m in entries(lang)}
           for lang in TRANSLATED}
    de, cs = ids["de"], ids["cs"]
    assert de - cs == set() and cs - de == set(), (sorted(de - cs)[:20], sorted(cs - de)[:20])


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_sentence_is_in_the_catalogue(language, marked):
    known = {m.id if isinstance(m.id, str) else m.id[0] for _, m in entries(language)}
    missing = defaultdict(list)
    for msgid, files in marked.items():
        if msgid not in known:
            for f in files:
                missing[f].append(msgid)
    report = "\n".join(f"{f}: {len(ids)} missing, e.g. {ids[0]!r}" for f, ids in sorted(missing.items()))
    assert not missing, f"sentences marked but not in the {language} catalogue:\n{report}"


def test_a_phrase_with_a_translation_is_said_in_the_language():
    from pbem.app import make_app
    from pbem.games.phrases import phrase
    app = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.say(phrase("Not possible")) == "Nicht möglich"
    with app.test_request_context(headers={"Accept-Language": "cs, de;q=0.5"}):
        assert i18n.say(phrase("Not possible")) == "Nelze"
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert i18n.say(phrase("Not possible")) == "Not possible"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_sentence_in_two_areas_is_translated_the_same(language):
    """The catalogues are merged into one: a sentence two areas both translate must read the
    same in both, or which one a reader sees depends on the order the files are read in."""
    seen: dict[str, dict[str, str]] = defaultdict(dict)
    for area, m in entries(language):
        seen[m.id if isinstance(m.id, str) else m.id[0]][area] = str(m.string)
    differ = {msgid: by for msgid, by in seen.items() if len(set(by.values())) > 1}
    assert not differ, "\n".join(f"{msgid!r}: {by}" for msgid, by in differ.items())
