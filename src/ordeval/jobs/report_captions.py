"""Rule report_captions: the caption of every entry of Snakemake's HTML report, from the catalogue, and
of every reported table a caption that shows the table itself (an reStructuredText ``csv-table``)."""

from __future__ import annotations

import csv
import io
import logging
import math

from ..files import write_text
from . import Job

log = logging.getLogger("report_captions")


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
    if not rows:
        return ["(empty table)"]
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


def table_caption(caption: str, tables: dict[str, str], max_rows: int, by_dataset: bool = False) -> str:
    """``caption`` followed by the table: ``tables`` maps a data set (or "") to the CSV text of its
    table. With ``by_dataset`` (a table of a per-data-set rule, whose outputs share one caption file),
    Snakemake's report shows the table of the output's ``dataset`` wildcard (Jinja, rendered when
    the report is built); the tables themselves are kept literal (``raw``)."""
    lines = [rst_text(caption).rstrip("\n"), ""]
    for dataset, text in tables.items():
        body = _table_rst(text, f"{dataset or 'table'}.csv", max_rows)
        if by_dataset:
            lines += [f'{{% if snakemake.wildcards.dataset == "{dataset}" %}}{{% raw %}}', "", *body, "",
                      "{% endraw %}{% endif %}"]  # fmt: skip
        else:
            lines += body
    return "\n".join(lines).rstrip("\n") + "\n"


def run(job: Job):
    """params: captions ({path: caption text}) -- one reStructuredText file per reported entry;
    tables ({caption path: {caption, tables: {data set or "": CSV path}}}) -- the caption
    of every reported table, showing it; max_rows."""
    for path, caption in job.params["captions"].items():
        write_text(rst_text(caption), path)
    for path, table in job.params["tables"].items():
        texts = {}
        for dataset, csv_path in table["tables"].items():
            with open(csv_path, encoding="utf-8", newline="") as handle:
                texts[dataset] = handle.read()
        by_dataset = "" not in table["tables"]  # tables of a per-data-set rule, keyed by data set
        write_text(table_caption(table["caption"], texts, job.params["max_rows"], by_dataset), path)
    log.info("%d captions, %d table captions", len(job.params["captions"]), len(job.params["tables"]))
