"""The store: games, tables and owed tasks in Redis, and the only code that reads or writes
them (`store`), with their record types (`records`), Lua scripts (`scripts`), key names
(`keys`) and connections (`redises`), and integrators' keys (`api_keys`). It imports
nothing of play or jobs.
"""
