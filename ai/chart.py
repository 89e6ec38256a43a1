"""Charts of an arena run (``--plot``): each bot's running total over the hands, or Poch's
deals, with its 95% band, as PNG or SVG by the file's extension, drawn on Agg without pyplot
(no window, no global state); matplotlib is the optional ``pocha[plot]`` extra, and
``check_plot`` refuses a run before it plays for minutes when no chart could be written."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from ai.stats import Curve

FORMATS = (".png", ".svg")

INSTALL = (
    "--plot needs matplotlib, which is not installed: in this checkout "
    "`UV_PROJECT_ENVIRONMENT=.venv .venv/bin/uv sync --locked --inexact --extra plot`, "
    "elsewhere `pip install 'matplotlib>=3.9,<4'` (the plot extra, pocha[plot])"
)


class ChartError(Exception):
    """A chart cannot be written: matplotlib is missing or the file's name is wrong."""


def check_plot(path: str) -> None:
    """Raise ChartError, saying why, unless a chart can be written to ``path``."""
    if Path(path).suffix.lower() not in FORMATS:
        raise ChartError(f"--plot {path}: the chart is written as PNG or SVG, by the "
                         f"file's extension: name it .png or .svg")  # fmt: skip
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ChartError(INSTALL) from None


def draw_totals(curves: Sequence[Curve], path: str, title: str, step: str, total: str) -> None:
    """Write a chart of ``curves``: each bot's running total (``total``, the y axis' label)
    over the ``step``s (the x axis' label, from 1), its 95% interval as a band around it
    and as a bar at the end.
    The bots' names are in the legend and in the file's metadata."""
    check_plot(path)
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.rcsetup import cycler
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(9, 5.5), dpi=110, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_prop_cycle(cycler(color=["#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]))  # fmt: skip
    for curve in curves:
        steps = range(1, len(curve.totals) + 1)
        last = curve.totals[-1] if curve.totals else 0.0
        width = curve.half_widths[-1] if curve.half_widths else None
        interval = "" if width is None else f" ± {width:,.0f}"
        (line,) = axes.plot(steps, curve.totals, linewidth=1.6,
                            label=f"{curve.bot}: {last:+,.0f}{interval}")  # fmt: skip
        bands = [
            (math.nan, math.nan) if w is None else (t - w, t + w)
            for t, w in zip(curve.totals, curve.half_widths, strict=True)
        ]
        axes.fill_between(
            steps,
            [b[0] for b in bands],
            [b[1] for b in bands],
            color=line.get_color(),
            alpha=0.18,
            linewidth=0,
        )
        if width is not None:
            # The last interval, the table's, even where too few deals drew a band.
            axes.errorbar(len(curve.totals), last, yerr=width, color=line.get_color(),
                          capsize=4, linewidth=1.2)  # fmt: skip
    axes.axhline(0, color="0.6", linewidth=0.8)
    axes.set_title(title)
    axes.set_xlabel(step)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel(total)
    axes.grid(True, color="0.9")
    # Room on the right for the bars at the end.
    longest = max((len(curve.totals) for curve in curves), default=1)
    axes.set_xlim(1, longest + max(1.0, longest * 0.015))
    axes.legend(loc="best", title="bot: total ± 95%")
    names = ", ".join(curve.bot for curve in curves)
    suffix = Path(path).suffix.lower()
    metadata = {"Title": title, "Description": f"bots: {names}"}
    # Text as text in an SVG (not outlines), so that it can be searched and read aloud.
    with rc_context({"svg.fonttype": "none"}):
        figure.savefig(path, format=suffix[1:], metadata=metadata)
