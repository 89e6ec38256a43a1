"""The OpenAPI document, as the app serves it at /api/openapi.json, for `openapi/`.

`pocha openapi` writes `render()` to openapi/openapi.json, the committed copy that
front-end developers and tools read without running the service; a test fails when the
two drift apart, so after changing a schema or a route run
`.venv/bin/pocha openapi > openapi/openapi.json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.app import create_app

#: The committed copy, relative to the repository root.
COMMITTED = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def document() -> dict[str, Any]:
    """The document the app serves (building the app opens no Redis connection)."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
    response = app.test_client().get("/api/openapi.json")
    found: dict[str, Any] = response.get_json()
    return found


def render() -> str:
    """The document as committed: sorted keys, two-space indents, a final newline."""
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
