"""Tests of the bots (ai/): legality, budgets, determinism, sampling, the arena."""
