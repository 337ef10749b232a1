"""The language of what a person reads: catalogues of translations, and the language in use.

English is the source language: a message's English text is its key (msgid), so English output is
the text as written in the code.  `_("text")` translates a literal message into the language in use,
`N_("text")` marks a literal for translation where it is defined (a table of labels) and
`translate(text)` translates it where it is shown.  `tests/test_i18n.py` finds every `_("...")` and
`N_("...")` literal of the package and of the report templates and checks that the Russian
catalogue holds exactly those (docs/russian.md).

The language in use is a context variable that only the command line sets (`nardy --lang ru`,
`NARDY_LANG`); the library never sets it, and a library caller gets English unless it sets
it itself with `using_language`.  Catalogues are JSON files in `data/`, `{"messages": {msgid:
text}, "columns": {column: header}}`: `columns` holds the headers of text tables, keyed by the
column's name (CSV and JSON keep the names).
"""

from __future__ import annotations

import contextlib
import functools
import json
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator

from .errors import NardyError

LANGUAGES = ("en", "ru")
SOURCE = "en"
ENV_VAR = "NARDY_LANG"
DATA = Path(__file__).parent.parent / "data"

_language: ContextVar[str] = ContextVar("nardy_language", default=SOURCE)


class LanguageError(NardyError):
    """A language nardy has no catalogue for."""


def check_language(lang: str) -> str:
    """`lang` if nardy speaks it, else a `LanguageError` quoting it."""
    if lang not in LANGUAGES:
        raise LanguageError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


@functools.cache
def catalogue(lang: str) -> dict[str, dict[str, str]]:
    """The catalogue of `lang` (`messages` and `columns`); English has none (the msgids are
    English)."""
    if check_language(lang) == SOURCE:
        return {"messages": {}, "columns": {}}
    data = json.loads((DATA / f"{lang}.json").read_text(encoding="utf-8"))
    return {"messages": data["messages"], "columns": data["columns"]}


def language() -> str:
    """The language in use (English unless the command line or a caller set another)."""
    return _language.get()


@contextlib.contextmanager
def using_language(lang: str) -> Iterator[None]:
    """Render in `lang` inside the `with` block."""
    token = _language.set(check_language(lang))
    try:
        yield
    finally:
        _language.reset(token)


def translate(msgid: str) -> str:
    """`msgid` in the language in use (itself when the catalogue lacks it)."""
    lang = _language.get()
    if lang == SOURCE:
        return msgid
    return catalogue(lang)["messages"].get(msgid, msgid)


def _(msgid: str) -> str:
    """A literal message in the language in use: `_("win")`."""
    return translate(msgid)


def N_(msgid: str) -> str:
    """Mark a literal for translation without translating it here (it is shown through
    `translate`)."""
    return msgid


def column(name: str) -> str:
    """The header a text table shows for column `name` (the name itself in English)."""
    lang = _language.get()
    if lang == SOURCE:
        return name
    return catalogue(lang)["columns"].get(name, name)


# outcomes.CLASS_NAMES, shown by translate
CLASS_WORDS = (N_("oin"), N_("home-mars"), N_("mars"), N_("koks"))

# cube.py's decisions
CUBE_WORDS = (N_("too good"), N_("no double"), N_("double, take"), N_("double, pass"),
              N_("double, beaver"),
              # and reasons
              N_("the opponent owns the cube"), N_("the Crawford game: no double"),
              # cube_review.ERRORS
              N_("missed double"), N_("wrong double"), N_("wrong take"), N_("wrong pass"),
              N_("wrong beaver"))


def cube_words(cube: str) -> str:
    """A cube as the cube review writes it (`1 centre`, `2 White`) in the language in use."""
    if language() == SOURCE:
        return cube
    value, _sep, owner = cube.partition(" ")
    if owner == "centre":
        return f"{value} {_('centred')}"
    return f"{value} " + _("{sides}").format(**side_words(owner)) if owner else cube


def cube_errors(errors: str) -> str:
    """The cube review's errors (`wrong double, wrong pass`) in the language in use."""
    return ", ".join(translate(e) for e in errors.split(", ")) if errors else ""

MARK_WORDS = (N_("doubtful"), N_("error"), N_("blunder"))                    # review.MARKS
# a side as a table shows it
SIDE_VALUES = (N_("white"), N_("black"))

SIDES = {"w": N_("White"), "b": N_("Black")}
SIDES_GENITIVE = {"w": N_("White's"), "b": N_("Black's")}


def side_words(code: str) -> dict[str, str]:
    """A side's name for message templates: `side` (White), `sides` (White's) in the language in
    use."""
    code = code[0].lower()
    return {"side": translate(SIDES[code]), "sides": translate(SIDES_GENITIVE[code])}


def result_text(result) -> str:
    """A game's result as a record writes it (`White wins by mars`, `draw`) in the language in
    use."""
    words = str(result).split()
    if len(words) == 4 and words[1:3] == ["wins", "by"] and words[0] in ("White", "Black"):
        return _("{side} wins by {how}").format(how=translate(words[3]), **side_words(words[0]))
    return translate(str(result))
