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
\usepackage[font=small,labelfont=bf]{caption}
\usepackage[hidelinks]{hyperref}
"""


def _relative(path: str | Path, start: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), start.resolve())).as_posix()


def latex_document(sections: list[ReportSection], title: str, introduction: str, tex_path: str | Path) -> str:
    """LaTeX source of the report; paths are written relative to ``tex_path``'s folder.

    Tables are shrunk to the text width when wider (adjustbox ``max width``); ``landscape`` items get
    a landscape page. Floats are placed where they stand ([H]) so that dozens of them never pile up.
    """
    folder = Path(tex_path).parent
    lines = [PREAMBLE, rf"\title{{{escape(title)}}}", r"\date{}", r"\begin{document}", r"\maketitle"]
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
    if item.kind == "table":
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
