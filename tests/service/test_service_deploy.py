"""What ships beside the code: the committed OpenAPI document matches the app's, the
compose file parses and runs only commands that exist, the gunicorn config loads."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from flask.testing import FlaskClient

from core.config import load_config
from core.jobs.queues import TURNS
from core.store.redises import cluster_nodes, is_cluster_url
from service.openapi import COMMITTED
from tests.waiting import LONG, scaled

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def test_committed_openapi_matches_the_app(client: FlaskClient) -> None:
    served = client.get("/api/openapi.json").json
    committed = json.loads(COMMITTED.read_text())
    assert served == committed, (
        "openapi/openapi.json is out of date: run `.venv/bin/pocha openapi > openapi/openapi.json`"
    )
    assert {"/api/v1/games", "/api/v1/games/{game_id}/plays", "/healthz"} <= set(served["paths"])


def test_swagger_ui_is_served(client: FlaskClient) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert "swagger-ui" in response.get_data(as_text=True)


def test_compose_file_parses_and_its_commands_exist() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    every = compose["services"]
    services = {name: s for name, s in every.items() if not s.get("profiles")}
    assert set(services) == {"redis", "api", "worker", "turn-worker"}
    assert "--appendonly" in services["redis"]["command"]
    for name in ("api", "worker", "turn-worker"):
        command = services[name]["command"]
        # These run in our image, where the package is installed as in this venv.
        executable = VENV_BIN / command[0]
        assert executable.exists(), f"{name}: {command[0]} is not installed"
        assert services[name]["environment"]["REDIS_URL"].startswith("redis://redis:")
    # The workers' commands must be a real subcommand, not only an executable; one worker
    # is reserved for bot turns, on a queue that exists.
    for name in ("worker", "turn-worker"):
        worker = services[name]["command"]
        result = subprocess.run(
            [str(VENV_BIN / worker[0]), *worker[1:], "--help"],
            capture_output=True,
            text=True,
            timeout=scaled(LONG),
        )
        assert result.returncode == 0, result.stderr
    assert services["turn-worker"]["command"][-2:] == ["--queues", TURNS]
    # The api's config file and app must load.
    api = services["api"]["command"]
    assert (ROOT / api[api.index("--config") + 1]).is_file()
    assert api[-1] == "service.wsgi:app"
    # The profile `cluster`: the same commands, the games on the cluster's nodes and the
    # queues on a Redis of their own, as the service reads the two URLs.
    cluster = {name: s for name, s in every.items() if s.get("profiles") == ["cluster"]}
    assert {"api-cluster", "worker-cluster", "queue-redis", "redis-cluster-init"} <= set(cluster)
    assert len([name for name in cluster if name.startswith("redis-node-")]) == 6
    for name, base in (("api-cluster", "api"), ("worker-cluster", "worker")):
        assert cluster[name]["command"] == services[base]["command"]
        settings = load_config(environ=cluster[name]["environment"])
        nodes = cluster_nodes(settings["REDIS_URL"])
        assert is_cluster_url(settings["REDIS_URL"]) and len(nodes) == 3
        assert {node.host for node in nodes} <= set(cluster)
        assert settings["QUEUE_REDIS_URL"].startswith("redis://queue-redis:")
    dockerfile = (ROOT / "Dockerfile").read_text()
    # The image installs from the same lock as the two commands.
    assert "--require-hashes -r requirements/uv.txt" in dockerfile
    assert "uv sync --locked" in dockerfile
    # Every package the project installs is copied into the image.
    for package in ("engine", "ai", "service", "worker", "cli", "client"):
        assert f"COPY {package} {package}" in dockerfile, package


def test_gunicorn_config_loads() -> None:
    result = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "--config", "gunicorn.conf.py", "--check-config",
         "service.wsgi:app"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=scaled(LONG),
        env={"REDIS_URL": "redis://127.0.0.1:1/0", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert shutil.which("gunicorn", path=str(VENV_BIN))


def test_the_docker_image_copies_every_package() -> None:
    """The image installs the project from the lock: every package pyproject.toml ships must be
    copied into it, or the image cannot import it."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = {
        line.split()[1]
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
    }
    assert packages <= copied, packages - copied
