"""`pocha capacity`: the capacity model of docs/capacity.md, computed from its inputs.
How it works: docs/capacity.md, `tools.capacity`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from core.jobs.tasks import RESULT_TTL
from engine.pocha.rules import Rules


def turns_per_game(players: int, schedule: str = "classic") -> int:
    """Bids and cards of one whole game: every seat bids once a hand and plays every card
    it is dealt."""
    sizes = Rules(players=players, schedule=schedule).hand_sizes
    return players * (len(sizes) + sum(sizes))


@dataclass(frozen=True)
class Inputs:
    """What the model starts from: costs (us of CPU, bytes) and the mix of games."""

    # Measured (docs/capacity.md names the command of each). A bot turn's costs are those
    # of a heuristic bot's turn, which thinks for next to nothing, in long runs of turns;
    # each job (one a person's move hands the bots) adds its own cost, shared by the
    # `bot_turns_per_job` it plays; the level's thinking (`think_ms`) is added to the
    # worker's.
    api_us_per_move: float = 725.0
    store_us_per_move: float = 80.0
    store_us_per_bot_turn: float = 112.0
    queue_us_per_bot_turn: float = 6.3
    worker_us_per_bot_turn: float = 417.0
    queue_us_per_job: float = 372.0
    worker_us_per_job: float = 1_672.0
    queue_bytes_per_job: float = 6_800.0
    think_ms: Mapping[str, float] = field(
        default_factory=lambda: {
            "heuristic": 0.0, "easy": 0.1, "medium": 0.1, "hard": 0.2, "expert": 2.7,
        }
    )  # fmt: skip
    # Guessed: the mix of games and how people play.
    players: int = 4
    bot_table_share: float = 0.5
    people_at_bot_table: int = 1
    person_seconds_per_move: float = 6.0
    #: The bot turns one job plays: at a table of a person and bots, the bots between two of
    #: the person's moves.
    bot_turns_per_job: float = 3.0
    bot_seconds_per_turn: float = 0.05
    api_us_per_event: float = 200.0
    level_mix: Mapping[str, float] = field(
        default_factory=lambda: {
            "heuristic": 0.1, "easy": 0.3, "medium": 0.3, "hard": 0.2, "expert": 0.1,
        }
    )  # fmt: skip
    # Targets: the share of a core each part is planned to use.
    core_target: float = 0.7
    redis_target: float = 0.5

    def mean_think_ms(self) -> float:
        """Thinking per bot decision over the level mix."""
        total = sum(self.level_mix.values())
        return sum(share * self.think_ms[level] for level, share in self.level_mix.items()) / total


@dataclass(frozen=True)
class Table:
    """One kind of table: its seats and what a minute of it asks."""

    people: int
    bots: int
    moves_per_minute: float
    person_moves_per_minute: float
    bot_turns_per_minute: float
    #: Moves times the people who watch them (each gets the event on their stream).
    events_per_minute: float


def table(inputs: Inputs, people: int) -> Table:
    """A table of `inputs.players` seats, `people` of them people, the rest bots: it moves
    as fast as its people think and its bots answer."""
    bots = inputs.players - people
    seconds_per_round = people * inputs.person_seconds_per_move + bots * inputs.bot_seconds_per_turn
    moves = inputs.players * 60 / seconds_per_round
    return Table(
        people=people,
        bots=bots,
        moves_per_minute=moves,
        person_moves_per_minute=moves * people / inputs.players,
        bot_turns_per_minute=moves * bots / inputs.players,
        events_per_minute=moves * people,
    )


@dataclass(frozen=True)
class Load:
    """What `games` concurrent games ask a second, and what carries it."""

    games: int
    person_moves: float
    bot_turns: float
    events: float
    # CPU seconds a second (cores at 100%).
    api_cpu: float
    worker_cpu: float
    store_cpu: float
    queue_cpu: float
    queue_memory: float
    # What to run, at the targets.
    api_cores: int
    worker_cores: int
    store_shards: int
    queue_redises: int


def load(inputs: Inputs, games: int) -> Load:
    """The load of `games` concurrent games of the mix, and the parts it takes."""
    people_table = table(inputs, inputs.players)
    bot_table = table(inputs, inputs.people_at_bot_table)
    share = inputs.bot_table_share

    def per_second(attribute: str) -> float:
        people: float = getattr(people_table, attribute)
        bots: float = getattr(bot_table, attribute)
        return games * ((1 - share) * people + share * bots) / 60

    person_moves = per_second("person_moves_per_minute")
    bot_turns = per_second("bot_turns_per_minute")
    events = per_second("events_per_minute")
    api_cpu = (person_moves * inputs.api_us_per_move + events * inputs.api_us_per_event) / 1e6
    jobs = bot_turns / inputs.bot_turns_per_job
    worker_cpu = (
        bot_turns * (inputs.worker_us_per_bot_turn + inputs.mean_think_ms() * 1000)
        + jobs * inputs.worker_us_per_job
    ) / 1e6
    store_cpu = (
        person_moves * inputs.store_us_per_move + bot_turns * inputs.store_us_per_bot_turn
    ) / 1e6
    queue_cpu = (bot_turns * inputs.queue_us_per_bot_turn + jobs * inputs.queue_us_per_job) / 1e6
    return Load(
        games=games,
        person_moves=person_moves,
        bot_turns=bot_turns,
        events=events,
        api_cpu=api_cpu,
        worker_cpu=worker_cpu,
        store_cpu=store_cpu,
        queue_cpu=queue_cpu,
        queue_memory=jobs * RESULT_TTL * inputs.queue_bytes_per_job,
        api_cores=math.ceil(api_cpu / inputs.core_target),
        worker_cores=math.ceil(worker_cpu / inputs.core_target),
        store_shards=max(1, math.ceil(store_cpu / inputs.redis_target)),
        queue_redises=max(1, math.ceil(queue_cpu / inputs.redis_target)),
    )


def games_per_unit(inputs: Inputs) -> dict[str, float]:
    """How many concurrent games one API core, worker core, store shard and queue Redis
    carry at their targets: the smaller of one queue Redis's and one store Redis's is the
    first limit a deployment meets as it grows (past them: queue groups, a cluster)."""
    one = load(inputs, 1)

    def per(cpu: float, target: float) -> float:
        return target / cpu if cpu else math.inf

    return {
        "API core": per(one.api_cpu, inputs.core_target),
        "worker core": per(one.worker_cpu, inputs.core_target),
        "store shard": per(one.store_cpu, inputs.redis_target),
        "queue Redis": per(one.queue_cpu, inputs.redis_target),
    }


def with_settings(inputs: Inputs, settings: Iterable[str]) -> Inputs:
    """`inputs` with `name=value` replaced (`think_ms.hard=6`, `level_mix.expert=0.2`)."""
    known = {f.name for f in fields(inputs)}
    changes: dict[str, Any] = {}
    for setting in settings:
        name, sep, raw = setting.partition("=")
        name = name.strip()
        if not sep:
            raise ValueError(f"{setting!r} is not name=value")
        value = float(raw)
        top, dot, key = name.partition(".")
        if top not in known:
            raise ValueError(f"unknown input {top!r}; the inputs are {', '.join(sorted(known))}")
        if dot:
            if top not in ("think_ms", "level_mix"):
                raise ValueError(f"{top} is not a table of levels")
            mapping = dict(changes.get(top, getattr(inputs, top)))
            mapping[key] = value
            changes[top] = mapping
        elif top in ("think_ms", "level_mix"):
            raise ValueError(f"set {top} level by level, e.g. {top}.hard=...")
        else:
            changes[top] = int(value) if top in ("players", "people_at_bot_table") else value
    return replace(inputs, **changes)


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:,.2f}"


def report(inputs: Inputs, games: Sequence[int]) -> list[str]:
    """The model's table for each count of concurrent games, then the first limit."""
    people_table = table(inputs, inputs.players)
    bot_table = table(inputs, inputs.people_at_bot_table)
    lines = [
        f"tables of {inputs.players}: people's {_number(people_table.moves_per_minute)} "
        f"moves/min (all people's); {inputs.people_at_bot_table} person + bots "
        f"{_number(bot_table.moves_per_minute)} moves/min "
        f"({_number(bot_table.bot_turns_per_minute)} bot turns); bot tables "
        f"{inputs.bot_table_share:.0%} of games; {turns_per_game(inputs.players)} turns a "
        f"classic game; mean think {inputs.mean_think_ms():.1f} ms over the level mix",
        f"{'games':>9} {'moves/s':>9} {'bot turns/s':>12} {'API cores':>10} "
        f"{'worker cores':>13} {'store shards':>13} {'queue Redises':>14} {'queue memory':>13}",
    ]
    for count in games:
        x = load(inputs, count)
        lines.append(
            f"{count:>9,} {x.person_moves:>9,.0f} {x.bot_turns:>12,.0f} {x.api_cores:>10} "
            f"{x.worker_cores:>13} {x.store_shards:>13} {x.queue_redises:>14} "
            f"{x.queue_memory / 1e9:>10.1f} GB"
        )
    units = games_per_unit(inputs)
    lines.append(
        "games one of each carries at its target ("
        f"cores {inputs.core_target:.0%}, Redis {inputs.redis_target:.0%} of a core): "
        + ", ".join(f"{name} {_number(value)}" for name, value in units.items())
    )
    queue = (
        f"one queue Redis, at {_number(units['queue Redis'])} concurrent games (past it, "
        "more queue groups in POCHA_QUEUE_REDIS_URL)"
    )
    store = (
        f"one store Redis, at {_number(units['store shard'])} concurrent games (past it, "
        "a Redis Cluster)"
    )
    first, then = (queue, store) if units["queue Redis"] <= units["store shard"] else (store, queue)
    lines.append(f"first limit: {first}; then {then}")
    return lines
