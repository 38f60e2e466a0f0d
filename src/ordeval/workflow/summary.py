"""What a run says when it ends: where its results are, and on failure which job failed and where its log is.

Snakemake's ``onsuccess`` and ``onerror`` (the Snakefile) and ``ordeval run`` print the lines of
:func:`run_summary`: the PDF (or, without a TeX engine, why there is none and where the LaTeX source is), the
command that makes the HTML report, where the tables and figures are, with a replication the counts per verdict
(:func:`ordeval.results.replication.total_counts`: the numbers of the PDF's first page and of the HTML page), and
on failure each failed job's rule, wildcards, log file and the error its log ends with. The failed jobs are read
from Snakemake's log of the run (its ``Error in rule ...`` blocks); where that log names none (an older
Snakemake, a log that could not be written, a job killed), from the job logs under ``results/<name>/logs/`` that
were written during the run and record an error.

Plain functions on paths and the configuration: no Snakemake here (tests call them without it).
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: The outputs the summary names, under results/<name>/ (output paths are a contract: they do not move).
PDF = "report/ordeval.pdf"
TEX = "report/ordeval.tex"
MANIFEST = "manifest.json"
REPLICATION_SUMMARY = "tables/replication/summary.csv"
REPLICATION_PAGE = "tables/replication/published_vs_reproduced.html"
#: Snakemake's log of a run is named after the time it started (``2026-11-28T220844.960999.snakemake.log``).
_LOG_NAME = re.compile(r"^(\d{4}-\d\d-\d\dT\d{6}\.\d+)\.snakemake\.log$")
_ERROR_IN_RULE = re.compile(r"^Error in rule (\S+):\s*$")
_JOB_LOG = re.compile(r"^\s+log: (.*?)(?: \(check log file\(s\) for error details\))?\s*$")
_WILDCARDS = re.compile(r"^\s+wildcards: (.*)$")
#: A job's one-line error in its log (ordeval.workflow.scripting: ``<time> <rule> ERROR <rule> failed: ...``).
_JOB_ERROR = re.compile(r" ERROR (.*)$")


@dataclass
class FailedJob:
    """A job that failed: its rule, wildcards (text as Snakemake prints them), log files and one-line error."""

    rule: str
    wildcards: str = ""
    logs: list[str] = field(default_factory=list)
    error: str = ""


def run_summary(
    config: Mapping,
    *,
    failed: bool,
    snakemake_logs: Sequence[str | os.PathLike] = (),
    html_command: str | None = None,
    workdir: str | os.PathLike = ".",
    here: str | os.PathLike | None = None,
    heading: bool = True,
) -> list[str]:
    """The lines a run prints when it ends (``failed``: Snakemake's onerror), each ``what: where``. ``config``: the
    validated configuration (name, report); ``snakemake_logs``: Snakemake's log of the run (what onsuccess and
    onerror are given); ``html_command``: the command that makes the HTML report (:func:`html_report_command`);
    outputs are looked up under ``workdir`` and shown relative to ``here`` (default: the current folder);
    ``heading``: the first line, which says whether the run failed."""
    workdir = Path(workdir)
    here = Path(here) if here is not None else Path.cwd()
    results = workdir / "results" / str(config["name"])

    def shown(path: Path) -> str:
        return _relative(path, here)

    lines = []
    if heading:
        state = "FAILED" if failed else "done"
        lines.append(f"ordeval: configuration {config['name']!r} {state}: results in {shown(results)}/")
    if failed:
        jobs = failed_jobs(snakemake_logs, results / "logs", workdir)
        for job in jobs:
            where = f" ({job.wildcards})" if job.wildcards else ""
            logs = ", ".join(shown(workdir / log) for log in job.logs) or "no log file"
            lines.append(f"failed: rule {job.rule}{where}, log {logs}")
            if job.error:
                lines.append(f"  {job.error}")
        if not jobs:
            lines.append("failed: no job's log records the error; Snakemake's log says more")
    lines.append(f"PDF report: {_pdf_line(config, results, shown)}")
    if html_command:
        lines.append(f"HTML report: {html_command}")
    tables, figures = results / "tables", results / "figures"
    if tables.is_dir():
        where = f"{shown(tables)}/ (CSV with every digit, and LaTeX)"
        lines.append(f"tables: {where}" + (f"; figures: {shown(figures)}/" if figures.is_dir() else ""))
    counts = replication_counts(results / REPLICATION_SUMMARY)
    if counts is not None:
        from ordeval.results.replication import headline

        lines.append(f"replication: {headline(counts)}; every number: {shown(results / REPLICATION_PAGE)}")
    for log in snakemake_logs:
        lines.append(f"Snakemake's log: {shown(Path(log))}")
    return lines


def _relative(path: Path, here: Path) -> str:
    """``path`` relative to ``here`` where it is below it or beside it, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        relative = os.path.relpath(absolute, os.path.abspath(here))
    except ValueError:  # another drive
        return str(absolute)
    return relative if not relative.startswith(os.pardir + os.sep + os.pardir) else str(absolute)


def _pdf_line(config: Mapping, results: Path, shown) -> str:
    """Where the PDF is; else why there is none and where its LaTeX source is."""
    from ordeval.reports.latex.report import TEX_PACKAGES

    pdf, tex = results / PDF, results / TEX
    if pdf.is_file():
        return shown(pdf)
    setting = config.get("report", {}).get("pdf", "auto")
    if setting is False:
        why = "not compiled (report: {pdf: false} in the configuration)"
    elif setting == "auto" and not shutil.which("pdflatex"):
        why = f"not compiled: no TeX engine here (Debian: apt-get install {TEX_PACKAGES})"
    else:
        why = "not made yet (the stage 'report' makes it)"
    return f"{why}; LaTeX source {shown(tex)}" if tex.is_file() else why


def replication_counts(path: Path) -> dict[str, int] | None:
    """The counts per verdict of a replication's summary table (None where there is none or it cannot be read)."""
    if not path.is_file():
        return None
    from ordeval.io.table import read_csv
    from ordeval.results.replication import total_counts

    try:
        return total_counts(read_csv(path))
    except (ValueError, KeyError, IndexError, OSError):  # an older or damaged table: say nothing rather than fail
        return None


def html_report_command(
    results: str,
    configfiles: Sequence[str | os.PathLike] = (),
    config_items: Sequence[str] = (),
    *,
    snakefile: str | os.PathLike | None = None,
    project: str | os.PathLike | None = None,
    here: str | os.PathLike | None = None,
    after_report: bool = False,
) -> str:
    """The ``snakemake --report`` command for the results of a run, runnable from ``here`` (default: the current
    folder) as printed: the run's configuration files and ``--config`` items (the Snakefile refuses to report
    another configuration); the ``snakefile`` where it is not the ``project`` folder's, the ``project`` folder
    (where results/ is) where it is not ``here``; with ``after_report`` (no manifest yet: the HTML report needs the
    stage 'report'), the command that makes that stage first."""
    here_path = Path(os.path.abspath(here if here is not None else Path.cwd()))
    project_path = Path(os.path.abspath(project if project is not None else here_path))
    words = ["snakemake"]
    if snakefile is not None and Path(os.path.abspath(snakefile)) != project_path / "Snakefile":
        words += ["--snakefile", os.path.abspath(snakefile)]
    elsewhere = project_path != here_path
    if elsewhere:
        if "--snakefile" not in words:
            words += ["--snakefile", str(project_path / "Snakefile")]
        words += ["--directory", str(project_path)]
    words += ["--report", str(project_path / results / "report.html") if elsewhere else f"{results}/report.html"]
    for path in configfiles:
        absolute = Path(os.path.abspath(project_path / path))
        words += ["--configfile", str(absolute) if elsewhere else _relative(absolute, here_path)]
    if config_items:
        words += ["--config", *config_items]
    command = shlex.join(words)
    if not after_report:
        return command
    run = ["snakemake", "--cores", "all", *words[1 : words.index("--report")], *words[words.index("--report") + 2 :]]
    # the target before --config, whose items would take it
    if "--config" in run:
        run.insert(run.index("--config"), "report")
    else:
        run.append("report")
    return f"{shlex.join(run)} && {command}"


def config_items(overrides: Mapping) -> list[str]:
    """``--config`` items (``key=value``) that give Snakemake the values of ``overrides`` again: a string as it
    is, anything else in YAML's flow style (JSON)."""
    return [f"{key}={value if isinstance(value, str) else json.dumps(value)}" for key, value in overrides.items()]


def run_started(snakemake_log: str | os.PathLike) -> float | None:
    """When the run of Snakemake's log started (the time in its name), as a POSIX timestamp; None if the name
    does not tell."""
    match = _LOG_NAME.match(Path(snakemake_log).name)
    if not match:
        return None
    try:
        return datetime.datetime.strptime(match.group(1), "%Y-%m-%dT%H%M%S.%f").timestamp()
    except ValueError:
        return None


def failed_jobs(
    snakemake_logs: Sequence[str | os.PathLike], job_logs: Path, workdir: str | os.PathLike = "."
) -> list[FailedJob]:
    """The jobs that failed in a run: from the ``Error in rule`` blocks of Snakemake's log (``snakemake_logs``),
    each with the error its own log ends with; where they name none, the job logs under ``job_logs`` written since
    the run started (the time in the name of Snakemake's log) that record an error."""
    jobs: list[FailedJob] = []
    for log in snakemake_logs:
        try:
            text = Path(log).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        jobs += _error_blocks(text.splitlines())
    for job in jobs:
        for log in job.logs:
            job.error = job.error or _job_error(Path(workdir) / log)
    if jobs:
        return jobs
    starts = [start for log in snakemake_logs if (start := run_started(log)) is not None]
    since = min(starts) if starts else None
    return _failed_job_logs(job_logs, since, Path(workdir))


def _error_blocks(lines: list[str]) -> list[FailedJob]:
    """Snakemake's ``Error in rule <rule>:`` blocks: the rule, then indented lines (wildcards, log, ...)."""
    jobs: list[FailedJob] = []
    current: FailedJob | None = None
    for line in lines:
        heading = _ERROR_IN_RULE.match(line)
        if heading:
            current = FailedJob(heading.group(1))
            jobs.append(current)
            continue
        if current is None or not line.startswith((" ", "\t")):
            current = None
            continue
        if found := _JOB_LOG.match(line):
            current.logs = [part.strip() for part in found.group(1).split(",") if part.strip()]
        elif found := _WILDCARDS.match(line):
            current.wildcards = found.group(1).strip()
    unique: dict[tuple, FailedJob] = {}
    for job in jobs:  # a job that failed again (--retries) once
        unique.setdefault((job.rule, job.wildcards), job)
    return list(unique.values())


def _job_error(path: Path) -> str:
    """The last error line of a job's log ("" if none or unreadable)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    errors = [found.group(1).strip() for line in lines if (found := _JOB_ERROR.search(line))]
    return errors[-1][:500] if errors else ""


def _failed_job_logs(job_logs: Path, since: float | None, workdir: Path) -> list[FailedJob]:
    """The job logs under ``job_logs`` (``logs/<rule>/...``) modified since ``since`` that record an error."""
    if since is None or not job_logs.is_dir():
        return []
    found = []
    for path in sorted(job_logs.rglob("*.log")):
        try:
            if path.stat().st_mtime < since:
                continue
        except OSError:
            continue
        error = _job_error(path)
        if error:
            rule = path.relative_to(job_logs).parts[0] if len(path.relative_to(job_logs).parts) > 1 else path.stem
            found.append(FailedJob(rule, "", [os.path.relpath(path, workdir)], error))
    return found
