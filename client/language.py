"""The terminal game's language: `pocha play` and `pocha lobby` say their sentences in
English or Spanish, as the caller asks (`cli` picks it from the user's locale). The
sentences are marked `_("...")` and `ngettext(...)` in the client's modules, extracted by
scripts/i18n into the client's own catalogue (client/locales/<lang>/LC_MESSAGES/
terminal.po, apart from the service's: the client reaches the service over HTTP only),
and read with gettext. The language is also the one the client's requests ask the
service for (Accept-Language), so the server's sentences come back in it.
How it works: docs/clients.md, `client.language`.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Callable
from contextvars import ContextVar
from importlib.resources import files
from typing import Any, ParamSpec, TypeVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The languages the terminal speaks, the default first (the English is the msgid).
LANGUAGES = ("en", "es")
DEFAULT = "en"
#: The gettext domain of the terminal's catalogue.
DOMAIN = "terminal"

_language: ContextVar[str] = ContextVar("terminal_language", default=DEFAULT)

P = ParamSpec("P")
R = TypeVar("R")


def speaking(function: Callable[P, R]) -> Callable[P, R]:
    """`function` run in the language its `language` keyword names (English without one,
    or for one the terminal has no sentences in), the language before put back after it:
    a game played in Spanish leaves no Spanish behind in the process."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        asked = kwargs.get("language")
        token = _language.set(asked if isinstance(asked, str) and asked in LANGUAGES else DEFAULT)
        try:
            return function(*args, **kwargs)
        finally:
            _language.reset(token)

    return run


def current() -> str:
    """The language the terminal speaks now."""
    return _language.get()


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """`language`'s catalogue, read once per process. The .po is read as it is (there is
    no compile step, as for the service's catalogues) and handed to gettext as the .mo
    Babel makes of it in memory; English is the msgids themselves."""
    if language == DEFAULT:
        return gettext.NullTranslations()
    path = files("client") / "locales" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    return gettext.GNUTranslations(io.BytesIO(compiled_catalogue(path.read_bytes(), language)))


def compiled_catalogue(po: bytes, language: str) -> bytes:
    """A .po catalogue of `language` as gettext reads it (a .mo, made by Babel)."""
    compiled = io.BytesIO()
    # Fuzzy entries are guesses, not translations: left out, they fall back to the English.
    write_mo(compiled, read_po(io.BytesIO(po), locale=language), use_fuzzy=False)
    return compiled.getvalue()


def _(message: str, /, **params: Any) -> str:
    """`message` in the terminal's language, with `params` put in (`{name}`)."""
    said = translations(current()).gettext(message)
    return said.format(**params) if params else said


def N_(message: str, /) -> str:
    """Mark `message` for the catalogue without translating it now (a table of words
    translated where they are said)."""
    return message


def pgettext(context: str, message: str, /, **params: Any) -> str:
    """`_` for a word said in two ways in Spanish: `context` tells them apart (the word
    typed, `paso`, and the word shown in a seat's row, `pasa`, are both `pass`)."""
    said = translations(current()).pgettext(context, message)
    return said.format(**params) if params else said


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of `singular`/`plural` for `n` in the terminal's language, with `n` and
    `params` put in (`{n} card`, `{n} cards`)."""
    return translations(current()).ngettext(singular, plural, n).format(n=n, **params)
