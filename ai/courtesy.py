"""Searches that give way. A process whose thinking can wait (a worker's long games, its
hints and AI moves) sets `wait`; the searches call it every few iterations, and it returns
once the quick turns running beside it on the same machine are done. Pure: what "beside
it" means is the caller's (`core.play.courtesy`). docs/internals.md, "Long games give way".
"""

from __future__ import annotations

from collections.abc import Callable

#: Called between a search's iterations (every 4 in Pocha's, 8 in Poch's: tens of
#: microseconds each, so a quick turn starting beside a search waits for at most a few of
#: them); None: the search never waits.
wait: Callable[[], None] | None = None
