"""The LaTeX report: one document that inputs every table fragment and includes every figure.

:func:`latex_document` writes the source; :func:`compile_pdf` runs a real TeX engine on it. Sections and
their order come from the analysis catalogue (:data:`ordeval.catalogue.SECTIONS`); captions come from the
outputs themselves (a fragment's leading ``%`` comments, a figure's PNG description).

Typesetting: Latin Modern fonts (Type 1, never bitmap Type 3); a table goes in portrait, shrunk to the
text width, unless it is much wider than the page (then a landscape page); long tables break across
pages; long identifiers (the git commit) may break anywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue import SECTIONS
from ..files import png_description
from . import escape

TEX_PACKAGES = "texlive-latex-base texlive-latex-recommended texlive-latex-extra latexmk lmodern"


class ReportError(RuntimeError):
    """The report cannot be built (no TeX engine, or LaTeX failed)."""


@dataclass
class ReportItem:
    """A table fragment (``.tex``) or a figure (``.pdf``/``.png``) with its caption (plain text)."""

    kind: str  # "table" or "figure"
    path: str
    caption: str
    long: bool = False  # many rows: a longtable that breaks across pages


@dataclass
class ReportSection:
    title: str
    items: list[ReportItem] = field(default_factory=list)
    text: str = ""


PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[table]{xcolor}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{adjustbox}
\usepackage{amssymb}
\usepackage{pdflscape}
\usepackage{float}
\usepackage{longtable}
\usepackage{seqsplit}
\usepackage[font=small,labelfont=bf,hypcap=false]{caption}
\usepackage[hidelinks]{hyperref}
\setlength{\emergencystretch}{3em}
% A tabular inside longfragment is set as a longtable, so that long fragments break across pages.
\newenvironment{longfragment}{\let\tabular\longtable\let\endtabular\endlongtable}{}
% \ordevaltable{caption}{fragment}: portrait, shrunk to the text width, unless the table is more than
% 1.4 times as wide as the text: then a landscape page.
\newsavebox\ordevalbox
\newcommand\ordevaltable[2]{%
  \sbox\ordevalbox{\input{#2}}%
  \ifdim\wd\ordevalbox>1.4\linewidth
    \begin{landscape}\begin{table}[H]\centering\caption{#1}%
    \adjustbox{max width=\linewidth}{\usebox\ordevalbox}\end{table}\end{landscape}%
  \else
    \begin{table}[H]\centering\caption{#1}\adjustbox{max width=\linewidth}{\usebox\ordevalbox}\end{table}%
  \fi}
"""


def _relative(path: str | Path, start: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), start.resolve())).as_posix()


def breakable(text: str) -> str:
    """A long identifier (a git commit) that may break at any character."""
    return rf"\seqsplit{{{escape(text)}}}"


def latex_document(sections: list[ReportSection], title: str, introduction: str, tex_path: str | Path) -> str:
    """LaTeX source of the report; paths are written relative to ``tex_path``'s folder. ``introduction``
    is LaTeX already (escape its parts)."""
    folder = Path(tex_path).parent
    lines = [PREAMBLE, rf"\title{{{escape(title)}}}", r"\author{}", r"\date{}", r"\begin{document}", r"\maketitle"]
    lines += [introduction, r"\tableofcontents", r"\clearpage"]
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
    if item.kind == "table" and item.long:
        caption = rf"\captionof{{table}}{{{escape(item.caption)}}}"
        return "\n".join([r"\begin{center}", caption, r"\end{center}",
                          rf"{{\small\begin{{longfragment}}\input{{{path}}}\end{{longfragment}}}}"])  # fmt: skip
    if item.kind == "table":
        return rf"\ordevaltable{{{escape(item.caption)}}}{{{path}}}"
    if item.kind == "figure":
        return "\n".join([r"\begin{figure}[H]", r"\centering",
                          rf"\includegraphics[width=\linewidth,height=0.75\textheight,keepaspectratio]{{{path}}}",
                          rf"\caption{{{escape(item.caption)}}}", r"\end{figure}"])  # fmt: skip
    raise ValueError(f"report item kind must be 'table' or 'figure', not {item.kind!r}")


def tex_engine() -> list[str]:
    """The command that compiles a .tex file to PDF: latexmk, else pdflatex; an error names the packages."""
    if shutil.which("latexmk") and shutil.which("pdflatex"):
        return ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]
    raise ReportError(
        "no TeX engine found (latexmk/pdflatex): install the Debian packages "
        f"`apt-get install {TEX_PACKAGES}` (or a TeX Live with booktabs, adjustbox, pdflscape, float, caption, "
        "lmodern, seqsplit, xcolor)"
    )


#: What the engines write beside the source for a job name, removed after a failure (latexmk would read a
#: truncated ``.aux`` or ``.fdb_latexmk`` of a run that failed on a full disk, and fail every time after).
BUILD_FILES = (".pdf", ".aux", ".fdb_latexmk", ".fls", ".out", ".toc", ".lof", ".lot", ".log", ".synctex.gz",
               ".xdv", ".running")  # fmt: skip


def clean_build(tex_path: str | Path, jobname: str) -> None:
    """Remove the files of an unfinished compilation of ``tex_path`` under ``jobname``."""
    folder = Path(tex_path).parent
    for suffix in BUILD_FILES:
        (folder / f"{jobname}{suffix}").unlink(missing_ok=True)


def compile_pdf(tex_path: str | Path) -> Path:
    """Compile ``tex_path`` with a real TeX engine into the PDF beside it; returns the PDF path.

    SOURCE_DATE_EPOCH is fixed so that the same source gives the same PDF bytes. The engine writes
    ``<stem>-partial.pdf`` (``-jobname``), renamed into place once it succeeded: a compilation that
    fails or is killed leaves no PDF that could pass for complete (the log is kept beside the source).
    A compilation removes its build files (:func:`clean_build`: ``.aux``, ``.fls``, ``.fdb_latexmk``...)
    when it is done, failed or not, and so does the next one when the previous was killed (its
    ``<stem>-partial.running`` marker is still there): the next run works with no manual step.
    """
    tex_path = Path(tex_path).resolve()
    command = tex_engine()
    environment = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    jobname = f"{tex_path.stem}-partial"
    partial = tex_path.with_name(f"{jobname}.pdf")
    marker = tex_path.with_name(f"{jobname}.running")
    if marker.exists():  # the previous compilation was killed: start from nothing
        clean_build(tex_path, jobname)
    partial.unlink(missing_ok=True)
    runs = 1 if command[0] == "latexmk" else 2  # pdflatex twice for the table of contents
    try:
        marker.touch()
        for _ in range(runs):
            result = subprocess.run(
                [*command, f"-jobname={jobname}", tex_path.name],
                cwd=tex_path.parent,
                capture_output=True,
                text=True,
                env=environment,
            )
            log = tex_path.with_name(f"{jobname}.log")
            if log.exists():
                os.replace(log, tex_path.with_suffix(".log"))
            if result.returncode != 0:
                log = tex_path.with_suffix(".log")
                detail = log.read_text(errors="replace")[-3000:] if log.exists() else result.stdout[-3000:]
                raise ReportError(f"LaTeX failed on {tex_path} (exit {result.returncode}):\n{detail}")
        pdf = tex_path.with_suffix(".pdf")
        try:
            os.replace(partial, pdf)
        except OSError as error:
            raise ReportError(f"LaTeX wrote no {partial.name} for {tex_path} ({error.strerror})") from None
    finally:  # done, failed or interrupted: the PDF and the log stay, LaTeX's build files (and the marker) go
        clean_build(tex_path, jobname)
    return pdf


def page_count(tex_path: str | Path) -> int:
    """Pages of the compiled PDF, as the TeX log reports them."""
    log = Path(tex_path).with_suffix(".log").read_text(errors="replace")
    match = re.findall(r"Output written on .*?\((\d+) pages?", log, flags=re.S)
    if not match:
        raise ReportError(f"{tex_path}: the TeX log reports no output")
    return int(match[-1])


# --------------------------------------------------------------------------- the sections

#: Tables with more body rows than this become longtables.
LONG_ROWS = 40


def fragment_caption(tex_path: str | Path) -> str:
    """The leading ``%`` comment lines of a fragment written by ``latex.write_latex``, joined."""
    lines = []
    for line in Path(tex_path).read_text(encoding="utf-8").splitlines():
        if not line.startswith("%"):
            break
        lines.append(line.lstrip("% ").strip())
    return " ".join(lines)


def _body_rows(tex_path: str | Path) -> int:
    text = Path(tex_path).read_text(encoding="utf-8")
    return text.split(r"\midrule", 1)[-1].count(r"\\")


def report_sections(items: Iterable[tuple[str, str]], seed: int) -> list[ReportSection]:
    """Report sections, in catalogue order, from ``(section key, output path)`` pairs: tables ``.tex``
    and figures ``.pdf`` (with a ``.png`` beside it holding the caption); each caption ends with the seed."""
    sections = {key: ReportSection(title, text=text) for key, (title, text) in SECTIONS.items()}
    for key, path in items:
        suffix = Path(path).suffix
        if suffix == ".tex":
            caption = f"{fragment_caption(path)} Seed {seed}."
            sections[key].items.append(ReportItem("table", str(path), caption, long=_body_rows(path) > LONG_ROWS))
        elif suffix == ".pdf":
            caption = f"{png_description(Path(path).with_suffix('.png'))} Seed {seed}."
            sections[key].items.append(ReportItem("figure", str(path), caption))
    return [section for section in sections.values() if section.items]


def report_introduction(name: str, parameters: str, origins: Mapping[str, str], commit: str) -> str:
    """The report's opening paragraph (LaTeX): configuration, data origin of each data set, parameters."""
    datasets = "; ".join(f"{dataset} ({origin})" for dataset, origin in origins.items())
    return (
        escape(f"Generated by ordeval from the configuration '{name}' (git commit ")
        + breakable(commit)
        + escape(
            f"). Data sets and the origin of their data: {datasets}. Synthetic data are simulated (ordeval "
            "docs/methods.md, section 6): their numbers describe the simulation, not the official evaluations. "
            f"Parameters: {parameters}. Every table and figure states its data set, its data origin "
            "and its parameters in its caption."
        )
    )
