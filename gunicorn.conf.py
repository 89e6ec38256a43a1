"""Gunicorn's configuration file for `gunicorn service.wsgi:app`: the settings live in
`service.gunicorn_conf` (installed with the package); see there."""

from service.gunicorn_conf import *  # noqa: F403
