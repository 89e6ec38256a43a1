"""The terminal client's account: the key `pocha signup` got from the service, kept in a
config file only its owner can read (`$XDG_CONFIG_HOME/pocha/account.json`, mode 0600),
one account per service address, read by `pocha play` to sit as that account.
"""

from __future__ import annotations

import json
import os
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
    """Keep `account` ({id, name, key}) for the service at `url`; the file's path. The file
    is made with mode 0600 before the key is written to it, never readable by others."""
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    accounts = _read(path)
    accounts[url.rstrip("/")] = {k: account[k] for k in ("id", "name", "key")}
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    # A file made earlier with a wider mode is narrowed before the key goes in.
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(accounts, handle, indent=1)
    return path
