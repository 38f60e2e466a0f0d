"""A table as a page of the HTML report: ``tables/<...>.html`` beside each CSV that the report shows.

Snakemake's HTML report opens an HTML file in its main view (a CSV it only offers as a download), so every table
it shows is written a second time as a small self-contained page: the same rows and columns as the CSV (the data
origin included), long decimals shown to four places (the CSV beside it keeps every digit), numbers aligned right,
the header kept in view. Every cell is HTML-escaped; the same table gives the same bytes.
"""

from __future__ import annotations

import csv
import html
import math
from pathlib import Path

from ordeval.io.files import write_text

#: Places shown of a decimal with more (the CSV keeps them all).
PLACES = 4

_STYLE = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1em;color:#1b1b1b}"
    "p{margin:.2em 0 .8em;font-size:.9em;color:#444}"
    "table{border-collapse:collapse;font-size:.85em}"
    "th,td{padding:.15em .6em;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}"
    "th{background:#f3f3f3;position:sticky;top:0}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
)


def shown(value: str) -> tuple[str, bool]:
    """A CSV cell as the page shows it, and whether it is a number: a decimal with more than :data:`PLACES`
    places rounded to that many, anything else as it is."""
    try:
        number = float(value)
    except ValueError:
        return value, False
    if not math.isfinite(number):
        return value, True
    if "." in value and "e" not in value.lower() and len(value.split(".")[-1]) > PLACES:
        return f"{number:.{PLACES}f}", True
    return value, True


def table_page(rows: list[list[str]], title: str) -> str:
    """The page of a table given as rows of text (the first its header)."""
    if not rows:
        rows = [[]]
    header, body = rows[0], rows[1:]
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<p>{html.escape(title)}: {len(body)} row{'s' if len(body) != 1 else ''}"
        + (f" (decimals shown to {PLACES} places; the CSV has every digit)" if body else "")
        + "</p>",
        "<table><thead><tr>" + "".join(f"<th>{html.escape(name)}</th>" for name in header) + "</tr></thead><tbody>",
    ]
    for row in body:
        cells = []
        for value in row:
            text, number = shown(value)
            cells.append(f'<td class="num">{html.escape(text)}</td>' if number else f"<td>{html.escape(text)}</td>")
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines += ["</tbody></table>", "</body></html>", ""]
    return "\n".join(lines)


def write_table_page(table_path: str | Path, page_path: str | Path) -> None:
    """The page of the table at ``table_path`` (a CSV, or a tab-separated ``.tsv``) as ``page_path``, titled with
    the table's file name."""
    table_path = Path(table_path)
    with open(table_path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t" if table_path.suffix == ".tsv" else ","))
    write_text(table_page(rows, f"{table_path.parent.name}/{table_path.name}"), page_path)
