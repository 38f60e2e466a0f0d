"""The ``ordeval`` command: score runs, leaderboards, file checks, the measure registry, the pipeline.

``ordeval measures``     the registered measures (name, task, direction, formula, reference)
``ordeval validate``     every problem of gold and run files, as ``file:line: problem`` (exit 1 if any)
``ordeval score``        per-topic scores of runs against a gold, their means and the leaderboard
``ordeval leaderboard``  the leaderboard of a scores folder (``<measure>.tsv`` files)
``ordeval run``          the Snakemake pipeline, with a one-screen summary and the full log in a file

A user error (a missing file, a bad format, a configuration or input error) is one line on stderr,
``ordeval: error: <file>:<line>: <problem>``, and exit status 2; never a traceback (set
``ORDEVAL_DEBUG=1`` to see one). ``ordeval validate`` exits with 1 when it finds a problem.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .errors import ConfigError, InputError

TASKS = ("quantification", "classification")
#: The formats of each task's files (see ordeval.validation.FORMATS).
FORMAT_HELP = (
    "quantification: semeval_dist, semeval_labels, ntcir_annotations (gold), ntcir_submission (run), tsv; "
    "classification: semeval_labels, tsv"
)
#: The stage targets of the pipeline (rules of the Snakefile).
STAGES = (
    "all",
    "data",
    "scores",
    "agreement",
    "consistency",
    "significance",
    "popularity",
    "leaderboard",
    "classification",
    "report",
)
#: Written by the scores folder next to the <measure>.tsv files, not score matrices themselves.
NOT_MATRICES = {"means.tsv", "measures.tsv"}


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2."""


# --------------------------------------------------------------------------- one-line errors


def _one_line(text: str) -> str:
    """Several lines as one: ``a:\n  b\n  c`` -> ``a: b; c``."""
    line = ""
    for part in (part.strip() for part in str(text).splitlines()):
        if part:
            line += part if not line else (" " if line.endswith(":") else "; ") + part
    return line


def describe(error: BaseException) -> str:
    """``<file>:<line>: <problem>`` (or ``<file>: <problem>``) for an error about an input or a configuration."""
    if isinstance(error, InputError):
        where = error.where or ""
        match = re.match(r"^line (\d+)\b\s*(.*)$", where, re.S)
        if match:
            rest = match.group(2).strip()
            return _one_line(f"{error.path}:{match.group(1)}: {error.problem}" + (f" {rest}" if rest else ""))
        return _one_line(f"{error.path}, {where}: {error.problem}" if where else f"{error.path}: {error.problem}")
    if isinstance(error, FileNotFoundError) and error.filename:
        return f"{error.filename}: no such file"
    if isinstance(error, OSError) and error.filename:
        return f"{error.filename}: {error.strerror or error}"
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return _one_line(re.sub(r"^(.*?), line (\d+): ", r"\1:\2: ", text))


def _fail(message: str) -> int:
    print(f"ordeval: error: {message}", file=sys.stderr)
    return 2


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line too (``ordeval: error: ...``), exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse's hook
        self.exit(2, f"ordeval: error: {_one_line(message)} (see '{self.prog} --help')\n")


# --------------------------------------------------------------------------- progress on stderr


class Progress:
    """A one-line progress indication on stderr: redrawn in place on a terminal; on another stream
    (``--progress`` with stderr redirected), one line per tenth of the work."""

    def __init__(self, label: str, enabled: bool, stream=None):
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.tty = self.enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.shown = -1
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        percent = int(100 * done / total)
        elapsed = time.monotonic() - self.start
        text = f"{self.label}: {done:,}/{total:,} ({percent}%) {elapsed:.0f} s"
        if self.tty:
            width = 30
            filled = int(width * done / total)
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r{self.label}: [{bar}] {done:,}/{total:,} {elapsed:.0f} s")
            if done >= total:
                self.stream.write("\n")
        elif percent // 10 > self.shown or done >= total:
            self.shown = percent // 10
            self.stream.write(text + "\n")
        self.stream.flush()


def _progress_wanted(args) -> bool:
    return bool(getattr(args, "progress", False)) or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())


# --------------------------------------------------------------------------- shared argument parsing


def parse_classes(text: str | None) -> list:
    """``-2,-1,0,1,2`` (the labels, ascending), or a number K: K classes labelled -(K-1)/2..(K-1)/2 when
    K is odd (SemEval's -2..2 for 5), 0..K-1 when K is even. Default: -2..2."""
    if text is None:
        return [-2, -1, 0, 1, 2]
    parts = [part.strip() for part in str(text).split(",") if part.strip()]
    if len(parts) == 1:
        try:
            count = int(parts[0])
        except ValueError:
            raise UserError(f"--classes: {text!r} is neither a number of classes nor a comma-separated list") from None
        if count < 2:
            raise UserError(f"--classes: ordinal data need at least 2 classes, not {count}")
        return list(range(-(count // 2), count // 2 + 1)) if count % 2 else list(range(count))
    labels = []
    for part in parts:
        try:
            labels.append(int(part))
        except ValueError:
            labels.append(part)
    if len(set(map(str, labels))) != len(labels):
        raise UserError(f"--classes: duplicate label in {text!r}")
    return labels


def _existing(path: str, what: str = "file") -> Path:
    candidate = Path(path)
    if not candidate.exists():
        raise UserError(f"{path}: no such {what}")
    if what == "file" and not candidate.is_file():
        raise UserError(f"{path}: not a file")
    if what == "folder" and not candidate.is_dir():
        raise UserError(f"{path}: not a folder")
    return candidate


def _measure_list(text: str | None, task: str | None = None) -> list[str] | None:
    if not text:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if task:
        from .tasks import get_task

        registry = get_task(task).registry
        unknown = [name for name in names if name not in registry]
        if unknown:
            raise UserError(
                f"--measures: unknown {task} measure(s) {', '.join(unknown)}; known: {', '.join(registry.names())}"
            )
    if len(set(names)) != len(names):
        raise UserError(f"--measures: a measure is named twice in {text!r}")
    return names


# --------------------------------------------------------------------------- ordeval measures


def cmd_measures(args) -> int:
    from .docs import measure_records, records_json

    if args.format == "json":
        print(records_json(args.task))
        return 0
    records = measure_records(args.task)
    if args.format == "markdown":
        print("| Measure | Task | Direction | Description | Formula | Reference |")
        print("|---|---|---|---|---|---|")
        for record in records:
            formula = " ".join(record["formula"].split()).replace("|", "\\|")
            cells = [record["name"], record["task"], record["direction"], record["description"], f"`{formula}`",
                     record["reference"]]  # fmt: skip
            print("| " + " | ".join(str(cell).replace("\n", " ") for cell in cells) + " |")
        return 0
    width = max((len(record["name"]) for record in records), default=4)
    for record in records:
        print(f"{record['name']:<{width}}  {record['task']:<14}  {record['direction']:<16}  {record['description']}")
        for line in record["formula"].splitlines():
            print(f"{'':<{width}}    {line}".rstrip())
        if record["reference"]:
            print(f"{'':<{width}}    Reference: {record['reference']}")
    return 0


# --------------------------------------------------------------------------- ordeval validate


def cmd_validate(args) -> int:
    from .validation import FORMATS, check_file

    if args.format not in FORMATS[args.task]:
        raise UserError(f"--format: {args.task} files can be {', '.join(FORMATS[args.task])}, not {args.format!r}")
    classes = parse_classes(args.classes)
    files = [_existing(path) for path in args.files]
    found = 0
    gold = None
    try:
        if args.gold:
            gold_format = args.gold_format or (
                "ntcir_annotations" if args.format == "ntcir_submission" else args.format
            )
            if gold_format not in FORMATS[args.task]:
                raise UserError(f"--gold-format: {args.task} files can be {', '.join(FORMATS[args.task])}")
            gold = check_file(_existing(args.gold), args.task, gold_format, classes, score=args.score, role="gold")
            found += _report(gold)
            if not gold.ok:
                print(
                    f"{args.gold}: the runs are checked against the gold once its problems are fixed", file=sys.stderr
                )
                return 1
        for path in files:
            checked = check_file(path, args.task, args.format, classes, score=args.score, role=args.role,
                                 gold=gold, align=args.align)  # fmt: skip
            found += _report(checked)
    except ValueError as error:  # a format/role that cannot be (e.g. a NTCIR file without --score)
        if isinstance(error, InputError):
            raise
        raise UserError(str(error)) from None
    if found:
        print(f"ordeval validate: {found} problem{'s' if found != 1 else ''} found", file=sys.stderr)
        return 1
    return 0


def _report(checked) -> int:
    for problem in checked.problems:
        print(problem)
    if checked.truncated:
        print(f"{checked.path}: (stopped after {len(checked.problems)} problems)")
    for note in checked.notes:
        print(f"{checked.path}: note: {note}")
    if checked.ok:
        print(
            f"{checked.path}: OK ({checked.role}: {checked.summary().removeprefix('ok: ').removeprefix('ok')})".replace(
                ": )", ")"
            )
        )
    return len(checked.problems)


# --------------------------------------------------------------------------- ordeval score


def _run_sources(values: Sequence[str]) -> dict[str, Path]:
    runs: dict[str, Path] = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator:
            name, path = Path(value).stem, value
        name = name.strip()
        if not name:
            raise UserError(f"--run {value!r}: give NAME=FILE (or FILE, named after the file)")
        if name in runs:
            raise UserError(f"--run: two runs are named {name!r}")
        runs[name] = _existing(path)
    return runs


def score_files(args, progress: Progress):
    """The ScoreStack of the runs of ``args``."""
    import numpy as np

    from .api import score_stack
    from .scores import ScoreStack

    classes = parse_classes(args.classes)
    gold = _existing(args.gold)
    runs = _run_sources(args.run)
    measures = _measure_list(args.measures, args.task)
    gold_format = args.gold_format or ("ntcir_annotations" if args.format == "ntcir_submission" else args.format)
    options = dict(task=args.task, classes=classes, measures=measures, gold_format=gold_format,
                   run_format=args.format, align=args.align, score_key=args.score)  # fmt: skip
    if (gold_format in ("ntcir_annotations",) or args.format == "ntcir_submission") and not args.score:
        raise UserError("NTCIR files hold the A, E and S scores: say which with --score A|E|S")
    # One run at a time (so that progress can be shown; the same with or without it), except for a
    # canonical runs table, which holds many runs in one file.
    if args.format == "tsv" or len(runs) == 1:
        progress(0, len(runs))
        stack = score_stack(str(gold), {name: str(path) for name, path in runs.items()}, **options)
        progress(len(runs), len(runs))
        return stack
    parts = []
    progress(0, len(runs))
    for done, (name, path) in enumerate(runs.items(), start=1):
        parts.append(score_stack(str(gold), {name: str(path)}, **options))
        progress(done, len(runs))
    first = parts[0]
    if any(part.topics != first.topics for part in parts):  # pragma: no cover - the gold decides the topics
        raise UserError("the runs cover different topics")
    return ScoreStack(first.measures, first.topics, [run for part in parts for run in part.runs],
                      np.concatenate([part.values for part in parts], axis=2), first.lower_is_better,
                      first.display, first.task, first.latex)  # fmt: skip


def check_leaderboard(stack, trials: int, hint: str = "") -> None:
    """Raise a UserError when ``stack`` cannot have a leaderboard (checked before anything is written)."""
    if len(stack.runs) < 2:
        raise UserError(f"a leaderboard needs at least 2 runs, there is {len(stack.runs)}{hint}")
    if len(stack.topics) < 2:
        raise UserError(f"a leaderboard needs at least 2 topics, there is {len(stack.topics)}{hint}")
    if trials < 1:
        raise UserError("--trials: at least 1")


def write_leaderboard(stack, out: Path, dataset: str, *, trials: int, seed: int, alpha: float, level: float,
                      threads: int | None, progress: Progress) -> str:  # fmt: skip
    """``<out>/leaderboard.{csv,md,tex}`` of every measure of ``stack``; returns the Markdown."""
    from .analysis.leaderboard import leaderboard
    from .analysis.significance import pairwise_significance
    from .files import write_text
    from .latex import comment, measure_labels
    from .latex.leaderboard import leaderboard_latex, leaderboard_markdown
    from .seeding import stream
    from .table import Table

    check_leaderboard(stack, trials)
    progress.label = f"randomised Tukey HSD, {len(stack.measures)} measures"
    significance = pairwise_significance(stack, trials, stream(seed, "cli", "leaderboard"), threads, progress)
    boards = [
        leaderboard(stack.matrix(m), stack.runs, m, stack.direction_of(m), significance.matrix(m), alpha, level).table()
        for m in stack.measures
    ]
    setting = (
        f"{dataset}: mean over {len(stack.topics)} topics with {level:.0%} t intervals, rank, and significance "
        f"groups (runs sharing a letter do not differ significantly: randomised Tukey HSD, B = {trials}, "
        f"seed = {seed}, alpha = {alpha:g})."
    )
    out.mkdir(parents=True, exist_ok=True)
    Table.concat(boards).write(out / "leaderboard.csv", sep=",")
    write_text(
        comment(setting) + "\n" + leaderboard_latex(boards, measure_labels(stack), level), out / "leaderboard.tex"
    )
    names = dict(zip(stack.measures, stack.display, strict=True))
    markdown = leaderboard_markdown(dataset, boards, names, level, setting)
    write_text(markdown, out / "leaderboard.md")
    return markdown


def cmd_score(args) -> int:
    from .scores import write_scores

    out = Path(args.out)
    progress = Progress("scoring runs", _progress_wanted(args))
    stack = score_files(args, progress)
    if not args.no_leaderboard:  # before anything is written: no partial output
        check_leaderboard(stack, args.trials, " (--no-leaderboard writes the scores only)")
    out.mkdir(parents=True, exist_ok=True)
    write_scores(stack, out)
    print(f"scored {len(stack.runs)} runs x {len(stack.topics)} topics with {len(stack.measures)} measures: "
          f"{out}/<measure>.tsv, means.tsv, measures.tsv", file=sys.stderr)  # fmt: skip
    if args.no_leaderboard:
        return 0
    progress = Progress("randomised Tukey HSD", progress.enabled)
    write_leaderboard(stack, out, args.name or Path(args.gold).stem, trials=args.trials, seed=args.seed,
                      alpha=args.alpha, level=args.level, threads=args.threads, progress=progress)  # fmt: skip
    print(f"leaderboard: {out}/leaderboard.csv, .md, .tex", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- ordeval leaderboard


def read_scores_folder(folder: Path, measures: Sequence[str] | None = None):
    """The ScoreStack of a scores folder: ``<measure>.tsv`` (topics x runs) and, where present,
    ``measures.tsv`` (the directions, display names); else every score table, directions from the registry."""
    import numpy as np

    from .api import _registered_direction
    from .scores import ScoreStack, read_measure_table, read_score_matrix

    table_path = folder / "measures.tsv"
    info: dict[str, dict] = {}
    if table_path.is_file():
        table = read_measure_table(table_path)
        for row in table.records():
            info[row["measure"]] = row
        names = list(info)
    else:
        names = sorted(path.stem for path in folder.glob("*.tsv") if path.name not in NOT_MATRICES)
        names = [name for name in names if _is_score_table(folder / f"{name}.tsv")]
    if measures:
        missing = [name for name in measures if name not in names and not (folder / f"{name}.tsv").is_file()]
        if missing:
            raise UserError(f"{folder}: no scores of measure(s) {', '.join(missing)}")
        names = list(measures)
    if not names:
        raise UserError(f"{folder}: no score tables (<measure>.tsv with a 'topic' column, one column per run)")
    topics = runs = None
    matrices = []
    for name in names:
        path = folder / f"{name}.tsv"
        if not path.is_file():
            raise UserError(f"{path}: no such file (listed in {table_path})")
        these_topics, these_runs, values = read_score_matrix(path)
        if topics is None:
            topics, runs, first = these_topics, these_runs, path
        elif these_topics != topics or these_runs != runs:
            raise InputError(path, "line 1", f"its topics or runs differ from those of {first}")
        matrices.append(values)
    lower = [bool(info[n]["lower_is_better"]) if n in info else _registered_direction(n) for n in names]
    display = [str(info[n]["display"]) if n in info else n for n in names]
    latex = [str(info[n].get("latex", "") or "") if n in info else "" for n in names]
    task = str(next(iter(info.values()))["task"]) if info else ""
    return ScoreStack(names, topics, runs, np.stack(matrices), lower, display, task, latex)


def _is_score_table(path: Path) -> bool:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.readline().split("\t")[0].strip() == "topic"


def cmd_leaderboard(args) -> int:
    folder = _existing(args.scores_dir, "folder")
    stack = read_scores_folder(folder, _measure_list(args.measures))
    out = Path(args.out) if args.out else folder
    progress = Progress("randomised Tukey HSD", _progress_wanted(args))
    markdown = write_leaderboard(stack, out, args.name or folder.resolve().name, trials=args.trials, seed=args.seed,
                                 alpha=args.alpha, level=args.level, threads=args.threads,
                                 progress=progress)  # fmt: skip
    sys.stdout.write(markdown if markdown.endswith("\n") else markdown + "\n")
    print(f"leaderboard: {out}/leaderboard.csv, .md, .tex", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- ordeval run


def project_folder() -> Path:
    """The folder holding the Snakefile: the current folder, else the repository containing the package."""
    here = Path.cwd()
    if (here / "Snakefile").is_file():
        return here
    repository = Path(__file__).resolve().parents[2]
    if (repository / "Snakefile").is_file():
        return repository
    raise UserError(
        f"no Snakefile in {here} nor in {repository}: run 'ordeval run' in the ordeval repository (a source checkout)"
    )


def _config_overrides(extra: Sequence[str]) -> dict:
    """Top-level ``--config key=value`` items among the extra Snakemake arguments."""
    import yaml

    overrides, taking = {}, False
    for item in extra:
        if item == "--config" or item == "-C":
            taking = True
            continue
        if item.startswith("-"):
            taking = False
            continue
        if taking and "=" in item:
            key, _, value = item.partition("=")
            overrides[key] = yaml.safe_load(value) if value else value
    return overrides


def snakemake_command() -> list[str]:
    """How Snakemake is started (``ORDEVAL_SNAKEMAKE`` overrides it: a command line, split on spaces)."""
    override = os.environ.get("ORDEVAL_SNAKEMAKE")
    return override.split() if override else [sys.executable, "-m", "snakemake"]


_STEPS = re.compile(r"(\d+) of (\d+) steps \((\d+(?:\.\d+)?)%\) done")
_TOTAL = re.compile(r"^total\s+(\d+)\s*$")
_ERROR_RULE = re.compile(r"^Error in rule (\S+):")
_ERROR_LINE = re.compile(
    r"(ordeval: |Error|error:|Exception|Traceback|MissingInput|Missing input|LockException|IncompleteFiles"
    r"|Directory cannot be locked|Nothing to be done|failed)",
)


def cmd_run(args, extra: Sequence[str]) -> int:
    from .config import load_yaml, validate
    from .plan import plan as make_plan

    project = project_folder()
    configfile = Path(args.configfile).resolve() if args.configfile else project / "config" / "config.yaml"
    if not configfile.is_file():
        raise UserError(f"{args.configfile or configfile}: no such configuration file")
    shown = args.configfile or os.path.relpath(configfile)
    try:
        data = load_yaml(configfile)
        if not isinstance(data, dict):
            raise ConfigError(f"a configuration is a mapping of keys, not {type(data).__name__}")
        data.update(_config_overrides(extra))
        config = validate(data)
        make_plan(config, workdir=project)  # every check the Snakefile makes, before Snakemake starts
    except (ConfigError, InputError) as error:
        message = describe(error)
        raise UserError(message if message.startswith(str(configfile)) else f"{shown}: {message}") from None
    name = config["name"]
    results = project / "results" / name
    log_path = results / "logs" / "ordeval-run.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    command = [*snakemake_command(), "--snakefile", str(project / "Snakefile"), "--directory", str(project),
               "--configfile", str(configfile), "--cores", str(args.cores)]  # fmt: skip
    if args.dry_run:
        command.append("--dry-run")
    command += [*extra, args.target]
    progress = Progress(f"ordeval run {name}", _progress_wanted(args))
    done = total = 0
    failed: list[str] = []
    errors: list[str] = []
    nothing = False
    started = time.monotonic()
    print(f"ordeval run: configuration {shown} (name {name}), target {args.target}, {args.cores} cores; "
          f"log: {os.path.relpath(log_path)}", file=sys.stderr)  # fmt: skip
    with open(log_path, "w", encoding="utf-8") as log:  # not an output: the live log of the run
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        try:
            process = subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, errors="replace")  # fmt: skip
        except OSError as error:
            raise UserError(f"cannot start Snakemake ({' '.join(snakemake_command())}): {error}") from None
        for line in process.stdout:
            log.write(line)
            text = line.rstrip("\n")
            steps = _STEPS.search(text)
            if steps:
                done, total = int(steps.group(1)), int(steps.group(2))
                progress(done, total)
            planned = _TOTAL.match(text)
            if planned and not total:
                total = int(planned.group(1))
            rule = _ERROR_RULE.match(text)
            if rule:
                failed.append(rule.group(1))
            if "Nothing to be done" in text:
                nothing = True
            if _ERROR_LINE.search(text) and len(errors) < 12:
                errors.append(text.strip())
        status = process.wait()
        process.stdout.close()
    minutes = (time.monotonic() - started) / 60
    lines = [f"ordeval run: snakemake exited with status {status} after {minutes:.1f} min"]
    if args.dry_run:
        lines.append(f"dry run: {total} jobs would run; nothing was computed" if total else "dry run: nothing computed")
    elif nothing:
        lines.append("nothing to be done: every output is up to date")
    elif total:
        lines.append(f"jobs done: {done} of {total}")
    if failed:
        lines.append(f"jobs failed: {len(failed)} ({', '.join(dict.fromkeys(failed))})")
    relative_results = os.path.relpath(results)
    lines.append(f"results: {relative_results}/ (tables/, figures/, scores/)")
    report = results / "report" / "ordeval.pdf"
    if report.is_file():
        lines.append(f"report: {os.path.relpath(report)}")
    else:
        lines.append(f"report: {os.path.relpath(results / 'report')}/ once the 'report' stage has run")
    lines.append(f"HTML report: snakemake --configfile {shown} --report {relative_results}/report.html")
    lines.append(f"full log: {os.path.relpath(log_path)}")
    if status != 0:
        lines += ["errors:"] + [f"  {line}" for line in errors or ["(see the full log)"]]
        lines.append(
            "after an interruption: ordeval run ... -- --rerun-incomplete (or --unlock if the folder is locked)"
        )
    print("\n".join(lines), file=sys.stderr if status else sys.stdout)
    return status


# --------------------------------------------------------------------------- the parser


def _add_hsd_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trials", "-B", type=int, default=5000, help="randomised Tukey HSD trials (default 5000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the HSD trials (default 0)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level of the groups (default 0.05)")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level of the intervals (default 0.95)")
    parser.add_argument("--threads", type=int, default=None, help="threads of the HSD (default: all)")
    parser.add_argument("--name", help="data set name in the leaderboard's title")
    parser.add_argument(
        "--progress", action="store_true", help="show progress on stderr even when it is not a terminal"
    )


def _add_file_options(parser: argparse.ArgumentParser, *, required_format: bool) -> None:
    parser.add_argument("--task", choices=TASKS, required=True, help="quantification (OQ) or classification (OC)")
    parser.add_argument("--format", required=required_format, default="tsv",
                        help=f"file format of the runs ({FORMAT_HELP})")  # fmt: skip
    parser.add_argument("--gold-format", help="file format of the gold (default: as --format; ntcir_annotations for "
                        "ntcir_submission runs)")  # fmt: skip
    parser.add_argument("--classes", help="class labels, ascending, comma-separated (default -2,-1,0,1,2), or their "
                        "number K (odd K: centred on 0; even K: 0..K-1)")  # fmt: skip
    parser.add_argument("--score", choices=("A", "E", "S"), help="NTCIR files: which score's distribution")
    parser.add_argument(
        "--align",
        choices=("id", "position"),
        default="id",
        help="classification: pair a run with the gold by item id (default) or line position",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ordeval",
        description="Meta-evaluation of ordinal classification and quantification measures: score runs, "
        "leaderboards with significance groups, file checks, the measure registry, the full pipeline.",
        epilog="Each command has its own --help. Errors are one line on stderr; exit status 2 (1: problems found by "
        "'validate').",
    )
    parser.add_argument("--version", action="version", version=f"ordeval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    measures = commands.add_parser(
        "measures",
        help="list the registered measures",
        description="The measure registry: name, task, direction, formula, reference.",
    )
    measures.add_argument("--task", choices=TASKS, help="only the measures of this task")
    measures.add_argument("--format", choices=("text", "markdown", "json"), default="text", help="output format")

    validate = commands.add_parser(
        "validate",
        help="check gold or run files and list every problem",
        description="Check gold or run files with the readers' rules and list every problem as 'file:line: problem'. "
        "With --gold, the FILEs are runs and are also paired with the gold. Exit status 1 if a problem is found.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="files to check")
    _add_file_options(validate, required_format=True)
    validate.add_argument("--gold", help="the gold file: the FILEs are runs, checked against it")
    validate.add_argument("--role", choices=("gold", "run"), help="what the FILEs are (default: from the format)")

    score = commands.add_parser(
        "score",
        help="score runs against a gold: per-topic scores and a leaderboard",
        description="Score runs against a gold with the task's measures; write <out>/<measure>.tsv (topics x runs), "
        "means.tsv, measures.tsv and the leaderboard <out>/leaderboard.{csv,md,tex} (mean, interval, rank, "
        "significance groups from the randomised Tukey HSD).",
    )
    _add_file_options(score, required_format=False)
    score.add_argument("--gold", required=True, help="the gold file")
    score.add_argument(
        "--run",
        action="append",
        required=True,
        metavar="NAME=FILE",
        help="a run (repeat for each run; FILE alone: named after the file; tsv: every run of the table)",
    )
    score.add_argument("--measures", help="comma-separated measure names (default: every measure of the task)")
    score.add_argument("--out", default="ordeval-scores", help="output folder (default ordeval-scores)")
    score.add_argument("--no-leaderboard", action="store_true", help="write the scores only")
    _add_hsd_options(score)

    board = commands.add_parser(
        "leaderboard",
        help="leaderboard from a scores folder",
        description="The leaderboard of a scores folder (<measure>.tsv, topics x runs; the directions from its "
        "measures.tsv, as the pipeline and 'ordeval score' write it, else from the registry): "
        "leaderboard.{csv,md,tex}, the Markdown also on stdout.",
    )
    board.add_argument("scores_dir", metavar="SCORES_DIR", help="e.g. results/<name>/scores/<dataset>")
    board.add_argument("--measures", help="comma-separated measures (default: every one in the folder)")
    board.add_argument("--out", help="output folder (default: SCORES_DIR)")
    _add_hsd_options(board)

    run = commands.add_parser(
        "run",
        help="run the pipeline (Snakemake) with a one-screen summary",
        description="Run the Snakemake pipeline from the project folder: the configuration is checked first (one-line "
        "errors), the full log goes to results/<name>/logs/ordeval-run.log, and a summary is printed. Arguments "
        "after '--' go to Snakemake (e.g. -- --rerun-incomplete, -- --config data_root=../data).",
    )
    run.add_argument("--configfile", help="configuration file (default config/config.yaml)")
    run.add_argument("--target", default="all", help=f"stage or file to make ({', '.join(STAGES)}; default all)")
    run.add_argument("--cores", default="all", help="cores Snakemake may use (default all)")
    run.add_argument("--dry-run", "-n", action="store_true", help="show what would run, compute nothing")
    run.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``ordeval`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1 :]
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0) if not isinstance(stop.code, str) else 2
    if args.command is None:
        parser.print_help()
        return 0
    if extra and args.command != "run":
        return _fail(f"arguments after '--' are for 'ordeval run' only: {' '.join(extra)}")
    handlers = {"measures": cmd_measures, "validate": cmd_validate, "score": cmd_score, "leaderboard": cmd_leaderboard}
    try:
        if args.command == "run":
            return cmd_run(args, extra)
        return handlers[args.command](args)
    except UserError as error:
        return _fail(_one_line(str(error)))
    except BrokenPipeError:  # pragma: no cover - e.g. 'ordeval measures | head'
        return 0
    except (InputError, ConfigError, OSError, ValueError, KeyError) as error:
        if os.environ.get("ORDEVAL_DEBUG"):
            raise
        return _fail(describe(error))
    except KeyboardInterrupt:
        print("ordeval: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
