"""A reported table's three files: its CSV (every digit, a ``data_origin`` column), its page for the HTML report
and its LaTeX fragment (headed by the data-origin comment)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import write_latex
from ordeval.reports.table_page import write_table_page


def write_table_files(
    table: Table,
    fragment: str,
    origins: Mapping[str, str],
    csv: str | Path,
    html: str | Path,
    tex: str | Path,
    row_origins: Sequence[str] | None = None,
) -> None:
    """``table`` as ``csv`` (:func:`~ordeval.io.table.write_csv`: unrounded, each row's data origin from
    ``row_origins``, its ``dataset`` or ``origins``), ``html`` (the page of that CSV:
    :func:`~ordeval.reports.table_page.write_table_page`) and ``fragment`` (LaTeX) as ``tex``
    (:func:`~ordeval.reports.latex.write_latex`)."""
    write_csv(table, csv, origins, row_origins)
    write_table_page(csv, html)
    write_latex(fragment, tex, origins)
