"""A game's events as Server-Sent Events: the backlog, then each new event as it lands.

The stream subscribes to the game's change channel before reading the backlog, so no
event can fall between the two; then it waits on the channel and reads the new events
from the list each time a version is announced. Each event goes out as
`id: <seq>` + `data: <event JSON>`, so a browser's EventSource resumes with Last-Event-ID
after a drop. The stream ends once the game is over and everything is sent, when the game
is deleted or expires, or after `max_seconds` (the client reconnects); a comment line every
`keepalive_seconds` keeps proxies from closing an idle stream.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import orjson

from core.errors import GameNotFound
from core.store import GameStore, changes_channel

#: How long a disconnected EventSource waits before reconnecting (ms).
RETRY_MS = 1000


def sse_message(raw_event: bytes) -> tuple[bytes, int, bool]:
    """The SSE message of a stored event, its seq, and whether it ends the game."""
    event = orjson.loads(raw_event)
    message = b"id: %d\ndata: %s\n\n" % (event["seq"], raw_event)
    return message, int(event["seq"]), event.get("type") == "game_over"


def event_stream(
    store: GameStore,
    game_id: str,
    after: int,
    *,
    max_seconds: float,
    keepalive_seconds: float,
) -> Iterator[bytes]:
    """The SSE byte chunks of `game_id`'s events with `seq > after`, then live ones."""
    pubsub = store.redis.pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.subscribe(changes_channel(game_id))
        yield b"retry: %d\n\n" % RETRY_MS
        deadline = time.monotonic() + max_seconds
        last = after
        while True:
            try:
                backlog = store.events_json(game_id, last)
            except GameNotFound:
                return
            over = False
            for raw in backlog:
                message, last, over = sse_message(raw)
                yield message
            if over:
                return
            # Wait for the next version (or a keepalive's worth of silence).
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                note = pubsub.get_message(timeout=min(keepalive_seconds, remaining))
                if note is None:
                    if time.monotonic() < deadline:
                        yield b": keepalive\n\n"
                    continue
                if note.get("data") == b"deleted":
                    return
                break
    finally:
        pubsub.close()
