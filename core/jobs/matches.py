"""Bot-vs-bot matches: many games between the same bots, played by the workers in slices of
`Timing.match_slice` seconds on the low queue (each saved as a checkpoint and continued at
the queue's front, so people's turns wait at most a slice), with the arena's statistics. The
deals, seatings, bots, decision seeds, records and summary are the game's arena's, reached
through its `ai.kind.BotKind`; a slice played twice changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import redis
from rq import get_current_job

from ai.arena import ArenaGame
from ai.bot import Budget, Player
from ai.registry import BOT_KINDS, BotKind
from core.errors import GameNotFound
from core.jobs.queues import (
    LOW,
    MATCH_LANES,
    MAX_ITERATIONS,
    MAX_MILLISECONDS,
    Timing,
    job_timeout,
    thinking_seconds,
)
from core.jobs.tasks import (
    Task,
    finish,
    give_up_by,
    job_name,
    owed_task_of,
    resubmit,
    resubmit_at,
    submit,
    submit_new,
    text,
)
from core.play.games import view_of
from core.play.tables import TableService, bot_name
from core.play.turns import RQBotRunner, store_for
from core.play.webhooks import Settings
from core.play.webhooks import ask as ask_webhook
from core.store import account_records, ratings, webhooks
from core.store.accounts import Account, level_account, note_played
from core.store.accounts import get as get_account
from core.store.bot_games import note_game
from core.store.keys import (
    checkpoint_key,
    ended_key,
    game_key,
    match_key,
    new_id,
    records_key,
    table_making_key,
    task_key,
)
from core.store.records import Seat, Table
from core.store.redises import Connections, redises_of, store_for_jobs
from engine.errors import InvalidRulesError
from engine.i18n import _
from engine.registry import DEFAULT_GAME

log = logging.getLogger(__name__)

#: A seat of a match held by an outside bot's account (its webhook is asked each decision).
ACCOUNT_SEAT = "account:"
MAX_GAMES = 1000
#: Asks an outside bot for its decision: (game, seat, account) -> the action, or None and why.
Asker = Callable[[Any, int, str], tuple[int | None, str | None]]
#: What a match may cost at most, in estimated CPU hours of thinking (POCHA_MATCH_MAX_CPU_HOURS).
MAX_CPU_HOURS = 24
#: A match and its records are kept this long after its last game ended.
MATCH_TTL = 7 * 24 * 3600
#: A match that seats an account moving over its event stream plays its games at tables,
#: this many at a time: the account follows a few games, not a thousand at once.
AT_TABLES_AT_ONCE = 4
#: How often such a match looks at a game of its in play (seconds).
TABLE_LOOK_SECONDS = 1.0
#: An account's turn at such a table is timed: this long unless the rules say (seconds).
TABLE_TURN_SECONDS = 10


class MatchRefused(ValueError):
    """A match that cannot be played as asked; the message says why, `field` where."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def game_task_key(match_id: str, index: int) -> str:
    """The task of one game of a match: in the match's hash slot (`{match_id}`)."""
    return f"match:{{{match_id}}}:{index}"


def is_match_id(match_id: str) -> bool:
    # ASCII only: str.isalnum() also accepts letters such as "Ç", which RQ refuses in ids.
    return 0 < len(match_id) <= 64 and all(
        ch.isascii() and (ch.isalnum() or ch in "-_") for ch in match_id
    )


# -- the spec -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSpec:
    """What a match plays: stored as JSON beside it (a spec stored before Poch has no
    `game`: Pocha)."""

    seats: tuple[str, ...]
    games: int
    rules: Any  # the game's rules (its `GameKind.rules_from_dict`)
    seed: int
    duplicate: bool
    game: str = DEFAULT_GAME
    #: Each finished game changes its account's rating (`core.store.ratings`); our levels'
    #: accounts keep theirs (a bot's thousands of games would drag them), so a level may
    #: sit in several seats.
    rated: bool = False
    #: Its games are played at tables, as any game (`play_at_table`): an account seated
    #: moves over its event stream with its key, on a clock.
    at_tables: bool = False
    #: The lane of `pocha-low` its games queue in: its starter's (`match_lane_of`). Stored,
    #: never shown.
    lane: str = LOW

    @property
    def kind(self) -> BotKind:
        return BOT_KINDS[self.game]

    @property
    def lineup(self) -> list[Player]:
        """The seats' players; an account's seat is labelled with it and thinks as the
        stand-in (the game's fallback level), which decides whenever its webhook does not."""
        return [seat_player(self.kind, s) for s in self.seats]

    @property
    def accounts(self) -> list[str]:
        """The accounts of outside bots seated, in seat order."""
        return [s.removeprefix(ACCOUNT_SEAT) for s in self.seats if is_account_seat(s)]

    @property
    def deals(self) -> int:
        # Counted over the players its games seat (`tasks`), not the seats' texts: " hard"
        # is the player "hard".
        return self.games // self.kind.seatings(self.lineup) if self.duplicate else self.games

    @property
    def rotations(self) -> int:
        """The games of each deal: its distinct rotations with duplicate deals, else 1."""
        return self.games // self.deals

    @property
    def one_rotation_at_a_time(self) -> bool:
        """Whether a deal's rotations are played one after another. An account's bot
        sits in each seat of a duplicate deal in turn: played at once, it would see several
        hands of one deal. One after another, it has seen every card of the deal before its
        second rotation, so only the first it plays is rated (`is_rated_game`)."""
        return bool(self.accounts) and self.rotations > 1

    def first_game_of(self, deal: int) -> int:
        """The game a deal starts with: with rotations one at a time, deal d starts at
        rotation d mod n, so that the rated first plays go round the seats."""
        n = self.rotations
        return deal * n + (deal % n if self.one_rotation_at_a_time else 0)

    def first_games(self) -> list[int]:
        """The games queued when the match is made; each other starts when one ends
        (`next_game`)."""
        if self.at_tables:
            return [self.first_game_of(d) for d in range(min(self.deals, AT_TABLES_AT_ONCE))]
        if self.one_rotation_at_a_time:
            return [self.first_game_of(d) for d in range(self.deals)]
        return list(range(self.games))

    def next_game(self, index: int) -> int | None:
        """The game that starts when game `index` ends: the deal's next rotation, or at
        tables the first game of the deal `AT_TABLES_AT_ONCE` further; None for none."""
        n = self.rotations
        deal, rotation = divmod(index, n)
        if self.one_rotation_at_a_time and (rotation + 1) % n != deal % n:
            return deal * n + (rotation + 1) % n
        if self.at_tables and deal + AT_TABLES_AT_ONCE < self.deals:
            return self.first_game_of(deal + AT_TABLES_AT_ONCE)
        return None

    def tasks(self) -> list[ArenaGame]:
        """Every game of the match, as the arena lists them (`ai.arena.tasks_for`). A rated
        match's deal seeds are its arena seeds hashed with the match's seed: the arena draws
        them in turn from one Mersenne Twister, whose next outputs a few hundred of its
        earlier ones give away, and a rated match's records show each finished game's seed
        to its bot while the rest are still to be played."""
        found = self.kind.tasks_for(self.rules, self.lineup, self.deals, self.seed, self.duplicate)
        return [self._keyed(task) for task in found]

    def task(self, index: int) -> ArenaGame:
        """Game `index` of the match, `tasks()[index]` made alone: a slice plays one game,
        and a match of a thousand would make every one of them (a rated match hashing each
        seed) each slice. IndexError for an index that is no game of the match."""
        found = self.kind.task_for(
            self.rules, self.lineup, self.deals, self.seed, self.duplicate, index
        )
        return self._keyed(found)

    def _keyed(self, task: ArenaGame) -> ArenaGame:
        """The arena's game with its deal seed as the match plays it (`tasks`)."""
        if not self.rated:
            return task
        return replace(task, seed=keyed_seed(self.seed, task.seed))

    def is_rated_game(self, index: int) -> bool:
        """Whether game `index` moves ratings: in a rated match, each deal's first play
        only when its rotations follow one another (the later ones are played knowing the
        deal)."""
        if not self.rated:
            return False
        return not self.one_rotation_at_a_time or index == self.first_game_of(
            index // self.rotations
        )

    def deal_ended(self, index: int, ended: set[int]) -> bool:
        """Whether every game of game `index`'s deal has ended."""
        start = index - index % self.rotations
        return all(i in ended for i in range(start, start + self.rotations))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": list(self.seats),
            "games": self.games,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "duplicate": self.duplicate,
            "rated": self.rated,
            "at_tables": self.at_tables,
        }

    def stored(self) -> dict[str, Any]:
        """What is kept of it: `to_dict`, which the match's report shows, and its lane."""
        return {**self.to_dict(), "lane": self.lane}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchSpec:
        game = data.get("game", DEFAULT_GAME)
        return cls(
            seats=tuple(data["seats"]),
            games=data["games"],
            rules=BOT_KINDS[game].game.rules_from_dict(data["rules"]),
            seed=data["seed"],
            duplicate=data["duplicate"],
            game=game,
            rated=data.get("rated", False),
            at_tables=data.get("at_tables", False),
            lane=data["lane"] if data.get("lane") in MATCH_LANES else LOW,
        )


def keyed_seed(key: int, seed: int) -> int:
    """`seed` hashed with `key` (SHA-256), a seed of the arena's size (53 bits): equal
    seeds stay equal, and without `key` one tells nothing of another."""
    digest = hashlib.sha256(f"{key}:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 11


def is_account_seat(seat: str) -> bool:
    return seat.startswith(ACCOUNT_SEAT)


def seat_player(kind: BotKind, seat: str) -> Player:
    """A seat's text as its player: an account's seat (`account:ID`) plays as the stand-in
    where its webhook does not answer, under its own label."""
    if is_account_seat(seat):
        stand_in = kind.parse_player(kind.fallback_level)
        return Player(seat, stand_in.bot, stand_in.budget)
    return kind.parse_player(seat)


def effective_budget(kind: BotKind, player: Player) -> Budget:
    """The budget a seat really thinks with (a search without one uses its default)."""
    budget = player.budget
    if budget.iterations is None and budget.milliseconds is None and kind.searches(player.bot):
        return Budget(iterations=kind.default_iterations)
    return budget


def estimated_cpu_seconds(spec: MatchSpec) -> float:
    """About how long the whole match thinks, on a typical machine."""
    kind = spec.kind
    per_decision = []
    for player in spec.lineup:
        budget = effective_budget(kind, player)
        limits = []
        if budget.milliseconds is not None:
            limits.append(budget.milliseconds / 1000)
        if budget.iterations is not None:
            limits.append(budget.iterations / kind.iterations_per_second)
        per_decision.append(min(limits) if limits else kind.rule_based_seconds(player.bot))
    mean = sum(per_decision) / len(per_decision)
    return spec.games * kind.game.decisions_per_game(spec.rules) * mean


def check_match(
    seats: Sequence[str],
    games: int,
    rules: dict[str, Any] | None,
    seed: int | None,
    duplicate: bool,
    *,
    game: str = DEFAULT_GAME,
    max_games: int = MAX_GAMES,
    max_cpu_hours: float = MAX_CPU_HOURS,
    rated: bool = False,
) -> MatchSpec:
    """The match of `game` asked for, or `MatchRefused` saying what is wrong with it. A
    `rated` one seats accounts and the game's levels by name only: they have ratings."""
    kind = BOT_KINDS.get(game)
    if kind is None:
        raise MatchRefused(
            _(
                "unknown game {game}: the games are {games}",
                game=repr(game),
                games=", ".join(BOT_KINDS),
            ),
            "game",
        )
    if rated and seed is not None:
        # The seed makes every deal of the match: whoever chose it knows every hand.
        raise MatchRefused(_("a rated match's deals are never chosen: leave out the seed"), "seed")
    options = dict(rules or {})
    if options.get("players", len(seats)) != len(seats):
        raise MatchRefused(
            _(
                "rules.players is {value} but {seats} seats are listed; leave it out, the "
                "seats decide.",
                value=options["players"],
                seats=len(seats),
            ),
            "rules",
        )
    options["players"] = len(seats)
    if kind.match_deals is not None:
        if options.get("deals", kind.match_deals) != kind.match_deals:
            raise MatchRefused(_(kind.match_deals_refused, value=options["deals"]), "rules")
        options["deals"] = kind.match_deals
    try:
        parsed = kind.game.rules_from_dict(options)
    except InvalidRulesError as exc:
        raise MatchRefused(exc.message, "rules") from exc
    for text_seat in seats:
        if is_account_seat(text_seat):
            # Whose account it is, and that it has a webhook, the caller checks.
            if not is_match_id(text_seat.removeprefix(ACCOUNT_SEAT)):
                raise MatchRefused(
                    _("{seat}: an account's seat is account:ID", seat=repr(text_seat)), "seats"
                )
            continue
        if rated and text_seat not in kind.levels:
            raise MatchRefused(
                _(
                    "{seat}: a rated match seats accounts and levels of the game only ({levels})",
                    seat=repr(text_seat),
                    levels=", ".join(kind.levels),
                ),
                "seats",
            )
        try:
            player = kind.parse_player(text_seat)
        except ValueError as exc:
            # The sentence itself (a Message, translated at the edge), not str() of it.
            raise MatchRefused(exc.args[0] if exc.args else str(exc), "seats") from exc
        budget = player.budget
        if budget.iterations is not None and not 1 <= budget.iterations <= MAX_ITERATIONS:
            raise MatchRefused(
                _(
                    "{seat}: a budget is from 1 to {most} iterations",
                    seat=text_seat,
                    most=MAX_ITERATIONS,
                ),
                "seats",
            )
        if budget.milliseconds is not None and not 1 <= budget.milliseconds <= MAX_MILLISECONDS:
            raise MatchRefused(
                _("{seat}: a budget is from 1 to {most} ms", seat=text_seat, most=MAX_MILLISECONDS),
                "seats",
            )
    if not 1 <= games <= max_games:
        raise MatchRefused(
            _("a match plays from 1 to {most} games, not {games}", most=max_games, games=games),
            "games",
        )
    n = kind.seatings([seat_player(kind, s) for s in seats])
    if duplicate and games % n:
        if n == len(seats):
            sentence = _(
                "with duplicate deals each deal is played once per rotation of the {n} "
                "seats, so games must be a multiple of {n} (e.g. {example})",
                n=n,
                example=max(n, games - games % n),
            )
        else:
            sentence = _(
                "with duplicate deals each deal is played once per distinct rotation of "
                "these seats ({n} of them), so games must be a multiple of {n} (e.g. "
                "{example})",
                n=n,
                example=max(n, games - games % n),
            )
        raise MatchRefused(sentence, "games")
    spec = MatchSpec(
        tuple(seats),
        games,
        parsed,
        secrets.randbelow(2**53) if seed is None else seed,
        duplicate,
        kind.name,
        rated,
    )
    hours = estimated_cpu_seconds(spec) / 3600
    if hours > max_cpu_hours:
        raise MatchRefused(
            _(
                "this match would think for about {hours} CPU hours; the limit is {most}: "
                "play fewer games, a shorter schedule or smaller budgets",
                hours=format(hours, ".0f"),
                most=format(max_cpu_hours, "g"),
            ),
            "games",
        )
    return spec


def at_tables(spec: MatchSpec) -> MatchSpec:
    """The match with its games played at tables, for an account that moves over its event
    stream: its other seats are accounts and levels of the game by name (a table seats no
    other bot), and every account's turn is timed (`TABLE_TURN_SECONDS` unless the rules
    say), so that a silent one holds up nothing."""
    kind = spec.kind
    for text_seat in spec.seats:
        if not is_account_seat(text_seat) and text_seat not in kind.levels:
            raise MatchRefused(
                _(
                    "{seat}: a match with an account that moves over its event stream seats "
                    "accounts and levels of the game only ({levels})",
                    seat=repr(text_seat),
                    levels=", ".join(kind.levels),
                ),
                "seats",
            )
    if len(set(spec.accounts)) != len(spec.accounts):
        raise MatchRefused(_("a match at tables seats each account once"), "seats")
    rules = spec.rules
    if not rules.turn_seconds:
        rules = kind.game.rules_from_dict({**rules.to_dict(), "turn_seconds": TABLE_TURN_SECONDS})
    return replace(spec, rules=rules, at_tables=True)


def game_task(match_id: str, index: int, spec: MatchSpec, timing: Timing) -> Task:
    longest = max(thinking_seconds(effective_budget(spec.kind, p)) for p in spec.lineup)
    if spec.accounts:
        # A webhook's call is cut at its deadline, then the stand-in decides.
        longest += Settings.from_config().seconds
    return Task(
        key=game_task_key(match_id, index),
        prefix=f"pocha-match-{match_id}-{index}",
        func=job_name(play_match_game),
        args=(match_id, index),
        queue=spec.lane,
        # A slice stops after the decision that crosses its end: one decision more at most.
        timeout=job_timeout(timing.match_slice + longest),
        retries=2,
        at_front=True,
        give_up=give_up_by(give_up_game),
    )


def create_match(connection: Connections, spec: MatchSpec, timing: Timing | None = None) -> str:
    """Store the match and queue one task per game; the match's id."""
    timing = timing or Timing.from_env()
    match_id = new_id()
    pipe = redises_of(connection).store.pipeline(transaction=True)
    pipe.hset(
        match_key(match_id),
        mapping={
            "spec": json.dumps(spec.stored()),
            "created": time.time(),
            "done": 0,
            "failed": 0,
        },
    )
    pipe.expire(match_key(match_id), MATCH_TTL)
    pipe.execute()
    # Kept a week after its last game: each game that ends notes it again (`count_ended`).
    account_records.note(
        redises_of(connection).store, spec.accounts, f"match:{match_id}", MATCH_TTL
    )
    # Its accounts are in use while it runs, however their webhooks answer (the stand-in
    # plays for one that does not): noted now, and as each game starts and ends.
    note_played(redises_of(connection).store, spec.accounts)
    # At tables a few games at a time, and a deal's rotations one after another when an
    # account is seated: each game that ends starts the next (`_ended`).
    tasks = [game_task(match_id, i, spec, timing) for i in spec.first_games()]
    submit_new(connection, tasks, timing)
    return match_id


#: The labels forgotten accounts' seats take in a match kept after them
#: (`core.store.account_records`), `account:forgotten-1`, `-2`, ... one an account, numbered
#: in the order they are forgotten: an account's seat whose account is gone. Never derived
#: from the id, which would keep the accounts linkable; distinct, so that two accounts
#: forgotten from one match keep their own statistics.
FORGOTTEN_SEAT = ACCOUNT_SEAT + "forgotten"


def forgotten_seat(number: int) -> str:
    return f"{FORGOTTEN_SEAT}-{number}"


def _forgotten_label(spec: dict[str, Any], records: list[dict[str, Any]], account_id: str) -> str:
    """The label account `account_id` takes in the match: the first number free in its spec.
    A record written after the spec was taken out of (by a game begun before) takes the
    label the spec now seats where that game seated the account."""
    seats = spec.get("seats", [])
    label = ACCOUNT_SEAT + account_id
    late = [r for r in records if label in r.get("seats", [])] if label not in seats else []
    if late:
        found: str
        try:
            players = MatchSpec.from_dict(spec).task(late[0]["game"]).players
            found = players[late[0]["seats"].index(label)].label
        except (KeyError, IndexError, TypeError, ValueError):
            found = ""
        if found.startswith(FORGOTTEN_SEAT):
            return found
    number = 1
    while forgotten_seat(number) in seats:
        number += 1
    return forgotten_seat(number)


def _without_account(value: Any, account_id: str, label: str) -> Any:
    """`value` (a match's spec or record, as JSON) with the account's seat label and id
    replaced by `label` (`_forgotten_label`) and its id part, keys of objects too."""
    if isinstance(value, str):
        if value == ACCOUNT_SEAT + account_id:
            return label
        return label.removeprefix(ACCOUNT_SEAT) if value == account_id else value
    if isinstance(value, list):
        return [_without_account(v, account_id, label) for v in value]
    if isinstance(value, dict):
        return {
            _without_account(k, account_id, label): _without_account(v, account_id, label)
            for k, v in value.items()
        }
    return value


# Take a forgotten account out of a match, if its spec is still as read. KEYS: the match's
# hash, its records. ARGV: the spec as read, as it becomes ("" for unchanged), the
# account's paused field and the forgotten seat's, then for each record to change its
# index, as it was and as it becomes. Returns 0 when the spec changed meanwhile (read
# again), else 1.
_SCRUB_MATCH_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 1 end
if redis.call('HGET', KEYS[1], 'spec') ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'spec', ARGV[2]) end
if redis.call('HDEL', KEYS[1], ARGV[3]) == 1 then redis.call('HSET', KEYS[1], ARGV[4], 1) end
redis.call('HDEL', KEYS[1], 'stats', 'stats_of')
for i = 5, #ARGV, 3 do
  if redis.call('LINDEX', KEYS[2], ARGV[i]) == ARGV[i + 1] then
    redis.call('LSET', KEYS[2], ARGV[i], ARGV[i + 2])
  end
end
return 1
"""


def scrub_match(connection: Connections, match_id: str, account_id: str, _name: str) -> bool:
    """Take forgotten account `account_id` out of the match (`core.store.account_records`):
    its seat label becomes its own `forgotten_seat` in the spec, every record and its
    paused mark (a game still to come seats the stand-in there, as for any account gone),
    and the statistics are made again from the records. Bounded by the match's `MAX_GAMES`.
    False when the spec changed under each of `SCRUB_TRIES` tries (to be tried again
    later), else True."""
    store = redises_of(connection).store
    keys = [match_key(match_id), records_key(match_id)]
    for _attempt in range(account_records.SCRUB_TRIES):
        raw = store.hget(keys[0], "spec")
        if raw is None:
            return True
        spec = json.loads(raw)
        lines = store.lrange(keys[1], 0, -1)
        found = [json.loads(line) for line in lines]
        label = _forgotten_label(spec, found, account_id)
        scrubbed = _without_account(spec, account_id, label)
        changes: list[Any] = []
        for index, (line, record) in enumerate(zip(lines, found, strict=True)):
            new = _without_account(record, account_id, label)
            if new != record:
                changes += [index, line, json.dumps(new)]
        if (
            scrubbed == spec
            and not changes
            and not store.hexists(keys[0], _paused_field(account_id))
        ):
            # Nothing names it (taken out already): the statistics kept stand.
            return True
        args = [
            raw,
            json.dumps(scrubbed) if scrubbed != spec else "",
            _paused_field(account_id),
            _paused_field(label.removeprefix(ACCOUNT_SEAT)),
        ]
        if store.eval(_SCRUB_MATCH_LUA, len(keys), *keys, *args, *changes):
            return True
    return False


def _still_named(spec: MatchSpec) -> list[str]:
    """The match's accounts but the forgotten seats' (`forgotten_seat`, or a plain
    `FORGOTTEN_SEAT` of a match scrubbed before they were numbered): no account is behind
    those, so noting one would find it gone and scrub the whole match again at each game
    that ends."""
    forgotten = FORGOTTEN_SEAT.removeprefix(ACCOUNT_SEAT)
    return [a for a in spec.accounts if a != forgotten and not a.startswith(forgotten + "-")]


def load_spec(connection: Connections, match_id: str) -> MatchSpec | None:
    raw = redises_of(connection).store.hget(match_key(match_id), "spec")
    return None if raw is None else MatchSpec.from_dict(json.loads(raw))


# -- one game, a slice at a time -----------------------------------------------------------------


class MatchGame:
    """A game of the match in progress: its arena's loop, able to stop and resume (bots
    keep no state between decisions, so a resumed game plays on the same)."""

    def __init__(
        self,
        kind: BotKind,
        rules: Any,
        seed: int,
        players: Sequence[Player],
        deal: int,
        game: Any = None,
        step: int = 0,
        decisions: list[int] | None = None,
        think: list[float] | None = None,
        ask: Asker | None = None,
        stood_in: list[int] | None = None,
    ) -> None:
        n = rules.players
        self.kind = kind
        self.seed = seed
        self.players = list(players)
        self.deal = deal
        self.game = game or kind.game.new(kind.match_rules(rules), seed)
        self.step = step
        self.decisions = decisions or [0] * n
        self.think = think or [0.0] * n
        self.bots = [kind.make_bot(p.bot) for p in self.players]
        #: Asks an outside bot's webhook (`core.play.webhooks.ask`); None: no account seated.
        self.ask = ask
        #: The decisions the stand-in made for each account's seat.
        self.stood_in = stood_in or [0] * n

    @property
    def finished(self) -> bool:
        return bool(self.game.finished)

    def play(self, until: float | None = None) -> bool:
        """Decide and play until the game ends or `time.monotonic()` passes `until`
        (after at least one decision); whether the game is over."""
        game, kind = self.game, self.kind
        observation = kind.game.observation
        while not self.finished:
            seat = game.turn
            assert seat is not None
            obs = observation(game, seat)
            t0 = time.perf_counter()
            label = self.players[seat].label
            action: Any = None
            if is_account_seat(label):
                if self.ask is not None:
                    action, _why = self.ask(game, seat, label.removeprefix(ACCOUNT_SEAT))
                if action is None:
                    self.stood_in[seat] += 1
            if action is None:
                action = (
                    self.bots[seat]
                    .decide(
                        obs,
                        self.players[seat].budget,
                        kind.decision_seed(self.seed, seat, self.step),
                    )
                    .action
                )
            self.think[seat] += (time.perf_counter() - t0) * 1000.0
            self.decisions[seat] += 1
            game.apply(seat, action)
            self.step += 1
            if until is not None and time.monotonic() >= until:
                break
        return self.finished

    def record(self) -> dict[str, Any]:
        """The game's record, as its arena makes it, with the decisions the stand-in made
        for the accounts' seats (`_with_stand_in`)."""
        made = self.kind.record(
            self.game, self.seed, self.players, self.deal, self.decisions, self.think
        )
        return _with_stand_in(made, [p.label for p in self.players], self.stood_in)

    def checkpoint(self) -> str:
        return json.dumps(
            {
                "game": self.game.to_dict(),
                "step": self.step,
                "decisions": self.decisions,
                "think": self.think,
                "stood_in": self.stood_in,
            }
        )

    @classmethod
    def resume(
        cls,
        kind: BotKind,
        rules: Any,
        seed: int,
        players: Sequence[Player],
        deal: int,
        saved: str,
        ask: Asker | None = None,
    ) -> MatchGame:
        data = json.loads(saved)
        return cls(
            kind,
            rules,
            seed,
            players,
            deal,
            game=kind.game.from_dict(data["game"]),
            step=data["step"],
            decisions=data["decisions"],
            think=data["think"],
            ask=ask,
            stood_in=data.get("stood_in"),
        )


# Save a game's progress only if it is still at the step this slice started from (and
# its match still exists). KEYS: checkpoint hash, match hash. ARGV: expected step, new step,
# state, TTL. Returns 1 if saved.
_SAVE_LUA = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
local step = redis.call('HGET', KEYS[1], 'step') or '0'
if step ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'step', ARGV[2], 'state', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

# Mark a rated match's game as begun, while the match stands. KEYS: checkpoint, match hash.
# ARGV: the checkpoint's time to live.
_BEGUN_LUA = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'begun', '1')
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""

# Count a game as ended once, and make the task of the game that follows it (its first job
# pending, as `owed_task_of` makes it: the caller queues it, or the watchdog does should the
# caller die first). KEYS: match hash, ended set, records list, checkpoint, the next task's
# hash and due set (all in the match's hash slot). ARGV: index, counter ('done' or
# 'failed'), record JSON ('' for none), TTL, now, the next task's key ('' for none), its
# check time and TTL, then its fields as field/value pairs. Returns {counted, next made}.
_END_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {0, 0} end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return {0, 0} end
redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
if ARGV[3] ~= '' then redis.call('RPUSH', KEYS[3], ARGV[3]) end
redis.call('DEL', KEYS[4])
local spec = cjson.decode(redis.call('HGET', KEYS[1], 'spec'))
if redis.call('SCARD', KEYS[2]) >= spec['games'] then
  redis.call('HSET', KEYS[1], 'finished', ARGV[5])
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
if ARGV[6] == '' or redis.call('EXISTS', KEYS[5]) == 1 then return {1, 0} end
redis.call('HSET', KEYS[5], unpack(ARGV, 9))
redis.call('EXPIRE', KEYS[5], ARGV[8])
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[6])
return {1, 1}
"""


# Keep the statistics beside the match, unless the match has expired meanwhile.
_CACHE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'stats', ARGV[1], 'stats_of', ARGV[2])
end
"""


def _ended(
    connection: Connections, spec: MatchSpec, match_id: str, index: int,
    record: dict[str, Any] | None,
) -> None:  # fmt: skip
    """Count game `index` as ended (played, or failed with no `record`), once, and start
    the game that follows it (`MatchSpec.next_game`)."""
    following = count_ended(connection, spec, match_id, index, record)
    if following is not None:
        # Takes its pending first job and queues it (should this process die first, the
        # watchdog queues it at the task's first check).
        submit(connection, following)


def count_ended(
    connection: Connections, spec: MatchSpec, match_id: str, index: int,
    record: dict[str, Any] | None,
) -> Task | None:  # fmt: skip
    """`_ended`'s count, in one script with the task of the game that follows, made with
    its first job pending; that task, if it was made now. A failed game's table is
    dropped: nobody is asked to move in it again."""
    r = redises_of(connection)
    table = None
    if spec.at_tables and record is None:
        table = r.store.hget(checkpoint_key(match_id, index), "table")
    following = spec.next_game(index)
    timing = Timing.from_env()
    task = game_task(match_id, following if following is not None else index, spec, timing)
    owed = owed_task_of(task, timing)
    counted, made = r.store.eval(
        _END_LUA,
        6,
        match_key(match_id),
        ended_key(match_id),
        records_key(match_id),
        checkpoint_key(match_id, index),
        owed.hash_key,
        r.due_key(owed.member),
        index,
        "done" if record is not None else "failed",
        json.dumps(record) if record is not None else "",
        MATCH_TTL,
        time.time(),
        owed.member if following is not None else "",
        owed.score,
        owed.ttl,
        *[x for pair in owed.fields.items() for x in pair],
    )
    if counted and table is not None:
        store_for(connection).delete(text(table))
    named = _still_named(spec)
    if counted and named:
        note_played(r.store, named)
        # Kept a week from now. An account forgotten while this game was played was taken
        # out of the records before this one came: it is taken out of this one now.
        gone = account_records.note(r.store, named, f"match:{match_id}", MATCH_TTL)
        for account_id in gone:
            if not scrub_match(connection, match_id, account_id, ""):
                account_records.leave_pending(r.store, account_id, "", f"match:{match_id}")
    return task if made else None


def play_slice(
    connection: Connections, match_id: str, index: int, job_id: str, *, last_try: bool
) -> dict[str, Any]:
    """Play a slice of game `index` of the match as job `job_id` (the worker's
    `play_match_game`), then save it and queue the next slice, or record the finished game.
    When the `last_try` fails, the game is counted as failed so the match still ends."""
    key = game_task_key(match_id, index)
    spec = load_spec(connection, match_id)
    if spec is None or redises_of(connection).store.sismember(ended_key(match_id), str(index)):
        finish(connection, key)  # the match is gone, or this game was counted already
        return {"match": match_id, "game": index, "played": False}
    timing = Timing.from_env()
    kind = spec.kind
    task = spec.task(index)
    if spec.at_tables:
        return play_at_table(connection, spec, match_id, index, task, job_id, last_try=last_try)
    saved = redises_of(connection).store.hget(checkpoint_key(match_id, index), "state")
    if saved is None and _still_named(spec):
        # Its games note no seat: the match says its accounts are in use as a game starts.
        note_played(redises_of(connection).store, _still_named(spec))
    if saved is None and spec.rated:
        # Before any webhook sees the game: cancelling the match from here on counts it.
        redises_of(connection).store.eval(
            _BEGUN_LUA, 2, checkpoint_key(match_id, index), match_key(match_id), MATCH_TTL
        )
    ask = _asker(connection, match_id, index) if spec.accounts else None
    try:
        if saved is None:
            game = MatchGame(kind, task.rules, task.seed, task.players, task.deal, ask=ask)
        else:
            game = MatchGame.resume(
                kind, task.rules, task.seed, task.players, task.deal, text(saved), ask=ask
            )
        start = game.step
        over = game.play(until=time.monotonic() + timing.match_slice)
    except Exception:
        if last_try:
            # Every try failed: count the game as failed so the match still ends.
            _ended(connection, spec, match_id, index, None)
            finish(connection, key)
        raise
    if over:
        if spec.is_rated_game(index):
            # Before the game is counted as ended: a retry after a death between the two
            # plays the slice again and finds the result counted already.
            _rate(connection, match_id, index, game.players, game.game)
        _ended(connection, spec, match_id, index, _numbered(index, game.record()))
        finish(connection, key)
        return {"match": match_id, "game": index, "finished": True, "step": game.step}
    saved_now = redises_of(connection).store.eval(
        _SAVE_LUA,
        2,
        checkpoint_key(match_id, index),
        match_key(match_id),
        start,
        game.step,
        game.checkpoint(),
        MATCH_TTL,
    )
    if saved_now:
        resubmit(connection, key, job_id, recovery=False, timing=timing)
    return {"match": match_id, "game": index, "finished": False, "step": game.step}


def _rated_between(
    store: redis.Redis, match_id: str, index: int, players: Sequence[Player]
) -> tuple[list[Account], list[int]] | None:
    """The accounts game `index` of a rated match is rated between, in seat order, and the
    seats of its levels (whose ratings stay as they are); None when its account is gone."""
    accounts = []
    levels = []
    for seat, player in enumerate(players):
        if is_account_seat(player.label):
            account = get_account(store, player.label.removeprefix(ACCOUNT_SEAT))
            if account is None:
                log.warning("match %s game %s: account %s is gone; not rated", match_id,
                            index, player.label)  # fmt: skip
                return None
            accounts.append(account)
        else:
            accounts.append(level_account(store, player.label))
            levels.append(seat)
    return accounts, levels


def _rate(
    connection: Connections, match_id: str, index: int, players: Sequence[Player], game: Any
) -> None:
    """Change the rating of a rated match's account by a finished game, once; the levels
    beside it keep theirs."""
    store = redises_of(connection).store
    between = _rated_between(store, match_id, index, players)
    if between is None:
        return
    accounts, levels = between
    ratings.count_result(
        store, f"{match_id}-{index}", game, accounts, MATCH_TTL,
        noted={"match_id": match_id, "match_game": index}, fixed=levels,
        limits=store_for(connection).rating_limits,
    )  # fmt: skip


# -- a game at a table ---------------------------------------------------------------------------


def _paused_field(account_id: str) -> str:
    return f"paused:{account_id}"


def play_at_table(
    connection: Connections, spec: MatchSpec, match_id: str, index: int, task: Any,
    job_id: str, *, last_try: bool,
) -> dict[str, Any]:  # fmt: skip
    """Game `index` of a match played at a table, as any game: seated at the first look,
    then looked at every `TABLE_LOOK_SECONDS` (the task waits as a timer meanwhile, holding
    no worker) until it ends; then recorded as the arena records its games. An account
    whose seat ended up away (its clock ran out twice in a row) is paused for the rest of
    the match: the stand-in plays its later games' seats at once."""
    key = game_task_key(match_id, index)
    r = redises_of(connection)
    store = store_for(connection)
    try:
        claimed = _claim_table(connection, match_id, index)
        if claimed is None:
            finish(connection, key)  # the match is gone, or this game was counted already
            return {"match": match_id, "game": index, "played": False}
        game_id, made, noted = claimed
        if not made:
            seated = _seat(connection, spec, match_id, index, task, game_id)
            if seated is None:
                # Another try is making it: look again in a moment.
                resubmit_at(connection, key, job_id, time.time() + TABLE_LOOK_SECONDS)
                return {"match": match_id, "game": index, "finished": False, "table": game_id}
            if not seated:
                finish(connection, key)  # cancelled while its table was made
                return {"match": match_id, "game": index, "played": False}
        record = store.load(game_id)
        if not noted:
            # Its accounts' streams follow it, told once (a try that died before it had
            # made the table, or had made it and not told them yet).
            for seat in record.seats:
                if seat.account is not None and not seat.webhook:
                    note_game(r.store, seat.account, game_id)
            _note_told(connection, match_id, index)
    except GameNotFound:
        # Deleted or expired (a match cancelled meanwhile): nothing to record.
        _ended(connection, spec, match_id, index, None)
        finish(connection, key)
        return {"match": match_id, "game": index, "played": False}
    except Exception:
        if last_try:
            _ended(connection, spec, match_id, index, None)
            finish(connection, key)
        raise
    paused = [
        seat.account
        for seat in record.seats
        if seat.account is not None and seat.away and not seat.webhook
    ]
    if paused:
        r.store.hset(match_key(match_id), mapping={_paused_field(a): 1 for a in paused})
    if not record.game.finished:
        resubmit_at(connection, key, job_id, time.time() + TABLE_LOOK_SECONDS)
        return {"match": match_id, "game": index, "finished": False, "table": game_id}
    record = store.load(game_id)  # with its whole score sheet, for the record
    if spec.is_rated_game(index):
        _rate(connection, match_id, index, task.players, record.game)
    made_record = _table_record(spec.kind, record, task, store.events(game_id))
    _ended(connection, spec, match_id, index, _numbered(index, made_record, table=game_id))
    finish(connection, key)
    return {"match": match_id, "game": index, "finished": True, "table": game_id}


# Claim the id of game ARGV[1]'s table, unless the match is gone or the game was counted
# ended: the id of an earlier try's claim stands. KEYS: match hash, ended set, checkpoint.
# ARGV: index, a new game id, TTL. Returns {table, made, noted}, or nil.
_CLAIM_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return nil end
if redis.call('HSETNX', KEYS[3], 'table', ARGV[2]) == 1 then
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
local got = redis.call('HMGET', KEYS[3], 'table', 'made', 'noted')
return {got[1], got[2] or '', got[3] or ''}
"""

# Note that the table's accounts were told, if its checkpoint still stands (a game counted
# ended meanwhile has none, and must not get one back without a TTL). KEYS: checkpoint.
_TOLD_LUA = """
if redis.call('HEXISTS', KEYS[1], 'table') == 0 then return 0 end
redis.call('HSET', KEYS[1], 'noted', 1)
return 1
"""

#: How long one try may take to make a table before another may (seconds).
MAKING_SECONDS = 60


def _note_told(connection: Connections, match_id: str, index: int) -> bool:
    """Whether the note was written (False: the game's checkpoint is gone)."""
    r = redises_of(connection)
    return bool(r.store.eval(_TOLD_LUA, 1, checkpoint_key(match_id, index)))


# Note the claimed table as made, if the match and the claim still stand. KEYS: match hash,
# checkpoint. ARGV: the table's id. Returns 1 if so.
_MADE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[2], 'table') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'made', 1)
return 1
"""


def _claim_table(
    connection: Connections, match_id: str, index: int
) -> tuple[str, bool, bool] | None:
    """Game `index`'s table: (its id, whether it was made, whether its accounts were
    told); None if the match is gone or the game ended. The id is claimed before the table
    is made, so a try that dies in between leaves no table that nobody knows of."""
    claimed = redises_of(connection).store.eval(
        _CLAIM_LUA, 3, match_key(match_id), ended_key(match_id), checkpoint_key(match_id, index),
        index, new_id(), MATCH_TTL,
    )  # fmt: skip
    if claimed is None:
        return None
    game_id, made, noted = (text(x) for x in claimed)
    return game_id, bool(made), bool(noted)


def _seat(
    connection: Connections, spec: MatchSpec, match_id: str, index: int, task: Any, game_id: str
) -> bool | None:
    """Make game `index`'s table, claimed as `game_id`, with every seat taken, and start
    it (a try that died after making it left it made); False if the match was cancelled
    meanwhile (the table is dropped), None if another try is making it now (one at a time,
    for `MAKING_SECONDS` at most: two would write the new game twice)."""
    r = redises_of(connection)
    if not r.store.set(table_making_key(game_id), 1, nx=True, ex=MAKING_SECONDS):
        return None
    store = store_for(connection)
    kind = spec.kind
    paused = {
        text(k).removeprefix("paused:")
        for k in r.store.hkeys(match_key(match_id))
        if text(k).startswith("paused:")
    }
    seats: list[Seat] = []
    # Our levels' seats, named once the accounts are seated: a name like no account's there.
    levels: list[int] = []
    for i, player in enumerate(task.players):
        label = player.label
        if not is_account_seat(label):
            levels.append(i)
            seats.append(Seat("", label))
            continue
        account = get_account(r.store, label.removeprefix(ACCOUNT_SEAT))
        if account is None or account.disabled:
            # Its seat is the stand-in's, under the seat's label.
            seats.append(Seat(label, kind.fallback_level))
            continue
        hooked = account.kind == "bot" and webhooks.get(r.store, account.id) is not None
        seats.append(
            Seat(account.name, account=account.id, key_hash=account.key_hash or None,
                 webhook=hooked, away=not hooked and account.id in paused,
                 bot_account=account.kind == "bot")
        )  # fmt: skip
    for i in levels:
        seats[i] = replace(seats[i], name=bot_name(task.players[i].label, i, seats))
    runner = RQBotRunner(connection)
    if not store.redis.exists(game_key(game_id)):
        table = Table(None, stand_in=kind.fallback_level, match=f"{match_id}:{index}")
        created = store.create(
            kind.game.new(kind.match_rules(task.rules), task.seed), seats,
            owed_task=runner.owed_turn, table=table, game_id=game_id,
        )  # fmt: skip
        record = created.record
        # An account disabled since it was read above leaves its seat to the stand-in now.
        TableService(store, runner).settle(record, created.standing)
        if record.bot_to_move is not None:
            runner.game_changed(record.id, record.version, record.payer, record.thinks_long)
    made = r.store.eval(_MADE_LUA, 2, match_key(match_id), checkpoint_key(match_id, index), game_id)
    if not made:
        store.delete(game_id)
    return bool(made)


def _numbered(index: int, record: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A match game's record line: the game's number in the match first, in place of an
    arena record's `game` (Poch's names its game: the match does), then `more`."""
    return {"game": index, **more, **{k: v for k, v in record.items() if k != "game"}}


def _table_record(
    kind: BotKind, record: Any, task: Any, events: list[dict[str, Any]]
) -> dict[str, Any]:
    """A finished table's game as the arena records its games: the decisions each seat
    made (counted from the record itself) and those the stand-in made for accounts. The
    thinking happened on the workers, turn by turn: `think_ms` is 0 here."""
    n = len(record.seats)
    decisions = [0] * n
    made = kind.record(record.game, task.seed, task.players, task.deal, decisions, [0.0] * n)
    replay = kind.game.replay_record
    if replay is not None:
        # The game's own record (docs/records.md) lists every decision, and who made it.
        played = {"game": kind.name, **kind.game.record(record.game, events)}
        for _game, mover, _action in replay(played):
            decisions[mover] += 1
        made["decisions"] = decisions
    labels = [p.label for p in task.players]
    stood_in = [0] * n
    for i, label in enumerate(labels):
        if is_account_seat(label) and record.seats[i].bot is not None:
            # A missing or disabled account's seat: the stand-in's from the start.
            stood_in[i] = decisions[i]
    for event in events:
        seat = event.get("seat")
        if (
            event.get("by") == "stand_in"
            and isinstance(seat, int)
            and is_account_seat(labels[seat])
            and record.seats[seat].bot is None
        ):
            stood_in[seat] += 1
    return _with_stand_in(made, labels, stood_in)


def _with_stand_in(made: dict[str, Any], labels: list[str], stood_in: list[int]) -> dict[str, Any]:
    """A match game's record `made` with the decisions the stand-in made for the seats
    accounts hold (`stood_in`, one count a seat), when any account is seated: by account
    (`stand_in_decisions`, by the seat's label, summed over the seats of an account that
    holds several) and by seat (`stand_in_decisions_by_seat`, 0 for a level's seat)."""
    accounts = [i for i, label in enumerate(labels) if is_account_seat(label)]
    if not accounts:
        return made
    by_label: dict[str, int] = {}
    for i in accounts:
        by_label[labels[i]] = by_label.get(labels[i], 0) + stood_in[i]
    made["stand_in_decisions"] = by_label
    made["stand_in_decisions_by_seat"] = [
        stood_in[i] if i in accounts else 0 for i in range(len(labels))
    ]
    return made


def _asker(connection: Connections, match_id: str, index: int) -> Asker:
    """Asks a seated account's webhook for its decision, with the seat's view of the game
    (`core.play.games.view_of`) and which game of which match it is (`match`: a match's
    games are stored nowhere, so they have no game id, and several may be played at once),
    counting the call on the account."""
    settings = Settings.from_config()
    store = redises_of(connection).store
    which = {"id": match_id, "game": index}

    def asked(game: Any, seat: int, account: str) -> tuple[int | None, str | None]:
        view = {**view_of(game, seat), "match": which}
        return ask_webhook(store, account, game, seat, view, settings)

    return asked


def give_up_game(connection: Connections, key: str) -> None:
    """The watchdog's last word on a game that keeps losing its workers: failed."""
    _prefix, tagged, index = key.split(":")
    match_id = tagged.strip("{}")
    spec = load_spec(connection, match_id)
    if spec is not None:
        _ended(connection, spec, match_id, int(index), None)


def cancel_match(connection: Connections, match_id: str) -> bool:
    """Forget a match: its games not yet played are dropped (their queued jobs find it gone
    and do nothing). A rated match's games in play count as lost by its bot
    (`_count_given_up`). False if there was no such match."""
    if not is_match_id(match_id):
        return False
    spec = load_spec(connection, match_id)
    if spec is None:
        return False
    # The match first: from then on no try claims a table or marks one made (a table made
    # meanwhile is dropped by its maker), so the tables read below are all there are.
    redises_of(connection).store.delete(match_key(match_id))
    if spec.rated:
        _count_given_up(connection, spec, match_id)
    if spec.at_tables:
        # Its games in play end with it: nobody is asked to move in them again.
        store = store_for(connection)
        look = store.redis.pipeline(transaction=False)
        for index in range(spec.games):
            look.hget(checkpoint_key(match_id, index), "table")
        for game_id in look.execute():
            if game_id is not None:
                store.delete(text(game_id))
    pipe = redises_of(connection).store.pipeline(transaction=False)
    # One key per DEL: a cluster's pipeline sends each key to its own node.
    for key in (records_key(match_id), ended_key(match_id)):
        pipe.delete(key)
    for index in range(spec.games):
        task = game_task_key(match_id, index)
        pipe.delete(checkpoint_key(match_id, index))
        pipe.delete(task_key(task))
        pipe.zrem(redises_of(connection).due_key(task), task)
    pipe.execute()
    return True


def _count_given_up(connection: Connections, spec: MatchSpec, match_id: str) -> None:
    """Count each rated game of a cancelled match that began and did not end as lost by its
    bot: last, below every level. Else a bot would cancel its match whenever a game in play
    went badly, and only the games it was winning would reach the ladder. A game that ends
    in its slice meanwhile counts once all the same (by its mark, whichever is first)."""
    store = redises_of(connection).store
    ended = {text(i) for i in store.smembers(ended_key(match_id))}
    look = store.pipeline(transaction=False)
    rated = [i for i in range(spec.games) if spec.is_rated_game(i) and str(i) not in ended]
    for index in rated:
        look.hmget(checkpoint_key(match_id, index), ["table", "begun", "state"])
    begun = {i: marks[0] for i, marks in zip(rated, look.execute(), strict=True) if any(marks)}
    if not begun:
        return
    tasks = spec.tasks()
    limits = store_for(connection).rating_limits
    for index, table in begun.items():
        players = tasks[index].players
        if table is not None:
            # A table's game that ended before the match looked at it counts as it ended.
            try:
                record = store_for(connection).load(text(table))
            except GameNotFound:
                record = None
            if record is not None and record.finished:
                _rate(connection, match_id, index, players, record.game)
                continue
        between = _rated_between(store, match_id, index, players)
        if between is None:
            continue
        accounts, levels = between
        # The bot last, below every level; the levels level with one another.
        places = [1 if seat in levels else len(players) for seat in range(len(players))]
        ratings.count_ranks(
            store, f"{match_id}-{index}", spec.game, places, [(0, 0)] * len(players),
            accounts, MATCH_TTL,
            noted={"match_id": match_id, "match_game": index, "given_up": True},
            fixed=levels, limits=limits,
        )  # fmt: skip


# -- progress and records ------------------------------------------------------------------------


def _iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


def records(
    connection: Connections, match_id: str, spec: MatchSpec | None = None
) -> list[dict[str, Any]]:
    """The records of the games played so far, in game order. Where an account plays a
    deal's rotations one after another, a deal's records wait until all its games ended: a
    record shows every hand of its deal."""
    store = redises_of(connection).store
    spec = spec or load_spec(connection, match_id)
    whole_deals = spec is not None and spec.one_rotation_at_a_time
    # The games ended are read before the records: a game is counted ended and its record
    # pushed in one script (`_END_LUA`), so every game of this set has its record in the
    # list read after it. The other way round, a game ending in between would complete its
    # deal here without its record.
    ended = {int(text(i)) for i in store.smembers(ended_key(match_id))} if whole_deals else set()
    raw: list[Any] = store.lrange(records_key(match_id), 0, -1)
    found = [json.loads(r) for r in raw]
    found.sort(key=lambda r: r["game"])
    if spec is not None and whole_deals:
        found = [r for r in found if spec.deal_ended(r["game"], ended)]
    return found


def match_report(connection: Connections, match_id: str) -> dict[str, Any] | None:
    """Progress and per-bot statistics of a match; None if there is no such match."""
    if not is_match_id(match_id):
        return None
    fields = redises_of(connection).store.hgetall(match_key(match_id))
    if not fields:
        return None
    f = {text(k): text(v) for k, v in fields.items()}
    spec = MatchSpec.from_dict(json.loads(f["spec"]))
    finished_at = float(f["finished"]) if "finished" in f else None
    # The statistics change only when a game ends: kept beside the match, with the number of
    # records they were made from, so polling a big match does not reread its records.
    store = redises_of(connection).store
    # (The count's first part names the form kept: a form kept before leads is made again.)
    count = f"leads/{store.llen(records_key(match_id))}/{f['done']}/{f['failed']}"
    if f.get("stats_of") == count:
        kept = json.loads(f["stats"])
    else:
        kept = _statistics(spec, records(connection, match_id, spec))
        store.eval(_CACHE_LUA, 1, match_key(match_id), json.dumps(kept), count)
    shown = spec.to_dict()
    if spec.rated and finished_at is None:
        # The seed makes every deal still to come: its bot would know every hand.
        del shown["seed"]
    return {
        "id": match_id,
        "status": "finished" if finished_at is not None else "running",
        **shown,
        "done": int(f["done"]),
        "failed": int(f["failed"]),
        "created_at": _iso(float(f["created"])),
        "finished_at": _iso(finished_at),
        "bots": kept["bots"],
        "difference": kept["difference"],
        "stand_in_decisions": _stood_in(spec, records(connection, match_id, spec))
        if spec.accounts
        else {},
        "paused": sorted(
            ACCOUNT_SEAT + k.removeprefix("paused:") for k in f if k.startswith("paused:")
        ),
    }


def _statistics(spec: MatchSpec, found: list[dict[str, Any]]) -> dict[str, Any]:
    """The per-bot figures of the games played so far, each with its lead over the rest of
    the table (None until a deal is whole), and with two bots the best one's lead over the
    other (else None), both as the arena reports them. The leads are paired by deal over the
    deals whose every game was played: a deal whose rotations are not all played (still
    running, or one failed) would not cancel its luck."""
    bots = spec.kind.summarize(found)
    played = Counter(record["deal"] for record in found)
    whole = [record for record in found if played[record["deal"]] == spec.rotations]
    leads = spec.kind.leads(whole) if whole else None
    by_bot, difference = leads if leads is not None else ({}, None)
    return {
        "bots": [{**bot, "lead": by_bot.get(bot["bot"])} for bot in bots],
        "difference": difference,
    }


def _stood_in(spec: MatchSpec, found: list[dict[str, Any]]) -> dict[str, int]:
    """How many decisions the stand-in made for each account seated, over the games
    played so far."""
    made = {seat: 0 for seat in spec.seats if is_account_seat(seat)}
    for record in found:
        for label, count in record.get("stand_in_decisions", {}).items():
            made[label] = made.get(label, 0) + int(count)
    return made


def play_match_game(match_id: str, index: int, recovery: int = 0) -> dict[str, Any]:
    """The job: play a slice of game `index` of the match."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("play_match_game runs as an RQ job")
    return play_slice(
        store_for_jobs(job.connection), match_id, index, job.id, last_try=job.retries_left == 0
    )  # fmt: skip
