"""The workers' tests of bot turns, clocks, matches and hand-overs, with the games on a
Redis Cluster and RQ on a Redis of its own: tasks written in the move's own script, in
the game's slot; the watchdog's sweep of the spread slots' due sets; jobs on the queue
Redis.

Left out: the tests that read RQ's jobs and workers through the one Redis of a
single-Redis setup (their `connection` serves games and jobs alike), and the one that
restarts that Redis; what they check of the store is checked by the others here.
"""

from tests.worker.test_clocks import *  # noqa: F403
from tests.worker.test_worker_e2e import *  # noqa: F403
from tests.worker.test_worker_handover import *  # noqa: F403
from tests.worker.test_worker_matches import *  # noqa: F403
from tests.worker.test_worker_turns import *  # noqa: F403

for _name in (
    "test_a_worker_killed_mid_thought_loses_no_turn",
    "test_a_queued_match_does_not_delay_a_bot_turn",
    "test_a_timeout_survives_a_redis_restart",
    "test_a_person_against_three_bots_to_the_end",
    "test_a_turn_is_handed_over_once_and_a_stale_turn_does_nothing",
    "test_a_turn_rescued_twice_is_played_by_the_fallback_bot",
    "test_games_played_in_slices_are_the_same_games",
):
    del globals()[_name]
