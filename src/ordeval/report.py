"""The LaTeX report: one document that inputs every table fragment and includes every figure.

:func:`latex_document` writes the source; :func:`compile_pdf` runs a real TeX engine on it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .outputs import escape

TEX_PACKAGES = "texlive-latex-base texlive-latex-recommended texlive-latex-extra latexmk"


class ReportError(RuntimeError):
    """The report cannot be built (no TeX engine, or LaTeX failed)."""


@dataclass
class ReportItem:
    """A table fragment (``.tex``) or a figure (``.pdf``/``.png``) with its caption (plain text)."""

    kind: str  # "table" or "figure"
    path: str
    caption: str
    landscape: bool = False  # wide tables: a landscape page
    long: bool = False  # many rows: a longtable that breaks across pages


@dataclass
class ReportSection:
    title: str
    items: list[ReportItem] = field(default_factory=list)
    text: str = ""


PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage[T1]{fontenc}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{adjustbox}
\usepackage{amssymb}
\usepackage{pdflscape}
\usepackage{float}
\usepackage{longtable}
\usepackage[font=small,labelfont=bf,hypcap=false]{caption}
\usepackage[hidelinks]{hyperref}
% A tabular inside longfragment is set as a longtable, so that long fragments break across pages.
\newenvironment{longfragment}{\let\tabular\longtable\let\endtabular\endlongtable}{}
"""


def _relative(path: str | Path, start: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), start.resolve())).as_posix()


def latex_document(sections: list[ReportSection], title: str, introduction: str, tex_path: str | Path) -> str:
    """LaTeX source of the report; paths are written relative to ``tex_path``'s folder.

    Tables are shrunk to the text width when wider (adjustbox ``max width``); ``landscape`` items get
    a landscape page. Floats are placed where they stand ([H]) so that dozens of them never pile up.
    """
    folder = Path(tex_path).parent
    lines = [PREAMBLE, rf"\title{{{escape(title)}}}", r"\author{}", r"\date{}", r"\begin{document}", r"\maketitle"]
    lines += [escape(introduction), r"\tableofcontents", r"\clearpage"]
    for section in sections:
        lines.append(rf"\section{{{escape(section.title)}}}")
        if section.text:
            lines.append(escape(section.text))
        for item in section.items:
            lines.append(_item_source(item, folder))
        lines.append(r"\clearpage")
    lines += [r"\end{document}", ""]
    return "\n".join(lines)


def _item_source(item: ReportItem, folder: Path) -> str:
    path = _relative(item.path, folder)
    caption = rf"\caption{{{escape(item.caption)}}}"
    if item.kind == "table" and item.long:
        body = _longtable(item, path)
    elif item.kind == "table":
        body = "\n".join([r"\begin{table}[H]", r"\centering", caption,
                          rf"\begin{{adjustbox}}{{max width=\linewidth}}\input{{{path}}}\end{{adjustbox}}",
                          r"\end{table}"])  # fmt: skip
    elif item.kind == "figure":
        body = "\n".join([r"\begin{figure}[H]", r"\centering",
                          rf"\includegraphics[width=\linewidth,height=0.75\textheight,keepaspectratio]{{{path}}}",
                          caption, r"\end{figure}"])  # fmt: skip
    else:
        raise ValueError(f"report item kind must be 'table' or 'figure', not {item.kind!r}")
    return "\n".join([r"\begin{landscape}", body, r"\end{landscape}"]) if item.landscape else body


def _longtable(item: ReportItem, path: str) -> str:
    """A long fragment, \\input inside ``longfragment`` (see PREAMBLE), which turns its tabular into a
    longtable that breaks across pages; the caption stands above it."""
    caption = rf"\captionof{{table}}{{{escape(item.caption)}}}"
    return "\n".join([r"\begin{center}", caption, r"\end{center}",
                      rf"{{\small\begin{{longfragment}}\input{{{path}}}\end{{longfragment}}}}"])  # fmt: skip


def tex_engine() -> list[str]:
    """The command that compiles a .tex file to PDF: latexmk, else pdflatex; an error names the packages."""
    if shutil.which("latexmk") and shutil.which("pdflatex"):
        return ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]
    raise ReportError(
        "no TeX engine found (latexmk/pdflatex): install the Debian packages "
        f"`apt-get install {TEX_PACKAGES}` (or a TeX Live with booktabs, adjustbox, pdflscape, float, caption)"
    )


def compile_pdf(tex_path: str | Path) -> Path:
    """Compile ``tex_path`` with a real TeX engine into the PDF beside it; returns the PDF path.

    SOURCE_DATE_EPOCH is fixed so that the same source gives the same PDF bytes.
    """
    tex_path = Path(tex_path).resolve()
    command = tex_engine()
    environment = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    runs = 1 if command[0] == "latexmk" else 2  # pdflatex twice for the table of contents
    for _ in range(runs):
        result = subprocess.run(
            [*command, tex_path.name], cwd=tex_path.parent, capture_output=True, text=True, env=environment
        )
        if result.returncode != 0:
            log = tex_path.with_suffix(".log")
            detail = log.read_text(errors="replace")[-3000:] if log.exists() else result.stdout[-3000:]
            raise ReportError(f"LaTeX failed on {tex_path} (exit {result.returncode}):\n{detail}")
    return tex_path.with_suffix(".pdf")


def page_count(tex_path: str | Path) -> int:
    """Pages of the compiled PDF, as the TeX log reports them."""
    log = Path(tex_path).with_suffix(".log").read_text(errors="replace")
    match = re.findall(r"Output written on .*?\((\d+) pages?", log, flags=re.S)
    if not match:
        raise ReportError(f"{tex_path}: the TeX log reports no output")
    return int(match[-1])


# --------------------------------------------------------------------------- the catalogue

#: Report sections in order: title, what they hold, and the output path prefixes (relative to
#: results/<name>/) whose tables and figures they take, in the order the rules list them.
SECTIONS = [
    ("Ranking agreement", "Kendall's tau between the measures' system rankings (SPEC 4.1).",
     ("tables/agreement/", "figures/agreement/")),
    ("System ranking consistency", "Agreement of each measure's system rankings on random topic splits, "
     "tested with the randomised Tukey HSD (SPEC 4.2, 4.3).", ("tables/consistency/", "figures/consistency/")),
    ("Discriminative power", "Significant run pairs under the randomised Tukey HSD (SPEC 4.4).",
     ("tables/discriminative_power", "figures/dp_curves/")),
    ("Significance overlap", "Overlap of the significant run pairs of two measures (SPEC 4.5).", ("tables/sso/",)),
    ("Contradictions", "Run pairs that two measures find significant in opposite directions (SPEC 4.5).",
     ("tables/contradiction",)),
    ("Popularity vs Uniform", "The oracle Popularity baseline against the Uniform baseline, topic by topic "
     "(SPEC 4.6).", ("tables/popularity", "figures/popularity")),
]  # fmt: skip

#: Tables with more columns than this get a landscape page; with more body rows, a longtable.
WIDE_COLUMNS = 12
LONG_ROWS = 40


def fragment_caption(tex_path: str | Path) -> str:
    """The leading ``%`` comment lines of a fragment written by ``outputs.write_latex``, joined."""
    lines = []
    for line in Path(tex_path).read_text(encoding="utf-8").splitlines():
        if not line.startswith("%"):
            break
        lines.append(line.lstrip("% ").strip())
    return " ".join(lines)


def _tabular_shape(tex_path: str | Path) -> tuple[int, int]:
    """(columns, body rows) of the fragment's tabular."""
    text = Path(tex_path).read_text(encoding="utf-8")
    match = re.search(r"\\begin\{tabular\}\{([^}]*)\}", text)
    columns = len(re.findall(r"[lcrpX]", match[1])) if match else 0
    body = text.split(r"\midrule", 1)[-1]
    return columns, body.count(r"\\")


def catalogue(paths: list[str], results_root: str | Path, seed: int) -> list[ReportSection]:
    """Sections of report items for the output ``paths`` (tables ``.tex``, figures ``.pdf`` with a
    ``.png`` beside it holding the caption); each caption ends with the seed. Paths outside every
    section are left out."""
    from .outputs import figure_caption

    root = Path(results_root)
    sections = [ReportSection(title, text=text) for title, text, _ in SECTIONS]
    for path in paths:
        relative = Path(path).resolve().relative_to(root.resolve()).as_posix()
        index = next((i for i, (_, _, prefixes) in enumerate(SECTIONS) if relative.startswith(prefixes)), None)
        if index is None or Path(path).suffix not in (".tex", ".pdf"):
            continue
        if Path(path).suffix == ".tex":
            columns, rows = _tabular_shape(path)
            caption = f"{fragment_caption(path)} Seed {seed}."
            sections[index].items.append(
                ReportItem("table", str(path), caption, landscape=columns > WIDE_COLUMNS, long=rows > LONG_ROWS)
            )
        else:
            caption = f"{figure_caption(Path(path).with_suffix('.png'))} Seed {seed}."
            sections[index].items.append(ReportItem("figure", str(path), caption))
    return [section for section in sections if section.items]
