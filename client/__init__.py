"""Reference clients of the Pocha HTTP API, built on its public contract only.

`client.api` is a small typed client (standard library only) that the terminal client
(`client.terminal`, `pocha play`) and the tests use; the web front end lives with the
service (`service/static/`) because the service serves it.
"""

from client.api import ApiError, JobFailed, PochaClient

__all__ = ["ApiError", "JobFailed", "PochaClient"]
