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
import json
import os
import subprocess
import sys
from types import ModuleType
from typing import Any

ENVIRONMENT = "POCHA_ENGINE"
CHOICES = ("python", "compiled")

#: The package's name to the implementation chosen for it ("python" or "compiled").
ACTIVE: dict[str, str] = {}
#: The package's name to its hot modules, those that have compiled copies when built.
HOT: dict[str, tuple[str, ...]] = {}


def wanted() -> str | None:
    """What ``POCHA_ENGINE`` asks for: "python", "compiled" or None (the best built)."""
    value = os.environ.get(ENVIRONMENT, "").strip().lower()
    if not value:
        return None
    if value not in CHOICES:
        raise ValueError(f"{ENVIRONMENT} is python or compiled, not {value!r}")
    return value


def choose(package: str, modules: tuple[str, ...], needs: tuple[str, ...] = ()) -> str:
    """Choose for ``package`` (its ``__init__`` calls this before importing anything): make
    each of ``modules`` (in import order: a module after those it imports) the compiled copy
    in ``package._compiled`` when wanted and built; the implementation chosen. ``needs``: the
    packages whose compiled types these compiled modules take (ai.pocha's search takes
    engine.pocha's hand state), so compiled only if those run compiled too."""
    want = wanted()
    chosen = "python"
    HOT[package] = modules
    if want != "python":
        for other in needs:
            importlib.import_module(other)
        missing = [other for other in needs if ACTIVE.get(other) != "compiled"]
        if built(package) and not missing:
            _alias(package, modules)
            chosen = "compiled"
        elif want == "compiled":
            if missing:
                raise ImportError(
                    f"{ENVIRONMENT}=compiled, but {package}'s compiled modules need those of "
                    f"{', '.join(missing)}, which were not built "
                    "(the install's build output says why: setup.py)"
                )
            raise ImportError(
                f"{ENVIRONMENT}=compiled, but {package}'s compiled modules were not built "
                "(the install's build output says why: setup.py)"
            )
    ACTIVE[package] = chosen
    return chosen


def built(package: str) -> bool:
    """Whether the build made the compiled copies of all ``package``'s hot modules."""
    return all(
        importlib.util.find_spec(f"{package}._compiled.{name}") is not None for name in HOT[package]
    )


def available() -> list[str]:
    """The implementations this install can run: python, and compiled when it was built for
    every package imported so far."""
    return ["python", "compiled"] if HOT and all(map(built, HOT)) else ["python"]


def run_in(implementation: str, function: str, **kwargs: Any) -> Any:
    """Call ``function`` ("module:name", its keyword arguments and result JSON) in a new
    Python process running ``implementation``; what it returned. The benches measure each
    implementation this way, in one run, since one process runs only one."""
    module, name = function.split(":")
    code = (
        "import importlib, json, sys; "
        "f = getattr(importlib.import_module(sys.argv[1]), sys.argv[2]); "
        "print(json.dumps(f(**json.loads(sys.argv[3]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, module, name, json.dumps(kwargs)],
        env={**os.environ, ENVIRONMENT: implementation},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"{function} on the {implementation} engine failed:\n{done.stderr}")
    return json.loads(done.stdout)


def load_average() -> str:
    """The machine's load average (1, 5 and 15 minutes), to print beside a measurement."""
    try:
        return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "load average unknown"


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
