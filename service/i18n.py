"""The API's languages and its sentences in them: the catalogues, a sentence translated, and
which language a request's query and Accept-Language ask for. Flask-free, so that the
terminal commands translate with it too.
How it works: docs/internals.md, `service.i18n`.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

from babel.messages.extract import extract_javascript
from babel.messages.pofile import read_po

from engine.i18n import N_, Message

#: The languages of the catalogues, the default first.
LANGUAGES = ("en", "es")
DEFAULT = "en"
#: The message context of the web page's strings in the catalogues.
PAGE_CONTEXT = "page"

#: Where the catalogues are: `<lang>/LC_MESSAGES/messages.po`, and the template.
LOCALES = files("service") / "locales"


@functools.cache
def catalogue(lang: str) -> dict[tuple[str | None, str], str]:
    """`lang`'s translations by (context, English msgid), empty ones left out (they fall
    back to the English), read once per process."""
    path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        po = read_po(handle, locale=lang)
    table: dict[tuple[str | None, str], str] = {}
    for entry in po:
        # Plural entries (tuples) are not used; fuzzy ones are guesses, not translations.
        msgid, msgstr = entry.id, entry.string
        if isinstance(msgid, str) and isinstance(msgstr, str) and msgstr and not entry.fuzzy:
            table[entry.context, msgid] = msgstr
    return table


def translate(text: Any, lang: str) -> Any:
    """`text` in `lang`: a `Message` by its template, with its values put back (values
    that are Messages translated too); anything else as it is. A template missing from the
    catalogue stays English rather than failing."""
    if not isinstance(text, Message) or lang == DEFAULT:
        return text
    template = catalogue(lang).get((None, text.template), text.template)
    if not text.params:
        return template
    params = {key: translate(value, lang) for key, value in text.params.items()}
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation with a broken placeholder: the English is better than nothing.
        return str(text)


def translate_known(text: Any, lang: str) -> Any:
    """`translate`, and a plain str that is one of the catalogue's msgids as a whole
    (marshmallow's own fixed sentences, such as "Missing data for required field.") by its
    English text, or that matches one of `templates` (its validators' sentences, such as
    "Must be greater than or equal to 1.") with the values it holds."""
    if isinstance(text, Message) or lang == DEFAULT or not isinstance(text, str):
        return translate(text, lang)
    found = catalogue(lang).get((None, text))
    if found is not None:
        return found
    for template, pattern in _foreign_patterns():
        match = pattern.fullmatch(text)
        if match:
            return translate(Message(template, match.groupdict()), lang)
    return text


#: marshmallow's validators' sentences, with the values they put in as placeholders: a
#: field message that matches one whole is translated with its values (`translate_known`).
#: (Its fixed sentences, such as "Unknown field.", are in `service.errors.FIELD_MESSAGES`.)
FOREIGN_TEMPLATES = (
    N_("Must be greater than or equal to {min} and less than or equal to {max}."),
    N_("Must be greater than {min} and less than {max}."),
    N_("Must be greater than or equal to {min} and less than {max}."),
    N_("Must be greater than {min} and less than or equal to {max}."),
    N_("Must be greater than or equal to {min}."),
    N_("Must be greater than {min}."),
    N_("Must be less than or equal to {max}."),
    N_("Must be less than {max}."),
    N_("Shorter than minimum length {min}."),
    N_("Longer than maximum length {max}."),
    N_("Length must be between {min} and {max}."),
    N_("Length must be {equal}."),
    N_("Must be one of: {choices}."),
    N_("Must be equal to {other}."),
)


@functools.cache
def _foreign_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each foreign template with a regular expression that reads its values back."""
    patterns = []
    for template in FOREIGN_TEMPLATES:
        parts = []
        for literal, name, _spec, _conversion in string.Formatter().parse(template):
            parts.append(re.escape(literal))
            if name is not None:
                parts.append(f"(?P<{name}>.+?)")
        patterns.append((template, re.compile("".join(parts), re.DOTALL)))
    return tuple(patterns)


def translate_tree(value: Any, lang: str) -> Any:
    """`value` with every sentence in it translated (`translate_known`), dicts and lists
    walked; keys are left alone (they are field names)."""
    if lang == DEFAULT:
        return value
    if isinstance(value, str):
        return translate_known(value, lang)
    if isinstance(value, dict):
        return {key: translate_tree(item, lang) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [translate_tree(item, lang) for item in value]
    return value


def choose(query_lang: str | None, accept: Any) -> str:
    """The language for `?lang=` and the Accept-Language header (werkzeug's parsed
    `LanguageAccept`, or None)."""
    if query_lang is not None:
        asked = query_lang.strip().lower().split("-")[0]
        if asked in LANGUAGES:
            return asked
    if accept is not None:
        best = accept.best_match(LANGUAGES)
        if best:
            return str(best)
    return DEFAULT


def page_strings(lang: str) -> dict[str, str]:
    """The web page's strings in `lang` (context `page`): English msgid to translation,
    every msgid of the template present (English ones map to themselves)."""
    template = _page_msgids()
    table = catalogue(lang)
    return {msgid: table.get((PAGE_CONTEXT, msgid), msgid) for msgid in template}


@functools.cache
def _page_msgids() -> tuple[str, ...]:
    with (LOCALES / "messages.pot").open("rb") as handle:
        pot = read_po(handle)
    return tuple(
        entry.id
        for entry in pot
        if entry.context == PAGE_CONTEXT and entry.id and isinstance(entry.id, str)
    )


def extract_page_js(
    fileobj: Any, keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel extraction method for the page's modules (babel.cfg): each `t("key")` or
    `N_("key")` becomes an entry of context `page`, as if it were `pgettext("page", "key")`;
    each language's msgstr is the page's text in it."""
    # `N_("key")` marks a key the page looks up by a name made at run time.
    marks = {"t": None, "N_": None}
    # The page builds its markup in template strings: calls inside `${...}` count too.
    options = {**options, "parse_template_string": True}
    found = extract_javascript(fileobj, marks, comment_tags, options)  # type: ignore[arg-type]
    for lineno, _funcname, message, comments in found:
        if isinstance(message, str):
            yield lineno, "pgettext", (PAGE_CONTEXT, message), comments
