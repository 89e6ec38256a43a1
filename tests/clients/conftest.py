"""The clients' tests' own live service, for their bots (tests/clients/bots.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.play.webhooks import LONGEST_CALL
from tests.live import LiveService, serving
from tests.redis_server import fresh_db_url
from tools.embedded_redis import RedisServer

#: A logical DB of the session's Redis no other test uses: the bots' own service.
BOT_DB = 3


@pytest.fixture(scope="session")
def bot_service(
    redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveService]:
    """A service that calls webhooks on loopback, with no limits on sign-ups or matches
    (a bot's tests make several accounts each, more than an address may an hour), and
    calls cut at the longest deadline a call may have: the tests count every answer of the
    example bot in time, and a busy machine may not run it within the default 2 s."""
    with serving(
        fresh_db_url(redis_server, BOT_DB),
        tmp_path_factory.mktemp("bot-service"),
        POCHA_BOT_ALLOW_PRIVATE="1",
        POCHA_BOT_WEBHOOK_MS=str(int(LONGEST_CALL * 1000)),
        POCHA_RATE_LIMITS="off",
    ) as live:
        yield live
