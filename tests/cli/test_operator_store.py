"""The operator commands (`pocha keys`, `pocha accounts`, `pocha migrate-keys`, `pocha
worker`) run as an operator runs them, each in a process of its own: they work on the store
`--redis-url` or REDIS_URL names, find the Redis of a `pocha serve` on this machine by the
socket in its data dir, and say a Redis that does not answer in one line of the terminal's
language (the address tried, the options that choose another), never a traceback. With
POCHA_REDIS_CLUSTER on, they work on the session's real Redis Cluster as the service does,
or refuse in one line what cannot work there."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import STORE_TIMEOUT, pocha
from core.store import api_keys
from tests.redis_server import fresh_db_url
from tests.waiting import LONG, scaled
from tools.embedded_cluster import EmbeddedCluster
from tools.embedded_redis import RedisServer, free_port
from tools.serve import data_path, redis_for, redis_socket

POCHA = Path(sys.executable).with_name("pocha")

#: What chooses the store or the language, kept from the test session's environment.
_CHOOSERS = ("REDIS_URL", "POCHA_REDIS_CLUSTER", "POCHA_QUEUE_REDIS_URL",
             "POCHA_STORE_TIMEOUT", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # fmt: skip

#: The wait of a command on a Redis that takes the connection and never answers: what these
#: tests check is the line that says the silence, which comes after the wait whatever its
#: length (the operator's default, 10 s, is checked in the help).
SILENCE_SECONDS = "2"

#: The same wait where a Redis that does answer is asked first (the store beside a silent
#: queue Redis): it may not be taken for silent when a busy machine makes it slow to
#: answer, so it has a loaded machine's room.
SILENCE_BESIDE_AN_ANSWER = f"{scaled(10):g}"

#: Every command that opens the store, with arguments that reach it.
STORE_COMMANDS = [
    ["keys", "create", "relay"],
    ["keys", "list"],
    ["keys", "revoke", "relay"],
    ["accounts", "list"],
    ["accounts", "disable", "acc_nobody"],
    ["accounts", "disable", "acc_nobody", "--enable"],
    ["accounts", "rename", "acc_nobody", "Lola"],
    ["accounts", "rotate-key", "acc_nobody"],
    ["accounts", "count"],
    ["accounts", "keep", "acc_nobody"],
    ["accounts", "sweep"],
    ["migrate-keys"],
    ["worker", "--burst"],
]


def _pocha(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in _CHOOSERS}
    environ.update(env or {})
    return subprocess.run(
        [str(POCHA), *args], cwd=cwd, env=environ, capture_output=True, text=True,
        timeout=scaled(LONG), check=False,
    )  # fmt: skip


#: One run of `_pocha`: the command, the directory it runs in, the environment it adds.
Run = tuple[list[str], Path, dict[str, str]]


def _at_once(*runs: Run) -> list[subprocess.CompletedProcess[str]]:
    """`_pocha` for each of `runs`, all at once (as an operator's terminals may run them),
    their results in the order of `runs`: for commands none of which changes what another
    reads."""
    with ThreadPoolExecutor(len(runs)) as pool:
        return list(pool.map(lambda run: _pocha(*run), runs))


def _no_account(result: subprocess.CompletedProcess[str]) -> None:
    """The command reached a store and found no account there: said in one line."""
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("Error: there is no account 'acc_nobody'"), result.stderr
    assert "Traceback" not in result.stderr


def _one_line(result: subprocess.CompletedProcess[str], start: str) -> None:
    """The command failed with one line on stderr, which starts with `start`."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith(start), result.stderr


def _one_line_refusal(result: subprocess.CompletedProcess[str], address: str) -> None:
    _one_line(result, f"Error: no Redis answers at {address} ")
    assert "--redis-url" in result.stderr and "--data-dir" in result.stderr


@pytest.fixture
def serve_dir(tmp_path: Path) -> Iterator[tuple[Path, RedisServer]]:
    """A directory `pocha serve` was started in: its data dir `.pocha-data`, with the
    Redis that `pocha serve` runs there listening on its socket."""
    data = data_path(tmp_path / ".pocha-data")
    assert redis_socket(data) is not None  # the path is short enough for a socket
    server = redis_for(data).start(timeout=scaled(LONG))
    try:
        yield tmp_path, server
    finally:
        server.stop()


def test_the_commands_work_on_the_store_redis_url_or_REDIS_URL_names(
    redis_url: str, tmp_path: Path
) -> None:
    made = _pocha(["keys", "create", "relay", "--redis-url", redis_url], tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("pk_")
    listed = _pocha(["keys", "list"], tmp_path, {"REDIS_URL": redis_url})
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1].startswith("relay ")
    assert _pocha(["accounts", "list"], tmp_path, {"REDIS_URL": redis_url}).stdout == (
        "no accounts\n"
    )
    _no_account(_pocha(["accounts", "rotate-key", "acc_nobody", "--redis-url", redis_url],
                       tmp_path))  # fmt: skip


def test_the_commands_find_the_redis_of_the_pocha_serve_run_here(
    serve_dir: tuple[Path, RedisServer], tmp_path_factory: pytest.TempPathFactory
) -> None:
    here, server = serve_dir
    made = _pocha(["keys", "create", "relay"], here)
    assert made.returncode == 0, made.stderr
    client = server.client()
    try:
        (kept,) = api_keys.listed(client)
    finally:
        client.close()
    assert kept.name == "relay"
    # From elsewhere too, the data dir named as `pocha serve` was given it.
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    listed, accounts, migrated, worked, named, *nobodys = _at_once(
        (["keys", "list"], here, {}),
        (["accounts", "list"], here, {}),
        (["migrate-keys"], here, {}),
        (["worker", "--burst"], here, {}),
        (["keys", "list", "--data-dir", str(here / ".pocha-data")], elsewhere, {}),
        *((command, here, {}) for command in STORE_COMMANDS[4:8]),
    )
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1].startswith("relay ")
    assert accounts.stdout == "no accounts\n"
    for nobody in nobodys:
        _no_account(nobody)
    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stdout == "renamed 0 keys and 0 due tasks\n"
    assert worked.returncode == 0, worked.stderr
    assert named.returncode == 0, named.stderr
    assert named.stdout.splitlines()[1].startswith("relay ")
    revoked = _pocha(["keys", "revoke", "relay", "--data-dir", "../" + here.name + "/.pocha-data"],
                     elsewhere)  # fmt: skip
    assert revoked.returncode == 0, revoked.stderr


@pytest.mark.parametrize("command", STORE_COMMANDS, ids=" ".join)
def test_a_redis_that_does_not_answer_is_one_line(command: list[str], tmp_path: Path) -> None:
    address = f"redis://127.0.0.1:{free_port()}/0"
    _one_line_refusal(_pocha([*command, "--redis-url", address], tmp_path), address)


def test_the_store_that_does_not_answer_is_named_wherever_it_came_from(tmp_path: Path) -> None:
    address = f"redis://127.0.0.1:{free_port()}/0"
    _one_line_refusal(_pocha(["keys", "list"], tmp_path, {"REDIS_URL": address}), address)
    # A password in the address is not shown.
    secret = address.replace("//", "//pocha:s3cret@")
    refused = _pocha(["keys", "list", "--redis-url", secret], tmp_path)
    _one_line_refusal(refused, address.replace("//", "//pocha:***@"))
    # A data dir whose `pocha serve` died: its socket is left, no Redis listens on it.
    data = data_path(tmp_path / ".pocha-data")
    data.mkdir()
    stale = redis_socket(data)
    assert stale is not None
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(stale))
    _one_line_refusal(_pocha(["accounts", "list"], tmp_path), f"unix://{stale}?db=0")


@pytest.mark.parametrize(
    "command",
    [["keys", "list"], ["accounts", "rotate-key", "acc_nobody"], ["migrate-keys"],
     ["worker", "--burst"], ["worker"]],
    ids=" ".join,
)  # fmt: skip
def test_a_redis_that_takes_the_connection_and_never_answers_is_one_line(
    command: list[str], tmp_path: Path
) -> None:
    # A worker gives up at its start, with or without --burst (without, it would wait for
    # ever on a Redis that never answers); one that works is RQ's to keep.
    with _silent_port() as port:
        address = f"redis://127.0.0.1:{port}/0"
        waiting = ["--store-timeout", SILENCE_SECONDS]
        _one_line_refusal(_pocha([*command, "--redis-url", address, *waiting], tmp_path), address)


def test_a_worker_whose_queue_redis_never_answers_names_that_redis(
    redis_url: str, tmp_path: Path
) -> None:
    # The store answers; the queue Redis apart from it takes the connection and is silent.
    with _silent_port() as port:
        queues = f"redis://pocha:s3cret@127.0.0.1:{port}/0"
        refused = _pocha(
            ["worker", "--burst", "--redis-url", redis_url], tmp_path,
            {"POCHA_QUEUE_REDIS_URL": queues, "POCHA_STORE_TIMEOUT": SILENCE_BESIDE_AN_ANSWER},
        )  # fmt: skip
    shown = queues.replace("s3cret", "***")
    _one_line(refused, f"Error: the queue Redis at {shown} does not answer ")
    assert "POCHA_QUEUE_REDIS_URL" in refused.stderr


@contextmanager
def _silent_port() -> Iterator[int]:
    """A real listening socket that nobody ever reads: a connection to it is taken (the
    kernel's backlog), a command is sent, and no answer comes."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        yield silent.getsockname()[1]


#: The queues' logical DB on the session's plain Redis, beside a cluster store.
QUEUE_DB = 6


def test_with_POCHA_REDIS_CLUSTER_on_the_commands_work_on_the_cluster(
    redis_cluster_url: str, redis_cluster: EmbeddedCluster, redis_server: RedisServer,
    serve_dir: tuple[Path, RedisServer],
) -> None:  # fmt: skip
    # Beside a pocha serve, whose Redis is a plain one (it keeps the setting from its own
    # service): the setting says the store is the cluster, found as the service finds it.
    here, server = serve_dir
    node = f"redis://127.0.0.1:{redis_cluster.primaries()[0].port}/0"
    on = {"POCHA_REDIS_CLUSTER": "on", "REDIS_URL": node}
    queues = {**on, "POCHA_QUEUE_REDIS_URL": fresh_db_url(redis_server, QUEUE_DB)}
    made = _pocha(["keys", "create", "relay"], here, on)
    assert made.returncode == 0, made.stderr
    cluster, plain = redis_cluster.client(), server.client()
    try:
        assert [key.name for key in api_keys.listed(cluster)] == ["relay"]
        assert api_keys.listed(plain) == []
    finally:
        cluster.close()
        plain.close()
    data = here / ".pocha-data"
    listed, accounts, worked, *rest = _at_once(
        (["keys", "list", "--redis-url", node], here, {"POCHA_REDIS_CLUSTER": "on"}),
        (["accounts", "list"], here, on),
        (["worker", "--burst"], here, queues),
        # What the service cannot do either: RQ on a cluster, with no queue Redis named.
        (["accounts", "rotate-key", "acc_nobody"], here, on),
        (["worker", "--burst"], here, on),
        # Nor a pocha serve's data dir, nor the renaming of one Redis's old keys.
        (["keys", "list", "--data-dir", str(data)], here, on),
        (["migrate-keys"], here, queues),
        *((command, here, queues) for command in STORE_COMMANDS[4:8]),
    )
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1].startswith("relay ")
    assert accounts.stdout == "no accounts\n"
    assert worked.returncode == 0, worked.stderr
    rotated, queueless, served, migrated, *nobodys = rest
    no_queues = ("Error: REDIS_URL names a Redis Cluster, and RQ cannot run on one: set "
                 "POCHA_QUEUE_REDIS_URL to a plain Redis for the queues")  # fmt: skip
    _one_line(rotated, no_queues)
    _one_line(queueless, no_queues)
    _one_line(served,
              "Error: POCHA_REDIS_CLUSTER is on: the store is a Redis Cluster, and the Redis "
              f"of the pocha serve of {data} is not one")  # fmt: skip
    _one_line(migrated, "Error: pocha migrate-keys works on one Redis, not on a Redis Cluster")
    for nobody in nobodys:
        _no_account(nobody)
    assert "revoked" in _pocha(["keys", "revoke", "relay", "--redis-url", redis_cluster_url],
                               here).stdout  # fmt: skip


def test_a_cluster_that_does_not_answer_is_one_line(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    on = {
        "POCHA_REDIS_CLUSTER": "on",
        "POCHA_QUEUE_REDIS_URL": fresh_db_url(redis_server, QUEUE_DB),
        "POCHA_STORE_TIMEOUT": SILENCE_SECONDS,
    }
    with _silent_port() as port:
        for address in (f"redis://127.0.0.1:{free_port()}/0", f"redis://127.0.0.1:{port}/0"):
            for command in (["keys", "list"], ["worker", "--burst"]):
                refused = _pocha([*command, "--redis-url", address], tmp_path, on)
                _one_line(refused, f"Error: no node of the Redis Cluster answers at {address} ")
                assert "--redis-url" in refused.stderr and "--data-dir" not in refused.stderr


@pytest.mark.parametrize(
    ("language", "said"),
    [("C", "Seconds to wait for the store to take the connection"),
     ("es_ES.UTF-8", "Segundos de espera a que el almacén acepte la conexión")],
)  # fmt: skip
def test_the_wait_on_a_silent_store_is_the_operators_to_set(language: str, said: str) -> None:
    environ: dict[str, str | None] = {**dict.fromkeys(_CHOOSERS), "LANG": language}
    for command in STORE_COMMANDS:
        shown = CliRunner().invoke(pocha, [*command, "--help"], env=environ, prog_name="pocha")
        assert shown.exit_code == 0, shown.output
        text = " ".join(shown.output.split())
        assert said in text and "POCHA_STORE_TIMEOUT" in text, text
        assert f"{STORE_TIMEOUT}; x>0]" in text.split("--store-timeout", 1)[1], text
    # Only a wait that some answer could meet.
    for wrong in ("0", "-1", "soon"):
        refused = CliRunner().invoke(pocha, ["keys", "list", "--store-timeout", wrong], env=environ)
        assert refused.exit_code == 2, refused.output
        assert "'--store-timeout'" in refused.output, refused.output


def test_a_data_dir_without_a_pocha_serve_is_said(tmp_path: Path) -> None:
    refused = _pocha(["keys", "list", "--data-dir", "nowhere"], tmp_path)
    assert refused.returncode == 1
    assert refused.stderr == (
        f"Error: no pocha serve keeps its Redis in {tmp_path.resolve() / 'nowhere'} (there is "
        f"no socket {tmp_path.resolve() / 'nowhere' / 'redis.sock'}): start pocha serve "
        f"--data-dir {tmp_path.resolve() / 'nowhere'}, or give the store's address with "
        "--redis-url\n"
    )


def test_the_refusal_is_in_the_terminals_language(tmp_path: Path) -> None:
    address = f"redis://127.0.0.1:{free_port()}/0"
    spanish = {"LANG": "es_ES.UTF-8"}
    refused = _pocha(["keys", "list", "--redis-url", address], tmp_path, spanish)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith(f"Error: ningún Redis responde en {address} "), refused.stderr
    assert "--redis-url" in refused.stderr and "--data-dir" in refused.stderr
    nowhere = _pocha(["keys", "list", "--data-dir", "nowhere"], tmp_path, spanish)
    assert nowhere.stderr.startswith("Error: ningún pocha serve guarda su Redis en "), (
        nowhere.stderr
    )
    # With the store a cluster: what it refuses, and a cluster that does not answer.
    cluster = {**spanish, "POCHA_REDIS_CLUSTER": "on"}
    for command, said in [
        (["keys", "list", "--data-dir", "nowhere"],
         "Error: POCHA_REDIS_CLUSTER está activado: el almacén es un Redis Cluster"),
        (["migrate-keys", "--redis-url", address],
         "Error: pocha migrate-keys trabaja sobre un solo Redis"),
        (["keys", "list", "--redis-url", address],
         f"Error: ningún nodo del Redis Cluster responde en {address} "),
    ]:  # fmt: skip
        _one_line(_pocha(command, tmp_path, cluster), said)


#: What the operator commands say, in English and in Spanish: a command, the settings it
#: runs with (`{url}`: the test's store), and the start of what it prints on stdout (exit
#: 0) or on stderr (exit 1 or 2: the last line).
SAID = [
    (["keys", "list"], {}, "no keys", "no hay claves"),
    (["keys", "create", "relay", "--think", "2"], {},
     "key 'relay', shown once: send it as X-Pocha-Key from your server",
     "clave 'relay', mostrada una sola vez: envíala como X-Pocha-Key desde tu servidor"),
    (["keys", "list"], {}, "name                             moves",
     "nombre                           jugadas"),
    (["keys", "create", "relay"], {}, "Error: there is a key named 'relay' already",
     "Error: ya hay una clave llamada 'relay'"),
    (["keys", "create", "other", "--moves", "often"], {},
     "Error: --moves is not a rate limit such as", "Error: --moves no es un límite de frecuencia"),
    (["keys", "revoke", "relay"], {}, "revoked 'relay'", "revocada 'relay'"),
    (["keys", "revoke", "relay"], {}, "Error: there is no key named 'relay'",
     "Error: no hay ninguna clave llamada 'relay'"),
    (["keys", "create"], {}, "Error: Missing argument 'NAME'.",
     "Error: Falta el argumento 'NOMBRE'."),
    (["accounts", "list"], {}, "no accounts", "no hay cuentas"),
    (["accounts", "disable", "acc_nobody"], {}, "Error: there is no account 'acc_nobody'",
     "Error: no hay ninguna cuenta 'acc_nobody'"),
    (["accounts", "rename", "acc_nobody", " "], {},
     "Error: not a name: A name needs at least one visible character.",
     "Error: no es un nombre: Un nombre necesita al menos un carácter visible."),
    (["migrate-keys"], {}, "renamed 0 keys and 0 due tasks",
     "renombradas 0 claves y 0 tareas pendientes"),
    (["worker", "--burst", "--queues", "pocha-hihg"], {},
     "Error: Invalid value for --queues: unknown queue 'pocha-hihg'; the queues are",
     "Error: Valor no válido para --queues: cola desconocida 'pocha-hihg'; las colas son"),
    # Settings that cannot work (core.store.redises.RedisSetupError): said before a
    # connection is tried.
    (["accounts", "rotate-key", "acc_nobody"], {"POCHA_QUEUE_GROUP": "2"},
     "Error: POCHA_QUEUE_GROUP 2: there is one queue Redis (POCHA_QUEUE_REDIS_URL), numbered 0",
     "Error: POCHA_QUEUE_GROUP 2: hay un solo Redis de colas (POCHA_QUEUE_REDIS_URL)"),
    (["keys", "list"], {"REDIS_URL": "redis+cluster://:0/0"},
     "Error: not a host:port in the cluster URL: ':0'",
     "Error: no es un host:puerto en la URL del clúster: ':0'"),
    # A plain Redis given as a node of the cluster the setting says the store is.
    (["keys", "list"], {"POCHA_REDIS_CLUSTER": "on"},
     "Error: the Redis at {url} answers, but is not a node of a Redis Cluster",
     "Error: el Redis de {url} responde, pero no es un nodo de un Redis Cluster"),
]  # fmt: skip


@pytest.mark.parametrize(("locale", "spanish"), [("C.UTF-8", False), ("es_ES.UTF-8", True)])
def test_the_operator_commands_say_all_in_the_terminals_language(
    redis_url: str, tmp_path: Path, locale: str, spanish: bool
) -> None:
    for command, settings, english, spanish_said in SAID:
        environ = {"LANG": locale, "REDIS_URL": redis_url, **settings}
        ran = _pocha(command, tmp_path, environ)
        said = (spanish_said if spanish else english).format(url=environ["REDIS_URL"])
        assert "Traceback" not in ran.stderr, (command, ran.stderr)
        if said.startswith("Error: "):
            assert ran.returncode in (1, 2), (command, ran.stdout)
            assert ran.stderr.splitlines()[-1].startswith(said), (command, ran.stderr)
        else:
            assert ran.returncode == 0, (command, ran.stderr)
            shown = ran.stderr if command[:2] == ["keys", "create"] else ran.stdout
            assert shown.startswith(said), (command, shown)
