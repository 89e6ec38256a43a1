"""The compiled engine against the Python one: the same trace of thousands of random hands
under every rule option, and the same search decisions for a seed and an iteration count
(``implementation_trace``), each implementation in a process of its own (``POCHA_ENGINE``);
and the choice itself.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
COMPILED_BUILT = all(
    importlib.util.find_spec(name) is not None
    for name in ("engine.pocha._compiled.hand", "ai.pocha._compiled.ismcts")
)


def run_python(engine: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "POCHA_ENGINE": engine}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def trace(engine: str) -> dict[str, Any]:
    done = run_python(engine, "-m", "tests.engine.pocha.implementation_trace")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(
    not COMPILED_BUILT, reason="the compiled engine was not built here (no C compiler?)"
)
def test_compiled_and_python_engines_compute_the_same() -> None:
    python, compiled = trace("python"), trace("compiled")
    assert python["packages"] == {
        "engine": "python",
        "engine.pocha": "python",
        "ai.pocha": "python",
    }
    assert compiled["packages"] == {
        "engine": "compiled",
        "engine.pocha": "compiled",
        "ai.pocha": "compiled",
    }
    assert python["sections"]["hands"]["records"] > 50_000
    assert python["sections"]["search"]["records"] >= 200
    for name, expected in python["sections"].items():
        assert compiled["sections"][name] == expected, f"{name} differs"


@pytest.mark.skipif(
    not COMPILED_BUILT, reason="the compiled engine was not built here (no C compiler?)"
)
def test_the_choice_puts_the_compiled_modules_under_the_python_names() -> None:
    check = (
        "import engine.pocha.hand as h, ai.pocha.ismcts as i, engine.pocha.legality as l;"
        "print(h.__file__.endswith('.py'), i.__file__.endswith('.py'), l.__file__.endswith('.py'))"
    )
    assert run_python("compiled", "-c", check).stdout.split() == ["False"] * 3
    assert run_python("python", "-c", check).stdout.split() == ["True"] * 3
    assert run_python("", "-c", check).stdout.split() == ["False"] * 3


@pytest.mark.skipif(
    not COMPILED_BUILT, reason="the compiled engine was not built here (no C compiler?)"
)
def test_the_compiled_modules_have_the_c_types_of_their_pxd() -> None:
    """A .pxd the build did not find would leave a compiled module untyped: as right, but
    no faster. Typed, a module exports its C functions, and its classes' fields are C."""
    check = (
        "import json, engine.draws as r, engine.pocha.tricks as t, engine.pocha.legality as l,"
        " engine.pocha.hand as h, engine.pocha.deals as d, ai.pocha.hand_value as v,"
        " ai.pocha.ismcts as i;"
        "print(json.dumps([[m.__name__.rsplit('.', 1)[1], sorted(getattr(m, '__pyx_capi__', ''))]"
        " for m in (r, t, l, h, d, v, i)]"
        " + [type(c.__dict__[f]).__name__ for c, f in"
        " ((h.HandState, 'n'), (d.DealSampler, 'pool_mask'), (i.Node, 'w'),"
        " (i.LeafValue, 'weight'))]))"
    )
    done = run_python("compiled", "-c", check)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        ["draws", ["randbelow", "sample", "shuffle"]],
        ["tricks", ["beats"]],
        ["legality", ["legal_cards"]],
        ["hand", ["deal", "play_out", "random_card"]],
        ["deals", []],
        ["hand_value", ["hand_estimate"]],
        [
            "ismcts",
            [
                "expected_tricks",
                "iterate",
                "leaf_cell",
                "leaf_value",
                "playout_greedy",
                "quick_bid",
            ],
        ],
        *["getset_descriptor"] * 4,
    ]


def test_an_unknown_engine_is_refused_by_name() -> None:
    done = run_python("fortran", "-c", "import engine.pocha")
    assert done.returncode != 0
    assert "POCHA_ENGINE is python or compiled, not 'fortran'" in done.stderr


def test_the_python_engine_runs_when_asked() -> None:
    done = run_python(
        "python",
        "-c",
        "import ai.pocha.ismcts; from engine.implementation import active;print(active())",
    )
    assert done.stdout.strip() == "python", done.stderr


def test_the_engine_bench_plays_each_implementation_built_in_its_own_process() -> None:
    from engine.implementation import available
    from engine.pocha.bench import openspiel_available, run

    lines = run(seconds=0.2, seed=3, rounds=1)
    for kind in available():
        assert any(line.startswith(f"engine, {kind}: ") for line in lines), lines
    assert any(line.startswith("compiled / python: ") for line in lines) == COMPILED_BUILT
    # OpenSpiel's C++ hands beside ours where the research extra is installed, else a line
    # that says it is not.
    if openspiel_available():
        assert any(line.startswith("engine, openspiel: ") for line in lines), lines
        assert any(line.startswith("python / openspiel: ") for line in lines), lines
    else:
        assert any(line.startswith("OpenSpiel is not installed") for line in lines), lines
