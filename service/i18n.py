"""The API's languages and its sentences in them: the catalogues, a sentence translated, and
which language a request's query and Accept-Language ask for. Flask-free, so that the
terminal commands translate with it too.
How it works: docs/internals.md, `service.i18n`.
"""

from __future__ import annotations

import functools
import gettext
import re
import string
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

from babel.core import Locale
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
    back to the English), read once per process. Sentences about a count are in
    `plurals`."""
    return _read(lang)[0]


@functools.cache
def plurals(lang: str) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """`lang`'s sentences about a count (`ngettext`'s, `msgid_plural` in the catalogue) by
    (context, English singular msgid): their forms, in the order of the catalogue's
    Plural-Forms; those with a form left empty are left out (they fall back to the
    English)."""
    return _read(lang)[1]


@functools.cache
def plural_form(lang: str) -> Any:
    """The function of a count to the index of its form in `lang`'s plural entries: the
    catalogue's Plural-Forms expression (`n != 1` in English; Spanish has a form of its own
    for millions)."""
    return gettext.c2py(_read(lang)[2])


@functools.cache
def _read(
    lang: str,
) -> tuple[dict[tuple[str | None, str], str], dict[tuple[str | None, str], tuple[str, ...]], str]:
    path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        po = read_po(handle, locale=lang)
    table: dict[tuple[str | None, str], str] = {}
    forms: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for entry in po:
        # Fuzzy entries are guesses, not translations.
        msgid, msgstr = entry.id, entry.string
        if not msgstr or entry.fuzzy:
            continue
        if isinstance(msgid, str) and isinstance(msgstr, str):
            table[entry.context, msgid] = msgstr
        elif isinstance(msgid, tuple | list) and isinstance(msgstr, tuple | list) and all(msgstr):
            forms[entry.context, msgid[0]] = tuple(msgstr)
    return table, forms, po.plural_expr


def translate(text: Any, lang: str) -> Any:
    """`text` in `lang`: a `Message` by its template, with its values put back (values
    that are Messages translated too); anything else as it is. A template missing from the
    catalogue stays English rather than failing."""
    if not isinstance(text, Message) or lang == DEFAULT:
        return text
    if text.plural is not None and text.n is not None:
        forms = plurals(lang).get((None, text.template))
        if forms:
            template = forms[min(plural_form(lang)(text.n), len(forms) - 1)]
        else:
            # The English form for the count, its values put in below in `lang`.
            template = text.template if text.n == 1 else text.plural
    else:
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


def primary(tag: str) -> str:
    """A language tag's language alone, as we name our languages: `es-ES`, `es_ES`, ` ES `
    and `es` are all `es` (the underscore is not BCP 47's, but some systems write it)."""
    return re.split(r"[-_]", tag.strip(), maxsplit=1)[0].lower()


#: A weight's number as a q parameter may write it, right or wrong: `0.5`, `1.5`, `-1`,
#: `.5` (never `1_0` or `nan`, which Python's float would read too).
_WEIGHT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def _weight(parameters: str) -> float:
    """The weight of an Accept-Language entry from what follows its tag (`;q=0.5`): RFC
    9110's qvalue, 0 to 1. A weight out of that range counts as its nearest end (`q=1.5`
    as 1, `q=-1` as 0), more than three decimals as written, and one that is no number
    (`q=abc`) or no weight at all as 1: the language named is what the caller asked for,
    and a browser never sends a broken weight, so a hand-written one only orders."""
    for parameter in parameters.split(";"):
        name, equals, value = parameter.partition("=")
        if equals and name.strip().lower() == "q":
            number = value.strip()
            if _WEIGHT.fullmatch(number):
                return min(1.0, max(0.0, float(number)))
            return 1.0
    return 1.0


def accepted(header: str | None) -> str | None:
    """The language of ours an Accept-Language header asks for most, or None. Each entry
    counts by its own language (`es-MX` is Spanish: RFC 4647's lookup, down to the
    language), and the highest weight wins, the first listed on a tie; a weight of 0 says
    "not this one". `*` stands for any language the header names nowhere else (English
    first). A header that cannot be read at all names none: a preference is never an
    error."""
    if not header:
        return None
    entries: list[tuple[str, float]] = []
    for entry in header.split(","):
        tag, _semicolon, parameters = entry.partition(";")
        language = primary(tag)
        if language:
            entries.append((language, _weight(parameters)))
    named = {language for language, _q in entries}
    best, best_q = None, 0.0
    for language, q in entries:
        if language == "*":
            language = next((lang for lang in LANGUAGES if lang not in named), "")
        if language in LANGUAGES and q > best_q:
            best, best_q = language, q
    return best


def choose(query_lang: str | None, accept_language: str | None) -> str:
    """The language for `?lang=` (`es`, `ES`, `es-ES` or `es_ES`: its language alone;
    ignored when not one of ours) and else the Accept-Language header (`accepted`), else
    English. The web page's first paint chooses by the same rule, with its cookie for the
    query."""
    if query_lang is not None:
        asked = primary(query_lang)
        if asked in LANGUAGES:
            return asked
    return accepted(accept_language) or DEFAULT


def page_strings(lang: str) -> dict[str, str | dict[str, str]]:
    """The web page's strings in `lang` (context `page`): English msgid to translation,
    every msgid of the template present (English ones map to themselves). A key of a
    sentence about a count (`tn` in the page, `msgid_plural` in the catalogue) maps to its
    forms by the plural category the browser's `Intl.PluralRules` names for a count
    (`one`, `many`, `other`: CLDR's, which Babel knows too), each category given the form
    the catalogue's Plural-Forms picks for its counts."""
    table = catalogue(lang)
    strings: dict[str, str | dict[str, str]] = {}
    for msgid, counted in _page_msgids():
        if counted:
            strings[msgid] = _page_forms(lang, msgid)
        else:
            strings[msgid] = table.get((PAGE_CONTEXT, msgid), msgid)
    return strings


#: The counts whose categories and forms `page_strings` reads: enough for every category
#: of our languages (Spanish's `many` is a million's).
_SAMPLE_COUNTS = (*range(0, 101), 1000, 1_000_000, 2_000_000)


def _page_forms(lang: str, msgid: str) -> dict[str, str]:
    """The forms of the page's `msgid` in `lang` by CLDR plural category (English's where
    `lang` has none, the key itself where neither has)."""
    for language in (lang, DEFAULT):
        forms = plurals(language).get((PAGE_CONTEXT, msgid))
        if not forms:
            continue
        rule, index = Locale.parse(language).plural_form, plural_form(language)
        by_category: dict[str, str] = {}
        for count in _SAMPLE_COUNTS:
            by_category.setdefault(rule(count), forms[min(index(count), len(forms) - 1)])
        return by_category
    return {"other": msgid}


@functools.cache
def _page_msgids() -> tuple[tuple[str, bool], ...]:
    """The page's msgids in the template, each with whether it is about a count."""
    with (LOCALES / "messages.pot").open("rb") as handle:
        pot = read_po(handle)
    found = []
    for entry in pot:
        if entry.context != PAGE_CONTEXT or not entry.id:
            continue
        if isinstance(entry.id, str):
            found.append((entry.id, False))
        else:
            found.append((entry.id[0], True))
    return tuple(found)


def extract_page_js(
    fileobj: Any, keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel extraction method for the page's modules (babel.cfg): each `t("key")` or
    `N_("key")` becomes an entry of context `page`, as if it were `pgettext("page", "key")`;
    each language's msgstr is the page's text in it. Each `tn("key", n)` (a sentence about
    a count) or `Nn_("key")` becomes a plural entry, as if it were
    `npgettext("page", "key", "key")`: its msgstr[i] are the language's forms."""
    # `N_("key")` and `Nn_("key")` mark a key the page looks up by a name made at run time.
    marks = {"t": None, "N_": None, "tn": None, "Nn_": None}
    # The page builds its markup in template strings: calls inside `${...}` count too.
    options = {**options, "parse_template_string": True}
    found = extract_javascript(fileobj, marks, comment_tags, options)  # type: ignore[arg-type]
    for lineno, funcname, message, comments in found:
        if isinstance(message, tuple):
            # A call with other arguments after the key (`tn("key", n)`): the key is first.
            message = message[0]
        if not isinstance(message, str):
            continue
        if funcname in ("tn", "Nn_"):
            yield lineno, "npgettext", (PAGE_CONTEXT, message, message), comments
        else:
            yield lineno, "pgettext", (PAGE_CONTEXT, message), comments
