"""Templates are compiled once per language with their words translated (pbem/i18n.py:
`Environment`, `_Translate`): what they render is what translating each word when rendering
gives (the app's own environment still does that, for templates made from strings), in every
language, escaped alike; an edited catalogue is compiled anew."""

from __future__ import annotations

import os
import shutil

import pytest

from pbem import i18n
from pbem.games.phrases import phrase

SOURCE = (
    '{{ _("Your turn") }}|{{ _("%(name)s wins", name=name) }}|{{ _("%(name)s wins", name=who) }}|'
    '{% trans %}Your turn{% endtrans %}|{% trans name=name %}{{ name }} wins{% endtrans %}|'
    '{{ ngettext("%(num)d choice", "%(num)d choices", 2) }}|{{ _("100%% sure") }}|'
    '{{ _("a <b>word</b> never translated") }}|{{ _("Your turn") | upper }}|'
    '{% set t = _("Your turn") %}{{ t ~ "!" }}'
)


@pytest.mark.parametrize("language", ["en", "de", "cs"])
def test_a_template_compiled_in_a_language_renders_as_translating_when_rendered(app, language):
    values = {"name": "<Anna & Bob>", "who": phrase("{n} cards", n=3)}
    with app.test_request_context():
        i18n.use(language)
        compiled = app.jinja_env.said_in(language).from_string(SOURCE).render(**values)
        rendered = app.jinja_env.from_string(SOURCE).render(**values)
    assert compiled == rendered
    assert "&lt;Anna &amp; Bob&gt;" in compiled and "<b>word</b>" in compiled
    assert "100% sure" in compiled
    if language == "de":
        assert "gewinnt" in compiled and "Möglichkeiten" in compiled


def test_the_translations_are_in_the_compiled_template_not_looked_up(app):
    with app.app_context():
        german = app.jinja_env.said_in("de").compile('{{ _("%(name)s wins", name=n) }}', raw=True)
        english = app.jinja_env.compile('{{ _("%(name)s wins", name=n) }}', raw=True)
    assert "%(name)s gewinnt" in german and "_filled" in german
    assert "gewinnt" not in english


def test_a_page_of_a_seat_speaks_its_language(app):
    """The app's templates are loaded from the overlay of the language of the moment."""
    from flask import render_template
    with app.test_request_context():
        i18n.use("de")
        german = render_template("errors/error.html", title="x", message="y", code=404)
        i18n.use("cs")
        czech = render_template("errors/error.html", title="x", message="y", code=404)
    assert german != czech
    assert app.jinja_env.said_in("de") is not app.jinja_env.said_in("cs")


def test_an_edited_catalogue_is_compiled_into_the_templates_anew(app, tmp_path, monkeypatch):
    shutil.copytree(i18n.LOCALE_DIR / "de", tmp_path / "de")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_checked", {})
    with app.app_context():
        before = app.jinja_env.said_in("de")
        assert "gewinnt" in before.from_string('{{ _("%(name)s wins", name="A") }}').render()
        pages = tmp_path / "de" / "pages.po"
        pages.write_text(pages.read_text(encoding="utf-8").replace(
            'msgstr "%(name)s gewinnt"', 'msgstr "%(name)s siegt"'), encoding="utf-8")
        stat = pages.stat()
        os.utime(pages, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        monkeypatch.setattr(i18n, "_checked", {})   # as after RECHECK_SECONDS
        after = app.jinja_env.said_in("de")
        assert after is not before
        assert after.from_string('{{ _("%(name)s wins", name="A") }}').render() == "A siegt"
