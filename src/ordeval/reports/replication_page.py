"""The published-versus-reproduced page: ``tables/replication/published_vs_reproduced.html``, one self-contained
file (inline CSS, no script, no network) that a replicator reads first: the counts per verdict of every published
number, the counts per published table, then per data set every published number beside the reproduced one with
its verdict next to it, wide and legible (the HTML report links it from its first page).

Statistics and measures are named as the papers print them (:data:`STATISTIC_TEXT`, the registries' display
names); every text from the data is HTML-escaped. The same tables give the same bytes.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path

from ordeval.io.files import write_text
from ordeval.io.table import Table
from ordeval.results.replication import VERDICT_MEANINGS, VERDICTS, shown, total_counts, verdict_column

#: Each statistic as the papers print it (HTML).
STATISTIC_TEXT = {
    "tau_a": "Kendall's &tau;",
    "tau_ci_low": "&tau;: lower bound of the 95% CI",
    "tau_ci_high": "&tau;: upper bound of the 95% CI",
    "consistency_mean_tau_half": "mean &tau; over random halves of the topics",
    "consistency_mean_tau_10v10": "mean &tau; over random 10 vs 10 topic sets",
    "consistency_ve2_half": "VE2 of the halves' &tau;s",
    "consistency_ve2_10v10": "VE2 of the 10 vs 10 &tau;s",
    "dp_significant": "run pairs significant at &alpha; = 0.05 (randomised Tukey HSD)",
    "dp_pairs": "run pairs compared",
    "official_MAE_M": "official MAE<sup>M</sup>",
    "official_MAE_mu": "official MAE<sup>&mu;</sup>",
    "official_EMD": "official EMD",
    "prefers_uniform": "dialogues on which the measure prefers Uniform",
    "prefers_popularity": "dialogues on which the measure prefers Popularity",
}
#: CSS class of each verdict.
VERDICT_CLASS = {
    "exact": "exact",
    "within randomisation error": "within",
    "differs": "differs",
    "fixed by the set-up": "setup",
    "not comparable": "nc",
}

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;max-width:90em;padding:0 1.5em;
color:#1b1b1b;line-height:1.45;font-size:16px}
h1{font-size:1.6em}h2{font-size:1.3em;margin-top:2em}h3{font-size:1.05em;margin:1.4em 0 .4em}
table{border-collapse:collapse;width:100%;margin:.4em 0 1em}table.numbers{width:auto;min-width:60%}
th,td{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.counts{width:auto}table.counts td.num{font-size:1.2em;font-weight:600}
.verdict{display:inline-block;padding:0 .5em;border-radius:.6em;white-space:nowrap;font-size:.95em}
.exact{background:#d8f0d8}.within{background:#e3ecfa}.differs{background:#f8d4d4;font-weight:700}
.nc{background:#eee;color:#555}.setup{background:#f3ecd8;color:#555}td.unrounded{color:#666}.origin{font-weight:600}td.note{color:#555;font-size:.92em}
"""


def _text(value) -> str:
    return html.escape(str(value), quote=True)


def _verdict(verdict: str) -> str:
    return f'<span class="verdict {VERDICT_CLASS.get(verdict, "nc")}">{_text(verdict)}</span>'


def counts_table(counts: Mapping[str, int]) -> str:
    """The counts per verdict of every published number (HTML)."""
    rows = "".join(
        f'<tr><td>{_verdict(verdict)}</td><td class="num">{counts.get(verdict, 0)}</td></tr>' for verdict in VERDICTS
    )
    return f'<table class="counts"><tbody>{rows}</tbody></table>'


def _summary_section(summary: Table) -> str:
    head = "".join(
        f"<th>{_text(name)}</th>" for name in ("Published table", "Data set", *VERDICTS, "Numbers", "Data origin")
    )
    rows = []
    for record in summary.records():
        cells = [_text(record["source"]), _text(record["dataset"])]
        cells += [f'<span class="num">{int(record[verdict_column(v)])}</span>' for v in VERDICTS]
        cells += [str(int(record["numbers"])), _text(record.get("data_origin", ""))]
        numeric = range(2, 3 + len(VERDICTS))
        rows.append(
            "<tr>"
            + "".join(f"<td{' class=num' if i in numeric else ''}>{c}</td>" for i, c in enumerate(cells))
            + "</tr>"
        )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _numbers_section(table: Table, names: Mapping[str, str]) -> str:
    """One data set's numbers: a block per published table and statistic, each number with its verdict beside it."""
    blocks: dict[tuple[str, str], list[dict]] = {}
    for record in table.records():
        blocks.setdefault((record["source"], record["statistic"]), []).append(record)
    parts = []
    head = "".join(
        f"<th>{name}</th>"
        for name in ("Measures / run", "Published", "Reproduced", "Verdict", "Unrounded", "Difference", "Note")
    )
    for (source, statistic), block in blocks.items():
        rows = []
        for record in block:
            label = " / ".join(_text(names.get(part, part)) for part in (record["a"], record["b"]) if part) or "-"
            texts = {key: _text(value) for key, value in shown(record).items()}
            rows.append(
                f"<tr><td>{label}</td><td class=num>{texts['published']}</td><td class=num>{texts['reproduced']}</td>"
                f"<td>{_verdict(record['verdict'])}</td><td class='num unrounded'>{texts['unrounded']}</td>"
                f"<td class=num>{texts['difference']}</td><td class=note>{_text(record.get('note', ''))}</td></tr>"
            )
        statistic_text = STATISTIC_TEXT.get(statistic, _text(statistic))
        parts.append(
            f"<h3>{_text(source)}: {statistic_text}</h3><table class=numbers><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
    return "".join(parts)


def replication_page(
    title: str, summary: Table, tables: Mapping[str, Table], names: Mapping[str, str], origins: Mapping[str, str]
) -> str:
    """The page (HTML text): the counts per verdict, the counts per published table, then each data set's numbers
    (``tables``: data set -> its table of :func:`ordeval.results.replication.verdicts`, with ``data_origin``);
    ``names``: display names of the measures, ``origins``: data set -> data origin."""
    counts = total_counts(summary)
    meanings = "; ".join(f"<b>{_text(verdict)}</b>: {_text(VERDICT_MEANINGS[verdict])}" for verdict in VERDICTS)
    index = " &middot; ".join(f'<a href="#{_text(name)}">{_text(name)}</a>' for name in tables)
    sections = "".join(
        f'<h2 id="{_text(name)}">{_text(name)} <span class="origin">({_text(origins.get(name, ""))} data)</span></h2>'
        + _numbers_section(table, names)
        for name, table in tables.items()
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_text(title)}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_STYLE}</style></head><body>'
        f"<h1>{_text(title)}</h1>"
        f"<p>Every number that the replicated publications print for the data sets of this configuration, beside "
        f"the number reproduced here. Of the {counts['numbers']} published numbers:</p>{counts_table(counts)}"
        f"<p>{meanings}. The reproduced number is shown rounded to the precision the paper prints, so that the "
        "verdict can be read off the two; <i>Unrounded</i> is the reproduced number with three decimals more.</p>"
        f"<h2>Per published table</h2>{_summary_section(summary)}"
        f"<h2>Every number, per data set</h2><p>{index}</p>{sections}"
        "</body></html>\n"
    )


def write_replication_page(
    path: str | Path,
    title: str,
    summary: Table,
    tables: Mapping[str, Table],
    names: Mapping[str, str],
    origins: Mapping[str, str],
) -> None:
    """Write :func:`replication_page` to ``path`` (atomically)."""
    write_text(replication_page(title, summary, tables, names, origins), path)


def measure_names() -> dict[str, str]:
    """Display names of the registered measures (the page names measures as the papers print them)."""
    from ordeval.tasks import all_tasks

    names = {}
    for task in all_tasks():
        for name in task.registry:
            names.setdefault(name, task.registry[name].display)
    return names
