"""What the HTTP API (`service`) and the RQ workers (`worker`) share, and the one place
that touches Redis: the game store with its compare-and-set and kept-game cache
(`store`), the service layer of games (`games`), bot turns (`bots`, `turns`), the queues,
tasks and their watchdog (`queues`, `tasks`), AI on demand (`advice`), bot-vs-bot
matches (`matches`), worker status and bot figures (`status`, `bot_metrics`), the Redis
key names (`keys`), configuration (`config`), structured logs (`logs`) and the service's
errors (`errors`).

It imports the engine and the bots, never Flask, `service` or `worker`, so a job runs it
as it is and the API never loads RQ's job functions.
"""
