"""The AI's commands: ``pocha arena``, ``pocha yardstick``, ``pocha arena-poch``,
``pocha arena-openspiel`` and ``pocha bench ismcts``.

Kept apart from ``cli.main`` so the bots' options live in one place; imports
of ``ai`` happen only when a command runs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pathlib import Path

    from ai.stats import Difference, Standing

# The self-play and the epochs the shipped model of card locations was trained with
# (docs/model-card.md); here rather than in ai.pocha.location_training, which this module
# imports only when the command runs.
LOCATION_GAMES = 320
LOCATION_EPOCHS = 4


def _rules_and_lineup(
    rules_json: str,
    players: int,
    rules_cls: Any,
    invalid: Any,
    lineup_for: Callable[[int], list[Any]],
) -> tuple[Any, list[Any]]:
    """The rules from `--rules` (with `--players` unless it names them) and the line-up
    ``lineup_for(players)``, for either game's arena and the yardstick.  What is wrong
    with either is a ClickException."""
    try:
        options = json.loads(rules_json)
        if not isinstance(options, dict):
            raise click.BadParameter("must be a JSON object", param_hint="--rules")
        options.setdefault("players", players)
        rules = rules_cls.from_dict(options)
        return rules, lineup_for(rules.players)
    except (json.JSONDecodeError, invalid, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc


def _bots_round_the_table(bots: str, parse_player: Any) -> Callable[[int], list[Any]]:
    """The line-up from `--bots` for a table of n seats: the list repeated round it."""

    def lineup(n: int) -> list[Any]:
        specs = [s for s in bots.split(",") if s.strip()]
        if not specs:
            raise ValueError("--bots: name at least one bot or level, e.g. hard,heuristic")
        return [parse_player(specs[i % len(specs)]) for i in range(n)]

    return lineup


#: Options several commands take alike.
_PROCESSES = click.option(
    "--processes", type=click.IntRange(1), default=None, help="Default: all cores."
)
_AS_JSON = click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
_PLAYERS = click.option("--players", type=click.IntRange(3, 8), default=4, show_default=True)


def _file_option(name: str, text: str) -> Any:
    """An option naming a file (none by default)."""
    return click.option(name, type=click.Path(dir_okay=False), default=None, help=text)


def _plot_option(text: str) -> Any:
    return _file_option("--plot", text)


def _check_plot(plot: str | None) -> None:
    """Refuse `--plot` before anything is played when no chart could be written."""
    if plot is None:
        return
    from ai.chart import ChartError, check_plot

    try:
        check_plot(plot)
    except ChartError as exc:
        raise click.ClickException(str(exc)) from exc


def _mark(significant: bool) -> str:
    """The table's mark of a result whose interval holds no difference."""
    return "" if significant else " ns"


def _lead_cell(lead: Difference, places: int) -> str:
    """A bot's lead over the rest of the table and its interval, to `places` decimals."""
    interval = "n/a" if lead.ci95 is None else f"{lead.ci95:.{places}f}"
    return f"{lead.per_hand:+.{places}f} ± {interval}{_mark(lead.significant)}"


def _win_cell(standing: Standing) -> str:
    """A bot's win rate with its 95% interval, beside its even share."""
    return (
        f"{standing.win_rate:.1%} [{standing.win_low * 100:.0f}-{standing.win_high:.0%}]"
        f"{_mark(standing.win_significant)} / {standing.even_win_rate:.0%}"
    )


def _table_options(command: Any) -> Any:
    """The options `pocha arena` and `pocha yardstick` share: the rules, the seed, the
    processes and how the figures are shown and kept."""
    options = [
        click.option(
            "--rules",
            "rules_json",
            default="{}",
            help='Rule options as JSON, e.g. \'{"schedule": [5, 5], "montar": false}\'.',
        ),
        click.option("--seed", type=int, default=0, show_default=True),
        _PROCESSES,
        click.option("--no-duplicate", is_flag=True, help="Do not replay each deal rotated."),
        _AS_JSON,
        click.option(
            "--by-size", is_flag=True, help="Also give each bot's exact bids by hand size."
        ),
        _file_option("--records", "Write game records (JSONL)."),
        _plot_option("Draw each bot's running score over the hands dealt, with its 95% "
                     "interval, to FILE (.png or .svg; needs matplotlib, the plot extra)."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


@contextmanager
def _progress_bar(unit: str, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of `unit`s on a terminal, gone once the work is done (none when
    `quiet`, nor in a log); what moves it, ``progress(done, total)``."""
    from rich.progress import Progress

    with Progress(transient=True, disable=quiet or not sys.stderr.isatty()) as bar:
        task = bar.add_task(unit, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


def _play_arena(
    run_arena: Any, unit: str, quiet: bool, records: str | None, *args: Any, **kwargs: Any
) -> tuple[Any, list[dict[str, Any]]]:
    """`run_arena(*args, **kwargs)` with a progress bar of its `unit`s on a terminal (none
    when `quiet`), its records written to `records` as JSON lines; its stats and records."""
    with _progress_bar(unit, quiet) as progress:
        stats, recs = run_arena(*args, progress=progress, **kwargs)
    if records:
        with open(records, "w") as fh:
            for r in recs:
                fh.write(json.dumps(r) + "\n")
    return stats, recs


@click.command("arena")
@click.option(
    "--bots",
    "bots",
    default="hard,heuristic",
    show_default=True,
    help="Comma-separated bots or levels, one per seat; a shorter list is repeated "
    "round the table (e.g. 'hard,heuristic' -> hard,heuristic,hard,heuristic). "
    "A bot may carry a budget: ismcts:2000 (iterations) or ismcts:250ms; one that reads "
    "the bids (master, ismcts-modelled, ...) may end in @FILE, models of bidding written "
    "by pocha train-reading (master@mine.json,master).",
)
@_PLAYERS
@click.option(
    "--games",
    type=click.IntRange(1),
    default=None,
    help="Deals to play (default 10); each is played once per distinct rotation of the line-up.",
)
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=None,
    help="Hands to deal in all: whole deals are played (each once per distinct rotation "
    "unless --no-duplicate), so a count that is not a whole number of them is rounded up, "
    "saying so before playing; tiebreak hands of tied games come on top, and are counted.",
)
@_table_options
def arena(
    bots: str,
    players: int,
    games: int | None,
    hands: int | None,
    rules_json: str,
    seed: int,
    processes: int | None,
    no_duplicate: bool,
    as_json: bool,
    by_size: bool,
    records: str | None,
    plot: str | None,
) -> None:
    """Play bots against each other on duplicate deals and compare them."""
    from ai.arena import distinct_rotations
    from ai.pocha.arena import parse_player, run_arena
    from engine.errors import InvalidRulesError
    from engine.pocha.rules import Rules

    if games is not None and hands is not None:
        raise click.UsageError("give --games (deals) or --hands, not both")
    _check_plot(plot)
    rules, lineup = _rules_and_lineup(rules_json, players, Rules, InvalidRulesError,
                                      _bots_round_the_table(bots, parse_player))  # fmt: skip
    rotations = 1 if no_duplicate else len(distinct_rotations(lineup))
    per_deal = len(rules.hand_sizes) * rotations
    if games is not None:
        deals = games
    elif hands is not None:
        deals = -(-hands // per_deal)
        if deals * per_deal != hands:
            # Said before playing, on stderr so that --json stays one document.
            if rotations == 1:
                deal = f"one game of {per_deal} hands"
            else:
                deal = (f"{rotations} games of {len(rules.hand_sizes)} hands, one per "
                        "distinct rotation of the line-up so that each bot gets the same "
                        f"cards from every seat: {per_deal} hands")  # fmt: skip
            played = "1 deal" if deals == 1 else f"{deals} deals"
            click.echo(
                f"--hands {hands} is not a whole number of deals, and only whole deals are "
                f"played: a deal here is {deal}; playing {played}, {deals * per_deal} hands "
                "(and any tiebreak hands of tied games on top)",
                err=True,
            )
    else:
        deals = 10

    stats, recs = _play_arena(
        run_arena, "games", as_json, records,
        rules, lineup, deals, seed=seed, processes=processes, duplicate=not no_duplicate,
    )  # fmt: skip
    _report_arena(rules, lineup, deals, stats, recs, as_json, by_size, hands, plot)


def _report_arena(
    rules: Any,
    lineup: list[Any],
    deals: int,
    stats: Any,
    recs: list[dict[str, Any]],
    as_json: bool,
    by_size: bool = False,
    hands_asked: int | None = None,
    plot: str | None = None,
) -> None:
    """Print an arena's figures per bot (each with its standing: its lead over the rest of
    the table and its win rate, with their intervals, marked when not significant; for
    two bots, the first's lead over the second paired by deal; with ``by_size``, each
    bot's exact bids per hand size) as a table, or as JSON; draw the chart to ``plot``."""
    from ai.stats import exact_by_size, paired_difference, standings

    dealt = sum(len(r["hands"]) for r in recs)  # tiebreak hands included
    scheduled = len(rules.hand_sizes) * len(recs)
    standing = standings(recs, stats)
    result: dict[str, Any] = {
        "rules": rules.to_dict(),
        "lineup": [p.label for p in lineup],
        "deals": deals,
        "games": len(recs),
        "hands_asked": hands_asked,
        "hands": dealt,
        "tiebreak_hands": dealt - scheduled,
        # Each bot's `hands` counts one per seat it held (its score per hand and exact bids
        # are over those), so a bot in two seats counts each hand twice: this is their sum.
        "hands_played": sum(s.hands for s in stats),
        "bots": [s.to_dict() | st.to_dict() for s, st in zip(stats, standing, strict=True)],
    }
    difference = None
    if len(stats) == 2:
        # Two bots: the first's lead over the second, paired by deal.
        difference = paired_difference(recs, stats[0].bot, stats[1].bot)
        result["difference"] = difference.to_dict()
    if plot:
        from ai.chart import draw_totals
        from ai.stats import score_curves

        draw_totals(
            score_curves(recs), plot,
            title=f"{', '.join(result['lineup'])}: {deals} deals, {len(recs)} games, "
            f"{dealt} hands",
            step="hands dealt", total="score per seat, running total",
        )  # fmt: skip
        result["plot"] = plot
    sizes = exact_by_size(recs) if by_size else {}
    if by_size:
        result["exact_by_size"] = {
            bot: {str(cards): {"exact": e, "hands": h} for cards, (e, h) in per.items()}
            for bot, per in sizes.items()
        }
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{deals} deals, {len(recs)} games, {dealt} hands dealt, "
        f"{result['hands_played']} played (one per seat), line-up {', '.join(result['lineup'])}",
        caption="hands: one per seat, so a bot in two seats counts each hand twice; "
        "score/hand and exact bids are over these. lead: score/hand less the rest of the "
        "table's, paired by deal. win rate: with its 95% Wilson interval, each deal a trial, "
        "beside the even share (the bot's seats over the players). ns: not significant, "
        "the interval holds no difference (no lead, or the even share)",
        # Two columns more on an 80-column terminal.
        show_edge=False,
    )
    # A long bot name, or a figure on a narrow terminal, folds onto a second line rather
    # than being cut.
    table.add_column("bot", overflow="fold", min_width=9)
    for col in ("hands", "score/hand", "±95%", "lead ±95%", "win rate [95%] / even",
                "exact bids", "ms/decision"):  # fmt: skip
        table.add_column(col, justify="right", overflow="fold")
    for s, st in zip(stats, standing, strict=True):
        table.add_row(
            s.bot,
            str(s.hands),
            f"{s.mean_score:.2f}",
            "n/a" if s.ci95 is None else f"{s.ci95:.2f}",
            _lead_cell(st.lead, 2),
            _win_cell(st),
            f"{s.exact_rate:.1%}",
            f"{s.ms_per_decision:.1f}",
        )
    Console().print(table)
    if hands_asked is not None:
        click.echo(
            f"hands: {hands_asked} asked, {dealt} dealt ({len(recs)} games of "
            f"{len(rules.hand_sizes)}, and {dealt - scheduled} tiebreak hands)"
        )
    if sizes:
        by_cards = Table(title="exact bids by hand size (cards dealt to each seat)")
        by_cards.add_column("cards", justify="right")
        for s in stats:
            by_cards.add_column(s.bot, justify="right")
        for cards in sorted({c for per in sizes.values() for c in per}):
            cells = []
            for s in stats:
                exact, hands = sizes[s.bot].get(cards, (0, 0))
                cells.append(f"{exact / hands:.1%} of {hands}" if hands else "-")
            by_cards.add_row(str(cards), *cells)
        Console().print(by_cards)
    if difference is not None:
        interval = "n/a" if difference.ci95 is None else f"{difference.ci95:.2f}"
        if difference.significant:
            verdict = "significant"
        elif difference.ci95 is None:
            verdict = "not significant (no interval with fewer than two deals)"
        else:
            verdict = "not significant (the interval holds 0)"
        click.echo(
            f"{difference.bot} - {difference.other}, paired by deal: "
            f"{difference.per_hand:+.2f} ± {interval} points a hand ({difference.deals} deals): "
            f"{verdict}"
        )
    if plot:
        click.echo(f"chart of the running scores in {plot}")


@click.command("yardstick")
@click.option(
    "--told",
    type=click.Choice(["undealt", "all", "undealt-bids", "undealt-plays"]),
    required=True,
    help="What the told seats know beyond a player's view: which cards were never dealt "
    "(undealt), or every other hand (all); undealt-bids and undealt-plays tell the undealt "
    "cards at their bids only, or at their plays only.",
)
@click.option(
    "--against",
    default=None,
    help="A bot or level (as --bots of pocha arena reads it) in every other seat, the told "
    "seats in the rest; without it every seat is told (self-play).",
)
@_PLAYERS
@click.option(
    "--games",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Deals to play; each is played once per distinct rotation of the line-up.",
)
@_table_options
def yardstick(
    told: str,
    against: str | None,
    players: int,
    games: int,
    rules_json: str,
    seed: int,
    processes: int | None,
    no_duplicate: bool,
    as_json: bool,
    by_size: bool,
    records: str | None,
    plot: str | None,
) -> None:
    """Measure what hidden cards are worth: master's search told them (no bot may be; this
    is a yardstick, not a level) against a level, or in self-play, on pocha arena's deals."""
    from ai.pocha.arena import run_arena
    from ai.pocha.yardstick import play_told_game, told_lineup
    from engine.errors import InvalidRulesError
    from engine.pocha.rules import Rules

    _check_plot(plot)
    rules, lineup = _rules_and_lineup(rules_json, players, Rules, InvalidRulesError,
                                      lambda n: told_lineup(told, against, n))  # fmt: skip
    stats, recs = _play_arena(
        run_arena, "games", as_json, records,
        rules, lineup, games, seed=seed, processes=processes, duplicate=not no_duplicate,
        play=play_told_game,
    )  # fmt: skip
    _report_arena(rules, lineup, games, stats, recs, as_json, by_size, plot=plot)


@click.command("arena-poch")
@click.option(
    "--bots",
    "bots",
    default="hard,heuristic",
    show_default=True,
    help="Comma-separated Poch bots or levels, one per seat; a shorter list is repeated "
    "round the table. A bot may carry a budget: ismcts:300 (iterations) or ismcts:50ms.",
)
@_PLAYERS
@click.option(
    "--deals",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Deals to play; each is played once per distinct rotation of the line-up.",
)
@click.option(
    "--rules", "rules_json", default="{}", help="Poch options as JSON, e.g. '{\"chips\": 80}'."
)
@click.option("--seed", type=int, default=0, show_default=True)
@_PROCESSES
@click.option("--no-duplicate", is_flag=True, help="Do not replay each deal rotated.")
@_AS_JSON
@_file_option("--records", "Write deal records (JSONL).")
@_plot_option("Draw each bot's running chips over the deals, with its 95% interval, to FILE "
              "(.png or .svg; needs matplotlib, the plot extra).")  # fmt: skip
def arena_poch(
    bots: str,
    players: int,
    deals: int,
    rules_json: str,
    seed: int,
    processes: int | None,
    no_duplicate: bool,
    as_json: bool,
    records: str | None,
    plot: str | None,
) -> None:
    """Play Poch bots against each other on duplicate deals: chips won per deal."""
    from ai.poch.arena import chip_curves, parse_player, run_arena, standings
    from engine.errors import InvalidRulesError
    from engine.poch.rules import Rules

    _check_plot(plot)
    rules, lineup = _rules_and_lineup(rules_json, players, Rules, InvalidRulesError,
                                      _bots_round_the_table(bots, parse_player))  # fmt: skip
    stats, recs = _play_arena(
        run_arena, "deals", as_json, records,
        rules, lineup, deals, seed=seed, processes=processes, duplicate=not no_duplicate,
    )  # fmt: skip
    standing = standings(recs, stats)
    result: dict[str, Any] = {
        "rules": {**rules.to_dict(), "deals": 1},
        "lineup": [p.label for p in lineup],
        "deals": deals,
        "games": len(recs),
        "bots": [
            s.to_dict() | {
                "out_first_ci95": [round(st.win_low, 4), round(st.win_high, 4)],
                "even_out_first": round(st.even_win_rate, 4),
                "out_first_significant": st.win_significant,
                "lead": {
                    "other": st.lead.other,
                    "deals": st.lead.deals,
                    "chips_per_deal": round(st.lead.per_hand, 4),
                    "ci95": None if st.lead.ci95 is None else round(st.lead.ci95, 4),
                    "significant": st.lead.significant,
                },
            }
            for s, st in zip(stats, standing, strict=True)
        ],
    }  # fmt: skip
    if plot:
        from ai.chart import draw_totals

        draw_totals(
            chip_curves(recs), plot,
            title=f"Poch, {', '.join(result['lineup'])}: {deals} deals, {len(recs)} games",
            step="deals", total="chips per seat, running total",
        )  # fmt: skip
        result["plot"] = plot
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"Poch: {deals} deals, {len(recs)} games (one per distinct rotation), "
        f"line-up {', '.join(result['lineup'])}",
        caption="chips/deal: a bot's chips at the deal's end less at its start, over its "
        "seats and the rotations; ±95% over deals. lead: chips/deal less the rest of the "
        "table's, paired by deal. out first: per seat, with its 95% Wilson interval, each "
        "deal a trial, "
        "beside the even share (one seat in the players). ns: not significant, "
        "the interval holds no difference (no lead, or the even share)",
        show_edge=False,
    )
    for col in ("bot", "deals", "chips/deal", "±95%", "lead ±95%", "out first [95%] / even",
                "ms/decision"):  # fmt: skip
        table.add_column(col, justify="left" if col == "bot" else "right", overflow="fold")
    for s, st in zip(stats, standing, strict=True):
        table.add_row(
            s.bot,
            str(s.deals),
            f"{s.chips_per_deal:.3f}",
            "n/a" if s.ci95 is None else f"{s.ci95:.3f}",
            _lead_cell(st.lead, 3),
            _win_cell(st),
            f"{s.ms_per_decision:.1f}",
        )
    Console().print(table)
    if plot:
        click.echo(f"chart of the running chips in {plot}")


@click.command("ismcts")
@click.option("--seconds", type=float, default=2.0, show_default=True, help="Per position.")
@click.option("--seed", type=int, default=None)
@click.option(
    "--playout", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help="Rounds per implementation, taking turns; --seconds is shared among them.",
)
@click.option(
    "--game",
    type=click.Choice(["both", "pocha", "poch"]),
    default="both",
    show_default=True,
    help="Which game's search to measure.",
)
def bench_ismcts(seconds: float, seed: int | None, playout: str, rounds: int, game: str) -> None:
    """ISMCTS iterations per second, on the Python and the compiled engine (when built), side
    by side: Pocha's at the first card of 5- and 10-card hands (--playout is its), Poch's over
    the decisions of first deals, with its hard level's mean time a decision."""
    if game in ("both", "pocha"):
        from ai.pocha.bench import run

        for line in run(seconds=seconds, seed=seed, playout=playout, rounds=rounds):
            click.echo(line)
    if game in ("both", "poch"):
        from ai.poch import bench as poch_bench

        for line in poch_bench.run(seconds=seconds, seed=seed, rounds=rounds):
            click.echo(line)


def _self_play_progress(bar: Any, started: float, unit: str) -> Callable[[int, int], None]:
    """A progress callback for self-play: the bar on a terminal; in a log, which has no
    bar, a line every tenth of the way."""
    import time

    task = bar.add_task("self-play", total=None)

    def played(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)
        if not sys.stderr.isatty() and (done * 10 // total) != ((done - 1) * 10 // total):
            elapsed = time.perf_counter() - started
            click.echo(f"self-play {done}/{total} {unit}, {elapsed:.0f} s", err=True)

    return played


def _kept_or_played(
    data: str | None,
    what: str,
    play: Callable[[Callable[[int, int], None]], Any],
    load: Callable[[str], Any],
    save: Callable[[str, Any], None],
) -> tuple[Any, bool]:
    """A training's self-play: read from ``data`` when it names a file that exists (and
    True), else played by ``play(progress)`` over games and kept in ``data`` when it is
    named (and False)."""
    import os
    import time

    from rich.progress import Progress

    if data and os.path.exists(data):
        kept = load(data)
        click.echo(f"self-play {what} read from {data}", err=True)
        return kept, True
    started = time.perf_counter()
    with Progress(disable=not sys.stderr.isatty()) as bar:
        played = play(_self_play_progress(bar, started, "games"))
    if data:
        save(data, played)
    return played, False


@dataclass
class _Trained:
    """A network trained by `_samples_then_fit`: its samples, weights and validation
    report, and the seconds the samples (played or read) and the fitting took."""

    samples: dict[str, Any]
    weights: dict[str, Any]
    report: dict[str, Any]
    sampling_seconds: float
    fit_seconds: float


def _samples_then_fit(
    data: str | None,
    read_note: str,
    play: Callable[[Callable[[int, int], None]], dict[str, Any]],
    fit: Callable[[dict[str, Any], Callable[[int, int], None]], tuple[dict[str, Any], Any]],
    epochs: int,
) -> _Trained:
    """A network's training, under one progress bar on a terminal: its samples read from
    ``data`` (.npz) when that file exists (saying ``read_note``), else played by
    ``play(progress)`` in chunks and kept in ``data`` when it is named; then
    ``fit(samples, progress)`` over ``epochs``, its weights and report."""
    import os
    import time

    import numpy as np
    from rich.progress import Progress

    started = time.perf_counter()
    with Progress(disable=not sys.stderr.isatty()) as bar:
        if data and os.path.exists(data):
            with np.load(data) as saved:
                samples = {k: saved[k] for k in saved.files}
            click.echo(read_note, err=True)
        else:
            samples = play(_self_play_progress(bar, started, "chunks"))
            if data:
                np.savez_compressed(data, **samples)
        generated = time.perf_counter()
        fitting = bar.add_task("fitting", total=epochs)

        def fitted(done: int, total: int) -> None:
            bar.update(fitting, completed=done)

        weights, report = fit(samples, fitted)
    finished = time.perf_counter()
    return _Trained(samples, weights, report, generated - started, finished - generated)


def _save_weights(path: Path, weights: dict[str, Any], report: dict[str, Any]) -> None:
    """A network's weights to ``path`` (.npz), its report beside them as .json."""
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **weights)
    path.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")


@click.command("train")
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=8000,
    show_default=True,
    help="Self-play hands to learn from (each gives one sample per seat).",
)
@click.option(
    "--iterations",
    type=click.IntRange(1),
    default=40,
    show_default=True,
    help="ISMCTS iterations per card played in the self-play.",
)
@click.option("--epochs", type=click.IntRange(1), default=40, show_default=True)
@click.option(
    "--bid-input/--no-bid-input",
    default=False,
    show_default=True,
    help="Let the model see the candidate bid (it then learns that bidding higher takes "
    "more tricks, true only against weak self-play opponents).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@_PROCESSES
@_file_option(
    "--data",
    "Keep the self-play data here (.npz): read it if it exists, else write it.",
)
@_file_option(
    "--out",
    "Where the weights go (default: the shipped ai/pocha/models/bid_model.npz); the "
    "validation report goes beside them as .json.",
)
def train(
    hands: int,
    iterations: int,
    epochs: int,
    bid_input: bool,
    seed: int,
    processes: int | None,
    data: str | None,
    out: str | None,
) -> None:
    """Train the bidding model of the `learned` bot from self-play: the shipped weights come
    from the defaults (pocha train --seed 0)."""
    import os
    from pathlib import Path

    from ai.pocha.bid_model import MODEL_PATH
    from ai.pocha.training import fit, generate

    trained = _samples_then_fit(
        data,
        f"self-play data read from {data}",
        lambda played: generate(hands, seed, iterations, processes, played),
        lambda samples, fitted: fit(
            samples, seed=seed, epochs=epochs, bid_input=bid_input, progress=fitted
        ),
        epochs,
    )
    samples, report = trained.samples, trained.report
    path = Path(out) if out else MODEL_PATH
    report.update(
        {
            "hands": hands,
            "iterations": iterations,
            "epochs": epochs,
            "bid_input": bid_input,
            "seed": seed,
            "processes": processes or os.cpu_count(),
            "samples_all": len(samples["tricks"]),
            "self_play_seconds": round(trained.sampling_seconds, 1),
            "fit_seconds": round(trained.fit_seconds, 1),
        }
    )
    _save_weights(path, trained.weights, report)
    click.echo(
        f"{len(samples['tricks'])} samples; self-play {trained.sampling_seconds:.0f} s, "
        f"fitting {trained.fit_seconds:.0f} s; validation log loss {report['log_loss']:.4f}, "
        f"most likely count right {report['most_likely_right']:.1%}; weights in {path}"
    )


@click.command("train-student")
@click.option(
    "--play",
    is_flag=True,
    help="Train the student of the plays (the `ismcts-student-play` bots): the teacher bids "
    "and plays every seat, and each of its plays with a choice is kept.",
)
@click.option(
    "--value",
    is_flag=True,
    help="Train the student as a leaf value (the `ismcts-student-value` bot): the teacher "
    "bids and plays every seat, and each whole state at a card play is kept with every "
    "seat's tricks at the hand's end.",
)
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=None,
    help="Hands of the classic four-player game's sizes that the teacher bids (four samples "
    "each) or, with --play, plays (some ten plays with a choice each), or with --value plays "
    "(some thirty states each). Default: 40,000 bids, 16,000 plays, 6,000 for the value.",
)
@click.option(
    "--iterations",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="The teacher's ISMCTS iterations per decision (master's, without its time limit).",
)
@click.option(
    "--told",
    type=click.Choice(["undealt", "all"]),
    default="undealt",
    show_default=True,
    help="What the teacher is told beyond its seat's view.",
)
@click.option(
    "--epochs",
    type=click.IntRange(1),
    default=None,
    help="Passes over the data. Default: 60 for the bids, 30 for the plays.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@_PROCESSES
@_file_option(
    "--data",
    "Keep the teacher's decisions here (.npz): read them if the file exists, else write it.",
)
@_file_option(
    "--out",
    "Where the weights go (default: the shipped ai/pocha/models/student.npz, or "
    "student_play.npz with --play, leaf_value.npz with --value); the validation report goes "
    "beside them as .json.",
)
@click.option(
    "--compare",
    type=click.IntRange(1),
    default=None,
    help="Then, on this many fresh hands bid (and played) by the teacher, say how often its "
    "bid (or card) is honest master's, the student's and their blends'.",
)
def train_student(
    play: bool,
    value: bool,
    hands: int | None,
    iterations: int,
    told: str,
    epochs: int | None,
    seed: int,
    processes: int | None,
    data: str | None,
    out: str | None,
    compare: int | None,
) -> None:
    """Train the student of the `ismcts-student` bots: master's search told the undealt
    cards bids, and a small network learns its bids from the bidder's own view; with
    --play, the student of the `ismcts-student-play` bots learns its card plays so; with
    --value, the leaf value of `ismcts-student-value` learns from whole states how the
    teacher's hands end. The shipped weights come from the defaults (pocha train-student,
    pocha train-student --play, pocha train-student --value). With more than one BLAS
    thread on a busy machine the fitting is many times slower: OPENBLAS_NUM_THREADS=1."""
    from pathlib import Path

    from ai.pocha import student, student_play
    from ai.pocha.student_training import (
        agreement,
        fit,
        generate,
        generate_plays,
        play_agreement,
    )

    if value:
        if play or compare:
            raise click.UsageError("--value takes neither --play nor --compare")
        _train_value(hands or 6000, iterations, told, seed, processes, data, out)
        return

    hands = hands or (16000 if play else 40000)
    epochs = epochs or (30 if play else 60)
    what = "plays" if play else "bids"
    hidden = (128, 128) if play else (64, 64)
    teach = generate_plays if play else generate
    trained = _samples_then_fit(
        data,
        f"the teacher's {what} read from {data}",
        lambda played: teach(hands, seed, iterations, told, processes, played),
        lambda samples, fitted: fit(
            samples, seed=seed, hidden=hidden, epochs=epochs, progress=fitted
        ),
        epochs,
    )
    samples, weights, report = trained.samples, trained.weights, trained.report
    path = Path(out) if out else (student_play.MODEL_PATH if play else student.MODEL_PATH)
    report.update(
        {
            "decisions": what,
            "hands": hands,
            "iterations": iterations,
            "told": told,
            "hidden": list(hidden),
            "epochs": epochs,
            "seed": seed,
            "samples_all": len(samples["x"]),
            "teacher_seconds": round(trained.sampling_seconds, 1),
            "fit_seconds": round(trained.fit_seconds, 1),
        }
    )
    _save_weights(path, weights, report)
    click.echo(
        f"{len(samples['x'])} {what}; teacher {trained.sampling_seconds:.0f} s, fitting "
        f"{trained.fit_seconds:.0f} s; held out, the teacher's choice is the student's "
        f"likeliest {report['teacher_bid_is_likeliest']:.1%}; weights in {path}"
    )
    if not compare:
        return
    if play:
        found = play_agreement(
            student_play.PlayStudentModel(weights), compare, iterations=iterations
        )
    else:
        found = agreement(student.StudentModel(weights), compare, iterations=iterations)
    count = "plays" if play else "bids"
    click.echo(f"on {compare} fresh hands, {found[count]} {count} with a choice:")
    for name, figures in found.items():
        if name != count:
            chosen = figures["teachers_card" if play else "teachers_bid"]
            click.echo(
                f"  the teacher's choice is {name}'s {chosen:.1%} (its share of the "
                f"teacher's search {figures['teachers_share']:.3f})"
            )


def _train_value(
    hands: int,
    iterations: int,
    told: str,
    seed: int,
    processes: int | None,
    data: str | None,
    out: str | None,
) -> None:
    """``pocha train-student --value``: the leaf value fitted to the teacher's hands."""
    from pathlib import Path

    from ai.pocha import leaf_value
    from ai.pocha.student_training import fit_value, generate_values

    def fitted_value(samples: dict[str, Any], fitted: Callable[[int, int], None]) -> Any:
        found = fit_value(samples)
        fitted(1, 1)
        return found

    trained = _samples_then_fit(
        data,
        f"the teacher's states read from {data}",
        lambda played: generate_values(hands, seed, iterations, told, processes, played),
        fitted_value,
        1,
    )
    samples, weights, report = trained.samples, trained.weights, trained.report
    path = Path(out) if out else leaf_value.MODEL_PATH
    report.update(
        {
            "decisions": "states",
            "hands": hands,
            "iterations": iterations,
            "told": told,
            "seed": seed,
            "states_all": len(samples["state"]),
            "teacher_seconds": round(trained.sampling_seconds, 1),
            "fit_seconds": round(trained.fit_seconds, 1),
        }
    )
    _save_weights(path, weights, report)
    click.echo(
        f"{len(samples['state'])} states; teacher {trained.sampling_seconds:.0f} s, fitting "
        f"{trained.fit_seconds:.0f} s; held out, the value's error {report['points_rmse']:.2f} "
        f"points against one greedy playout's {report['playout_rmse']:.2f} (spread "
        f"{report['points_sd']:.2f}); weights in {path}"
    )


@click.command("train-reading")
@click.option(
    "--games",
    type=click.IntRange(5),
    default=250,
    show_default=True,
    help="Classic four-player self-play games to learn from (about 112 bids each).",
)
@click.option("--seed", type=int, default=9001, show_default=True)
@_PROCESSES
@_file_option(
    "--data",
    "Keep the self-play bids here (JSON lines): read them if the file exists, else write them.",
)
@_file_option(
    "--out",
    "Where the model goes (default: the shipped ai/pocha/models/bid_reading.json).",
)
def train_reading(
    games: int, seed: int, processes: int | None, data: str | None, out: str | None
) -> None:
    """Train the model of how seats bid that the master level reads bids with (ISMCTS
    self-play, then least squares): the shipped one comes from the defaults."""
    import os
    import time
    from pathlib import Path

    from ai.pocha.reading import MODEL_PATH
    from ai.pocha.reading_training import BID_ITERATIONS, fit, generate

    def load(path: str) -> list[dict[str, Any]]:
        with open(path) as f:
            return [json.loads(line) for line in f]

    def save(path: str, bids: list[dict[str, Any]]) -> None:
        with open(path, "w") as f:
            f.writelines(json.dumps(b) + "\n" for b in bids)

    started = time.perf_counter()
    bids, read = _kept_or_played(
        data, "bids", lambda played: generate(games, seed, processes, played), load, save
    )
    generated = time.perf_counter()
    model = fit(bids, seed=seed)
    model["report"].update(
        {
            "self_play_games": games,
            "iterations": BID_ITERATIONS,
            "seed": seed,
            "processes": processes or os.cpu_count(),
            # None when the bids were read from --data rather than played now.
            "self_play_seconds": None if read else round(generated - started, 1),
            "fit_seconds": round(time.perf_counter() - generated, 1),
        }
    )
    path = Path(out) if out else MODEL_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(model, indent=1) + "\n")
    report = model["report"]
    click.echo(
        f"{report['bids']} bids; self-play {generated - started:.0f} s; "
        f"spread {model['spread']}, validation log-likelihood "
        f"{report['validation_log_likelihood']:.4f} (the estimate alone "
        f"{report['estimate_alone']['validation_log_likelihood']:.4f}); model in {path}"
    )


@click.command("train-location")
@click.option(
    "--games",
    type=click.IntRange(2),
    default=LOCATION_GAMES,
    show_default=True,
    help="Classic four-player self-play games to learn from (about 2,600 views each).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--epochs", type=click.IntRange(1), default=LOCATION_EPOCHS, show_default=True)
@_PROCESSES
@_file_option(
    "--data",
    "Keep the self-play views here (.npz): read them if the file exists, else write them.",
)
@_file_option(
    "--out",
    "Where the model goes (default: the shipped ai/pocha/models/location.npz).",
)
def train_location(
    games: int,
    seed: int,
    epochs: int,
    processes: int | None,
    data: str | None,
    out: str | None,
) -> None:
    """Train the model of where the unseen cards are that the ismcts-located bots deal
    by (ISMCTS self-play, then a perceptron): the shipped one comes from the defaults."""
    import os
    import time
    from pathlib import Path

    import numpy as np

    from ai.pocha.location import MODEL_PATH
    from ai.pocha.location_training import BID_ITERATIONS, PLAY_ITERATIONS, fit, generate

    def load(path: str) -> dict[str, np.ndarray]:
        with np.load(path) as f:
            return {k: f[k] for k in f.files}

    def save(path: str, views: dict[str, np.ndarray]) -> None:
        np.savez(path, **views)  # type: ignore[arg-type]

    started = time.perf_counter()
    views, read = _kept_or_played(
        data, "views", lambda played: generate(games, seed, processes, played), load, save
    )
    generated = time.perf_counter()

    def fitted(epoch: int, report: dict[str, float]) -> None:
        click.echo(
            f"epoch {epoch}/{epochs}: held-out log-likelihood {report['log_likelihood']:.4f}",
            err=True,
        )

    weights, report = fit(views, seed=seed, epochs=epochs, progress=fitted)
    path = Path(out) if out else MODEL_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **weights)  # type: ignore[arg-type]
    summary: dict[str, Any] = {
        **report,
        "self_play_games": games if not read else None,
        "views": len(views["x"]),
        "bid_iterations": BID_ITERATIONS,
        "play_iterations": PLAY_ITERATIONS,
        "seed": seed,
        "epochs": epochs,
        "processes": processes or os.cpu_count(),
        # None when the views were read from --data rather than played now.
        "self_play_seconds": None if read else round(generated - started, 1),
        "fit_seconds": round(time.perf_counter() - generated, 1),
    }
    path.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    click.echo(
        f"{len(views['x'])} views; self-play {generated - started:.0f} s; held-out "
        f"log-likelihood {report['log_likelihood']:.4f} a card (a uniform guess "
        f"{report['uniform_log_likelihood']:.4f}); model in {path}"
    )


@click.command("calibrate")
@click.option("--bot", default="heuristic", show_default=True, help="A bot or level.")
@click.option(
    "--against",
    default="hard",
    show_default=True,
    help="The bot or level in the other seats (a different one from --bot).",
)
@click.option(
    "--players",
    default="3,4,5,6,7,8",
    show_default=True,
    help="Comma-separated player counts.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Games (classic schedule) per rule set.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@_PROCESSES
@_AS_JSON
def calibrate(
    bot: str,
    against: str,
    players: str,
    games: int,
    seed: int,
    processes: int | None,
    as_json: bool,
) -> None:
    """A bot's mean bid against the mean tricks it takes, under every rule set (montar,
    fallar, pisar, 3 to 8 players), in one seat of a table of another bot."""
    from dataclasses import asdict

    from ai.pocha.calibration import calibrate as run_calibration

    try:
        counts = [int(p) for p in players.split(",") if p.strip()]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from exc
    with _progress_bar("rule sets", as_json) as progress:
        try:
            lines = run_calibration(bot, against, counts, games, seed, processes, progress)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps([asdict(c) | {"gap": round(c.gap, 4)} for c in lines], indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{bot} against {against}: bids against tricks taken, {games} games per set"
    )
    for col in ("players", "montar", "fallar", "pisar", "hands", "mean bid", "mean tricks",
                "bid - tricks", "exact bids", "score/hand"):  # fmt: skip
        table.add_column(col, justify="right")
    for c in lines:
        table.add_row(
            str(c.players),
            "on" if c.montar else "off",
            "on" if c.fallar else "off",
            "on" if c.pisar else "off",
            str(c.hands),
            f"{c.mean_bid:.2f}",
            f"{c.mean_tricks:.2f}",
            f"{c.gap:+.2f}",
            f"{c.exact_rate:.1%}",
            f"{c.mean_score:.2f}",
        )
    Console().print(table)


@click.command("decisions")
@click.option("--level", default="expert", show_default=True, help="A level (ai.pocha.levels).")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="Classic 4-player games, the level in every seat.")  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True)
def bench_decisions(level: str, games: int, seed: int) -> None:
    """A level's time per decision over whole games in one process: mean, p50, p90, p99
    and max, every decision counted (forced ones too)."""
    from ai.pocha.bench import decision_times, percentiles
    from ai.pocha.levels import LEVELS

    if level not in LEVELS:
        raise click.BadParameter(f"the levels are {', '.join(LEVELS)}", param_hint="--level")
    p = percentiles(decision_times(level, games, seed))
    click.echo(
        f"{level}: {p['decisions']:.0f} decisions, mean {p['mean']:.1f} ms, p50 {p['p50']:.1f} "
        f"ms, p90 {p['p90']:.1f} ms, p99 {p['p99']:.1f} ms, max {p['max']:.1f} ms"
    )


@click.command("arena-openspiel")
@click.option(
    "--bot",
    default="ismcts:equal",
    show_default=True,
    help="Our bot or level in one seat (as `pocha arena` reads it: expert, ismcts:1000, "
    "ismcts:250ms); a bot with the budget 'equal' (ismcts:equal) is given the iterations "
    "that take it as much CPU time per decision as OpenSpiel's bot, timed first.",
)
@click.option(
    "--opponent",
    type=click.Choice(["stock", "honest"]),
    default="honest",
    show_default=True,
    help="stock: OpenSpiel's C++ ISMCTS, whose resampler knows which cards are out of play; "
    "honest: its Python ISMCTS dealing the unseen cards from all it has not seen.",
)
@click.option(
    "--simulations", type=click.IntRange(1), default=1000, show_default=True,
    help="OpenSpiel's ISMCTS simulations per decision.",
)  # fmt: skip
@click.option(
    "--deals", type=click.IntRange(1), default=400, show_default=True,
    help="Deals to play; each in 4 seatings (ours in seat 0, 1, 2, 3; OpenSpiel's in the rest).",
)  # fmt: skip
@click.option(
    "--uct-c", type=click.FloatRange(0, min_open=True), default=2.0, show_default=True,
    help="OpenSpiel's exploration constant. Its returns are raw points (-25 to 35), so 2 "
    "explores little; ours explores as 25 would on that scale.",
)  # fmt: skip
@click.option(
    "--timing-deals", type=click.IntRange(1), default=3, show_default=True,
    help="Deals over which an 'equal' budget is timed (each side in every seat).",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@_PROCESSES
@_AS_JSON
@_file_option("--records", "Write game records (JSONL), each as its game ends.")
def arena_openspiel(
    bot: str,
    opponent: str,
    simulations: int,
    uct_c: float,
    deals: int,
    timing_deals: int,
    seed: int,
    processes: int | None,
    as_json: bool,
    records: str | None,
) -> None:
    """Our bot against OpenSpiel's ISMCTS at OpenSpiel's oh_hell table (4 players, 5 cards,
    the 40-card deck, Pocha's scoring), one of ours against three of theirs on duplicate
    deals: the difference per deal with its 95% interval."""
    try:
        from ai.pocha.openspiel_match import PARAMS, equal_iterations, run_match
    except ImportError as exc:  # pragma: no cover - the research extra is missing
        raise click.ClickException(f"{exc}: install pocha[research]") from exc

    timing = None
    name, _colon, budget = bot.partition(":")
    if budget == "equal":
        try:
            timing = equal_iterations(name, opponent, simulations, timing_deals, seed, uct_c=uct_c)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
        bot = f"{name}:{timing.iterations}"
        if not as_json:
            click.echo(f"OpenSpiel's {opponent} ISMCTS at {simulations} simulations: "
                       f"{timing.opponent_ms:.1f} ms CPU per decision; ours: {bot}",
                       err=True)  # fmt: skip
    out = open(records, "w") if records else None  # noqa: SIM115 - closed below

    def written(rec: dict[str, Any]) -> None:
        # Each game as it ends, so a run cut short keeps what it played.
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()

    try:
        stats, _recs = _play_arena(
            run_match, "games", as_json, None,
            bot, opponent, simulations, deals, seed=seed, processes=processes,
            on_record=written, uct_c=uct_c,
        )  # fmt: skip
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        if out:
            out.close()
    result: dict[str, Any] = {
        "game": {"name": "oh_hell", **PARAMS},
        "bot": bot,
        "opponent": opponent,
        "simulations": simulations,
        "uct_c": uct_c,
        "timing": None
        if timing is None
        else {
            "opponent_cpu_ms": round(timing.opponent_ms, 2),
            "ours_cpu_ms_at": {str(k): round(t, 2) for k, t in timing.probes},
            "iterations": timing.iterations,
        },
        "seed": seed,
        **stats.to_dict(),
    }
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    ci = "n/a" if stats.ci95 is None else f"{stats.ci95:.2f}"
    table = Table(
        title=f"{stats.deals} deals x 4 seatings at OpenSpiel's oh_hell: {bot} against "
        f"{opponent} ISMCTS ({simulations} simulations); ours - theirs per deal "
        f"{stats.difference:+.2f} ± {ci}",
        caption="score/hand: one game is one hand; ±95% over deals; CPU and wall ms: per "
        "decision that was not forced",
    )
    for col in ("side", "hands", "score/hand", "±95%", "exact bids", "CPU ms", "wall ms"):
        table.add_column(col, justify="left" if col == "side" else "right")
    for s in (stats.ours, stats.theirs):
        table.add_row(
            s.label,
            str(s.hands),
            f"{s.mean_score:.2f}",
            "n/a" if s.ci95 is None else f"{s.ci95:.2f}",
            f"{s.exact_rate:.1%}",
            f"{s.cpu_ms_per_decision:.1f}",
            f"{s.ms_per_decision:.1f}",
        )
    Console().print(table)
