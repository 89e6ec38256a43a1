"""Tests of the engine (engine/): each game's rules in its folder, and the shape they share."""
