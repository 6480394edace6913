"""Every word in the reader's language: English, German or Czech.

- Catalogues: `pbem/locale/<language>/<area>.po` (one file per part of the server: pages,
  mails, each engine...), English being the message ids themselves. At start they are
  compiled, in memory, into one catalogue per language (`catalogues`); fuzzy and empty
  entries are left out, so an untranslated sentence is read in English, never blank.
  `pybabel extract -F babel.cfg -o pbem/locale/messages.pot .` lists what is marked.
- Templates say `{{ _("...") }}` and `{% trans %}`; Python code in the server uses
  `flask_babel.gettext` where it renders at once, and `phrase()` (pbem/games/phrases.py)
  where the sentence is said later, in a mail or a page: the engines' sentences are phrases.
  A phrase printed in a template, returned as JSON or put in a mail is said in the language
  of the moment (`say`), without anyone asking: Jinja's `finalize` and the JSON provider do it.
- The language of the moment: a seat's language on its links' pages (`use`), the visitor's
  browser (`Accept-Language`) elsewhere; a mail, its recipient's (`speaking`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_datetime
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask import g, has_request_context, request
from flask.templating import Environment as FlaskEnvironment
from flask_babel import Babel, Domain, force_locale, refresh  # type: ignore[import-untyped]
from jinja2 import nodes, pass_eval_context
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from pbem.games.phrases import Phrase
from pbem.games.phrases import say as _say_phrase

log = logging.getLogger(__name__)

ENGLISH = "en"
#: The languages pbem speaks, each named in itself.
LANGUAGES = {"en": "English", "de": "Deutsch", "cs": "Čeština"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


# -- catalogues ----------------------------------------------------------------------------

def catalogue_files(language: str) -> list[Path]:
    return sorted((LOCALE_DIR / language).glob("*.po"))


def read_catalogue(language: str) -> Catalog:
    """Every area's entries of one language in one catalogue (fuzzy ones kept, marked)."""
    merged = Catalog(locale=language, domain="messages")
    for path in catalogue_files(language):
        with path.open("rb") as f:
            area = read_po(f, locale=language)
        for message in area:
            if message.id:
                merged[message.id] = message
    return merged


@lru_cache(maxsize=8)
def _compiled(language: str, stamp: tuple) -> Translations:
    buffer = BytesIO()
    write_mo(buffer, read_catalogue(language), use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain="messages")


_NONE = NullTranslations()
#: How long a compiled catalogue is used before its files are looked at again (a .po file
#: edited while the server runs is read within this many seconds).
RECHECK_SECONDS = 2.0
_checked: dict[str, tuple[float, Translations]] = {}


def catalogue(language: str) -> NullTranslations:
    """The compiled catalogue of a language (English: none, the ids are English), compiled
    again when a .po file changed (a process compiles each language once)."""
    if language == ENGLISH or language not in LANGUAGES:
        return _NONE
    now = time.monotonic()
    seen = _checked.get(language)
    if seen is not None and now - seen[0] < RECHECK_SECONDS:
        return seen[1]
    stamp = tuple((p.name, p.stat().st_mtime_ns) for p in catalogue_files(language))
    translations = _compiled(language, stamp)
    _checked[language] = (now, translations)
    return translations


class _Catalogues(Domain):
    """Flask-Babel's domain reading our merged, in-memory catalogues instead of .mo files."""

    def get_translations(self):
        return translations()


class _Babel(Babel):
    @property
    def domain_instance(self):
        return _CATALOGUES


_CATALOGUES = _Catalogues()


# -- the language of the moment ------------------------------------------------------------

def language_or_english(language: str | None) -> str:
    return language if language in LANGUAGES else ENGLISH


def browser_language() -> str:
    """The visitor's best language by his browser's Accept-Language (English if none fits)."""
    if not has_request_context():
        return ENGLISH
    return request.accept_languages.best_match(list(LANGUAGES), default=ENGLISH)


#: A mail's language while it is written (`speaking`), over the request's.
_spoken: ContextVar[str | None] = ContextVar("pbem_spoken", default=None)
#: The request's language once known, with the request it belongs to: a page says some hundred
#: words, and asking Flask's globals (and the browser's header) for each cost more than the
#: rest of the page's Python.
_requested: ContextVar[tuple[object, str] | None] = ContextVar("pbem_requested", default=None)


def current() -> str:
    """The language of the moment: a mail's being written, else the request's (a seat's
    language on its links' pages, `use`; else the browser's), else English."""
    spoken = _spoken.get()
    if spoken is not None:
        return spoken
    if not has_request_context():
        return ENGLISH
    context = request.environ   # (one per request: the request it was known for)
    known = _requested.get()
    if known is not None and known[0] is context:
        return known[1]
    language = getattr(g, "pbem_language", None) or browser_language()
    _requested.set((context, language))
    return language


def use(language: str | None) -> None:
    """This request speaks `language` (a seat's), whatever the browser prefers."""
    g.pbem_language = language_or_english(language)
    _requested.set(None)
    refresh()


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Everything said inside (a mail to someone) in `language`."""
    language = language_or_english(language)
    token = _spoken.set(language)
    try:
        with force_locale(language):
            yield
    finally:
        _spoken.reset(token)


def translations() -> NullTranslations:
    """The catalogue of the language of the moment."""
    return catalogue(current())


# -- saying phrases ------------------------------------------------------------------------

def _number(value: Any) -> str:
    """A number as the language writes it ("1.234" in German); one too long for a locale's
    pattern (a vacation of 10**27 days asked for) as its digits, not an error."""
    try:
        return format_decimal(value, locale=current())
    except (ArithmeticError, ValueError):   # decimal.InvalidOperation is an ArithmeticError
        return str(value)


def say(value: Any) -> Any:
    """A phrase in the language of the moment; anything else unchanged."""
    if not isinstance(value, Phrase):
        return value
    language = current()   # (once: asked for every phrase a page prints)
    if language == ENGLISH:
        return str.__str__(value)
    translations = catalogue(language)
    return _say_phrase(value, translations.gettext, translations.ngettext, _number)


def say_all(value: Any) -> Any:
    """Every phrase inside dicts, lists and tuples said (for JSON)."""
    if isinstance(value, Phrase):
        return say(value)
    if isinstance(value, dict):
        return {k: say_all(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [say_all(v) for v in value]
    return value


def moment(at: datetime) -> str:
    """A moment in UTC for people: in English as it always was ("2026-05-01 14:30 UTC"), in the
    other languages as their locale writes dates ("01.05.26, 14:30 UTC")."""
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    if current() == ENGLISH:
        return at.strftime("%Y-%m-%d %H:%M UTC")
    return format_datetime(at, "short", tzinfo=UTC, locale=current()) + " UTC"


def capital(value: Any) -> str:
    """Said, and its first letter a capital (Jinja's `capitalize` lowers the rest: German nouns)."""
    text = str(say(value))
    return text[:1].upper() + text[1:]


def locale_name(language: str) -> str:
    return Locale.parse(language).get_display_name(language) or language


# Templates' gettext and ngettext, as Jinja's "newstyle" ones (a translation is Markup where the
# template escapes, and is always filled as a %-format), with the phrases among the parameters
# said first (Jinja would write them in English). Called straight: each of Flask-Babel's and
# Jinja's layers asked again for the context and the catalogue, ~30 µs a word.
@pass_eval_context
def _filled(eval_context, text: str, **variables: Any) -> str:
    """A translation (translated when rendered, or compiled into the template), filled with its
    parameters, said first; Markup where the template escapes."""
    if eval_context.autoescape:
        text = Markup(text)
    return text % {name: say(value) for name, value in variables.items()}


@pass_eval_context
def _gettext(eval_context, message: str, **variables: Any) -> str:
    return _filled(eval_context, translations().gettext(message), **variables)


@pass_eval_context
def _ngettext(eval_context, singular: str, plural: str, n: int, **variables: Any) -> str:
    variables.setdefault("num", n)
    return _filled(eval_context, translations().ngettext(singular, plural, n), **variables)


# -- templates translated when compiled ------------------------------------------------------

class _Translate(NodeTransformer):
    """A template's `_("...")` in one language, translated once when the template is compiled
    (a page says some hundred of them): a constant where it has no parameters, else the
    translation formatted when rendered (`_filled`). Plurals stay calls (their form depends
    on the number)."""

    def __init__(self, translations: NullTranslations):
        self.translations = translations

    def visit_Call(self, call: nodes.Call) -> nodes.Node:
        node = self.generic_visit(call)
        if not _says_a_constant(node):
            return node
        assert isinstance(node, nodes.Call) and isinstance(node.args[0], nodes.Const)
        text = self.translations.gettext(node.args[0].value)
        if node.kwargs:
            return nodes.Call(nodes.Name("_filled", "load"), [nodes.Const(text)], node.kwargs,
                              None, None, lineno=node.lineno)
        try:
            text = text % {}   # as the call would: a "%%" is one "%"
        except (KeyError, ValueError, TypeError):
            return node        # (the call raises its error when rendered, as it always did)
        return nodes.MarkSafeIfAutoescape(nodes.Const(text), lineno=node.lineno)


def _says_a_constant(node: nodes.Node) -> bool:
    """`_("words")` or `gettext("words", ...)`: the words known when compiling."""
    return (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name)
            and node.node.name in ("_", "gettext") and len(node.args) == 1
            and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str)
            and node.dyn_args is None and node.dyn_kwargs is None)


class Environment(FlaskEnvironment):
    """Flask's template environment, which compiles each template once per language with its
    words translated (`_Translate`): a template is loaded from the overlay of the language of
    the moment, made anew when that language's catalogue is (a .po file edited).

    Only Jinja's public API: `get_template`/`select_template` choose the overlay, `compile`
    (which takes a parsed tree) translates the tree `parse` gives; `{% trans %}` is Jinja's
    own i18n extension (installed by Flask-Babel) calling the `gettext`/`ngettext` globals."""

    #: None: the app's environment, which hands each template to a language's overlay.
    language: str | None = None
    translations: NullTranslations | None = None

    def said_in(self, language: str) -> Environment:
        translations = catalogue(language)
        overlays: dict[str, Environment] = self.__dict__.setdefault("overlays", {})
        overlay = overlays.get(language)
        if overlay is None or overlay.translations is not translations:
            overlay = self.overlay(cache_size=400)
            overlay.language, overlay.translations = language, translations
            overlays[language] = overlay
        return overlay

    def get_template(self, name, parent=None, globals=None):
        if self.language is None:
            return self.said_in(current()).get_template(name, parent, globals)
        return super().get_template(name, parent, globals)

    def select_template(self, names, parent=None, globals=None):
        if self.language is None:
            return self.said_in(current()).select_template(names, parent, globals)
        return super().select_template(names, parent, globals)

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if self.translations is not None and isinstance(source, str):
            source = _Translate(self.translations).visit(self.parse(source, name, filename))
            source.set_environment(self)
        return super().compile(source, name, filename, raw, defer_init)


def init_app(app) -> None:
    if "jinja_env" in app.__dict__:
        raise RuntimeError("pbem.i18n.init_app must run before the app's templates are used")
    app.jinja_environment = Environment
    babel = _Babel()
    babel.init_app(app, locale_selector=current)
    app.jinja_env.globals.update(gettext=_gettext, _=_gettext, ngettext=_ngettext, _filled=_filled)
    # Jinja says every phrase it prints: an engine's sentence needs no filter in a template.
    app.jinja_env.finalize = say
    app.add_template_filter(say, "say")
    app.add_template_filter(moment, "moment")
    app.add_template_filter(capital, "capital")
    app.add_template_global(LANGUAGES, "LANGUAGES")
    app.add_template_global(current, "current_language")
