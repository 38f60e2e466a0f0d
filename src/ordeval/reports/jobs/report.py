"""The report stage's text: the first page of Snakemake's HTML report and the LaTeX report's source (its PDF:
:func:`ordeval.reports.latex.report.compile_pdf`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.io.files import write_text
from ordeval.io.provenance import origins_of
from ordeval.reports.captions import report_intro
from ordeval.reports.latex.report import (
    latex_document,
    printed_items,
    replication_opening,
    report_introduction,
    report_parameters,
    report_sections,
    verdict_counts,
)

#: The LaTeX report's title, after which the configuration's name.
TITLE = "ordeval: meta-evaluation of ordinal classification and quantification measures"


def write_report_intro(
    provenance: Sequence[str | Path],
    replication: str | Path | None,
    page: str | Path | None,
    outputs: Mapping[str, str | Path],
    *,
    name: str,
    seed: int,
    start: Sequence[tuple[str, str | Path]] = (),
) -> dict[str, int] | None:
    """The HTML report's first page (:func:`~ordeval.reports.captions.report_intro`): what ordeval is, where the
    data come from (``provenance``), and, where the configuration compares (``replication``: the replication
    summary CSV; ``page``: the published-versus-reproduced page), the counts per verdict with a link to the
    page; links to the first results to look at (``start``: what each shows, its path). ``outputs``: ``rst``. The
    counts per verdict, or None."""
    counts = verdict_counts(replication) if replication else None
    first = [(text, str(path)) for text, path in start]
    write_text(report_intro(name, seed, origins_of(provenance), counts, str(page or ""), first), outputs["rst"])
    return counts


def write_report_tex(
    printed: Sequence[str | Path],
    captions: Sequence[str | Path],
    provenance: Sequence[str | Path],
    manifest: str | Path,
    replication: str | Path | None,
    outputs: Mapping[str, str | Path],
    *,
    sections: Sequence[str],
    wildcards: Sequence[Mapping[str, str]],
    config: Mapping,
    parameters: Mapping,
    name: str,
    task_titles: Mapping[str, str],
) -> list:
    """The LaTeX report (:func:`~ordeval.reports.latex.report.latex_document`): every ``printed`` table fragment
    and figure with its caption file (``captions``; rendered for its job's ``wildcards`` and ``config``, then
    the item's data-origin note and the seed), in its section of ``sections``; the opening paragraph from the
    configuration's ``name``, its ``parameters`` (:func:`ordeval.workflow.config.parameters`), the data sets'
    origins (``provenance``) and the git commit the ``manifest`` records; a replication's verdict counts on the
    first page (``replication``: its summary CSV, or None); ``task_titles``: each task's title by the suffix of its
    summaries (the configuration's tasks, a plugin's too). ``outputs``: ``tex``. The report's sections."""
    items = printed_items(printed, captions, sections, wildcards, config, task_titles)
    found = report_sections(items, config["seed"])
    commit = json.loads(Path(manifest).read_text(encoding="utf-8"))["git_commit"]
    introduction = report_introduction(name, report_parameters(parameters), origins_of(provenance), commit)
    opening = replication_opening(verdict_counts(replication)) if replication else ""
    tex = outputs["tex"]
    write_text(latex_document(found, f"{TITLE} ({name})", introduction, tex, opening), tex)
    return found
