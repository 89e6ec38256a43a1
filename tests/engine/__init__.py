"""Tests of the engine (engine/): rules, legality, the game, views, inference, positions."""
