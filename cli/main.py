"""Entry point of the `pocha` command: the root click group and the `bench` commands.
How it works: docs/development.md, `cli.main`.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn
from urllib.parse import urlsplit

import click
from click.core import ParameterSource

from cli import language as cli_language
from cli import spoken
from cli.language import paragraphs, say, verbatim
from engine.i18n import N_, Message, _, ngettext


def _load(module: str) -> ModuleType:
    """Import `module` on demand, turning an import failure into a clean CLI error."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise click.ClickException(f"cannot import {module}: {exc}") from exc


def _echo_lines(result: object) -> None:
    """Print what a bench returned: a string, a mapping (key: value), or lines."""
    if result is None:
        return
    if isinstance(result, str):
        click.echo(result)
    elif isinstance(result, Mapping):
        for key, value in result.items():
            click.echo(f"{key}: {value}")
    elif isinstance(result, Iterable):
        for line in result:
            click.echo(line)
    else:
        click.echo(result)


def _echo_verdict(result: Any) -> None:
    """Print a check's `lines`, and exit 1 unless it is `ok`."""
    _echo_lines(result.lines)
    if not result.ok:
        raise SystemExit(1)


def _levels(bots: str) -> tuple[str, ...]:
    """The bots' levels of a comma-separated `--bots`, blanks dropped."""
    return tuple(b.strip() for b in bots.split(",") if b.strip())


@click.group(
    cls=spoken.SpokenGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_("Pocha: the Spanish card game, as an engine, bots and an HTTP service."),
)
def pocha() -> None:
    """The root group: every command sits under it (its help is the one above, translated
    when it is shown)."""


@pocha.group()
def bench() -> None:
    """Measure the speed of one layer (engine, search, API)."""


@bench.command("engine")
@click.option(
    "--seconds",
    type=float,
    default=3.0,
    show_default=True,
    help="How long to play random hands for.",
)
@click.option("--seed", type=int, default=None, help="Seed for the random deals and plays.")
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help="Rounds per implementation, taking turns; --seconds is shared among them.",
)
def bench_engine(seconds: float, seed: int | None, rounds: int) -> None:
    """Play random legal hands through the engine and report hands per second, on the
    Python and the compiled engine (when built), side by side."""
    engine_bench = _load("engine.pocha.bench")
    _echo_lines(engine_bench.run(seconds=seconds, seed=seed, rounds=rounds))


@bench.command("api")
@click.option("--seconds", type=float, default=10.0, show_default=True, help="Per phase.")
@click.option("--processes", type=int, default=2, show_default=True, help="Client processes.")
@click.option("--threads", type=int, default=8, show_default=True, help="Threads per client.")
@click.option(
    "--api-processes",
    "--workers",
    "workers",
    type=int,
    default=None,
    help="gunicorn worker processes of the API (default: config).",
)
@click.option(
    "--turn-seconds",
    type=click.IntRange(0, 3600),
    default=None,
    help="The games' clock (default: the service's, 60 s for these games of "
    "people; 0: no clock, each move then owes no timer).",
)
@click.option(
    "--cluster",
    is_flag=True,
    help="Play the moves again with the games on a private Redis Cluster (3 "
    "primaries, 3 replicas) and compare.",
)
@click.option(
    "--wait-replicas",
    type=click.IntRange(0, 8),
    default=0,
    show_default=True,
    help="Moves wait for this many replicas (POCHA_WAIT_REPLICAS).",
)
def bench_api(
    seconds: float, processes: int, threads: int, workers: int | None, turn_seconds: int | None,
    cluster: bool, wait_replicas: int,
) -> None:  # fmt: skip
    """Play many concurrent games against gunicorn + Redis; moves/s and latency."""
    service_bench = _load("tools.bench_api")
    _echo_lines(
        service_bench.run(
            seconds=seconds,
            processes=processes,
            threads=threads,
            workers=workers,
            turn_seconds=turn_seconds,
            cluster=cluster,
            wait_replicas=wait_replicas,
        )
    )


#: The options of the two benches that profile a move (`move-path`, `api-profile`).
_PROFILE_TOP = click.option(
    "--top",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Functions listed, by own and by cumulative time.",
)
_PROFILE_OUTPUT = click.option(
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the raw profile here (pstats; snakeviz or flameprof draw it).",
)


@bench.command("move-path")
@click.option(
    "--moves",
    type=click.IntRange(1),
    default=4000,
    show_default=True,
    help="Moves profiled (as many again are timed without the profiler).",
)
@_PROFILE_TOP
@_PROFILE_OUTPUT
@click.option(
    "--as-worker",
    is_flag=True,
    help="Under a gunicorn worker's conditions (in a fresh process): gevent's sockets and "
    "locks, the metrics in prometheus' multiprocess files, the app frozen for the collector.",
)
def bench_move_path(moves: int, top: int, output: str | None, as_worker: bool) -> None:
    """Where a move's server CPU goes: moves through the app in this process, against a
    private Redis, under cProfile; the top functions and the CPU a move without it."""
    profile_moves = _load("tools.profile_moves")
    play = profile_moves.run_as_worker if as_worker else profile_moves.run
    _echo_lines(play(moves=moves, top=top, output=output))


@bench.command("api-profile")
@click.option(
    "--moves",
    type=click.IntRange(1),
    default=3000,
    show_default=True,
    help="Moves timed unprofiled, then as many again profiled.",
)
@_PROFILE_TOP
@click.option(
    "--views/--no-views",
    default=True,
    show_default=True,
    help="Read the mover's view after each move, as the page does.",
)
@_PROFILE_OUTPUT
def bench_api_profile(moves: int, top: int, views: bool, output: str | None) -> None:
    """Where the API's CPU goes for a move (and the view read after it) in a real gunicorn
    worker under cProfile; the top functions and the worker's CPU a move without it."""
    _echo_lines(_load("tools.profile_api").run(moves=moves, top=top, views=views, output=output))


@bench.command("api-floor")
@click.option("--requests", type=click.IntRange(1), default=5000, show_default=True,
              help="Requests timed at each of the two trivial layers.")  # fmt: skip
@click.option("--moves", type=click.IntRange(1), default=2000, show_default=True,
              help="Moves timed.")  # fmt: skip
def bench_api_floor(requests: int, moves: int) -> None:
    """What a request costs one gunicorn worker at each layer, down one connection: a bare
    WSGI app (gunicorn and gevent alone), the API's GET /healthz, and a move."""
    _echo_lines(_load("tools.profile_api").floor(requests=requests, moves=moves))


@bench.command("webhook")
@click.option(
    "--decisions",
    type=click.IntRange(1),
    default=2000,
    show_default=True,
    help="Decisions asked of the loopback bot, one at a time.",
)
def bench_webhook(decisions: int) -> None:
    """What asking a webhook bot adds to a turn (p50, p99), against a bot on loopback that
    answers at once: the checked, signed, pooled call and its count in Redis."""
    _echo_lines(_load("tools.bench_webhook").run(decisions=decisions))


@bench.command("store")
@click.option(
    "--games",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Whole games of four people played on each store.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Watchdog sweeps timed on the cluster.",
)
def bench_store(games: int, rounds: int) -> None:
    """The game store alone (no HTTP) on one Redis and on a Redis Cluster: moves/s, CPU per
    move, and the watchdog's sweep of the cluster's due sets."""
    _echo_lines(_load("tools.bench_store").run(games=games, rounds=rounds))


@bench.command("ladder")
@click.option(
    "--accounts",
    type=click.IntRange(1),
    default=10_000,
    show_default=True,
    help="Rated accounts made straight through the store.",
)
@click.option(
    "--requests",
    type=click.IntRange(1),
    default=200,
    show_default=True,
    help="Requests timed per endpoint.",
)
@click.option(
    "--loads",
    type=click.IntRange(1),
    default=5,
    show_default=True,
    help="Loads of the ladder page timed in Chromium.",
)
def bench_ladder(accounts: int, requests: int, loads: int) -> None:
    """The ladder with many accounts: GET /api/v1/ladder's first and last page, one
    rating curve, and the ladder page's load in Chromium up to its chart drawn."""
    _echo_lines(_load("tools.bench_ladder").run(accounts=accounts, requests=requests, loads=loads))


#: `pocha bench hostile --scenario`: the streams and slowloris sockets of
#: tools.bench_hostile, and the griefers at tables of tools.bench_griefers, in `all`'s order.
HOSTILE_SCENARIOS = ("streams", "leave-spam", "lobby-flood", "heavy-bots", "outside-bots")


@bench.command("hostile")
@click.option(
    "--scenario",
    "scenarios",
    multiple=True,
    default=("streams",),
    show_default=True,
    type=click.Choice([*HOSTILE_SCENARIOS, "all"]),
    help="What hostile clients do (repeatable; all: every one). streams: event "
    "streams and slowloris sockets held open while the load of bench api runs. "
    "leave-spam, lobby-flood, heavy-bots, outside-bots: griefers at tables while an "
    "unrelated person plays against bots, each flood measured against an idle phase.",
)
@click.option(
    "--streams",
    type=click.IntRange(0, 62500),
    default=1000,
    show_default=True,
    help="streams: event streams held open, each from its own loopback address.",
)
@click.option(
    "--slowloris",
    type=click.IntRange(0, 62500),
    default=200,
    show_default=True,
    help="streams: sockets sending a request head slowly, each from its own address.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=50,
    show_default=True,
    help="streams: games the streams follow (played meanwhile).",
)
@click.option(
    "--feed-rate",
    type=click.FloatRange(0.1),
    default=20.0,
    show_default=True,
    help="streams: moves a second played in those games.",
)
@click.option("--seconds", type=float, default=10.0, show_default=True, help="streams: per phase.")
@click.option(
    "--processes", type=int, default=2, show_default=True, help="streams: client processes."
)
@click.option(
    "--threads", type=int, default=4, show_default=True, help="streams: threads per client."
)
@click.option("--workers", type=int, default=None, help="gunicorn workers (default: config).")
@click.option(
    "--baseline/--no-baseline",
    default=True,
    show_default=True,
    help="streams: measure first with nothing hostile open.",
)
@click.option(
    "--phase-seconds",
    type=click.FloatRange(1),
    default=60.0,
    show_default=True,
    help="leave-spam, lobby-flood, heavy-bots, outside-bots: the idle phase and the "
    "flood phase, each (a minute: a p99 of some 270 samples, not of 90).",
)
@click.option(
    "--think",
    type=click.FloatRange(0),
    default=0.2,
    show_default=True,
    help="Seconds the unrelated person waits on its turn before moving.",
)
@click.option(
    "--griefers",
    type=click.IntRange(1, 250),
    default=3,
    show_default=True,
    help="leave-spam: griefer addresses, each with a table and two seats.",
)
@click.option(
    "--leave-rate",
    type=click.FloatRange(0),
    default=0.0,
    show_default=True,
    help="leave-spam: calls a second from each griefer address (0: as fast as the answers come).",
)
@click.option(
    "--heavy-addresses",
    type=click.IntRange(1, 250),
    default=3,
    show_default=True,
    help="heavy-bots: addresses creating heavy games.",
)
@click.option(
    "--lobby-rate",
    type=click.FloatRange(0),
    default=80.0,
    show_default=True,
    help="lobby-flood: reads of the lobby a second, in all.",
)
@click.option(
    "--lobby-addresses",
    type=click.IntRange(1, 62500),
    default=40,
    show_default=True,
    help="lobby-flood: addresses reading the lobby.",
)
@click.option(
    "--table-addresses",
    type=click.IntRange(0, 62500),
    default=20,
    show_default=True,
    help="lobby-flood: addresses creating listed tables.",
)
@click.option(
    "--table-rate",
    type=click.FloatRange(0),
    default=1.0,
    show_default=True,
    help="lobby-flood: listed tables each of those addresses creates a second.",
)
@click.option(
    "--outside-bots",
    type=click.IntRange(1, 250),
    default=20,
    show_default=True,
    help="outside-bots: bot accounts, in turn with hostile webhooks (silent, dripping, "
    "100 MB, redirecting, illegal) or holding their event stream and never moving.",
)
@click.option(
    "--outside-games",
    type=click.IntRange(1),
    default=500,
    show_default=True,
    help="outside-bots: games to seat them in.",
)
@click.option(
    "--outside-hosts",
    type=click.IntRange(1, 250),
    default=50,
    show_default=True,
    help="outside-bots: addresses making those tables.",
)
def bench_hostile(
    scenarios: tuple[str, ...], streams: int, slowloris: int, games: int, feed_rate: float,
    seconds: float, processes: int, threads: int, workers: int | None, baseline: bool,
    phase_seconds: float, think: float, griefers: int, leave_rate: float, heavy_addresses: int,
    lobby_rate: float, lobby_addresses: int, table_addresses: int, table_rate: float,
    outside_bots: int, outside_games: int, outside_hosts: int,
) -> None:  # fmt: skip
    """Hostile clients against the real stack, each from its own loopback address.

    streams (the default): moves and /healthz against gunicorn + Redis while event streams
    and slowloris sockets are held open. leave-spam, lobby-flood, heavy-bots, outside-bots:
    pocha serve as shipped while griefers spam leave and return, create the heaviest games,
    flood the lobby, or seat bot accounts with hostile webhooks; an unrelated person's move
    and bot-turn p50/p99, idle and under each flood.
    Exit 1 unless every stream got every event, no request failed or was answered 5xx, and
    each flood kept the person's p99s within 2x of idle.
    """
    chosen = HOSTILE_SCENARIOS if "all" in scenarios else tuple(
        s for s in HOSTILE_SCENARIOS if s in scenarios
    )  # fmt: skip
    ok = True
    if "streams" in chosen:
        hostile = _load("tools.bench_hostile")
        lines, ok = hostile.run(
            seconds=seconds, processes=processes, threads=threads, streams=streams,
            slowloris=slowloris, games=games, feed_rate=feed_rate, workers=workers,
            baseline=baseline,
        )  # fmt: skip
        _echo_lines(lines)
    at_tables = [s for s in chosen if s != "streams"]
    if at_tables:
        griefers_bench = _load("tools.bench_griefers")
        spec = griefers_bench.TablesSpec(
            seconds=phase_seconds, think=think, griefers=griefers, leave_rate=leave_rate,
            heavy_addresses=heavy_addresses, lobby_rate=lobby_rate,
            lobby_addresses=lobby_addresses, table_addresses=table_addresses,
            table_rate=table_rate, outside_bots=outside_bots, outside_games=outside_games,
            outside_hosts=outside_hosts, api_processes=workers,
        )  # fmt: skip
        result = griefers_bench.run(spec, at_tables)
        _echo_lines(result.lines)
        ok = ok and result.ok
    if not ok:
        raise SystemExit(1)


@bench.command("bots")
@click.option(
    "--samples",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Positions per level for the latency figures.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=16,
    show_default=True,
    help="Games of the match timed with 1 and 2 workers.",
)
@click.option(
    "--seats",
    default="easy,heuristic,easy,heuristic",
    show_default=True,
    help="The match's bots, one per seat.",
)
@click.option(
    "--rules",
    "rules_json",
    default="{}",
    show_default=True,
    help="The match's rule options as JSON, e.g. '{\"schedule\": [5, 5]}'.",
)
def bench_bots(samples: int, games: int, seats: str, rules_json: str) -> None:
    """Bot decision latency per level through a worker, and match games per minute with
    1 and 2 workers (starts its own Redis and workers)."""
    import json

    try:
        rules = json.loads(rules_json)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from exc
    worker_bench = _load("tools.bench_bots")
    _echo_lines(worker_bench.run(samples=samples, games=games, seats=seats, rules=rules))


@bench.command("queue")
@click.option(
    "--seconds",
    type=click.FloatRange(1),
    default=10.0,
    show_default=True,
    help="The measured window.",
)
@click.option(
    "--producers",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Processes queueing jobs.",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=4,
    show_default=True,
    help="Worker processes taking them.",
)
@click.option(
    "--fork/--no-fork",
    default=None,
    help="Workers as `pocha worker` runs them (heartbeats, time and memory "
    "limits; a forked horse for hints and AI moves only), or RQ's SimpleWorker "
    "(default: SimpleWorker for the no-op jobs, `pocha worker`'s for --turns).",
)
@spoken.option(
    "--turns",
    "level",
    default=None,
    metavar=N_("LEVEL"),
    help="Instead, real bot turns: games of four bots of that level play on the "
    "workers, the store and the queues on two Redises; each turn's cost to both "
    "and to the workers.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=40,
    show_default=True,
    help="With --turns: the games played at once.",
)
def bench_queue(
    seconds: float, producers: int, workers: int, fork: bool | None, level: str | None,
    games: int,
) -> None:  # fmt: skip
    """Drive one private queue Redis with no-op bot-turn jobs: jobs/s, the Redis's CPU and
    memory per job (its ceiling past this machine's cores), the workers' CPU per job."""
    queue_bench = _load("tools.bench_queue")
    if level is None:
        _echo_lines(queue_bench.run(seconds=seconds, producers=producers, workers=workers,
                                    fork=bool(fork)))  # fmt: skip
        return
    if level not in _load("ai.pocha.levels").LEVELS:
        raise click.BadParameter(f"unknown level {level!r}", param_hint="--turns")
    _echo_lines(queue_bench.run_turns(level=level, games=games, seconds=seconds,
                                      workers=workers, fork=fork is not False))  # fmt: skip


@bench.command("flood")
@click.option(
    "--seconds",
    type=float,
    default=60.0,
    show_default=True,
    help="Length of each phase: idle, then under the flood.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Games played at once, each by a person from its own address (more "
    "than one measures the reserved worker's capacity too).",
)
@click.option(
    "--bots",
    default="easy,medium,hard",
    show_default=True,
    help="The bots' levels, one per seat beside the person's.",
)
@click.option(
    "--think",
    type=float,
    default=0.3,
    show_default=True,
    help="Seconds a person waits before each move.",
)
@click.option(
    "--flood",
    type=click.IntRange(1),
    default=30,
    show_default=True,
    help="AI moves a minute sent by the flooding address (evenly spaced).",
)
@click.option(
    "--flood-ms",
    type=click.IntRange(1, 5000),
    default=5000,
    show_default=True,
    help="Thinking each of them asks for (milliseconds).",
)
@click.option(
    "--turn-workers",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="pocha serve's workers reserved for bot turns (0 shows what they do).",
)
@click.option("--seed", type=int, default=1, show_default=True)
def bench_flood(
    seconds: float, games: int, bots: str, think: float, flood: int, flood_ms: int,
    turn_workers: int, seed: int,
) -> None:  # fmt: skip
    """Bot-turn latency (a person's move to the next bot's move event) p50/p99, idle and
    while one address floods the AI on demand (30 AI moves of 5 s a minute), on `pocha
    serve` as shipped (workers in their roles, rate limits on); exit 1 unless the p99 under
    flood is within 2x of the idle one."""
    flood_bench = _load("tools.bench_flood")
    spec = flood_bench.FloodSpec(
        seconds=seconds,
        games=games,
        bots=_levels(bots),
        think=think,
        flood=flood,
        flood_ms=flood_ms,
        seed=seed,
        turn_workers=turn_workers,
    )
    result = flood_bench.run(spec)
    _echo_verdict(result)


@bench.command("clocks")
@click.option(
    "--games",
    type=click.IntRange(1),
    default=60,
    show_default=True,
    help="Games of two people and two bots; each gives four timeouts.",
)
@click.option("--turn-seconds", type=click.IntRange(1, 60), default=2, show_default=True)
@click.option(
    "--spread",
    type=float,
    default=10.0,
    show_default=True,
    help="Seconds over which the games are made.",
)
@click.option(
    "--tables",
    type=click.IntRange(1),
    default=200,
    show_default=True,
    help="Waiting tables made to weigh one in Redis memory.",
)
def bench_clocks(games: int, turn_seconds: int, spread: float, tables: int) -> None:
    """How late a person's clock ends (deadline to the stand-in's move, p50/p99 over every
    timeout, with two workers as `pocha serve` runs them), and the Redis memory a waiting
    table costs (starts its own Redis and workers)."""
    clock_bench = _load("tools.bench_clocks")
    spec = clock_bench.ClockSpec(
        games=games, turn_seconds=turn_seconds, spread=spread, tables=tables
    )
    _echo_lines(clock_bench.run(spec))


@bench.command("soak")
@click.option("--games", type=click.IntRange(1), default=200, show_default=True)
@click.option(
    "--bots",
    default="heuristic,easy,heuristic",
    show_default=True,
    help="The bots' levels, one per seat beside the load client's.",
)
@click.option(
    "--schedule",
    default="2,3",
    show_default=True,
    help="The hands: classic, pyramid, or card counts such as 2,3.",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="pocha worker processes.",
)
@click.option("--api-workers", type=int, default=None, help="gunicorn workers (default: config).")
@click.option(
    "--processes",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Load-client processes.",
)
@click.option(
    "--think",
    type=float,
    default=0.0,
    show_default=True,
    help="Seconds the load client waits before each of its moves.",
)
@click.option(
    "--stall",
    type=float,
    default=120.0,
    show_default=True,
    help="Seconds without an event after which a game counts as stuck.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--logs", default=None, help="Keep the logs of Redis, gunicorn and the workers here.")
def bench_soak(
    games: int, bots: str, schedule: str, workers: int, api_workers: int | None,
    processes: int, think: float, stall: float, seed: int, logs: str | None,
) -> None:  # fmt: skip
    """Play many games at once (a person's seat driven here, bots on pocha workers) against
    gunicorn + Redis to the end, and check every game's event log; exit 1 on any fault."""
    soak = _load("tools.soak")
    spec = soak.SoakSpec(
        games=games,
        bots=_levels(bots),
        schedule=soak.parse_schedule(schedule),
        seed=seed,
        think=think,
        stall=stall,
    )
    result = soak.run(
        spec, workers=workers, api_workers=api_workers, processes=processes, log_dir=logs
    )
    _echo_verdict(result)


#: Where `pocha serve` keeps its data unless told otherwise; the commands that work on its
#: store look there for its Redis by the same default.
_DATA_DIR = ".pocha-data"
#: Seconds an operator command waits, by default, for the store to take its connection and
#: then for each answer (`pocha worker`: at its start): a Redis that does not answer is said
#: (`_on_the_store`), not waited for. `--store-timeout` (POCHA_STORE_TIMEOUT) sets it.
STORE_TIMEOUT = 10.0
#: Where `_on_the_store` keeps the run's `--store-timeout` (`click.Context.meta`).
_STORE_TIMEOUT_META = "pocha.store_timeout"


def _store_timeouts() -> dict[str, float]:
    """The redis-py timeouts of this run's operator command: its `--store-timeout`."""
    seconds = click.get_current_context().meta.get(_STORE_TIMEOUT_META, STORE_TIMEOUT)
    return {"socket_connect_timeout": seconds, "socket_timeout": seconds}


def _store_url(redis_url: str | None, data_dir: str) -> str:
    """The store an operator command works on: `--redis-url`, else the Redis of the
    `pocha serve` of a `--data-dir` given, else REDIS_URL, else that of the default data
    dir's `pocha serve` when its socket is there, else the settings' default address. With
    POCHA_REDIS_CLUSTER on, the store is a cluster, as the service's is, and never the
    Redis of a `pocha serve` (a plain one: it keeps that setting from its own service):
    `--redis-url`, else REDIS_URL or its default, and a `--data-dir` given is refused."""
    if redis_url:
        return redis_url
    config = _load("core.config")
    settings = config.load_config()
    named = click.get_current_context().get_parameter_source("data_dir") is (
        ParameterSource.COMMANDLINE
    )
    serve = _load("tools.serve")
    if config.is_on(settings["REDIS_CLUSTER"]):
        if named:
            raise click.ClickException(cli_language.serve_is_no_cluster(serve.data_path(data_dir)))
        return str(settings["REDIS_URL"])
    if not named and os.environ.get("REDIS_URL"):
        return str(settings["REDIS_URL"])
    found: str | None = serve.store_url(data_dir)
    if found is not None:
        return found
    if named:
        data = serve.data_path(data_dir)
        raise click.ClickException(cli_language.no_serve_store(data, str(data / serve.SOCKET_FILE)))
    return str(settings["REDIS_URL"])


def _clustered(redis_url: str) -> bool:
    """Whether the store at `redis_url` is a Redis Cluster, as the service reads it: a
    cluster URL, or POCHA_REDIS_CLUSTER on."""
    config = _load("core.config")
    clustered = config.is_on(config.load_config()["REDIS_CLUSTER"])
    return clustered or bool(_load("core.store.redises").is_cluster_url(redis_url))


#: What redis-py's cluster client says of a Redis that answers but is no cluster's node.
_NOT_A_CLUSTER_NODE = "Cluster mode is not enabled on this node"


def _on_the_store(command: Callable[..., None]) -> Callable[..., None]:
    """Give an operator command the options that say which store it works on (`redis_url`
    reaches it as the address found, `_store_url`), and say a store that does not answer,
    or settings that cannot work, in one line: the address tried and the options that
    choose another."""

    @functools.wraps(command)
    def run(
        *args: Any, redis_url: str | None, data_dir: str, store_timeout: float, **kwargs: Any
    ) -> None:
        import redis
        from redis.exceptions import RedisClusterException, RedisClusterUnreachableError

        click.get_current_context().meta[_STORE_TIMEOUT_META] = store_timeout
        url = _store_url(redis_url, data_dir)
        shown = _without_password(url)
        try:
            command(*args, redis_url=url, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError, RedisClusterUnreachableError) as exc:
            error = exc.__cause__ or exc  # the unreachable cluster's, from its last node
            if _clustered(url):
                raise click.ClickException(cli_language.cluster_unreachable(shown, error)) from None
            raise click.ClickException(cli_language.store_unreachable(shown, exc)) from None
        except RedisClusterException as exc:
            if _NOT_A_CLUSTER_NODE in str(exc):  # a node that answers, but not as a cluster's
                raise click.ClickException(cli_language.not_a_cluster_node(shown)) from None
            raise click.ClickException(cli_language.cluster_refused(shown, exc)) from None
        except _load("core.store.redises").RedisSetupError as exc:
            raise click.ClickException(cli_language.redis_setup_refused(exc.message)) from None

    run = spoken.option(
        "--store-timeout",
        type=click.FloatRange(0, min_open=True),
        default=STORE_TIMEOUT,
        envvar="POCHA_STORE_TIMEOUT",
        show_default=True,
        show_envvar=True,
        metavar=N_("SECONDS"),
        help=N_(
            "Seconds to wait for the store to take the connection, then for each answer, "
            "before saying that it does not answer."
        ),
    )(run)
    run = spoken.option(
        "--data-dir",
        default=_DATA_DIR,
        show_default=True,
        help=N_(
            "The data dir of the pocha serve on this machine whose Redis is the store, when "
            "neither --redis-url nor REDIS_URL names one (nor POCHA_REDIS_CLUSTER)."
        ),
    )(run)
    if any(param.name == "redis_url" for param in getattr(command, "__click_params__", ())):
        return run  # the command says its --redis-url in words of its own
    return spoken.option(
        "--redis-url",
        default=None,
        help=N_(
            "The store (default: REDIS_URL, else the Redis of the pocha serve of --data-dir "
            "when it runs); with POCHA_REDIS_CLUSTER on, a node of the cluster."
        ),
    )(run)


def _without_password(url: str) -> str:
    """`url` as it may be shown: a password in it is not."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


@pocha.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--data-dir",
    default=_DATA_DIR,
    show_default=True,
    help="Where Redis keeps the games (append-only file).",
)
@click.option(
    "--api-processes",
    type=click.IntRange(1, 64),
    default=None,
    help="gunicorn processes serving the API (default: cores + 1).",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="General `pocha worker` processes: bot turns first, then hints and AI moves, "
    "then match games.",
)
@click.option(
    "--turn-workers",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="`pocha worker --queues pocha-turns` processes, reserved for the bot turns of "
    "people's games: however many hints and AI moves are queued, a game's next bot move "
    "has a worker (0: none reserved).",
)
@click.option(
    "--log",
    type=click.Choice(["text", "json"]),
    default=None,
    help="How the API and the workers log: text (warnings and errors, one human line "
    "each) or json (a JSON object a line at POCHA_LOG_LEVEL, for log collectors). "
    "Default: text at a terminal, json when the output goes elsewhere.",
)
def serve(
    host: str,
    port: int,
    data_dir: str,
    api_processes: int | None,
    bot_workers: int,
    turn_workers: int,
    log: str | None,
) -> None:
    """Run the whole service here: a private Redis, the API (gunicorn) and the bots, kept
    running (a part that dies is started again); Ctrl-C or SIGTERM stops it all.

    \b
    The bots run in two roles of `pocha worker`:
      general (--bot-workers)    bot turns, then hints and AI moves, then matches
      reserved (--turn-workers)  bot turns only, so that people's games never wait
                                 behind anyone's hints or AI moves
    """
    tools_serve = _load("tools.serve")
    raise SystemExit(
        tools_serve.serve(host, port, data_dir, api_processes, bot_workers, turn_workers, log)
    )


@pocha.command(
    help=paragraphs(
        N_(
            "Run a bot worker on the store's Redis (REDIS_URL, or that of the pocha serve "
            "here): bot turns, hints, AI moves, matches."
        ),
        verbatim(
            N_(
                "Two roles:\n"
                "  pocha worker                        general: bot turns first (those of games\n"
                "                                      whose bots think long last), then hints\n"
                "                                      and AI moves, then match games; at\n"
                "                                      niceness 19\n"
                "  pocha worker --queues pocha-turns   reserved: bot turns only, never a long\n"
                "                                      decision, so that people's games never\n"
                "                                      wait behind anyone's hints, AI moves or\n"
                "                                      expert bots (pocha serve runs one of each)"
            )
        ),
        N_(
            "Start as many of each as the load needs, on any machine that reaches that Redis. "
            "With several queue Redises, start workers of both roles for each --queue-group."
        ),
    )
)
@spoken.option("--burst", is_flag=True, help=N_("Quit once the queues are empty."))
@spoken.option(
    "--queues",
    default="pocha-turns,pocha-high,pocha-low",
    show_default=True,
    help=N_(
        "Queues to take jobs from, comma-separated, highest priority first: pocha-turns (bot "
        "turns of people's games), pocha-high (hints, AI moves), pocha-low (match games). "
        "`--queues pocha-turns` reserves the worker for bot turns, those of games whose bots "
        "think long (expert and up) excepted: general workers take those."
    ),
)
@spoken.option("--name", default=None, help=N_("The worker's name (default: a random one)."))
@spoken.option(
    "--queue-group",
    type=click.IntRange(0),
    default=None,
    help=N_(
        "With several queue Redises (POCHA_QUEUE_REDIS_URL), the one this worker serves, "
        "from 0 (default: POCHA_QUEUE_GROUP, else 0)."
    ),
)
@_on_the_store
def worker(
    burst: bool, queues: str, name: str | None, queue_group: int | None, redis_url: str
) -> None:
    """Run a bot worker (the help above, in the terminal's language)."""
    core_queues = _load("core.jobs.queues")
    worker_process = _load("worker.process")
    names = [q.strip() for q in queues.split(",") if q.strip()]
    try:
        core_queues.check_queues(names)
    except ValueError as exc:
        raise click.BadParameter(say(exc.args[0]), param_hint="--queues") from exc
    try:
        worker_process.run(
            redis_url, names, burst=burst, name=name, queue_group=queue_group,
            answer_within=_store_timeouts()["socket_timeout"],
        )  # fmt: skip
    except worker_process.QueueUnanswered as exc:
        shown = _without_password(exc.url)
        raise click.ClickException(cli_language.queue_unreachable(shown, exc.error)) from None


@pocha.command()
@click.option(
    "--games",
    "games",
    type=click.IntRange(1),
    multiple=True,
    default=(10_000, 100_000),
    show_default=True,
    help="Concurrent games (repeat).",
)
@spoken.option(
    "--set",
    "settings",
    multiple=True,
    metavar=N_("NAME=VALUE"),
    help="Replace an input of the model (repeat), e.g. queue_us_per_bot_turn=500, "
    "bot_table_share=0.8, think_ms.expert=150, level_mix.hard=0.4.",
)
def capacity(games: tuple[int, ...], settings: tuple[str, ...]) -> None:
    """The capacity model: API cores, worker cores, store shards and queue Redises for a
    number of concurrent games, from measured costs per operation and a mix of games (each
    an input --set replaces), and the first limit."""
    model = _load("tools.capacity")
    try:
        inputs = model.with_settings(model.Inputs(), settings)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from exc
    _echo_lines(model.report(inputs, games))


def _service_url(_context: click.Context, _param: click.Parameter, url: str) -> str:
    """`--url` as the client reads it (a bare host means http), refused in words when it is
    not an http(s) address with a host (and a port of 0 to 65535, if any), before any
    command builds its client on it."""
    try:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        # Read here so that a port out of range or not a number is refused in words too.
        parts.port  # noqa: B018
    except ValueError as exc:  # an unclosed IPv6 bracket, a bad port
        raise click.BadParameter(f"{cli_language.address_refused(url)} ({exc})") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(cli_language.address_refused(url))
    return url


_URL = spoken.option(
    "--url",
    default="http://127.0.0.1:8000",
    envvar="POCHA_URL",
    show_default=True,
    show_envvar=True,
    callback=_service_url,
    help=N_("The Pocha service."),
)


#: `pocha play`'s keys, a table Click prints as written (a paragraph of the help each).
_PLAY_KEYS = N_(
    "On your turn, type:\n"
    "  a bid, or a card's number or code (O1, B12)   to make your move\n"
    "  ?                                             for a hint: a bot's move, and why\n"
    "  q                                             to leave (Ctrl-D and Ctrl-C too);\n"
    "                                                against bots the game stays on the\n"
    "                                                server (--resume plays on), at a\n"
    "                                                table the stand-in plays your seat"
)
_POCH_KEYS = N_(
    "Poch (--game poch, with --chips, --ante, --deals), on your turn:\n"
    "  pass, hold, or an amount (5)                  while betting (p, h for short)\n"
    "  a start card's number or code (C7, HA)        to start the shedding\n"
    "  a suit's letter or name (H, Herz, hearts)     to choose the next suit"
)


@pocha.command(
    help=paragraphs(
        N_(
            "Play in this terminal over the HTTP API (see `pocha serve`): against bots, or at "
            "a table with people (--open N to make one and share its code, --join CODE to sit "
            "at one; `pocha lobby` lists the public ones)."
        ),
        verbatim(_PLAY_KEYS),
        N_(
            "At a waiting table, the host types s to start now (bots in the seats still open). "
            "When your clock runs out the stand-in bot plays that turn; after two, your seat is "
            "away until you press Enter."
        ),
        verbatim(_POCH_KEYS),
    )
)
@_URL
@spoken.option(
    "--game",
    "game_name",
    type=click.Choice(["pocha", "poch"]),
    default="pocha",
    show_default=True,
    help=N_("The game: Pocha, or Poch (the German Pochbrett game). --join finds it by itself."),
)
@spoken.option("--players", type=click.IntRange(3, 8), default=4, show_default=True)
@spoken.option(
    "--level",
    default="medium",
    show_default=True,
    help=N_(
        "The bots' level, or levels in turn (heuristic,hard). Poch's: random, heuristic, "
        "easy, medium, hard."
    ),
)
@spoken.option(
    "--name",
    default=cli_language.default_name,
    show_default=True,
    help=N_("Your name at the table."),
)
@spoken.option(
    "--schedule",
    default=None,
    help=N_(
        "Pocha's hands: classic (the default), pyramid, or card counts such as 1,2,3 (a "
        "short game)."
    ),
)
@spoken.option(
    "--chips",
    type=click.IntRange(1),
    default=None,
    help=N_("Poch: the chips each player starts with (default 50)."),
)
@spoken.option(
    "--ante",
    type=click.IntRange(1),
    default=None,
    help=N_("Poch: the chips each player puts on each of the eight plates a deal (default 1)."),
)
@spoken.option(
    "--deals",
    type=click.IntRange(1),
    default=None,
    help=N_("Poch: the deals in the game (default two per player)."),
)
@spoken.option("--seed", type=int, default=None, help=N_("Seed of the deals."))
@spoken.option(
    "--open",
    "open_seats",
    type=click.IntRange(0, 7),
    default=0,
    show_default=True,
    help=N_(
        "Seats left open for people, who join by the table's code (printed to share); "
        "bots take the rest."
    ),
)
@spoken.option("--listed", is_flag=True, help=N_("With --open: show the table in the lobby."))
@spoken.option(
    "--turn-seconds",
    type=click.IntRange(0, 3600),
    default=None,
    help=N_("Each person's clock for a turn (0: none). Default: 60 with two people or more."),
)
@spoken.option(
    "--stand-in",
    default=None,
    help=N_("The level of the bot that plays for a person whose clock runs out (default medium)."),
)
@spoken.option(
    "--join", "join", metavar=N_("CODE"), default=None, help=N_("Join a table by its code.")
)
@spoken.option(
    "--rated",
    is_flag=True,
    help=N_(
        "A rated table: the result changes the players' ratings (needs `pocha signup`; "
        "the other seats open or bots of distinct levels, no --seed)."
    ),
)
@spoken.option(
    "--resume",
    "resume",
    metavar=N_("GAME"),
    is_flag=False,
    flag_value="",
    default=None,
    help=N_(
        "Play on in a game of your account's not finished (needs `pocha signup`): GAME, or "
        "without it the only one, or one picked from their list."
    ),
)
def play(
    url: str, game_name: str, players: int, level: str, name: str, schedule: str | None,
    chips: int | None, ante: int | None, deals: int | None, seed: int | None,
    open_seats: int, listed: bool, turn_seconds: int | None, stand_in: str | None,
    join: str | None, rated: bool, resume: str | None,
) -> None:  # fmt: skip
    """`pocha play`: a game in this terminal (`client.terminal`), or `--resume` one (its help
    is the one above, translated when it is shown)."""
    terminal = _load("client.terminal")
    # The account `pocha signup` kept for this service sits, under its own name.
    accounts = _load("client.account")
    account = accounts.load_account(url)
    if resume is not None:
        context = click.get_current_context()
        # What makes a new game has no say in one that goes on: refused, not ignored.
        given = [
            option.opts[0]
            for option in context.command.params
            if option.name in _NEW_GAME_OPTIONS
            and context.get_parameter_source(option.name) is ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(cli_language.resume_as_made(given))
        _resume(url, account, resume or None, join)
    if rated and account is None:
        raise click.UsageError(cli_language.rated_needs_account())
    try:
        status = terminal.play(
            url, players, level, account["name"] if account else name, schedule, seed,
            open_seats=open_seats, listed=listed, turn_seconds=turn_seconds,
            stand_in=stand_in, join=join, game_name=game_name,
            poch={"chips": chips, "ante": ante, "deals": deals},
            account_key=account["key"] if account else None, rated=rated,
            # Read again when a seat's token is refused: `pocha new-key` in another
            # terminal may have replaced the key and saved the new one meanwhile.
            saved_key=(lambda: (accounts.load_account(url) or {}).get("key")) if account else None,
            # The terminal speaks the user's locale's language, and asks the service for it.
            language=cli_language.terminal_language(),
        )  # fmt: skip
    except terminal.SavedKeyRefused as exc:
        raise _key_refused_at_play(url, exc) from exc
    raise SystemExit(status)


#: `pocha play`'s options that make a new game (`--resume` plays on in one as it was made).
_NEW_GAME_OPTIONS = frozenset(
    {
        "game_name", "players", "level", "name", "schedule", "chips", "ante", "deals",
        "seed", "open_seats", "listed", "turn_seconds", "stand_in", "rated",
    }
)  # fmt: skip


def _resume(
    url: str, account: Mapping[str, Any] | None, game_id: str | None, join: str | None
) -> NoReturn:
    """`pocha play --resume [GAME]`: play on, as `account` (the one kept for `url`), in one
    of its games not finished (`client.terminal.resume`)."""
    accounts = _load("client.account")
    if account is None:
        raise click.UsageError(cli_language.resume_needs_account())
    if join is not None:
        raise click.UsageError(cli_language.resume_or_join())
    terminal = _load("client.terminal")
    try:
        status = terminal.resume(
            url, account, game_id,
            saved_key=lambda: (accounts.load_account(url) or {}).get("key"),
            # The terminal speaks the user's locale's language, and asks the service for it.
            language=cli_language.terminal_language(),
        )  # fmt: skip
    except terminal.SavedKeyRefused as exc:
        raise _key_refused_at_play(url, exc) from exc
    raise SystemExit(status)


@pocha.command(
    help=N_(
        "Make a person's account on the service and keep its key in this user's config "
        "($XDG_CONFIG_HOME/pocha/account.json, mode 0600): `pocha play` then sits as it."
    )
)
@_URL
@spoken.option("--name", required=True, help=N_("The account's name, unique on the service."))
def signup(url: str, name: str) -> None:
    """`pocha signup`: an account made and its key kept (its help is the one above)."""
    api = _load("client.api")
    accounts = _load("client.account")
    # The service's refusals (a name taken, too long) come in the terminal's language.
    language = cli_language.terminal_language()
    with _asking(url):
        made = api.PochaClient(url, language=language).create_account(name)
    path = accounts.save_account(url, made)
    click.echo(cli_language.account_made(made, path))


@pocha.command(
    "new-key",
    help=N_(
        "Replace the key of the account `pocha signup` kept for this service (a key shown, "
        "copied or stolen): the new one takes its place in the config file, and the old one "
        "opens nothing from then on, here or anywhere it was copied to."
    ),
)
@_URL
def new_key(url: str) -> None:
    """`pocha new-key`: the kept account's key replaced (its help is the one above)."""
    api = _load("client.api")
    accounts = _load("client.account")
    account = accounts.load_account(url)
    if account is None:
        raise click.UsageError(cli_language.no_account_kept(url))
    language = cli_language.terminal_language()
    with _asking(url, saved_key=True):
        replaced = api.PochaClient(
            url, account_key=account["key"], language=language
        ).replace_account_key(account["id"])
    try:
        path = accounts.save_account(url, {**account, "key": replaced["key"]})
    except OSError as exc:
        # The old key is dead already: this is the only place the new one is ever shown.
        click.echo(cli_language.new_key_not_kept(accounts.config_file(), exc), err=True)
        click.echo(replaced["key"])
        raise SystemExit(1) from exc
    click.echo(cli_language.new_key_kept(account, path))


@contextmanager
def _asking(url: str, *, saved_key: bool = False) -> Iterator[None]:
    """A call to the service at `url`, its refusal (and, with `saved_key`, its not knowing
    the key kept for it) or its silence said as a clean CLI error."""
    api = _load("client.api")
    try:
        yield
    except api.ApiError as exc:
        if saved_key and exc.error == "unknown_account":
            raise _saved_key_refused(url) from exc
        raise click.ClickException(str(exc.message or exc)) from exc
    except OSError as exc:
        raise click.ClickException(cli_language.unreachable(url, exc)) from exc


def _key_refused_at_play(url: str, refused: Any) -> click.ClickException:
    """`pocha play`'s saved key refused (`client.terminal.SavedKeyRefused`), said with the
    way back in: in the middle of a game, that game's seat is named."""
    if refused.game_id is None:
        return _saved_key_refused(url)
    path = _load("client.account").config_file()
    return click.ClickException(cli_language.seat_key_refused(url, path, refused.game_id))


def _saved_key_refused(url: str) -> click.ClickException:
    """The service knows no account by the key kept for `url`: said, with the way back in."""
    path = _load("client.account").config_file()
    return click.ClickException(cli_language.saved_key_refused(url, path))


@pocha.command(
    help=N_("List the public tables waiting for players (join one with `pocha play --join CODE`).")
)
@_URL
def lobby(url: str) -> None:
    """`pocha lobby`: the lobby's tables (its help is the one above)."""
    terminal = _load("client.terminal")
    language = cli_language.terminal_language()
    # As the account `pocha signup` kept for this service: its lobby leaves out the tables
    # its blocks (or theirs) would refuse it a seat at.
    account = _load("client.account").load_account(url)
    try:
        status = terminal.lobby(url, language=language, account_key=account and account["key"])
    except terminal.SavedKeyRefused as exc:
        raise _saved_key_refused(url) from exc
    raise SystemExit(status)


@pocha.command(
    "migrate-keys",
    help=N_(
        "Rename the keys an earlier Pocha wrote to this version's names (pocha:game:ID to "
        "pocha:game:{ID}, TTLs and due tasks kept): once, with the API and the workers "
        "stopped, then start them again; a second run finds nothing to do. `pocha serve` does "
        "it by itself on a data dir an earlier version wrote. A Redis Cluster is refused: it "
        "holds this version's names from the start."
    ),
)
@_on_the_store
@spoken.option("--redis-url", default=None, help=N_("The store (default: REDIS_URL)."))
def migrate_keys(redis_url: str) -> None:
    """Rename an earlier Pocha's keys (the help above, in the terminal's language)."""
    if _clustered(redis_url):
        raise click.ClickException(cli_language.no_migration_on_cluster())
    migration = _load("tools.migrate_keys")
    store = _load("core.store.redises").connect_plain(redis_url, **_store_timeouts())
    done = migration.migrate(store)
    click.echo(
        say(
            _(
                "renamed {keys} and {tasks}",
                keys=ngettext("{n} key", "{n} keys", done.keys),
                tasks=ngettext("{n} due task", "{n} due tasks", done.tasks),
            )
        )
    )
    if done.sheets:
        click.echo(
            say(
                ngettext(
                    "took the score sheet of {n} game out of its state",
                    "took the score sheets of {n} games out of their states",
                    done.sheets,
                )
            )
        )


@pocha.group(
    help=N_("The keys of server-side integrators (X-Pocha-Key): limited per key, not per address.")
)
def keys() -> None:
    """The integrators' keys (the help above, in the terminal's language)."""


def _key_store(redis_url: str) -> object:
    """The store at `redis_url` (`_on_the_store`), a cluster as the settings say."""
    redises = _load("core.store.redises")
    return redises.connect_store(redis_url, cluster=_clustered(redis_url), **_store_timeouts())


#: The placeholder of a key's or an account's name, and of an account's id.
_NAME, _ACCOUNT_ID = N_("NAME"), N_("ACCOUNT_ID")


@keys.command(
    "create",
    help=N_(
        "Make a key named NAME and print it: it is shown this once, and only its hash is kept."
    ),
)
@spoken.argument("name", metavar=_NAME)
@spoken.option(
    "--moves",
    default=None,
    metavar=N_("LIMIT"),
    help=N_("Its limit on moves, e.g. '3000/minute' (default: POCHA_RATE_LIMIT_MOVES)."),
)
@spoken.option(
    "--ai",
    default=None,
    metavar=N_("LIMIT"),
    help=N_(
        "Its limit on hints and AI moves together, e.g. '300/minute' (default: "
        "POCHA_RATE_LIMIT_AI)."
    ),
)
@spoken.option(
    "--think",
    type=float,
    default=None,
    metavar=N_("SECONDS"),
    help=N_(
        "Its seconds of bot thinking a minute, hints, AI moves and its games' bots together "
        "(default: POCHA_THINK_BUDGET)."
    ),
)
@_on_the_store
def keys_create(
    name: str, moves: str | None, ai: str | None, think: float | None, redis_url: str
) -> None:
    """Make a key and print it (the help above, in the terminal's language)."""
    api_keys = _load("core.store.api_keys")
    try:
        key, _stored = api_keys.create(_key_store(redis_url), name, moves=moves, ai=ai, think=think)
    except api_keys.KeyRefused as exc:
        raise click.ClickException(say(exc.message)) from exc
    click.echo(
        say(_("key {name}, shown once: send it as X-Pocha-Key from your server", name=repr(name))),
        err=True,
    )
    click.echo(key)


@keys.command("list", help=N_("The keys: name, budgets, when each was made (never the key)."))
@_on_the_store
def keys_list(redis_url: str) -> None:
    """List the keys (the help above, in the terminal's language)."""
    import datetime

    found = _load("core.store.api_keys").listed(_key_store(redis_url))
    if not found:
        click.echo(say(_("no keys")))
        return
    default = say(_("default"))
    heads = [say(_("name")), say(_("moves")), say(_("ai")), say(_("think")), say(_("created"))]
    # A column as wide as its words in this language, at the least.
    widths = [
        max(width, len(head) + 1, len(default) + 1)
        for head, width in zip(heads[:-1], (32, 16, 16, 8), strict=True)
    ]
    click.echo(" ".join([*map(str.ljust, heads, widths), heads[-1]]))
    for key in found:
        made = datetime.datetime.fromtimestamp(key.created, datetime.UTC)
        think = default if key.think is None else format(key.think, "g")
        budgets = [key.name, key.moves or default, key.ai or default, think]
        click.echo(" ".join([*map(str.ljust, budgets, widths), f"{made:%Y-%m-%d %H:%M:%S}Z"]))


@keys.command(
    "revoke",
    help=N_(
        "Revoke the key named NAME: within seconds its requests are refused (401 unknown_key)."
    ),
)
@spoken.argument("name", metavar=_NAME)
@_on_the_store
def keys_revoke(name: str, redis_url: str) -> None:
    """Revoke a key (the help above, in the terminal's language)."""
    if not _load("core.store.api_keys").revoke(_key_store(redis_url), name):
        raise click.ClickException(say(_("there is no key named {name}", name=repr(name))))
    click.echo(say(_("revoked {name}", name=repr(name))))


@pocha.group(
    help=N_(
        "Accounts of people and bots (X-Pocha-Account): list, count, disable, keep, rename, "
        "rotate-key, sweep."
    )
)
def accounts() -> None:
    """The accounts (the help above, in the terminal's language)."""


def _no_account(account_id: str) -> click.ClickException:
    """The refusal of an account id the store does not know."""
    return click.ClickException(say(_("there is no account {id}", id=repr(account_id))))


@accounts.command(
    "list",
    help=N_("The accounts, oldest first: id, kind, name, when made and last seen (never a key)."),
)
@spoken.option("--start", type=int, default=0, help=N_("The first to show, 0-based, oldest first."))
@spoken.option("--count", type=int, default=100, help=N_("How many to show."))
@_on_the_store
def accounts_list(start: int, count: int, redis_url: str) -> None:
    """List the accounts (the help above, in the terminal's language)."""
    import datetime

    found = _load("core.store.accounts").listed(_key_store(redis_url), start, count)
    if not found:
        click.echo(say(_("no accounts")))
        return
    disabled, active, kept = say(_("disabled")), say(_("active")), say(_("kept"))
    heads = ["id", say(_("kind")), say(_("state")), say(_("last seen")), say(_("name"))]
    # A column as wide as its words in this language, at the least.
    widths = [
        max(width, len(head) + 1) for head, width in zip(heads[:-1], (24, 7, 9, 21), strict=True)
    ]
    widths[2] = max(widths[2], len(disabled) + 1, len(active) + 1, len(kept) + 1)
    click.echo(" ".join([*map(str.ljust, heads, widths), heads[-1]]))
    for account in found:
        seen = f"{datetime.datetime.fromtimestamp(account.seen, datetime.UTC):%Y-%m-%d %H:%M:%S}Z"
        state = disabled if account.disabled else kept if account.kept else active
        shown = [account.id, account.kind, state, seen]
        click.echo(" ".join([*map(str.ljust, shown, widths), account.name]))


@accounts.command(
    "disable",
    help=N_(
        "Disable the account ACCOUNT_ID: its key seats it no more (403 account_disabled), and "
        "each seat it holds in a game not finished leaves, as its person leaving would: the "
        "stand-in plays it to the end (a table still waiting opens it again). Enabling it "
        "again gives no seat back."
    ),
)
@spoken.argument("account_id", metavar=_ACCOUNT_ID)
@spoken.option("--enable", is_flag=True, help=N_("Enable it again instead."))
@_on_the_store
def accounts_disable(account_id: str, enable: bool, redis_url: str) -> None:
    """Disable or enable an account (the help above, in the terminal's language)."""
    if enable:
        if not _load("core.store.accounts").set_disabled(_key_store(redis_url), account_id, False):
            raise _no_account(account_id)
        click.echo(say(_("enabled {id}", id=repr(account_id))))
        return
    left = _table_service(redis_url).disable(account_id)
    if left is None:
        raise _no_account(account_id)
    click.echo(
        say(
            ngettext(
                "disabled {id}; {n} of its seats left to the stand-in",
                "disabled {id}; {n} of its seats left to the stand-in",
                left,
                id=repr(account_id),
            )
        )
    )


def _account_lifetime() -> Any:
    """How long accounts not in use last and how many the store holds, as the service and
    its workers read them (`core.store.accounts.Lifetime`)."""
    settings = _load("core.config").load_config()
    return _load("core.store.accounts").Lifetime.from_settings(settings)


@accounts.command(
    "count",
    help=N_(
        "How many accounts the store holds, the most it may (POCHA_MAX_ACCOUNTS: past it, "
        "sign-up is refused with 503 accounts_full), and after how many days unused an "
        "account with no rating is forgotten (POCHA_ACCOUNT_IDLE_DAYS)."
    ),
)
@_on_the_store
def accounts_count(redis_url: str) -> None:
    """Count the accounts (the help above, in the terminal's language)."""
    lifetime = _account_lifetime()
    held = _load("core.store.accounts").count(_key_store(redis_url))
    if lifetime.most > 0:
        click.echo(
            say(
                ngettext(
                    "{n} account of at most {most}",
                    "{n} accounts of at most {most}",
                    held,
                    most=lifetime.most,
                )
            )
        )
    else:
        click.echo(say(ngettext("{n} account, with no cap", "{n} accounts, with no cap", held)))
    if lifetime.idle_days > 0:
        click.echo(
            say(
                ngettext(
                    "accounts with no rating are forgotten after {n} day unused",
                    "accounts with no rating are forgotten after {n} days unused",
                    lifetime.idle_days,
                )
            )
        )
    else:
        click.echo(say(_("accounts not in use are never forgotten")))


@accounts.command(
    "sweep",
    help=N_(
        "Forget now every account not in use, which the workers do 200 accounts a minute: no "
        "rating in any game, not disabled, not kept, not one of our levels, and neither its "
        "key used nor a seat given it for POCHA_ACCOUNT_IDLE_DAYS. Its name is free again."
    ),
)
@spoken.option(
    "--dry-run", is_flag=True, help=N_("Count the accounts it would forget, forgetting none.")
)
@_on_the_store
def accounts_sweep(dry_run: bool, redis_url: str) -> None:
    """Forget the accounts not in use (the help above, in the terminal's language)."""
    import time

    store = _load("core.store.accounts")
    connection = _key_store(redis_url)
    idle_seconds = _account_lifetime().idle_seconds
    if idle_seconds <= 0:
        click.echo(say(_("accounts not in use are never forgotten")))
        return
    # Step by step from the first account made, as the workers go: each step bounded.
    now, start, forgotten = time.time(), 0, 0
    while True:
        step = store.forget_idle(connection, idle_seconds, now, start, dry_run=dry_run)
        forgotten += len(step.forgotten)
        if step.next_start == 0:
            break
        start = step.next_start
    if not dry_run:
        # And out of the records still kept that name them, as the workers' sweep does.
        scrub = _load("core.jobs.forgotten").scrub_forgotten
        waiting = _load("core.store.keys").FORGOTTEN
        while connection.exists(waiting):  # type: ignore[attr-defined]
            scrub(connection)  # each step takes some
    if dry_run:
        click.echo(say(ngettext("{n} account not in use", "{n} accounts not in use", forgotten)))
    else:
        click.echo(
            say(
                ngettext(
                    "forgot {n} account not in use", "forgot {n} accounts not in use", forgotten
                )
            )
        )


@accounts.command(
    "keep",
    help=N_(
        "Keep the account ACCOUNT_ID however long it goes unused: the idle sweep never "
        "forgets it (accounts with a rating, and our levels', are kept anyway)."
    ),
)
@spoken.argument("account_id", metavar=_ACCOUNT_ID)
@spoken.option("--release", is_flag=True, help=N_("Let the idle sweep forget it again."))
@_on_the_store
def accounts_keep(account_id: str, release: bool, redis_url: str) -> None:
    """Keep an account from the idle sweep (the help above, in the terminal's language)."""
    store = _load("core.store.accounts")
    if not store.set_kept(_key_store(redis_url), account_id, not release):
        raise _no_account(account_id)
    if release:
        click.echo(say(_("released {id}: forgotten if unused", id=repr(account_id))))
    else:
        click.echo(say(_("kept {id}", id=repr(account_id))))


def _table_service(redis_url: str) -> Any:
    """The tables of the store at `redis_url` (`_on_the_store`), their bot turns handed to
    the workers as the service hands them."""
    config = {**_load("core.config").load_config(), "REDIS_URL": redis_url}
    redises = _load("core.store.redises").connect(config, **_store_timeouts())
    store = _load("core.store.store").GameStore.from_settings(redises.store, config)
    runner = _load("core.play.turns").RQBotRunner(redises)
    return _load("core.play.tables").TableService(store, runner)


@accounts.command(
    "rotate-key",
    help=N_(
        "Give the account ACCOUNT_ID a new key, printed once, for an owner whose key was lost "
        "or stolen: the key before opens nothing from now on, nor do the seat tokens handed "
        "out under it in the account's games not finished (the new key opens those seats), "
        "and the account's event stream opened with it ends. A bot's webhook is removed with "
        "it (the thief may have pointed it at their own server): its owner registers it "
        "again with the new key. Its seats and ratings stay the account's."
    ),
)
@spoken.argument("account_id", metavar=_ACCOUNT_ID)
@_on_the_store
def accounts_rotate_key(account_id: str, redis_url: str) -> None:
    """Give an account a new key (the help above, in the terminal's language)."""
    made = _table_service(redis_url).replace_key(account_id)
    if made is None:
        raise click.ClickException(
            say(
                _(
                    "there is no account {id} with a key (a bot level's has none)",
                    id=repr(account_id),
                )
            )
        )
    click.echo(made.key)
    if made.webhook_removed:
        # On stderr: stdout is the key alone, for whoever reads it in a script.
        click.echo(
            say(
                _(
                    "removed the webhook of {id}: its owner registers it again with the new key",
                    id=repr(account_id),
                )
            ),
            err=True,
        )


@accounts.command(
    "rename",
    help=N_("Give the account ACCOUNT_ID the name NAME (refused if it imitates another's)."),
)
@spoken.argument("account_id", metavar=_ACCOUNT_ID)
@spoken.argument("name", metavar=_NAME)
@_on_the_store
def accounts_rename(account_id: str, name: str, redis_url: str) -> None:
    """Rename an account (the help above, in the terminal's language)."""
    import marshmallow

    field = _load("service.api.games_schemas").PlayerName(longest=32)
    store = _load("core.store.accounts")
    try:
        shown = field.deserialize(name)
        renamed = store.rename(_key_store(redis_url), account_id, shown)
    except marshmallow.ValidationError as exc:
        why = cli_language.field_refusals(exc.messages)
        raise click.ClickException(say(_("not a name: {why}", why=why))) from exc
    except _load("core.errors").NameTaken as exc:
        raise click.ClickException(
            say(_("the name {name} is taken, or looks like one that is", name=repr(name)))
        ) from exc
    if not renamed:
        raise _no_account(account_id)
    click.echo(say(_("renamed {id} to {name}", id=repr(account_id), name=repr(shown))))


#: The placeholder of a game record's file (`pocha replay`, `pocha analyse`).
_RECORD_FILE = N_("FILE")


@pocha.command()
@spoken.argument(
    "file", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar=_RECORD_FILE
)
@spoken.option(
    "--game",
    type=click.IntRange(0),
    default=None,
    metavar=N_("GAME"),
    help=N_(
        "In a file of a match's records (GET /api/v1/matches/{id}/records), the game to "
        "tell: its number in the match; in an arena's (pocha arena --records), the line "
        "it is on, or its item (from 1) where the records are a JSON array."
    ),
)
def replay(file: Path, game: int | None) -> None:
    """Tell a game record (GET /api/v1/games/{id}/record) deal by deal: the hands as
    dealt, every bid, bet and card in order, each trick's winner, and the scores."""
    records = _load("cli.replay")
    try:
        told = records.lines(records.read(file, game))
    except records.NotARecord as exc:
        raise click.ClickException(_said(exc)) from None
    _echo_lines(told)


def _said(refused: Exception) -> str:
    """A refusal's message in the terminal's language, where it is a sentence of the
    catalogue (`engine.i18n.Message`); as it is otherwise."""
    message = refused.args[0] if refused.args else ""
    return say(message) if isinstance(message, Message) else str(message)


@pocha.command()
@spoken.argument(
    "file", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar=_RECORD_FILE
)
@click.option(
    "--level",
    default="hard",
    show_default=True,
    help="The level that weighs each decision (one of the record's game's).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Draws the level's seed for each decision: the same seed, the same analysis.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the analysis as one JSON document instead of lines.",
)
def analyse(file: Path, level: str, seed: int, as_json: bool) -> None:
    """Weigh a game record's decisions (GET /api/v1/games/{id}/record): each one played
    again from its hands, beside what the level of --level would have done from that seat's
    view, with the search's mean score for both, then how often each seat agreed."""
    records = _load("cli.replay")
    analysis = _load("ai.analysis")
    try:
        record = records.load(file)
        weighed = analysis.analyse(record, level, seed)
    except records.NotARecord as exc:
        raise click.ClickException(_said(exc)) from None
    except _load("engine.errors").InvalidStateError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    except KeyError:
        raise click.ClickException(f"{record['game']} has no level {level!r}") from None
    summary = analysis.by_seat(weighed, len(record["players"]))
    if as_json:
        click.echo(json.dumps({
            "game": record["game"], "id": record.get("id"), "level": level, "seed": seed,
            "decisions": [w.to_dict() for w in weighed], "seats": summary,
        }, indent=2))  # fmt: skip
        return
    _echo_lines(_load("cli.analyse").lines(record, level, weighed, summary))


@pocha.command()
def openapi() -> None:
    """Print the API's OpenAPI document (the one the service serves at /api/openapi.json)."""
    service_openapi = _load("service.openapi")
    click.echo(service_openapi.render(), nl=False)


def _register_ai_commands() -> None:
    from cli.ai_commands import (
        arena,
        arena_openspiel,
        arena_poch,
        bench_decisions,
        bench_ismcts,
        calibrate,
        train,
        train_location,
        train_reading,
        train_student,
        yardstick,
    )

    pocha.add_command(arena)
    pocha.add_command(arena_poch)
    pocha.add_command(arena_openspiel)
    pocha.add_command(calibrate)
    pocha.add_command(train)
    pocha.add_command(train_reading)
    pocha.add_command(train_student)
    pocha.add_command(train_location)
    pocha.add_command(yardstick)
    bench.add_command(bench_ismcts)
    bench.add_command(bench_decisions)


_register_ai_commands()


def main() -> None:
    """Console-script entry point (`pocha = "cli.main:main"`)."""
    pocha(prog_name="pocha")


if __name__ == "__main__":
    main()
