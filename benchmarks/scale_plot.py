"""Plot of cost (wall time, peak memory) against size for the scale benchmarks: ``results/scale.png``.

    python benchmarks/scale_plot.py

Reads every ``results/*_scale.json`` (one per analysis) and draws one row of two panels (time, peak
memory; log-log) per analysis, with the targets as dashed lines. ``consistency_scale.py`` calls it after
writing ``results/consistency_scale.json``.

Adding an analysis (``scoring_scale.py`` writes ``results/scoring_scale.json`` and
``results/popularity_examples_scale.json``): write ``results/<analysis>_scale.json`` with the same schema and it is
drawn too::

    {"analysis": "scoring", "size_name": "topics",
     "rows": [{"size": 100, "seconds": ..., "peak_mib": ...}, ...],
     "targets": {"seconds": {"<size>": limit, ...}, "peak_mib": {"<size>": limit, ...}}}

Uses matplotlib's object API (matplotlib.figure.Figure) and the Agg canvas: no display needed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from _common import RESULTS
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def plot_scale(results: list[dict], path: Path) -> Path:
    """Draw the scale results (one dict per analysis, schema above) into ``path`` (PNG)."""
    figure = Figure(figsize=(9, 3.4 * len(results)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(len(results), 2, squeeze=False)
    for row_axes, result in zip(axes, results, strict=True):
        sizes = [row["size"] for row in result["rows"]]
        for axis, key, label in zip(
            row_axes, ("seconds", "peak_mib"), ("wall time (s)", "peak RSS (MiB)"), strict=True
        ):
            values = [row[key] for row in result["rows"]]
            axis.plot(sizes, values, marker="o", label=result["analysis"])
            for size, value in zip(sizes, values, strict=True):
                axis.annotate(f"{value:.3g}", (size, value), textcoords="offset points", xytext=(4, 4), fontsize=8)
            targets = result.get("targets", {}).get(key, {})  # by size; a single limit (runs_scale) is not drawn
            for size, limit in targets.items() if isinstance(targets, dict) else ():
                axis.plot([float(size)], [limit], marker="_", markersize=18, color="tab:red", linestyle="none")
                axis.annotate(
                    f"target {limit:.0f}",
                    (float(size), limit),
                    textcoords="offset points",
                    xytext=(4, -10),
                    fontsize=8,
                    color="tab:red",
                )
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlabel(result.get("size_name", "size"))
            axis.set_ylabel(label)
            axis.set_title(f"{result['analysis']}: {label}", fontsize=10)
            axis.grid(True, which="both", alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    return path


def main() -> int:
    results = [json.loads(path.read_text()) for path in sorted(RESULTS.glob("*_scale.json"))]
    if not results:
        print(f"no {RESULTS}/*_scale.json yet: run benchmarks/consistency_scale.py first", file=sys.stderr)
        return 1
    print(f"wrote {plot_scale(results, RESULTS / 'scale.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
