"""The short cut of a move's body (service.api.games._move_body) takes only what the
schema takes: any body it lets through is one the schema loads unchanged, so skipping
webargs and marshmallow for it changes no answer. Everything else still meets the schema
(tests/service/test_service_errors.py covers those answers)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from service.api.wire.pocha import BidSchema, PlaySchema, is_plain_bid, is_plain_card

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-5, 20)
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
)
_KEYS = st.sampled_from(["bid", "card", "Bid", "bid ", "seat", ""])
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=6,
)
_BODIES = _JSON | st.dictionaries(_KEYS, _SCALARS, min_size=1, max_size=2)


@given(_BODIES)
def test_a_bid_let_through_is_one_the_schema_takes_as_it_is(body: Any) -> None:
    if is_plain_bid(body):
        assert BidSchema().load(body) == body


@given(_BODIES)
def test_a_card_let_through_is_one_the_schema_takes_as_it_is(body: Any) -> None:
    if is_plain_card(body):
        assert PlaySchema().load(body) == body


def test_the_usual_bodies_take_the_short_cut() -> None:
    assert is_plain_bid({"bid": 0}) and is_plain_bid({"bid": 13})
    assert is_plain_card({"card": "O1"}) and is_plain_card({"card": "b12"})
    for body in ({"bid": True}, {"bid": 14}, {"bid": -1}, {"bid": 1, "x": 2}, {"bid": 1.0}, []):
        assert not is_plain_bid(body)
    for body in ({"card": ""}, {"card": "O1" * 5}, {"card": 1}, {"card": "O1", "x": 1}, None):
        assert not is_plain_card(body)
