"""The report of an implementation trace (tests/engine/*/implementation_trace.py): each
section's records digested as they come, and the one JSON object a trace prints, which
``test_implementations`` compares across the Python and the compiled engine."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.implementation import ACTIVE, active


class Section:
    """A running digest of one section's records."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.count = 0

    def add(self, *record: Any) -> None:
        self.digest.update(repr(record).encode())
        self.digest.update(b"\n")
        self.count += 1

    def result(self) -> dict[str, Any]:
        return {"records": self.count, "sha256": self.digest.hexdigest()}


def print_report(sections: dict[str, Section]) -> None:
    """Print the implementations active, and per section its record count and SHA-256."""
    print(json.dumps({
        "implementation": active(),
        "packages": ACTIVE,
        "sections": {name: s.result() for name, s in sections.items()},
    }))  # fmt: skip
