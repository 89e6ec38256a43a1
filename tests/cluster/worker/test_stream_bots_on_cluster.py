"""A stream bot through a challenge, with the games on a Redis Cluster and real workers."""

from tests.worker.test_worker_stream_bots import (
    test_a_stream_bot_through_a_challenge_reaches_the_ladder,
)

__all__ = ["test_a_stream_bot_through_a_challenge_reaches_the_ladder"]
