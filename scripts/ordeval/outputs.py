"""Writing tables (CSV + LaTeX fragment) and figures (PDF + PNG) that say where their data come from.

Every analysis writes through these helpers, so that
* every CSV has a last column ``data_origin`` (``synthetic``, ``real``, ``partly synthetic`` or a
  per-data-set list when they differ), stating in the file itself whether the numbers are real;
* every LaTeX fragment starts with a comment line saying the same;
* every figure carries a note naming the data origin, and PDFs are byte-reproducible.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .datasets import ORIGIN_REAL, ORIGIN_SYNTHETIC, origin_of_runs
from .files import write_atomically, write_table, write_text
from .measures import get_measure

# --------------------------------------------------------------------------- data origin


def read_origins(provenance_paths: dict[str, str | Path]) -> dict[str, str]:
    """``{dataset: origin}`` from the provenance.json files written by prepare_data."""
    return {name: json.loads(Path(path).read_text())["origin"] for name, path in provenance_paths.items()}


def read_run_origins(provenance_paths: dict[str, str | Path], runs: list[str]) -> dict[str, str]:
    """``{dataset: origin}`` of numbers that depend on the gold and ``runs`` only (see
    :func:`ordeval.datasets.origin_of_runs`): real gold with baselines computed from it is real
    even where other runs of the data set are simulated."""
    return {name: origin_of_runs(json.loads(Path(path).read_text()), runs) for name, path in provenance_paths.items()}


def origin_label(origins: dict[str, str]) -> str:
    """One label for outputs that combine data sets: the common origin, or ``name: origin; ...``."""
    distinct = sorted(set(origins.values()))
    if len(distinct) == 1:
        return distinct[0]
    return "; ".join(f"{name}: {origin}" for name, origin in origins.items())


def origin_sentence(origins: dict[str, str]) -> str:
    """A caption sentence such as 'SYNTHETIC data: simulated gold and runs.'"""
    label = origin_label(origins)
    if label == ORIGIN_SYNTHETIC:
        return "SYNTHETIC data: simulated gold and simulated runs (baselines computed from the simulated gold)."
    if label == ORIGIN_REAL:
        return "Real data: official gold; runs from official files or baselines computed from that gold."
    if label == "partly synthetic":
        return "Partly synthetic data: real gold, some runs simulated."
    return f"Data origin per data set: {label}."


# --------------------------------------------------------------------------- tables


def write_csv(frame: pd.DataFrame, path: str | Path, origins: dict[str, str]) -> None:
    """Write ``frame`` (unrounded numbers) as CSV with a trailing ``data_origin`` column."""
    labelled = frame.copy()
    if "dataset" in labelled.columns:
        labelled["data_origin"] = [origins.get(name, origin_label(origins)) for name in labelled["dataset"]]
    else:
        labelled["data_origin"] = origin_label(origins)
    write_table(labelled, path, sep=",")


LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def escape(text) -> str:
    """Escape LaTeX special characters in plain text."""
    return "".join(LATEX_SPECIAL.get(character, character) for character in str(text))


def measure_name(name: str) -> str:
    """A registered measure's display name, LaTeX-escaped, for tables."""
    return escape(get_measure(name).display)


def number(value, decimals: int = 3) -> str:
    """A number with ``decimals`` decimals; '-' for NaN/None (e.g. an undefined SSO)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, (np.floating, float)) and np.isnan(value):
        return "-"
    return f"{value:.{decimals}f}"


def bold(text: str) -> str:
    return rf"\textbf{{{text}}}"


def underline(text: str) -> str:
    return rf"\underline{{{text}}}"


def tabular(
    header: Sequence[str] | Sequence[Sequence[str]],
    rows: Iterable[Sequence[str]],
    align: str,
    *,
    rules_after: Iterable[int] = (),
) -> str:
    """A booktabs ``tabular`` (no float): cells are LaTeX already (use :func:`escape` for text).

    ``header`` is one row or several; ``rules_after`` lists body row indices followed by a midrule.
    """
    header_rows = [header] if header and isinstance(header[0], str) else list(header)
    rules = set(rules_after)
    lines = [rf"\begin{{tabular}}{{{align}}}", r"\toprule"]
    lines += [" & ".join(row) + r" \\" for row in header_rows]
    lines.append(r"\midrule")
    for index, row in enumerate(rows):
        lines.append(" & ".join(row) + r" \\")
        if index in rules:
            lines.append(r"\midrule")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)


def upper_triangle_tabular(names: Sequence[str], cells: Sequence[Sequence[str]], *, corner: str = "") -> str:
    """A booktabs ``tabular`` of the upper triangle of a square matrix over ``names``.

    Rows are ``names[:-1]``, columns ``names[1:]``; ``cells[i][j]`` (LaTeX already) fills row i,
    column j for j > i, and the cells on and below the diagonal stay empty. A cell may hold several
    lines separated by ``\\n``: the row is then written as that many table rows.
    """
    header = [corner] + [escape(name) for name in names[1:]]
    rows = []
    for i, name in enumerate(names[:-1]):
        parts = [cells[i][j].split("\n") if j > i else [""] for j in range(1, len(names))]
        height = max(len(part) for part in parts)
        for line in range(height):
            label = escape(name) if line == 0 else ""
            rows.append([label] + [part[line] if line < len(part) else "" for part in parts])
    return tabular(header, rows, "l" + "c" * (len(names) - 1))


def write_latex(fragment: str, path: str | Path, origins: dict[str, str], description: str = "") -> None:
    """Write a LaTeX fragment headed by comments saying what it shows and where the data come from."""
    comments = [f"% {line}" for line in (description, origin_sentence(origins)) if line]
    write_text("\n".join(comments) + "\n" + fragment, path)


# --------------------------------------------------------------------------- figures


def figure_note(origins: dict[str, str]) -> str:
    label = origin_label(origins)
    return "SYNTHETIC DATA (simulated)" if label == ORIGIN_SYNTHETIC else f"data: {label}"


def save_figure(figure, pdf_path: str | Path, png_path: str | Path, origins: dict[str, str], description: str) -> None:
    """Save ``figure`` as PDF and PNG with a data-origin note in its corner.

    ``description`` (what the figure shows, with its parameters) is stored in the files' metadata
    (PDF Subject, PNG Description), where the report takes its caption from. PDF metadata carry no
    date, so the same inputs give the same bytes.
    """
    import matplotlib.pyplot as plt

    figure.text(0.995, 0.005, figure_note(origins), ha="right", va="bottom", fontsize=7, color="0.35")
    caption = f"{description} {origin_sentence(origins)}".strip()
    metadata = {
        ".pdf": {"metadata": {"CreationDate": None, "ModDate": None, "Subject": caption}},
        ".png": {"dpi": 150, "metadata": {"Description": caption}},
    }
    for path in (pdf_path, png_path):
        suffix = Path(path).suffix
        write_atomically(path, lambda temporary, s=suffix: figure.savefig(temporary, format=s[1:], **metadata[s]))
    plt.close(figure)


def figure_caption(png_path: str | Path) -> str:
    """The description that :func:`save_figure` stored in a PNG."""
    from PIL import Image

    with Image.open(png_path) as image:
        return image.text.get("Description", "")
