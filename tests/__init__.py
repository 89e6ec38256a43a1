"""Test suite; a package so helpers import as `tests.<module>` from any test file."""
