"""The API's tests of games, tables, event streams and races, with the games on a Redis
Cluster: every move's script, a table's seats, the lobby and the change notices."""

from tests.service.test_service_events import *  # noqa: F403
from tests.service.test_service_games import *  # noqa: F403
from tests.service.test_service_races import *  # noqa: F403
from tests.service.test_tables import *  # noqa: F403
