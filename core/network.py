"""Where this machine can be reached from others: its network address (that of the
interface its default route leaves by, found without sending a packet), whether a host name
reaches only this machine (loopback), whether something accepts connections at an
address, and which client an address is counted as (`client_of`); `pocha serve` and a
table's link to share name the address to open from elsewhere."""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import socket

# Any address outside this machine will do: connecting a UDP socket only picks the route
# and so the interface's address; no packet is sent, and nothing needs to answer there.
_ROUTE_PROBE = ("10.254.254.254", 9)


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 with or without brackets) reaches only
    this machine: `localhost` and its subdomains, 127.0.0.0/8, ::1, or the unspecified
    address a server listens on."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


@functools.lru_cache(maxsize=4096)  # ipaddress's parsing is ~30 us an IPv6 request
def client_of(address: str, ipv6_prefix: int = 64) -> str:
    """The client an address is counted as by the limits per client address: an IPv4
    address as it is (an IPv4-mapped IPv6 one as that IPv4), an IPv6 address as the first
    address of its `ipv6_prefix`-bit network (0 or 128: as it is). One subscriber is handed
    a whole /64 (or more) and picks any address in it at will: counted address by address,
    one client would have 2**64 sign-ups, streams and think budgets. Anything else (a unix
    socket's empty address) is returned unchanged."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv4Address):
        return address
    if found.ipv4_mapped is not None:
        return str(found.ipv4_mapped)
    if not 0 < ipv6_prefix < 128:
        return str(found)
    return str(ipaddress.IPv6Network((found, ipv6_prefix), strict=False).network_address)


def network_address() -> str | None:
    """This machine's IPv4 address on its network (the interface of its default route, else
    what its host name resolves to), or None when it has only loopback."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_ROUTE_PROBE)
        found = str(probe.getsockname()[0])
        if not is_loopback(found):
            return found
    with contextlib.suppress(OSError):
        found = socket.gethostbyname(socket.gethostname())
        if not is_loopback(found):
            return found
    return None


def answers(host: str, port: int, timeout: float = 0.5) -> bool:
    """Whether something accepts TCP connections on `host`:`port` (a server that listens
    on loopback only does not on the network address)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False
