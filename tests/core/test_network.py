"""Which client an address is counted as by the limits per client address: IPv4 as it is,
IPv6 by its subscriber's network, an IPv4-mapped address as its IPv4."""

from __future__ import annotations

import pytest

from core.network import client_of


@pytest.mark.parametrize(
    ("address", "prefix", "client"),
    [
        ("203.0.113.7", 64, "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64, "2001:db8:1:2::"),
        ("2001:db8:1:2::1", 64, "2001:db8:1:2::"),
        ("2001:db8:1:2ff::1", 56, "2001:db8:1:200::"),
        ("2001:DB8::0:1", 128, "2001:db8::1"),
        ("::ffff:203.0.113.7", 64, "203.0.113.7"),
        ("", 64, ""),
        ("not an address", 64, "not an address"),
    ],
)
def test_client_of(address: str, prefix: int, client: str) -> None:
    assert client_of(address, prefix) == client
