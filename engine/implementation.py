"""Which implementation of the hot modules runs: the Python ones, or their compiled copies.

``POCHA_ENGINE`` chooses, once per process: ``python``, ``compiled`` (which fails loudly when
the build made no compiled copies) or unset (compiled when built, else Python). The choice
puts the compiled module in ``sys.modules`` under the Python module's own name, so every
import of ``engine.pocha.hand`` anywhere gets the chosen one. How it works and why:
docs/internals.md, "The compiled engine".
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType

ENVIRONMENT = "POCHA_ENGINE"
CHOICES = ("python", "compiled")

#: The package's name to the implementation chosen for it ("python" or "compiled").
ACTIVE: dict[str, str] = {}


def wanted() -> str | None:
    """What ``POCHA_ENGINE`` asks for: "python", "compiled" or None (the best built)."""
    value = os.environ.get(ENVIRONMENT, "").strip().lower()
    if not value:
        return None
    if value not in CHOICES:
        raise ValueError(f"{ENVIRONMENT} is python or compiled, not {value!r}")
    return value


def choose(package: str, modules: tuple[str, ...]) -> str:
    """Choose for ``package`` (its ``__init__`` calls this before importing anything): make
    each of ``modules`` (in import order: a module after those it imports) the compiled copy
    in ``package._compiled`` when wanted and built; the implementation chosen."""
    want = wanted()
    chosen = "python"
    if want != "python":
        built = all(
            importlib.util.find_spec(f"{package}._compiled.{name}") is not None
            for name in modules
        )
        if built:
            _alias(package, modules)
            chosen = "compiled"
        elif want == "compiled":
            raise ImportError(
                f"{ENVIRONMENT}=compiled, but {package}'s compiled modules were not built "
                "(setup.py printed why when the project was installed)"
            )
    ACTIVE[package] = chosen
    return chosen


def _alias(package: str, modules: tuple[str, ...]) -> None:
    parent = sys.modules[package]
    done: list[str] = []
    try:
        for name in modules:
            compiled: ModuleType = importlib.import_module(f"{package}._compiled.{name}")
            sys.modules[f"{package}.{name}"] = compiled
            setattr(parent, name, compiled)
            done.append(name)
    except BaseException:
        for name in done:
            del sys.modules[f"{package}.{name}"]
            delattr(parent, name)
        raise


def active() -> str:
    """The implementation running: "compiled", "python", or "mixed" when the packages chose
    differently (only when one's compiled copies are missing)."""
    kinds = set(ACTIVE.values())
    if len(kinds) == 1:
        return kinds.pop()
    return "mixed" if kinds else "python"
