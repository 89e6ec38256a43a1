"""Resilience: real processes under faults (Redis restarts, two API processes, `pocha serve`
restarts) and the soak of many games at once; every game checked against its event log."""
