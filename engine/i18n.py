"""Sentences for people, marked for translation but still plain English strings:
`_` makes a `Message`, a `str` that keeps its template and values for the service
to translate at the edge; `ngettext` makes one whose words follow a count (1 card,
2 cards), each language choosing its own form from its catalogue's plural forms.
How it works: docs/internals.md, `engine.i18n`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


class Message(str):
    """An English sentence that remembers its template and parameters."""

    template: str
    params: dict[str, Any]
    #: The English plural of a sentence made by `ngettext` (its `template` is the
    #: singular, the catalogue's msgid), and the count `n` that chooses between them.
    plural: str | None
    n: int | None

    def __new__(
        cls,
        template: str,
        params: dict[str, Any] | None = None,
        plural: str | None = None,
        n: int | None = None,
    ) -> Message:
        params = dict(params or {})
        english = plural if plural is not None and n != 1 else template
        self = super().__new__(cls, english.format(**params) if params else english)
        self.template = template
        self.params = params
        self.plural = plural
        self.n = n
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (RQ jobs carry exceptions and results) keeps the template and values.
        return (Message, (self.template, self.params, self.plural, self.n))


def _(template: str, /, **params: Any) -> Message:
    """The sentence `template` with `params` put in, marked for translation."""
    return Message(template, params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """The sentence about `n` things, `singular` or `plural` in English (`{n} card`,
    `{n} cards`) with `n` and `params` put in, marked for translation with both forms:
    each language picks its own form for `n` by its catalogue's Plural-Forms."""
    return Message(singular, {"n": n, **params}, plural, n)


def N_(template: str, /) -> str:
    """Mark `template` for the catalogues without formatting it now (a table of sentences
    whose values are filled in later, or a sentence sent where no language is known)."""
    return template


def as_json(value: Any) -> str:
    """A value a client sent, as JSON spells it (`null`, `true`, `"O1"`, `[1, null]`), for
    a sentence about it: the client wrote JSON, not Python (`None`, `'O1'`)."""
    return json.dumps(value, ensure_ascii=False, default=repr)


def join(items: Iterable[str], separator: str = ", ") -> Message:
    """`items` joined with `separator`, each item translated on its own where it is a
    `Message` (a list of phrases is no sentence of its own to translate: its template,
    `{item0}, {item1}`, is in no catalogue and stays as it is). A separator that is a word
    is a `Message` too (`join(names, _(" or "))`), and is translated with the items."""
    params: dict[str, Any] = {f"item{i}": item for i, item in enumerate(items)}
    if isinstance(separator, Message):
        glue = "{separator}"
    else:
        glue = separator.replace("{", "{{").replace("}", "}}")
    template = glue.join("{" + key + "}" for key in params)
    if isinstance(separator, Message) and len(params) > 1:
        params["separator"] = separator
    return Message(template, params)
