"""Sentences for people, marked for translation but still plain English strings:
`_` makes a `Message`, a `str` that keeps its template and values for the service
to translate at the edge.
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

    def __new__(cls, template: str, params: dict[str, Any] | None = None) -> Message:
        params = dict(params or {})
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (RQ jobs carry exceptions and results) keeps the template and values.
        return (Message, (self.template, self.params))


def _(template: str, /, **params: Any) -> Message:
    """The sentence `template` with `params` put in, marked for translation."""
    return Message(template, params)


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
