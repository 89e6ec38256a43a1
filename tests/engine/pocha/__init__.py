"""Tests of Pocha's engine (engine/pocha/): rules, legality, the game, views, inference,
positions."""
