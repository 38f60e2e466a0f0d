r"""The LaTeX report: one document that inputs every table fragment and includes every figure.

:func:`latex_document` writes the source; :func:`compile_pdf` runs a real TeX engine on it. Sections and
their order come from :data:`ordeval.reports.catalogue.SECTIONS`; the items, in order, from the rules
(``workflow/rules/report.smk``).

Organised for reading and printing: the sections are the analyses (the catalogue's order: published versus
reproduced first), each with a subsection per data set after the summaries over the data sets, because the
papers print their tables per analysis and a reader compares the data sets within one; then the lists of
tables and figures; the per-run leaderboards in an appendix, the measures side by side.

Captions: each item's caption file (``workflow/report/<stage>/<item>.rst``, the HTML report's too) rendered for
its job (:func:`~ordeval.reports.captions.render_caption`), then where its data come from (the fragment's or the
figure's data-origin note) and the seed; the lists of tables and figures give each item's title and what it covers
(its data set, or its task).

Typesetting: Latin Modern fonts (Type 1, never bitmap Type 3); a heading is never left alone at the foot of a
page; a table goes in portrait, in \small, shrunk to the text width where needed, unless it is much wider (then
a landscape page, shared with the landscape tables after it); long tables break across pages with their header
repeated; figures are included at the size they are drawn (the figures are drawn at most the text width wide);
long identifiers (the git commit) may break anywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ordeval.io.files import png_description
from ordeval.reports.catalogue import SECTIONS
from ordeval.reports.latex import escape, typeset
from ordeval.reports.latex.layout import (
    PREAMBLE,
    Placed,
    body_rows,
    breaks_across_pages,
    item_source,
    pair_source,
    pairable,
)

TEX_PACKAGES = "texlive-latex-base texlive-latex-recommended texlive-latex-extra latexmk lmodern"


class ReportError(RuntimeError):
    """The report cannot be built (no TeX engine, or LaTeX failed)."""


@dataclass
class ReportItem:
    """A table fragment (``.tex``) or a figure (``.pdf``/``.png``) with its caption (plain text)."""

    kind: str  # "table" or "figure"
    path: str
    caption: str
    long: bool = False  # many rows: a longtable that breaks across pages, its header repeated
    dataset: str = ""  # the data set it shows ("" for several): its subsection
    short: str = ""  # its entry in the list of tables or figures (default: the caption's first sentence)


@dataclass
class ReportSection:
    title: str
    items: list[ReportItem] = field(default_factory=list)
    text: str = ""
    appendix: bool = False


#: Sections printed after the analyses, as an appendix (long per-run listings).
APPENDIX = ("leaderboard",)


def _relative(path: str | Path, start: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), start.resolve())).as_posix()


def breakable(text: str) -> str:
    """A long identifier (a git commit) that may break at any character."""
    return rf"\seqsplit{{{escape(text)}}}"


#: Abbreviations whose full stop ends no sentence.
_ABBREVIATIONS = re.compile(r"(?:\bet al|\be\.g|\bi\.e|\bcf|\bvs|\bp|\bpp|\bNo|\bEq|\bFig)$")


def short_caption(caption: str) -> str:
    """The caption's first sentence, whole (for the lists of tables and figures where an item has no title):
    a full stop after an abbreviation ("et al.", "e.g.") ends no sentence."""
    for match in re.finditer(r"[.;](?=\s+\S|$)", caption):
        before = caption[: match.start()]
        if len(before) >= 20 and not _ABBREVIATIONS.search(before):
            return before
    return caption.rstrip(".;")


def latex_document(
    sections: list[ReportSection], title: str, introduction: str, tex_path: str | Path, opening: str = ""
) -> str:
    """LaTeX source of the report; paths are written relative to ``tex_path``'s folder. ``introduction`` and
    ``opening`` (what the first page says before the contents: the verdict counts of a replication) are LaTeX
    already (escape their parts).

    The appendix starts a page, the sections where the lists or the previous section end (the layout:
    :mod:`ordeval.reports.latex.layout`); an item about one data set comes under the data set's subsection (the
    items over several data sets first); the appendix sections (:data:`APPENDIX`) come last."""
    folder = Path(tex_path).parent
    lines = [
        PREAMBLE,
        r"\begin{document}",
        r"\begin{center}",
        rf"{{\Large\bfseries {escape(title)}\par}}",
        r"\end{center}",
        r"\bigskip",
        introduction,
        "",
    ]
    if opening:
        lines += [opening, ""]
    lines += [r"\tableofcontents", r"{\footnotesize\listoftables\listoffigures}"]
    appendix = False
    for section in sections:
        if section.appendix and not appendix:
            lines += [r"\clearpage", r"\appendix"]
            appendix = True
        lines += _section_source(section, folder)
        lines.append(r"\ordevalsectionend")
    lines += [r"\end{document}", ""]
    return "\n".join(lines)


def _section_source(section: ReportSection, folder: Path) -> list[str]:
    """The items of one section, a subsection per data set; two consecutive items of a subsection side by side
    where the layout allows (:func:`~ordeval.reports.latex.layout.pairable`)."""
    from ordeval.reports.figures import PRINT_WIDTH

    # the section's heading and opening go with its first item (on a landscape page, if that is one)
    opening = rf"\section{{{escape(section.title)}}}" + (rf"{escape(section.text)}\par\medskip" if section.text else "")
    groups: list[list[ReportItem]] = []
    for item in section.items:
        if groups and groups[-1][0].dataset == item.dataset:
            groups[-1].append(item)
        else:
            groups.append([item])
    lines = []
    for group in groups:
        heading = opening + rf"\subsection{{{escape(group[0].dataset or 'Over the data sets')}}}"
        opening = ""
        placed = [_placed(item, folder) for item in group]
        index = 0
        while index < len(group):
            here = placed[index]
            if index + 1 < len(group) and pairable(here, placed[index + 1], 0.485 * PRINT_WIDTH):
                lines.append(pair_source(here, placed[index + 1], heading))
                index += 2
            else:
                # an item may go after this page (a wide table: on a landscape page) with its heading when it is
                # its subsection's only item and opens no section
                may_wait = not heading or (len(group) == 1 and heading.startswith(r"\subsection"))
                fragment = Path(group[index].path).read_text(encoding="utf-8") if here.kind == "long table" else ""
                lines.append(item_source(here, heading, may_wait, fragment))
                index += 1
            heading = ""
    return lines


def _placed(item: ReportItem, folder: Path) -> Placed:
    kind = "long table" if item.kind == "table" and item.long else item.kind
    if kind not in ("table", "long table", "figure"):
        raise ValueError(f"report item kind must be 'table' or 'figure', not {item.kind!r}")
    short = item.short or short_caption(item.caption)
    width = figure_width(item.path) if kind == "figure" else 0.0
    return Placed(kind, _relative(item.path, folder), typeset(short), typeset(item.caption), width)


def figure_width(path: str | Path) -> float:
    """The width a figure is drawn at, in inches (a PDF's MediaBox; 0 for another file)."""
    path = Path(path)
    if path.suffix != ".pdf":
        return 0.0
    match = re.search(rb"/MediaBox\s*\[\s*([-0-9. ]+)\]", path.read_bytes())
    if match is None:
        return 0.0
    left, _, right, _ = (float(value) for value in match.group(1).split())
    return (right - left) / 72


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
BUILD_FILES = (
    ".pdf",
    ".aux",
    ".fdb_latexmk",
    ".fls",
    ".out",
    ".toc",
    ".lof",
    ".lot",
    ".log",
    ".synctex.gz",
    ".xdv",
    ".running",
)


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
                text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else result.stdout
                detail = text[-3000:]
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
    log = Path(tex_path).with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    match = re.findall(r"Output written on .*?\((\d+) pages?", log, flags=re.S)
    if not match:
        raise ReportError(f"{tex_path}: the TeX log reports no output")
    return int(match[-1])


# --------------------------------------------------------------------------- the sections

#: How a data-origin note starts (:func:`ordeval.io.provenance.origin_sentence`).
ORIGIN_NOTES = ("SYNTHETIC data", "Real data", "Partly synthetic data", "Data origin per data set")


def origin_note(path: str | Path) -> str:
    """The data-origin note of a table fragment (a leading ``%`` comment that ``latex.write_latex`` wrote) or of a
    figure (the note that ``figures.save_figure`` stored as the Description of the PNG beside its PDF); "" if none."""
    path = Path(path)
    if path.suffix == ".tex":
        lines = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("%"):
                break
            lines.append(line.lstrip("% ").strip())
    else:
        lines = [png_description(path.with_suffix(".png"))]
    for line in lines:
        starts = [line.find(note) for note in ORIGIN_NOTES if note in line]
        if starts:
            return line[min(starts) :].strip()
    return ""


def _body_rows(tex_path: str | Path) -> int:
    return body_rows(Path(tex_path).read_text(encoding="utf-8"))


def sentences(*parts: str) -> str:
    """Parts of a caption joined as sentences: each stripped, its first letter a capital, ending with a full
    stop."""
    done = []
    for part in parts:
        part = " ".join(str(part).split())
        if not part:
            continue
        part = part[0].upper() + part[1:]
        done.append(part if part.endswith((".", "?", "!")) else part + ".")
    return " ".join(done)


def report_sections(items: Iterable[Mapping], seed: int) -> list[ReportSection]:
    """Report sections, in the order of :data:`SECTIONS`, from ``items``: each ``{"section", "path", "caption"
    (a :class:`~ordeval.reports.captions.Caption`), "dataset", "scope"}``, a table (``.tex``) or a figure
    (``.pdf``, with its ``.png`` beside it). Each caption is the caption's text, the data-origin note and the seed;
    its entry in the lists is its title and its scope (the data set, or what the item covers). Within a section
    the items over several data sets come first, then each data set's, in the order given."""
    sections = {
        key: ReportSection(title, text=text, appendix=key in APPENDIX) for key, (title, text) in SECTIONS.items()
    }
    for item in items:
        path, caption = str(item["path"]), item["caption"]
        text = sentences(caption.text, origin_note(path), f"Seed {seed}")
        short = f"{caption.title}: {item['scope']}" if item.get("scope") else caption.title
        dataset = item.get("dataset", "")
        if path.endswith(".tex"):
            long = breaks_across_pages(Path(path).read_text(encoding="utf-8"))
            sections[item["section"]].items.append(ReportItem("table", path, text, long, dataset, short))
        else:
            sections[item["section"]].items.append(ReportItem("figure", path, text, dataset=dataset, short=short))
    found = []
    for section in sections.values():
        if not section.items:
            continue
        order = list(dict.fromkeys(item.dataset for item in section.items))
        order.sort(key=lambda name: name != "")
        section.items.sort(key=lambda item: order.index(item.dataset))  # stable: the order given within
        found.append(section)
    found.sort(key=lambda section: section.appendix)
    return found


def printed_items(
    paths: Sequence[str],
    captions: Sequence[str],
    sections: Sequence[str],
    wildcards: Sequence[Mapping[str, str]],
    config: Mapping,
    task_titles: Mapping[str, str],
) -> list[dict]:
    """The items :func:`report_sections` takes, from the rule report_tex's lists (each item's path, caption file,
    section and its job's wildcards): each caption rendered for its job, its data set and scope (the data set, or
    the task whose data sets it covers: ``task_titles`` gives each task's title by its summaries' suffix, as the
    configuration's tasks, its plugins' too, have them)."""
    from ordeval.reports.captions import render_caption

    tasks = task_titles
    items = []
    for path, caption, section, values in zip(paths, captions, sections, wildcards, strict=True):
        dataset = values.get("dataset", "")
        scope = dataset or (f"the {tasks[values['task_suffix']]} data sets" if "task_suffix" in values else "")
        items.append(
            {
                "section": section,
                "path": path,
                "caption": render_caption(caption, values, config),
                "dataset": dataset,
                "scope": scope,
            }
        )
    return items


def report_parameters(parameters: Mapping) -> str:
    """The analysis parameters, as the LaTeX report's opening paragraph states them (``parameters``:
    :func:`ordeval.workflow.config.parameters` of the configuration), the maths in its signs (τ, α)."""
    p = parameters
    return (
        f"seed {p['seed']}; Kendall's \u03c4-{p['kendall']}; ranking agreement CIs at level {p['ci_level']} "
        f"({p['ci_method']}); "
        f"consistency with {p['consistency_trials']} random splits per condition (halves, and two subsets of "
        f"{p['subset_size']} topics), randomised Tukey HSD with B = {p['consistency_hsd_trials']} and "
        f"\u03b1 = {p['consistency_alpha']}; significance tests by the randomised Tukey HSD with "
        f"B = {p['significance_hsd_trials']} and \u03b1 = {p['significance_alpha']}"
    )


def report_introduction(name: str, parameters: str, origins: Mapping[str, str], commit: str) -> str:
    """The report's opening paragraph (LaTeX): configuration, data origin of each data set, parameters."""
    datasets = "; ".join(f"{dataset} ({origin})" for dataset, origin in origins.items())
    return (
        escape(f"Generated by ordeval from the configuration '{name}' (git commit ")
        + breakable(commit)
        + escape(
            f"). Data sets and the origin of their data: {datasets}. "
            + (
                "Synthetic data are simulated (ordeval docs/methods.md, section 6): their numbers describe the "
                "simulation, not the official evaluations. "
                if set(origins.values()) - {"real"}
                else ""
            )
            + f"Parameters: {parameters}. Every table and figure states its data set, its data origin "
            "and its parameters in its caption."
        )
    )


def verdict_counts(summary_csv: str | Path) -> dict[str, int]:
    """The counts per verdict of every published number (the total row of ``tables/replication/summary.csv``)."""
    from ordeval.io.table import read_csv
    from ordeval.results.replication import total_counts

    return total_counts(read_csv(summary_csv))


def replication_opening(counts: Mapping[str, int]) -> str:
    """The first page's account of the replication (LaTeX): the verdict counts (:func:`verdict_counts`), what each
    verdict means, where the details are."""
    from ordeval.results.replication import VERDICT_MEANINGS, VERDICTS

    rows = " ".join(rf"{escape(verdict.capitalize())} & {counts[verdict]} \\" for verdict in VERDICTS)
    return (
        r"\begin{center}\begin{tabular}{lr}\toprule "
        + rf"\multicolumn{{2}}{{l}}{{\textbf{{Published versus reproduced: {counts['numbers']} numbers}}}} \\ "
        + r"\midrule "
        + rows
        + r" \bottomrule\end{tabular}\end{center}"
        + "\n"
        + escape(
            " ".join(f"{verdict.capitalize()}: {VERDICT_MEANINGS[verdict]}." for verdict in VERDICTS)
            + " Section 1 gives the counts per published table, then every number beside the reproduced one."
        )
    )
