"""Bots for every game the service plays, built on the engine only: a bot sees exactly what
its seat could see and answers with a legal action. Each game's bots have their own folder
(``ai.pocha``, ``ai.poch``) under what every game's share: the bot (``ai.bot``), the arena,
the kinds and their registry, the statistics. Nothing here knows HTTP, Redis or queues.
"""
