"""Sentences that a server can say in its reader's language, made by engines that know none.

An engine (or any code without Flask) says a sentence with `phrase("you hold {cards} but
discard {wanted}.", cards=..., wanted=3)`. What it gets back is a `Phrase`: the English
sentence itself (a `str`, so command lines, logs and tests read English as before) that also
keeps its message id and parameters. The server looks the message id up in the reader's
catalogue and fills the parameters in, each `Phrase` among them said the same way
(`pbem/i18n.py`). Counted nouns go through `phrase_n`, so each language chooses its own plural
form (Czech has three) instead of an "s" glued on.

`pybabel extract` finds the message ids: the keywords `phrase` and `phrase_n:1,2` (babel.cfg).
A Phrase loses what it knows when it is cut, joined or formatted as a string: build the whole
sentence with `phrase`, passing the pieces as parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Phrase(str):
    """An English sentence that remembers how it was made: its message id (`msgid`), its
    plural id and count (`plural`, `n`, for `phrase_n`) and its parameters."""

    __slots__ = ("msgid", "plural", "n", "params", "capital")

    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]
    capital: bool

    def __new__(cls, msgid: str, params: Mapping[str, Any], plural: str | None = None,
                n: int | None = None, capital: bool = False) -> Phrase:
        template = plural if plural is not None and n != 1 else msgid
        english = template.format(**params) if params else template
        made = super().__new__(cls, _capital(english) if capital else english)
        made.msgid, made.plural, made.n, made.params, made.capital = msgid, plural, n, params, capital
        return made

    def capitalized(self) -> Phrase:
        """The same sentence, its first letter a capital in every language (a sentence that
        starts with a parameter, or a label shown on its own)."""
        return Phrase(self.msgid, self.params, self.plural, self.n, capital=True)

    def __reduce__(self) -> tuple[Any, ...]:   # copies and pickles keep what the phrase knows
        return (Phrase, (self.msgid, dict(self.params), self.plural, self.n, self.capital))


def phrase(msgid: str, **params: Any) -> Phrase:
    """A sentence (or a name) the server can translate: `msgid` is the English text with
    `{name}` placeholders, `params` their values (numbers, notation, names, other phrases)."""
    return Phrase(msgid, params)


def phrase_n(singular: str, plural: str, n: int, **params: Any) -> Phrase:
    """A sentence counting something: `n` chooses the form and is the placeholder `{n}`."""
    return Phrase(singular, {"n": n, **params}, plural, n)


def to_data(value: Any) -> Any:
    """A phrase as JSON data (to be stored and said later, in another language): its ids,
    count and parameters, each parameter a phrase's data in turn; anything else as it is."""
    if not isinstance(value, Phrase):
        return value
    return {"msgid": value.msgid, "plural": value.plural, "n": value.n, "capital": value.capital,
            "params": {k: {"phrase": to_data(v)} if isinstance(v, Phrase) else _plain(v)
                       for k, v in value.params.items()}}


def _plain(value: Any) -> Any:
    """A parameter as JSON holds it: numbers and text as they are, anything else as its text."""
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


def from_data(data: Mapping[str, Any]) -> Phrase:
    """The phrase `to_data` stored."""
    params = {k: from_data(v["phrase"]) if isinstance(v, dict) and "phrase" in v else v
              for k, v in data["params"].items()}
    return Phrase(data["msgid"], params, data.get("plural"), data.get("n"), bool(data.get("capital")))


def say(value: Any, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
        number: Callable[[Any], str] = str) -> Any:
    """`value` in another language: a Phrase is looked up (`gettext`, `ngettext`) and its
    parameters said the same way, numbers through `number`; anything else is returned as is.
    A translation whose placeholders do not fit its parameters falls back to English."""
    if not isinstance(value, Phrase):
        return value
    if value.plural is not None:
        template = ngettext(value.msgid, value.plural, value.n if value.n is not None else 1)
    else:
        template = gettext(value.msgid)
    params = {name: _said(v, gettext, ngettext, number) for name, v in value.params.items()}
    try:
        text = template.format(**params) if params else template
    except (KeyError, IndexError, ValueError):
        text = str(value)
    return _capital(text) if value.capital else text


def _said(value: Any, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
          number: Callable[[Any], str]) -> Any:
    if isinstance(value, Phrase):
        return say(value, gettext, ngettext, number)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    return value


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
