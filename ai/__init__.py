"""Bots that play Pocha: bidding and card-play policies built on the engine only.

A bot sees exactly what a seated player could see, through the engine's
observation of a state for one seat, and answers with a legal bid or play.
Nothing here knows about HTTP, Redis or job queues.
"""
