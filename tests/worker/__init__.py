"""Tests of the RQ workers: bot turns, AI on demand, matches, the watchdog, `pocha worker`."""
