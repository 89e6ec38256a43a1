"""Logs: every line the API and the workers write is one JSON object, or one human line at
a terminal.
How it works: docs/internals.md, `core.logs`.
"""

from __future__ import annotations

import logging
import re
import sys
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import orjson

#: The request a line belongs to (API: the request being served; worker: the request that
#: queued the job, if any).
REQUEST_ID: ContextVar[str | None] = ContextVar("pocha_request_id", default=None)
#: The RQ job being run (workers only).
JOB_ID: ContextVar[str | None] = ContextVar("pocha_job_id", default=None)

REQUEST_ID_HEADER = "X-Request-ID"

# An incoming id is kept only if it looks like one (uuids, hex, base64, dotted or colon
# forms from proxies): anything else could smuggle text into every log line.
_SANE_ID = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")

# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def request_id_from(header: str | None) -> str:
    """The incoming id if it is sane, else a new one (32 hex digits)."""
    if header is not None:
        header = header.strip()
        if _SANE_ID.fullmatch(header):
            return header
    return new_request_id()


def new_request_id() -> str:
    """A random (version 4) UUID's 32 hex digits: the id of a request that came without one."""
    return uuid.uuid4().hex


def job_meta() -> dict[str, str]:
    """What a queued job carries of the request that queued it (for its logs)."""
    request_id = REQUEST_ID.get()
    return {} if request_id is None else {"request_id": request_id}


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            # Which process of a gunicorn server or worker machine wrote it.
            "pid": record.process,
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        job_id = JOB_ID.get()
        if job_id is not None:
            entry["job_id"] = job_id
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # default=str: an `extra` value that JSON cannot hold is written as its text
        # rather than losing the line.
        return orjson.dumps(entry, default=str).decode()


# Escape sequences (RQ colours its queue names) and line breaks would break the one line.
_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


class TextFormatter(logging.Formatter):
    """One human line per record: `07:15:53 warning rq.worker: the worker lost Redis`."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created).strftime("%H:%M:%S")
        line = f"{when} {record.levelname.lower()} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f" ({type(error).__name__}: {error})"
        return _CONTROL.sub(" ", _ESCAPE.sub("", line))


#: The forms a log line may take (`POCHA_LOG_FORMAT`, `pocha serve --log`).
FORMS = ("json", "text")


def formatter(form: str = "json") -> logging.Formatter:
    """The formatter of a log form; an unknown one is refused with the forms."""
    if form == "json":
        return JsonFormatter()
    if form == "text":
        return TextFormatter()
    raise ValueError(f"unknown log format {form!r}: json or text")


class _OurHandler(logging.StreamHandler):
    """Our handler on the root logger (a class of its own, so `configure` can find it)."""


def level_number(level: str | int) -> int:
    """`info`, `INFO` or 20 -> 20; an unknown name is refused with the names."""
    if isinstance(level, int):
        return level
    found = logging.getLevelNamesMapping().get(level.strip().upper())
    if found is None:
        raise ValueError(f"unknown log level {level!r}: debug, info, warning, error, critical")
    return found


def configure(level: str | int = "info", form: str = "json") -> None:
    """Write every log record at `level` and above to stderr, as JSON lines or human ones
    (`form`), once per process: calling again changes the level and the form."""
    root = logging.getLogger()
    root.setLevel(level_number(level))
    chosen = formatter(form)
    for handler in root.handlers:
        if isinstance(handler, _OurHandler):
            handler.setFormatter(chosen)
            return
    handler = _OurHandler(sys.stderr)
    handler.setFormatter(chosen)
    root.addHandler(handler)
