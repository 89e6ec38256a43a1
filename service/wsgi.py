"""The WSGI entry point for gunicorn (`service.wsgi:app`), configured from the environment."""

from __future__ import annotations

from service.app import create_app

app = create_app()
