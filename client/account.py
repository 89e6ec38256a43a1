"""The terminal client's account: the key `pocha signup` got from the service, kept in a
config file only its owner can read (`$XDG_CONFIG_HOME/pocha/account.json`, mode 0600),
one account per service address, read by `pocha play` to sit as that account and by
`pocha new-key`, which replaces the key and keeps the new one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def config_file() -> Path:
    """Where the accounts are kept: under $XDG_CONFIG_HOME, else ~/.config."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pocha" / "account.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def load_account(url: str) -> dict[str, Any] | None:
    """The account kept for the service at `url`: {id, name, key}, or None."""
    found = _read(config_file()).get(url.rstrip("/"))
    return found if isinstance(found, dict) and found.get("key") else None


def save_account(url: str, account: dict[str, Any]) -> Path:
    """Keep `account` ({id, name, key}) for the service at `url`; the file's path.

    The accounts are written to a new file beside the old one, made with mode 0600 before
    a key goes in and synced to the disk, which then takes the old one's place in one
    step: a crash or a full disk midway leaves the file as it was, never half a key (after
    `pocha new-key` the key before is dead, so a file cut short would lock its owner out).
    """
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    accounts = _read(path)
    accounts[url.rstrip("/")] = {k: account[k] for k in ("id", "name", "key")}
    descriptor, temporary = tempfile.mkstemp(prefix=".account-", suffix=".json", dir=path.parent)
    try:
        # mkstemp makes it 0600 already; said here too, since that is the point.
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(accounts, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(path.parent)
    return path


def _sync_directory(directory: Path) -> None:
    """Make the renaming in `directory` last through a power cut (POSIX syncs a directory's
    entries apart from its files). Where a directory cannot be opened or synced (Windows,
    some file systems) the file itself is synced already."""
    with contextlib.suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
