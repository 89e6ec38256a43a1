"""Poch's compiled engine and search against the Python ones: the same trace of thousands of
random games under every rule option, and the same search decisions for a seed and an
iteration count (``implementation_trace``), each implementation in a process of its own
(``POCHA_ENGINE``); and the choice itself.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

from tests.engine.pocha.test_implementations import run_python

COMPILED_BUILT = all(
    importlib.util.find_spec(name) is not None
    for name in ("engine.poch._compiled.game", "ai.poch._compiled.ismcts")
)
needs_compiled = pytest.mark.skipif(
    not COMPILED_BUILT, reason="the compiled engine was not built here (no C compiler?)"
)


def trace(engine: str) -> dict[str, object]:
    done = run_python(engine, "-m", "tests.engine.poch.implementation_trace")
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@needs_compiled
def test_compiled_and_python_poch_compute_the_same() -> None:
    python, compiled = trace("python"), trace("compiled")
    assert python["packages"] == {"engine": "python", "engine.poch": "python", "ai.poch": "python"}
    assert compiled["packages"] == {
        "engine": "compiled",
        "engine.poch": "compiled",
        "ai.poch": "compiled",
    }
    sections = python["sections"]
    assert isinstance(sections, dict)
    assert sections["games"]["records"] > 50_000
    assert sections["refused"]["records"] > 1_000
    assert sections["search"]["records"] == 60
    assert compiled["sections"] == sections


@needs_compiled
def test_the_choice_puts_poch_s_compiled_modules_under_the_python_names() -> None:
    check = (
        "import engine.poch.game as g, engine.poch.cards as c, ai.poch.deals as d,"
        " ai.poch.heuristic as h, ai.poch.ismcts as i;"
        "print(*(m.__file__.endswith('.py') for m in (g, c, d, h, i)))"
    )
    assert run_python("compiled", "-c", check).stdout.split() == ["False"] * 5
    assert run_python("python", "-c", check).stdout.split() == ["True"] * 5
    assert run_python("", "-c", check).stdout.split() == ["False"] * 5


@needs_compiled
def test_poch_s_compiled_modules_have_the_c_types_of_their_pxd() -> None:
    """A .pxd the build did not find would leave a compiled module untyped: as right, but
    no faster. Typed, the cards export their C functions, and the classes' fields are slots."""
    check = (
        "import json, engine.poch.cards as c, engine.poch.game as g, ai.poch.deals as d,"
        " ai.poch.ismcts as i;"
        "print(json.dumps([sorted(getattr(c, '__pyx_capi__', ''))]"
        " + [type(k.__dict__.get(f)).__name__ for k, f in"
        " ((g.Game, 'chips'), (d.DealSampler, 'k'), (i.Node, 'w'))]))"
    )
    done = run_python("compiled", "-c", check)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        ["best_set", "card", "card_code", "rank_of", "suit_of"],
        *["getset_descriptor"] * 3,
    ]


def test_poch_runs_the_python_engine_when_asked() -> None:
    done = run_python(
        "python",
        "-c",
        "import ai.poch.ismcts; from engine.implementation import ACTIVE;"
        "print(ACTIVE['engine.poch'], ACTIVE['ai.poch'])",
    )
    assert done.stdout.split() == ["python", "python"], done.stderr


def test_the_bench_searches_poch_on_each_implementation_built_in_its_own_process() -> None:
    from ai.poch.bench import run
    from engine.implementation import available

    lines = run(seconds=0.2, seed=3, rounds=1)
    for kind in available():
        assert any(line.startswith(f"poch ismcts, {kind}: ") for line in lines), lines
        assert any(line.startswith("poch hard (400 iterations), " + kind) for line in lines)
    assert any(line.startswith("poch ismcts, compiled / python: ") for line in lines) == (
        COMPILED_BUILT
    )
