"""The app's remembered routes (`service.app.RoutedContext`): a request whose route was
matched before is routed exactly as werkzeug routes it, and a path that matches nothing or
redirects is never remembered."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import pytest
from flask import Flask, request
from werkzeug.exceptions import HTTPException

from service import app as service_app

PATHS = [
    ("POST", "/api/v1/games/Jm2bS0k4qV7wXc1Z/plays"),
    ("POST", "/api/v1/games/Jm2bS0k4qV7wXc1Z/bids"),
    ("GET", "/api/v1/games/Jm2bS0k4qV7wXc1Z"),
    ("DELETE", "/api/v1/games/Jm2bS0k4qV7wXc1Z"),
    ("GET", "/api/v1/games/Jm2bS0k4qV7wXc1Z/events"),
    ("GET", "/healthz"),
    ("GET", "/"),
    ("GET", "/api/v1/games/a%20b/history"),
    ("POST", "/api/v1/games"),
    ("GET", "/nowhere"),
    ("PATCH", "/api/v1/games/Jm2bS0k4qV7wXc1Z"),
    ("GET", "/api/v1/games/"),
]


def routed(app: Flask, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
    """How the app routes `method path`: the rule, its arguments, or the routing error."""
    with app.test_request_context(path, method=method, **kwargs):
        error = request.routing_exception
        if error is not None:
            assert isinstance(error, HTTPException)
            return None, None, type(error).__name__, getattr(error, "new_url", None)
        return request.url_rule, request.view_args, None, None


def werkzeug_routes(app: Flask, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
    """The same, as werkzeug matches it with nothing remembered."""
    with app.test_request_context(path, method=method, **kwargs) as ctx:
        adapter = ctx.url_adapter
        assert adapter is not None
        try:
            rule, args = adapter.match(return_rule=True)
        except HTTPException as error:
            return None, None, type(error).__name__, getattr(error, "new_url", None)
        return rule, args, None, None


@pytest.mark.parametrize(("method", "path"), PATHS)
def test_a_route_remembered_is_the_route_werkzeug_finds(app: Flask, method: str, path: str) -> None:
    expected = werkzeug_routes(app, method, path)
    assert routed(app, method, path) == expected
    # The second time from memory, for a route that matched.
    assert routed(app, method, path) == expected
    kept = app.routes_matched  # type: ignore[attr-defined]
    remembered = any(key[:2] == (method, unquote(path)) for key in kept)
    assert remembered == (expected[0] is not None)


def test_the_host_and_scheme_are_part_of_the_route(app: Flask) -> None:
    path = "/api/v1/games/Jm2bS0k4qV7wXc1Z"
    routed(app, "GET", path)
    for kwargs in ({"base_url": "https://example.org"}, {"base_url": "http://other:8080"}):
        assert routed(app, "GET", path, **kwargs) == werkzeug_routes(app, "GET", path, **kwargs)
    assert len(app.routes_matched) == 3  # type: ignore[attr-defined]


def test_a_request_that_changes_its_arguments_changes_no_other(app: Flask) -> None:
    path = "/api/v1/games/Jm2bS0k4qV7wXc1Z"
    with app.test_request_context(path):
        assert request.view_args is not None
        request.view_args["game_id"] = "changed"
    with app.test_request_context(path):
        assert request.view_args == {"game_id": "Jm2bS0k4qV7wXc1Z"}


def test_few_routes_are_kept(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_app, "ROUTES_KEPT", 5)
    for i in range(12):
        game_id = f"game{i:012d}"
        assert routed(app, "GET", f"/api/v1/games/{game_id}")[1] == {"game_id": game_id}
        assert len(app.routes_matched) <= 5  # type: ignore[attr-defined]
