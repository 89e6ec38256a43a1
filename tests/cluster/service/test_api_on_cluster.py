"""The API's tests of games, tables, event streams, races, bots and their advice, rate limits,
integrators' keys, accounts and rated games, errors and move bodies, with the games on a Redis
Cluster: every move's script, a table's seats, the lobby, the change notices, the keys' records,
the rate limits' counters (flask-limiter's on the cluster, the moves' own keyed by the client's
address or key), and a rated game's count with its pairs' counts (one transaction in the
accounts' hash slot)."""

from tests.core.play.test_bots import *  # noqa: F403
from tests.core.play.test_tables import *  # noqa: F403
from tests.core.store.test_races import *  # noqa: F403
from tests.service.test_accounts import *  # noqa: F403
from tests.service.test_api_keys import *  # noqa: F403
from tests.service.test_bot_advice import *  # noqa: F403
from tests.service.test_ladder_farming import *  # noqa: F403
from tests.service.test_rating_integrity import *  # noqa: F403
from tests.service.test_service_errors import *  # noqa: F403
from tests.service.test_service_events import *  # noqa: F403
from tests.service.test_service_games import *  # noqa: F403
from tests.service.test_service_move_body import *  # noqa: F403
from tests.service.test_service_ratelimits import *  # noqa: F403
