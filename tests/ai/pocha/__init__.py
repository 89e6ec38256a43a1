"""Tests of Pocha's bots (ai/pocha/): legality, budgets, determinism, sampling, the arena,
the learned models and the research adapters."""
