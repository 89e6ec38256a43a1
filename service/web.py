"""The web front end: the page at `/` that plays Pocha in a browser, on the public API.

The page and its modules are static files in `service/static/` (plain ES modules, no build
step), served by Flask's static route at `/static/`; this blueprint adds `/` and the cache
policy of those files. It is a plain Flask blueprint, not a flask-smorest one, so the page
stays out of the OpenAPI document: it is a client of the API, not a part of it.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

blp = Blueprint("web", __name__)


@blp.get("/")
def index() -> Response:
    return current_app.send_static_file("index.html")


@blp.after_app_request
def revalidate_page_files(response: Response) -> Response:
    # The modules import each other by plain path: a browser must revalidate them (cheap,
    # with the ETag) so that a new version of the service never runs with half-old files.
    if request.path == "/" or request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-cache"
    return response
