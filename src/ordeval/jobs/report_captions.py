"""Rule report_captions: the caption of every entry of Snakemake's HTML report, from the catalogue, and
of every reported table a caption that shows the table itself (an reStructuredText ``csv-table``)."""

from __future__ import annotations

import csv
import io
import logging
import math
from pathlib import Path

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


def run(job: Job):
    """params: captions (one text per ``output.captions`` file), table_captions (one per
    ``output.tables`` file, which shows the CSV ``input.tables`` of the same position), max_rows."""
    params = job.params
    for path, caption in zip(job.output["captions"], params["captions"], strict=True):
        write_text(rst_text(caption), path)
    tables = zip(job.output["tables"], params["table_captions"], job.input["tables"], strict=True)
    for path, caption, csv_path in tables:
        with open(csv_path, encoding="utf-8", newline="") as handle:
            text = handle.read()
        write_text(table_caption(caption, text, Path(csv_path).name, params["max_rows"]), path)
    log.info("%d captions, %d table captions", len(params["captions"]), len(params["table_captions"]))
