"""The wheel ships what the installed product reads. Built from the repository's files as
`pip wheel .` builds it (setuptools' own backend, offline; with no Cython in the tests'
environment it holds the Python engine alone, and the same data), it holds every file of
the packages that is not Python: the pages, their vendored chart library, the catalogues,
the models, the JSON Schemas. And the service run from it, with the clone out of its path,
serves every file its pages name, and the game record's JSON Schema."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.live import LiveService, serving
from tests.redis_server import fresh_db_url
from tests.service.web.test_web_static import IMPORT, PAGE_ADDRESSES
from tests.waiting import LONG, scaled
from tools.embedded_redis import RedisServer

ROOT = Path(__file__).resolve().parents[2]
#: The packages the wheel is made of (pyproject's `packages.find`).
PACKAGES = tuple(
    name.rstrip("*")
    for name in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
)
#: Files in the packages that only the repository's tools read, never the product:
#: client/models.py's header, for scripts/generate-clients.
BUILD_ONLY = {"client/models_header.txt"}
#: The wheel's service's own logical DB on the session's Redis.
WHEEL_DB = 14
#: A file the page names: `src="/static/..."` or `href="/static/..."`.
NAMED = re.compile(r"""(?:src|href)=["'](/static/[^"']+)["']""")

pytest.importorskip("setuptools", reason="the wheel is built by setuptools' own backend")


def tracked() -> list[str]:
    return subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the repository's files (the build writes beside
    them)."""
    source = tmp_path_factory.mktemp("source")
    for name in tracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    build = "import setuptools.build_meta as b, sys; b.build_wheel(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", build, str(out)],
        cwd=source, capture_output=True, text=True, timeout=scaled(LONG),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (built,) = out.glob("*.whl")
    return built


def test_the_wheel_holds_every_file_of_the_packages(wheel: Path) -> None:
    data = {
        name
        for name in tracked()
        if name.startswith(tuple(f"{package}/" for package in PACKAGES))
        and not name.endswith(".py")
        and (ROOT / name).is_file()
    }
    assert "service/static/vendor/uplot/uPlot.iife.min.js" in data  # the check sees depth
    missing = data - set(zipfile.ZipFile(wheel).namelist()) - BUILD_ONLY
    assert not missing, f"in the repository's packages but not in the wheel: {sorted(missing)}"


@pytest.fixture(scope="module")
def wheel_service(
    wheel: Path, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveService]:
    """The service as installed from the wheel: gunicorn and a worker run in the unpacked
    wheel, which comes first on their path, before the clone's editable install."""
    installed = tmp_path_factory.mktemp("installed")
    zipfile.ZipFile(wheel).extractall(installed)
    where = subprocess.run(
        [sys.executable, "-c", "import service; print(service.__file__)"],
        cwd=installed, env={"PYTHONPATH": str(installed)}, capture_output=True, text=True,
    )  # fmt: skip
    assert where.stdout.startswith(str(installed)), where.stdout + where.stderr
    with serving(
        fresh_db_url(redis_server, WHEEL_DB),
        tmp_path_factory.mktemp("wheel-service"),
        cwd=installed,
        PYTHONPATH=str(installed),
        # This wheel holds the Python engine only (it was built without Cython).
        POCHA_ENGINE="python",
    ) as service:
        yield service


def get(url: str) -> tuple[int, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=scaled(60))
    try:
        connection.request("GET", parts.path)
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def test_the_service_from_the_wheel_serves_every_file_its_pages_name(
    wheel_service: LiveService,
) -> None:
    pending, seen, failed = [], set(), []
    for address in [*PAGE_ADDRESSES, "/api/docs"]:
        status, page = get(wheel_service.url + address)
        assert status == 200, address
        pending += NAMED.findall(page) + re.findall(r'src="(/api/docs/assets/[^"]+)"', page)
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        status, body = get(wheel_service.url + path)
        if status != 200:
            failed.append(f"{path}: {status}")
        elif path.endswith(".js") and path.startswith("/static/"):
            folder = path.rsplit("/", 1)[0]
            pending += [f"{folder}/{name.removeprefix('./')}" for name in IMPORT.findall(body)]
    assert "/static/vendor/uplot/uPlot.iife.min.js" in seen and "/static/app.js" in seen
    assert not failed, failed
    # The catalogues are read: the page's Spanish is Spanish.
    status, spanish = get(wheel_service.url + "/i18n/es.json")
    assert status == 200 and json.loads(spanish)["you"] == "Tú"


def test_the_service_from_the_wheel_serves_the_record_schema(wheel_service: LiveService) -> None:
    """The game record's JSON Schema, which the OpenAPI document names by its address, is
    package data: the installed service answers it as the clone holds it."""
    status, schema = get(wheel_service.url + "/api/v1/schemas/game-record.json")
    assert status == 200
    committed = (ROOT / "openapi" / "game-record.schema.json").read_text()
    assert json.loads(schema) == json.loads(committed)
