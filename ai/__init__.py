"""Bots for every game the service plays, built on the engine only.

A bot sees exactly what a seated player could see (its game's observation of one seat)
and answers with a legal action. Each game's bots live in its own package (``ai.pocha``,
``ai.poch``) under the shape they share (``ai.bot``), one arena (``ai.arena``) and one
registry (``ai.registry``); the statistics, the charts and the use of the cores are
every game's. Nothing here knows about HTTP, Redis or job queues.
"""
