"""The tests of challenges and accounts' event streams, with the store on a Redis Cluster:
the challenges' scripts in the accounts' hash slot, and the streams woken by the games'
and the accounts' channels, which a cluster's nodes all hear; and an account's key
replaced (its script, and its stream's look at the account, in the accounts' slot); and an
account disabled (its set of games in play, in the accounts' slot, walked to hand each seat
to the stand-in); and the seat tokens of a key replaced dropped by the same walk, each
game's seats written in its own slot, and a seating settled by reading the account back in
the accounts' slot; and blocks (their scripts, and the challenges they set aside, in the
accounts' slot; the blocks a seat at a table reads, in the accounts' slot, beside the seat
written in its game's)."""

from tests.service.test_account_keys import *  # noqa: F403
from tests.service.test_block_seats import *  # noqa: F403
from tests.service.test_blocks import *  # noqa: F403
from tests.service.test_disable_seats import *  # noqa: F403
from tests.service.test_key_seats import *  # noqa: F403
from tests.service.test_service_challenges import *  # noqa: F403
