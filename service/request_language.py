"""A request's language, worked out once, and what it changes in an answer: the sentences a
view carries for people, and the Content-Language and Vary headers of every JSON answer.
How it works: docs/internals.md, `service.request_language`.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, has_request_context

from service.context import current_request
from service.i18n import DEFAULT, choose, translate

#: Where a request's language is kept once worked out: in its WSGI environ, which a move
#: reaches twice (its view's sentences and its Content-Language) in one lookup each.
_LANG_KEY = "pocha.lang"


def request_language() -> str:
    """The current request's language (English outside a request), worked out once."""
    if not has_request_context():
        return DEFAULT
    request = current_request()
    environ = request.environ
    lang: str | None = environ.get(_LANG_KEY)
    if lang is None:
        header = environ.get("HTTP_ACCEPT_LANGUAGE")
        if environ.get("QUERY_STRING") or header:
            lang = choose(request.args.get("lang"), header)
        else:
            # Neither asks for a language: parsing the query and the header would find
            # none.
            lang = DEFAULT
        environ[_LANG_KEY] = lang
    return lang


def translate_view(view: dict[str, Any]) -> dict[str, Any]:
    """A game view with its sentences for people (`you.refused[].message`) in the
    request's language. Only those are walked: a view is on every move's path."""
    lang = request_language()
    you = view.get("you")
    if lang == DEFAULT or not isinstance(you, dict) or not you.get("refused"):
        return view
    you["refused"] = [
        {**entry, "message": translate(entry.get("message"), lang)} for entry in you["refused"]
    ]
    return view


def _language_headers(response: Response) -> Response:
    # Every answer may depend on Accept-Language (an error's message, a view's refusals),
    # so caches must key on it; the page's files and streams carry no sentences.
    headers = response.headers
    # `response.mimetype` and `response.vary`, read as werkzeug reads them, without the
    # parsed header objects they build, and in one pass over the headers rather than a
    # lookup of each (every answer of the API passes here).
    content_type: str | None = None
    language = vary = False
    for name, value in headers:
        lowered = name.lower()
        if lowered == "content-type":
            if content_type is None:
                content_type = value
        elif lowered == "content-language":
            language = True
        elif lowered == "vary":
            vary = True
    if language or content_type is None:
        return response
    if content_type.split(";")[0].strip() == "application/json":
        # Absent, so added where setting it would add it: at the end.
        headers.add("Content-Language", request_language())
        if vary:
            response.vary.add("Accept-Language")
        else:
            headers.add("Vary", "Accept-Language")
    return response


def install(app: Flask) -> None:
    app.after_request(_language_headers)
