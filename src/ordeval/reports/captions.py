"""The captions of Snakemake's HTML report (reStructuredText, rendered by the report through Jinja first).

A rule output shown in the report has one caption file (Snakemake's ``report()`` takes one caption per output
of a rule, whatever its wildcards); for an output over ``{dataset}`` (or a task's ``{task_suffix}``, a DNKT
``{measure}``) the file holds the caption of each of its files, each in a Jinja ``if`` on the wildcards, so
that every file shows its own caption -- and a table, its own rows (the report would otherwise offer the CSV as
a download only).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: Rows of a table shown in the HTML report (the whole table is attached as CSV).
REPORT_TABLE_ROWS = 200


def rst_text(text: str) -> str:
    """Plain text as reStructuredText (inline markup characters escaped, one paragraph)."""
    for character in "\\*`_|":
        text = text.replace(character, "\\" + character)
    return " ".join(text.split()) + "\n"


def _cell(value: str) -> str:
    """A CSV cell for display: long decimals shortened to four places, markup escaped."""
    try:
        number = float(value)
    except ValueError:
        return rst_text(value).rstrip("\n")
    if "." in value and math.isfinite(number) and len(value.split(".")[-1]) > 4:
        return f"{number:.4f}"
    return value


def _table_rst(table_text: str, source: str, max_rows: int) -> list[str]:
    """The CSV ``table_text`` as an reStructuredText ``csv-table`` (its first ``max_rows`` rows; the
    full table is the attached file), as lines."""
    rows = list(csv.reader(io.StringIO(table_text)))
    if len(rows) < 2:  # no header, or no row under it: docutils draws no table of a header alone
        return ["(no rows)"]
    header, body = rows[0], rows[1:]
    shown = body[:max_rows]
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for row in [header, *shown]:
        writer.writerow([_cell(value) for value in row])
    lines = [".. csv-table::", "   :header-rows: 1", ""]
    lines += ["   " + line for line in buffer.getvalue().splitlines()]
    if len(body) > len(shown):
        lines += ["", rst_text(f"The first {len(shown)} of {len(body)} rows; the attached {source} has them all.")]
    return lines


def table_caption(caption: str, table_text: str, source: str, max_rows: int) -> str:
    """``caption`` followed by the table (the CSV text ``table_text`` of file ``source``), kept literal
    (``raw``) through the Jinja that Snakemake's report renders every caption with first: a cell such
    as a run name with ``{{`` is shown as it is."""
    table = ["{% raw %}", "", *_table_rst(table_text, source, max_rows), "", "{% endraw %}"]
    lines = [rst_text(caption).rstrip("\n"), "", *table]
    return "\n".join(lines).rstrip("\n") + "\n"


@dataclass(frozen=True)
class CaptionBlock:
    """The caption of one file of a rule output: the wildcards that pick it (empty: the output has none), its
    text, and the text of the CSV table it shows (``table_text``, from file ``table_name``), if any."""

    wildcards: Mapping[str, str]
    text: str
    table_text: str | None = None
    table_name: str = ""


def caption_document(blocks: Sequence[CaptionBlock], max_rows: int = REPORT_TABLE_ROWS) -> str:
    """One caption file: each block in a Jinja ``if`` on its wildcards (``snakemake.wildcards``), or the one
    block as it is where the output has no wildcards."""
    parts = []
    for block in blocks:
        if block.table_text is None:
            body = rst_text(block.text)
        else:
            body = table_caption(block.text, block.table_text, block.table_name, max_rows)
        if not block.wildcards:
            parts.append(body)
            continue
        test = " and ".join(f"snakemake.wildcards.{name} == {value!r}" for name, value in block.wildcards.items())
        parts.append(f"{{% if {test} %}}\n\n{body}\n{{% endif %}}\n")
    return "".join(parts)


#: What ordeval is, the first paragraph of the HTML report.
REPORT_ABOUT = (
    "ordeval meta-evaluates evaluation measures for ordinal classification (OC: one gold class per item, items "
    "grouped into topics) and ordinal quantification (OQ: a gold distribution per topic): it scores every run of "
    "each data set per topic with the measures of the configuration and studies how the measures behave -- "
    "ranking agreement (Kendall's τ with CIs), ranking consistency over random topic splits, discriminative "
    "power, significance overlap and contradictions under the randomised Tukey HSD, Popularity vs Uniform, "
    "leaderboards with significance groups, and the topics a test collection needs."
)


def origin_paragraph(origins: Mapping[str, str]) -> str:
    """What is real and what is simulated in this configuration, in words (one sentence or two)."""
    kinds = {origin: [name for name, value in origins.items() if value == origin] for origin in set(origins.values())}
    if set(kinds) == {"synthetic"}:
        return (
            "Every data set of this configuration is synthetic: simulated gold and simulated runs, with the "
            "shapes of the real ones; its numbers describe the simulation, not the official evaluations."
        )
    if set(kinds) == {"real"}:
        return (
            "Every data set of this configuration is real: official gold, official runs and baselines computed "
            "from the gold."
        )
    parts = []
    for origin, text in (
        ("real", "real (official gold and runs)"),
        ("partly synthetic", "partly synthetic (real gold, some runs simulated)"),
        ("synthetic", "synthetic (simulated gold and runs)"),
    ):
        if kinds.get(origin):
            parts.append(f"{text}: {', '.join(kinds[origin])}")
    return "Data sets " + "; ".join(parts) + "."


def report_intro(
    name: str, seed: int, origins: Mapping[str, str], counts: Mapping[str, int] | None = None, page: str = ""
) -> str:
    """The first page of Snakemake's HTML report (reStructuredText, rendered through Jinja): what ordeval is, the
    configuration and where its data come from; with a replication (``counts`` per verdict), the counts and a
    link that opens the published-versus-reproduced page (``page``: its path, as the report keys its results)
    in the main view."""
    about = [
        rst_text(REPORT_ABOUT),
        rst_text(
            f"Configuration '{name}', seed {seed}. {origin_paragraph(origins)} "
            "Each table's data_origin column, each caption and a note on each figure say the same."
        ),
        "",
    ]
    lines = []
    if counts:  # a replicator's first question first
        from ordeval.results.replication import VERDICTS

        lines += [
            rst_text(f"Published versus reproduced: {counts['numbers']} published numbers."),
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "",
            "   * - verdict",
            "     - numbers",
        ]
        for verdict in VERDICTS:
            lines += [f"   * - {verdict}", f"     - {counts.get(verdict, 0)}"]
        key = page.replace("\\", "\\\\").replace("'", "\\'")
        link = (
            f'<p><a id="replication-page" href="#" onclick="app.setView({{content: \'html\', contentPath: '
            f"results['{key}'].data_uri, resultPath: '{key}'}}); return false;\">Open every published number "
            "beside the reproduced one</a> (tables/replication/published_vs_reproduced.html).</p>"
        )
        lines += ["", "{% raw %}", "", ".. raw:: html", "", "   " + link, "", "{% endraw %}", ""]
    return "\n".join(lines + about)
