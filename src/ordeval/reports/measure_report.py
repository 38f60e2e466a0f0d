"""One measure's meta-evaluation, next to the established measures of its task: what a measure designer
pastes into a paper (``ordeval evaluate-measure``; rule ``measure_report``).

Nothing is computed twice: :func:`build_report` reads the tables the pipeline's stages wrote (ranking
agreement with CIs and average similarity, consistency with the randomised Tukey HSD, discriminative
power, topic set size) and the property checks of :mod:`ordeval.properties`, and picks out the measure's
rows and its rank among the measures of each table. :func:`markdown`, :func:`html` and :func:`latex`
lay the same :class:`MeasureReport` out; every table names the data origin of its numbers.
"""

from __future__ import annotations

import html as html_module
from collections.abc import Mapping
from dataclasses import dataclass, field

from ordeval.io.table import Table


@dataclass
class Section:
    title: str
    text: str
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class MeasureReport:
    measure: str
    display: str
    task: str
    direction: str
    formula: str
    reference: str
    sections: list[Section]


def _number(value, digits: int = 3) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return "-" if number != number else f"{number:.{digits}f}"


def _rank(values: Mapping[str, float], measure: str, higher_first: bool = True) -> str:
    """``r/n``: the measure's rank among ``values`` (1 best)."""
    if measure not in values:
        return "-"
    ordered = sorted(values, key=lambda name: -values[name] if higher_first else values[name])
    return f"{ordered.index(measure) + 1}/{len(ordered)}"


def agreement_section(measure: str, tables: Mapping[str, Table]) -> Section:
    """Kendall's tau (with its CI) between the measure's run ranking and each other measure's, per data set."""
    rows = []
    for dataset, table in tables.items():
        for row in table.records():
            if measure not in (row["measure_a"], row["measure_b"]):
                continue
            other = row["measure_b"] if row["measure_a"] == measure else row["measure_a"]
            interval = f"[{_number(row['ci_low'])}, {_number(row['ci_high'])}]"
            rows.append([dataset, other, _number(row["tau"]), interval, row.get("data_origin", "")])
    return Section(
        "Ranking agreement",
        "Kendall's tau between the run rankings of this measure and each other "
        "measure, with the agreement tables' CIs.",
        ["data set", "measure", "tau", "CI", "data origin"],
        rows,
    )


def similarity_section(measure: str, table: Table) -> Section:
    """The measure's average similarity (mean tau with the others) per data set, and its rank."""
    records = table.records()
    columns = [c for c in table.columns if c not in ("measure", "data_origin")]
    rows = []
    for column in columns:
        values = {row["measure"]: float(row[column]) for row in records}
        mine = values.get(measure, float("nan"))
        rows.append([column, _number(mine), _rank(values, measure), records[0].get("data_origin", "")])
    return Section(
        "Average similarity",
        "Mean tau of the measure with every other measure, and its rank among "
        "the measures (1: the most similar to the others).",
        ["data set", "similarity", "rank", "data origin"],
        rows,
    )


def consistency_section(measure: str, tables: Mapping[tuple[str, str], Table]) -> Section:
    """Mean tau over random topic splits per data set and condition, rank, and the HSD comparisons."""
    rows = []
    for (dataset, condition), table in tables.items():
        records = table.records()
        values = {row["measure"]: float(row["mean_tau"]) for row in records}
        beaten = {row["measure"]: set(str(row["outperforms"]).split()) for row in records}
        mine = beaten.get(measure, set())
        above = sorted(name for name, them in beaten.items() if measure in them)
        rows.append(
            [
                dataset,
                condition,
                _number(values.get(measure, float("nan")), 4),
                _rank(values, measure),
                str(len(mine)),
                ", ".join(above) or "none",
                records[0].get("data_origin", "") if records else "",
            ]
        )
    return Section(
        "System ranking consistency",
        "Mean Kendall's tau between the run rankings on two random topic "
        "sets (halves; two subsets of 10 topics), its rank among the measures, how many measures it "
        "significantly outperforms and which significantly outperform it (randomised Tukey HSD).",
        ["data set", "condition", "mean tau", "rank", "outperforms", "outperformed by", "data origin"],
        rows,
    )


def power_section(measure: str, table: Table) -> Section:
    """Discriminative power per data set and pooled, and the rank."""
    rows = []
    by_dataset: dict[str, dict[str, float]] = {}
    origin: dict[str, str] = {}
    counts: dict[str, tuple[str, str]] = {}
    for row in table.records():
        by_dataset.setdefault(row["dataset"], {})[row["measure"]] = float(row["percent"])
        origin[row["dataset"]] = row.get("data_origin", "")
        if row["measure"] == measure:
            counts[row["dataset"]] = (str(row["significant"]), str(row["pairs"]))
    for dataset, values in by_dataset.items():
        if measure in values:
            significant, pairs = counts[dataset]
            rows.append(
                [
                    dataset,
                    _number(values[measure], 1),
                    f"{significant}/{pairs}",
                    _rank(values, measure),
                    origin[dataset],
                ]
            )
    return Section(
        "Discriminative power",
        "Run pairs significantly different under the randomised Tukey HSD, "
        "and the rank among the measures (1: the most discriminative).",
        ["data set", "%", "pairs", "rank", "data origin"],
        rows,
    )


def topic_set_size_section(measure: str, tables: Mapping[str, Table]) -> Section:
    """Topics needed (paired t-test) at each minimum detectable difference, and the residual variance; the
    rank compares the measures at the same fraction of their score ranges (the k-th difference of each)."""
    rows = []
    for dataset, table in tables.items():
        by_measure: dict[str, list[dict]] = {}
        for row in table.records():
            if row["design"] == "paired_t":
                by_measure.setdefault(row["measure"], []).append(row)
        for k, row in enumerate(by_measure.get(measure, [])):
            peers = {name: float(found[k]["topics"]) for name, found in by_measure.items() if len(found) > k}
            rows.append(
                [
                    dataset,
                    _number(row["mdd"], 4),
                    str(row["topics"]),
                    _rank(peers, measure, False),
                    f"{float(row['residual_variance']):.3g}",
                    row.get("data_origin", ""),
                ]
            )
    return Section(
        "Topic set size",
        "Topics a paired t-test needs (alpha 0.05, power 0.8) to detect each minimum "
        "detectable difference (a fraction of the measure's score range), from the residual variance of "
        "the two-way ANOVA; rank 1: the fewest topics among the measures at the same fraction.",
        ["data set", "mdd", "topics", "rank", "residual variance", "data origin"],
        rows,
    )


def properties_section(results: Mapping) -> Section:
    """Each property check: holds or violated, with the example it found."""
    rows = []
    for name, result in results.items():
        verdict = "holds" if result.holds else "violated"
        example = str(result.example) if getattr(result, "example", None) is not None else ""
        rows.append([name, verdict, example[:300]])
    return Section(
        "Properties (computed)",
        "Each property checked on its defining cases and seeded random "
        "instances (ordeval.properties): the smallest counterexample or witness found.",
        ["property", "verdict", "example"],
        rows,
    )


def _read(path, numeric=()) -> Table:
    """A table of the pipeline with its ``data_origin`` column."""
    return Table.read(path, sep=",", numeric=list(numeric))


def build_report(measure, files: Mapping, properties: Mapping) -> MeasureReport:
    """The report of registry entry ``measure`` from the pipeline's tables: ``files`` holds ``agreement``
    ({data set: CSV}), ``similarity`` (CSV), ``consistency`` ({(data set, condition): CSV}), ``power``
    (CSV), ``topic_set_size`` ({data set: CSV}); ``properties``: :func:`ordeval.properties.check_measure`."""
    numeric = ["tau", "ci_low", "ci_high"]
    name = measure.name
    sections = [
        properties_section(properties),
        agreement_section(name, {d: _read(p, numeric) for d, p in files["agreement"].items()}),
        similarity_section(name, _read(files["similarity"])),
        consistency_section(name, {key: _read(path) for key, path in files["consistency"].items()}),
        power_section(name, _read(files["power"])),
        topic_set_size_section(name, {d: _read(p) for d, p in files["topic_set_size"].items()}),
    ]
    return MeasureReport(
        name, measure.display, measure.task, measure.direction, measure.formula.strip(), measure.reference, sections
    )


def write_measure_report(
    name: str,
    task: str,
    files: Mapping,
    outputs: Mapping,
    *,
    plugins=(),
    property_instances: int = 2000,
    seed: int = 0,
) -> MeasureReport:
    """The report of measure ``name`` of ``task`` (a plugin's too: ``plugins``, the files that register it) from
    the pipeline's tables (``files``, as :func:`build_report` takes them) and its property checks
    (:func:`ordeval.properties.check_measure`, ``property_instances`` seeded random instances per property).
    ``outputs``: ``md``, ``html``, ``tex``."""
    from ordeval.io.files import write_text
    from ordeval.properties import check_measure
    from ordeval.tasks import get_task
    from ordeval.tasks.plugins import load_plugins

    load_plugins(plugins)
    measure = get_task(task).registry[name]
    report = build_report(measure, files, check_measure(measure, trials=property_instances, seed=seed))
    write_text(markdown(report), outputs["md"])
    write_text(html(report), outputs["html"])
    write_text(latex(report), outputs["tex"])
    return report


# --------------------------------------------------------------------------- layouts


def markdown(report: MeasureReport) -> str:
    lines = [
        f"# {report.display} ({report.measure}): meta-evaluation",
        "",
        f"Task: {report.task}. Direction: {report.direction}."
        + (f" Reference: {report.reference}." if report.reference else ""),
        "",
        "```",
        report.formula or "(no formula given)",
        "```",
        "",
    ]
    for section in report.sections:
        lines += [f"## {section.title}", "", section.text, ""]
        if not section.rows:
            lines += ["(no rows: the measure is not in this analysis)", ""]
            continue
        lines.append("| " + " | ".join(section.header) + " |")
        lines.append("|" + "---|" * len(section.header))
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in section.rows]
        lines.append("")
    return "\n".join(lines)


def html(report: MeasureReport) -> str:
    """A self-contained page (no script, no network)."""
    escape = html_module.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(report.measure)}: meta-evaluation</title>",
        "<style>body{font-family:sans-serif;max-width:70em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:2px 6px;text-align:left}pre{background:#f4f4f4;padding:1em}"
        "</style></head><body>",
        f"<h1>{escape(report.display)} ({escape(report.measure)}): meta-evaluation</h1>",
        f"<p>Task: {escape(report.task)}. Direction: {escape(report.direction)}."
        + (f" Reference: {escape(report.reference)}." if report.reference else "")
        + "</p>",
        f"<pre>{escape(report.formula or '(no formula given)')}</pre>",
    ]
    for section in report.sections:
        parts += [f"<h2>{escape(section.title)}</h2>", f"<p>{escape(section.text)}</p>"]
        if not section.rows:
            parts.append("<p>(no rows: the measure is not in this analysis)</p>")
            continue
        parts.append("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in section.header) + "</tr></thead>")
        parts.append(
            "<tbody>"
            + "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in section.rows)
            + "</tbody></table>"
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def latex(report: MeasureReport) -> str:
    """A standalone LaTeX document (compiled into the PDF with :func:`ordeval.reports.latex.report.compile_pdf`)."""
    from ordeval.reports.latex import escape
    from ordeval.reports.latex.layout import PREAMBLE

    lines = [
        PREAMBLE,
        rf"\title{{{escape(report.display + ' (' + report.measure + '): meta-evaluation')}}}",
        r"\author{}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
        escape(f"Task: {report.task}. Direction: {report.direction}.")
        + (escape(f" Reference: {report.reference}.") if report.reference else ""),
        r"\begin{verbatim}",
        _verbatim(report.formula or "(no formula given)"),
        r"\end{verbatim}",
    ]
    for section in report.sections:
        lines += [rf"\section*{{{escape(section.title)}}}", escape(section.text), ""]
        if not section.rows:
            lines.append(escape("(no rows: the measure is not in this analysis)"))
            continue
        widths = [max(len(row[i]) for row in [section.header, *section.rows]) for i in range(len(section.header))]
        spec = "".join(r"p{7cm}" if width > 40 else "l" for width in widths)  # long texts wrap
        lines += [
            r"{\small\begin{longtable}{" + spec + "}",
            r"\toprule",
            " & ".join(escape(h) for h in section.header) + r" \\",
            r"\midrule",
        ]
        lines += [" & ".join(escape(cell) for cell in row) + r" \\" for row in section.rows]
        lines += [r"\bottomrule", r"\end{longtable}}"]
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def _verbatim(text: str) -> str:
    """Text safe inside a verbatim environment (no line that ends it), ASCII-folded lines kept short."""
    return "\n".join(line.replace(r"\end{verbatim}", r"\end {verbatim}")[:110] for line in text.splitlines())
