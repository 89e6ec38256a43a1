"""Taking forgotten accounts out of the records still kept that name them: each game's and
each match's, by the code that knows its form, a bounded number a step of the workers'
sweep (`core.store.account_records.scrub_step`).
How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

from functools import partial

from core.jobs.matches import scrub_match
from core.store.account_records import SCRUB_STEP, scrub_game, scrub_step
from core.store.keys import FORGOTTEN
from core.store.redises import Connections, redises_of


def scrub_forgotten(connections: Connections, most: int = SCRUB_STEP) -> int:
    """One step: the records it took forgotten accounts out of (0 at once when none wait)."""
    store = redises_of(connections).store
    if not store.exists(FORGOTTEN):
        return 0
    scrubbers = {"game": partial(scrub_game, store), "match": partial(scrub_match, connections)}
    return scrub_step(store, scrubbers, most)
