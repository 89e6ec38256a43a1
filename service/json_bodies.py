"""The one reader of JSON request bodies: whatever a client sends, a well-formed body comes
out as plain values a schema can check, and anything else is a 400 `bad_json`.
How it works: docs/internals.md, `service.json_bodies`.
"""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
from flask.json.provider import DefaultJSONProvider
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from core.errors import ServiceError
from engine.i18n import N_, _

#: How deep a body's arrays and objects may nest. The deepest body the API takes is an AI
#: move's position (an object of lists of pairs): a handful of levels.
MAX_DEPTH = 32
#: How many digits a JSON integer may have: Python's own limit for turning text into an
#: int. Below it, a number too large for its field is the schema's to refuse (a 422 that
#: names the field).
MAX_INT_DIGITS = 4300

#: How much of a name given twice its refusal quotes.
MAX_NAME_SHOWN = 40

_TOO_DEEP = N_("The body nests arrays and objects more than {most} deep.")


class BadJson(ServiceError):
    """A body that is not JSON the API can take; the message says why."""

    status = 400
    error = "bad_json"


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadJson(_("A number in the body has more than {most} digits.", most=MAX_INT_DIGITS))
    return int(text)


def _constant(name: str) -> Any:
    raise BadJson(_("{name} is not a JSON number.", name=name))


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose names are each given once: JSON leaves open which of two values of
    one name counts (RFC 8259, 4), so a body read as its last might mean another move to
    a proxy or a client that reads its first."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for name, _value in pairs:
            if name in seen:
                shown = json.dumps(name[:MAX_NAME_SHOWN])
                raise BadJson(_("The body gives the name {name} twice.", name=shown))
            seen.add(name)
    return found


def _check(value: Any, depth: int) -> None:
    """Refuse nesting past MAX_DEPTH and strings that cannot be encoded as UTF-8."""
    if depth > MAX_DEPTH:
        raise BadJson(_(_TOO_DEEP, most=MAX_DEPTH))
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise BadJson(_("The body holds a lone surrogate (such as \\ud800).")) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(key, depth)
            _check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)


#: `json.loads`'s decoder with the hooks above, made once: given hooks, `json.loads` makes
#: a decoder and its scanner anew for each call, which costs more than a move's body. A
#: decoder keeps no state between calls (the json module shares its own in the same way).
_DECODER = json.JSONDecoder(parse_int=_int, parse_constant=_constant, object_pairs_hook=_object)


def _loads(data: str | bytes) -> Any:
    """`json.loads(data, parse_int=_int, parse_constant=_constant, object_pairs_hook=_object)`,
    step for step, with the decoder made once."""
    if isinstance(data, str):
        if data.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", data, 0)
    else:
        if not isinstance(data, bytes | bytearray):
            raise TypeError(
                f"the JSON object must be str, bytes or bytearray, not {data.__class__.__name__}"
            )
        data = data.decode(json.detect_encoding(data), "surrogatepass")
    return _DECODER.decode(data)


def load_json(data: str | bytes) -> Any:
    """The body's value; `BadJson` for what the service cannot take, `ValueError` (as
    `json.loads`) for what is not JSON at all."""
    try:
        value = _loads(data)
    except RecursionError:
        raise BadJson(_(_TOO_DEEP, most=MAX_DEPTH)) from None
    _check(value, 1)
    return value


class BodyParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with `load_json`."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return missing
        return load_json(req.get_data(cache=True))


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, parsing bodies with `BodyParser`."""

    ARGUMENTS_PARSER = BodyParser()


class JsonProvider(DefaultJSONProvider):
    """Flask's JSON, reading with `load_json` (so `request.get_json` takes no more than the
    schemas do)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return load_json(s)
