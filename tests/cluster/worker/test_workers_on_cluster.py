"""The workers' tests of bot turns, clocks, matches and hand-overs, with the games on a
Redis Cluster and RQ on a Redis of its own: tasks written in the move's own script, in
the game's slot; the watchdog's sweep of the spread slots' due sets; jobs on the queue
Redis.

Left out: the one that restarts the one Redis of a single-Redis setup (the failover of a
cluster's primary is `tests/cluster/test_failover.py`).
"""

from tests.worker.test_clocks import *  # noqa: F403
from tests.worker.test_worker_e2e import *  # noqa: F403
from tests.worker.test_worker_handover import *  # noqa: F403
from tests.worker.test_worker_matches import *  # noqa: F403
from tests.worker.test_worker_turns import *  # noqa: F403

# Restarts the one Redis of a single-Redis setup: the cluster's failover is tested apart.
del test_a_timeout_survives_a_redis_restart  # noqa: F821
