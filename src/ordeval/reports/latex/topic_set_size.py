"""LaTeX fragment of the topic set size table (Sakai, Information Retrieval Journal 19(3), 2016; see
:mod:`ordeval.stats.topic_set_size`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ordeval.io.table import Table
from ordeval.reports.latex import escape, tabular

DESIGN_HEADINGS = {"paired_t": "paired $t$", "anova": "ANOVA", "ci": "CI"}


def topic_set_size_latex(table: Table, labels: Mapping[str, str] | None = None, note: str = "") -> str:
    """One row per measure and minimum detectable difference: the residual variance, the difference, and
    the topics each design needs (columns in the order the table has them). ``labels``: trusted LaTeX of
    the measures (else their escaped names); ``note`` (LaTeX, :func:`topic_set_size_note`) under the table."""
    labels = labels or {}
    records = table.records()
    designs = list(dict.fromkeys(row["design"] for row in records))
    runs = sorted({int(row["runs"]) for row in records if row["design"] == "anova"})
    headings = []
    for design in designs:
        heading = DESIGN_HEADINGS.get(design, escape(design))
        if design == "anova" and len(runs) == 1:
            heading += f" ($m = {runs[0]}$)"
        headings.append(heading)
    header = ["Measure", r"$\hat{\sigma}^2$", "minD", *headings]
    cells: dict[tuple[str, float], dict[str, str]] = {}
    variances: dict[str, float] = {}
    for row in records:
        variances[row["measure"]] = row["residual_variance"]
        topics = str(int(row["topics"]))
        if row["design"] == "anova" and len(runs) > 1:
            topics += f" ($m = {int(row['runs'])}$)"
        cells.setdefault((row["measure"], float(row["mdd"])), {})[row["design"]] = topics
    rows, rules, previous = [], [], None
    for (measure, mdd), by_design in cells.items():
        if previous is not None and measure != previous:
            rules.append(len(rows) - 1)
        first = measure != previous
        rows.append(
            [
                labels.get(measure, escape(measure)) if first else "",
                f"{variances[measure]:.3g}" if first else "",
                f"{mdd:.4g}",
                *(by_design.get(design, "-") for design in designs),
            ]
        )
        previous = measure
    if not rows:
        rows = [[rf"\multicolumn{{{len(header)}}}{{l}}{{no measure}}"]]
    return tabular(header, rows, "lrr" + "r" * len(designs), rules_after=rules, note=note)


def topic_set_size_note(table: Table, fractions: Sequence[float] = (0.05, 0.10, 0.20)) -> str:
    """The note under a topic set size table (LaTeX): the alpha and power found in it (power: of the paired t-test
    and ANOVA rows) and the ``fractions`` of each measure's observed score range that minD is (the table's
    ``mdd_fractions``)."""
    records = table.records()
    alphas = sorted({float(row["alpha"]) for row in records})
    powers = sorted({float(row["power"]) for row in records if row["design"] != "ci"})
    shares = _listed([rf"{100 * fraction:g}\%" for fraction in fractions]) if fractions else "-"
    return (
        rf"$\alpha = {', '.join(f'{a:g}' for a in alphas) or '-'}$, power "
        rf"$= {', '.join(f'{p:g}' for p in powers) or '-'}$; minD: {shares} of the score range."
    )


def _listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
