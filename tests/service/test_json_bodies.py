"""The body reader's JSON: its decoder, made once, reads every body as `json.loads` with the
same hooks reads it (a name given twice refused), and fails where and as that fails."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.json_bodies import BadJson, _constant, _int, _loads, _object, load_json


def json_loads(data: Any) -> Any:
    return json.loads(data, parse_int=_int, parse_constant=_constant, object_pairs_hook=_object)


def outcome(read: Any, data: Any) -> tuple[str, Any]:
    """What reading `data` gives: its value, or its error's type and message."""
    try:
        return "value", read(data)
    except Exception as exc:
        return type(exc).__name__, str(exc)


BODIES: list[Any] = [
    '{"bid": 3}',
    b'{"card": "O1"}',
    bytearray(b'{"bid": 0}'),
    '{"bid": 1, "bid": 2}',
    '{"name": "Mar\\u00eda", "n": -12, "x": 1.5e3, "ok": true, "none": null}',
    "[1, [2, [3]]]",
    '"\\ud800"',
    "\ufeff{}",
    b"\xef\xbb\xbf{}",
    '{"bid": 1',
    "",
    "NaN",
    "[Infinity]",
    "1" * 5000,
    '{"a": 1} x',
    '{"a": 1}'.encode("utf-16"),
    '{"a": 1}'.encode("utf-16-le"),
    '{"a": 1}'.encode("utf-32"),
    b"\xff\xfe\xfa",
    12,
    None,
]


@pytest.mark.parametrize("data", BODIES)
def test_a_body_reads_as_json_loads_reads_it(data: Any) -> None:
    assert outcome(_loads, data) == outcome(json_loads, data)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    ),
    st.sampled_from(["utf-8", "utf-16", "utf-32", None]),
)
def test_any_json_value_reads_as_json_loads_reads_it(value: Any, encoding: str | None) -> None:
    text = json.dumps(value, ensure_ascii=encoding is None)
    data = text if encoding is None else text.encode(encoding)
    assert outcome(_loads, data) == outcome(json_loads, data)


def test_the_service_limits_still_apply() -> None:
    with pytest.raises(BadJson):
        load_json("[" * 40 + "]" * 40)
    with pytest.raises(BadJson):
        load_json("NaN")
    with pytest.raises(BadJson):
        load_json("9" * 5000)
    with pytest.raises(BadJson):
        load_json('"\\ud800"')
    assert load_json('{"bid": 3}') == {"bid": 3}
