"""The compiled engine: Cython compiles the hot modules of the Pocha and Poch engines and their
searches, unchanged, into ``engine._compiled`` (the random draws both share),
``engine.pocha._compiled``, ``ai.pocha._compiled``, ``engine.poch._compiled`` and
``ai.poch._compiled``; ``engine.implementation`` chooses them or the Python ones at import.
Where Cython, a C compiler or Python's headers are missing, the build warns and installs the
Python engine alone: it never fails for want of them. Why and how: docs/internals.md, "The
compiled engine".
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The hot modules, each compiled from its own .py into the package's ``_compiled``.
COMPILED = {
    "engine": ["draws"],
    "engine.pocha": ["tricks", "legality", "hand", "deals"],
    "ai.pocha": ["hand_value", "ismcts"],
    "engine.poch": ["cards", "game"],
    "ai.poch": ["heuristic", "deals", "ismcts"],
}


def _warn(why: str) -> None:
    print(
        f"pocha: the compiled engine is not built ({why}); the Python engine runs", file=sys.stderr
    )


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing: no compiler, no headers, a compile error."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any build failure leaves the Python engine
            _warn(f"{type(exc).__name__}: {exc}")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _warn(f"{ext.name}: {type(exc).__name__}: {exc}")


def _extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError as exc:
        _warn(f"no Cython: {exc}")
        return []
    modules = [
        Extension(
            f"{package}._compiled.{name}", [f"{package.replace('.', '/')}/{name}.py"], optional=True
        )
        for package, names in COMPILED.items()
        for name in names
    ]
    try:
        return cythonize(
            modules,
            build_dir="build/cython",
            quiet=True,
            # cythonize's own staleness check sees the .py but not its augmenting .pxd in
            # _compiled/ (named for the compiled module): a .pxd edited alone would leave
            # the old C. Installs are rare; compile everything every time.
            force=True,
            # The compiled modules must behave as the Python ones, call for call: Python's
            # integers, floats and random draws throughout, annotations read as hints only.
            compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True},
        )
    except Exception as exc:
        _warn(f"Cython failed: {exc}")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
