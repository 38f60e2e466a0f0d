"""``ordeval run``: the Snakemake pipeline, with a one-screen summary and the full log in a file."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from ordeval.cli import checks
from ordeval.cli.common import Progress, UserError, describe, progress_wanted
from ordeval.cli.run_advice import _runs_snakemake, again, diagnosis, left_behind, live_snakemake  # noqa: F401 (imported from here too)
from ordeval.io.errors import ConfigError, InputError


def _stages() -> tuple[str, ...]:
    from ordeval.reports.catalogue import STAGES

    return ("all", *STAGES)


def project_folder() -> Path:
    """The folder holding the Snakefile: the current folder, else the repository containing the package."""
    here = Path.cwd()
    if (here / "Snakefile").is_file():
        return here
    repository = Path(__file__).resolve().parents[3]
    if (repository / "Snakefile").is_file():
        return repository
    raise UserError(
        f"no Snakefile in {here} nor in {repository}: run 'ordeval run' in the ordeval repository (a source checkout)"
    )


def _config_items(extra: Sequence[str]) -> dict[str, str]:
    """{key: the ``key=value`` item} of the top-level ``--config`` items among the extra Snakemake arguments."""
    items, taking = {}, False
    for item in extra:
        if item == "--config" or item == "-C":
            taking = True
            continue
        if item.startswith("-"):
            taking = False
            continue
        if taking and "=" in item:
            items[item.partition("=")[0]] = item
    return items


def _config_overrides(extra: Sequence[str]) -> dict:
    """Top-level ``--config key=value`` items among the extra Snakemake arguments, their values parsed."""
    import yaml

    overrides = {}
    for key, item in _config_items(extra).items():
        value = item.partition("=")[2]
        overrides[key] = yaml.safe_load(value) if value else value
    return overrides


def _blamed(message: str, shown: str, items: dict[str, str]) -> str:
    """A configuration error said of its source: the ``-- --config`` item whose key it names, else the file
    (with the items where the message names no key, as either may be the cause)."""
    named = re.match(r"config key (\(top level\)|[^\s:.\[]+)", message)
    if named and named.group(1) == "(top level)":
        keys = [key for key in re.findall(r"'([^']+)'", message) if key in items]
    elif named:
        keys = [named.group(1)] if named.group(1) in items else []
    else:
        keys = [key for key in items if re.match(rf"{re.escape(key)}\b", message)]
    if keys:
        return f"-- --config {' '.join(items[key] for key in keys)}: {message}"
    if items and not named:
        return f"{shown} with -- --config {' '.join(items.values())}: {message}"
    return f"{shown}: {message}"


def snakemake_command() -> list[str]:
    """How Snakemake is started (``ORDEVAL_SNAKEMAKE`` overrides it: a command line, split on spaces)."""
    override = os.environ.get("ORDEVAL_SNAKEMAKE")
    return override.split() if override else [sys.executable, "-m", "snakemake"]


_STEPS = re.compile(r"(\d+) of (\d+) steps \((\d+(?:\.\d+)?)%\) done")
_TOTAL = re.compile(r"^total\s+(\d+)\s*$")
_RULE_COUNT = re.compile(r"^(\w+)\s+(\d+)\s*$")
_ERROR_RULE = re.compile(r"^Error in rule (\S+):")
_ERROR_LINE = re.compile(r"(Error|error:|Exception|MissingInput|Missing input|Directory cannot be locked|failed)")
#: A job's one-line error: ``ordeval: error: ...`` or the job log's ``<rule> ERROR <rule> failed: ...``.
_JOB_ERROR = re.compile(r"(?:ordeval: error: |\bERROR )(.*)$")
#: Snakemake's heading of an exception raised while it loads the workflow (``InputError in file "...", line 43:``,
#: ``AmbiguousRuleException:``), whose message follows on the next line.
_EXCEPTION_HEADING = re.compile(r"^\w*(?:Error|Exception)(?: in file .*)?:$")
_LOCKED = re.compile(r"LockException|Directory cannot be locked")
_INCOMPLETE = re.compile(r"IncompleteFilesException|--rerun-incomplete|incomplete")
#: Above this many data sets, ``ordeval run`` says that it is planning them (a few seconds per thousand).
PLANNING_NOTE = 100
#: Seconds Snakemake and its jobs get to stop after a forwarded SIGINT/SIGTERM before SIGKILL.
STOP_GRACE = 30.0


def _project_arguments(project: Path, configfile: Path) -> list[str]:
    """Snakemake's arguments for the project's Snakefile, run in the project folder on ``configfile``."""
    return ["--snakefile", str(project / "Snakefile"), "--directory", str(project), "--configfile", str(configfile)]


def plain_output_arguments(project: Path) -> list[str]:
    """Snakemake's arguments for its plain text output, which ``ordeval run`` reads (the steps done) and logs: the
    project's workflow profile (``profiles/default``) turned off, and each of its settings given on the command
    line instead, except its ``logger`` (the progress bar a terminal shows); ``--quiet rules``: a few lines per job
    in the run's log, not each job's inputs and outputs (as ever: a full disk fills it no sooner)."""
    import yaml

    path = project / "profiles" / "default" / "config.yaml"
    settings = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
    arguments = ["--workflow-profile", "none", "--quiet", "rules"]
    for key, value in (settings or {}).items():
        if key == "logger" or value is None or value is False:
            continue
        if value is True:
            arguments.append(f"--{key}")
        elif isinstance(value, list):
            arguments += [f"--{key}", *map(str, value)]
        else:
            arguments += [f"--{key}", str(value)]
    return arguments


def cmd_run(args, extra: Sequence[str]) -> int:
    from ordeval.workflow.config import load_yaml
    from ordeval.workflow.plan import plan as make_plan

    project = project_folder()
    configfile = Path(args.configfile).resolve() if args.configfile else project / "config" / "config.yaml"
    if not configfile.exists():  # what is there but is not a regular file: said by the loader
        raise UserError(f"{args.configfile or configfile}: no such configuration file")
    shown = args.configfile or os.path.relpath(configfile)
    try:
        data = load_yaml(configfile)
        if not isinstance(data, dict):
            raise ConfigError(f"a configuration is a mapping of keys, not {type(data).__name__}")
        data.update(_config_overrides(extra))
        many = data.get("datasets")
        if isinstance(many, dict) and len(many) > PLANNING_NOTE:  # seconds of planning: say what happens
            print(f"ordeval run: {shown}: checking and planning {len(many):,} data sets ...", file=sys.stderr)
        # every check the Snakefile makes (plugins loaded first: they may add a file format), before Snakemake
        planned = make_plan(data, workdir=project)
    except (ConfigError, InputError) as error:
        message = describe(error)
        if message.startswith(str(configfile)) or isinstance(error, InputError):  # an input file's: it names it
            raise UserError(message) from None
        raise UserError(_blamed(message, shown, _config_items(extra))) from None
    name = planned.config["name"]
    results = project / "results" / name
    log_path = results / "logs" / "ordeval-run.log"
    # the target before the pass-through arguments: a trailing --config would take it as one of its items
    command = [
        *snakemake_command(),
        *_project_arguments(project, configfile),
        *plain_output_arguments(project),
        "--cores",
        str(args.cores),
        *(["--dry-run"] if args.dry_run else []),
        args.target,
        *extra,
    ]
    from ordeval.workflow.limits import estimate

    heading = (
        f"ordeval run: configuration {shown} (name {name}), target {args.target}, {args.cores} cores, "
        f"{_duration(estimate(planned.config).hours)} of work at most (a generous estimate, if every job runs); "
    )
    started = time.monotonic()
    watch = _Watch(Progress(f"ordeval run {name}", progress_wanted(args)))
    if args.dry_run:  # nothing written: no log, no lock (Snakemake's dry run takes none either)
        print(heading + "dry run: nothing is written", file=sys.stderr)
        with open(os.devnull, "w", encoding="utf-8") as log:  # not an output: nowhere
            status, stopped_by, failure = _snakemake(command, project, log, watch)
        unfinished = None
    else:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with _exclusive(log_path.parent / ".ordeval-run.lock", name):  # before the log of a running call is touched
            print(heading + f"log: {os.path.relpath(log_path)}", file=sys.stderr)
            status, stopped_by, failure, unfinished = _logged_run(command, project, log_path, watch)
    if failure is not None:  # the log could not be written (a full disk): Snakemake and its jobs were stopped
        ran = (
            f"Snakemake and its jobs were stopped (exit status {status})" if status is not None else "no Snakemake ran"
        )
        raise UserError(
            f"{os.path.relpath(log_path)}: cannot write the log ({failure.strerror or failure}); {ran}; "
            f"once there is room: {again(args, extra)}"
        )
    lines = _summary(args, watch, status, stopped_by, time.monotonic() - started)
    if not args.dry_run:
        lines += _where(project, results, configfile, shown, log_path, planned, extra, args, watch, status)
    if unfinished is not None:  # Snakemake had ended; the last lines of its log did not reach the file
        lines.append(
            f"warning: {os.path.relpath(log_path)}: the log's end is missing ({unfinished.strerror or unfinished})"
        )
    if status != 0:
        lines += diagnosis(watch, stopped_by, project, args, extra)
    print("\n".join(lines), file=sys.stderr if status else sys.stdout)
    if stopped_by is not None:
        return 128 + stopped_by
    return status


def _duration(hours: float) -> str:
    """``about 7 min``, ``about 3.2 hours``."""
    minutes = hours * 60
    if minutes < 1:
        return "under a minute"
    return f"about {minutes:.0f} min" if minutes < 90 else f"about {hours:.1f} hours"


def _logged_run(command: list[str], project: Path, log_path: Path, watch: _Watch):
    """:func:`_snakemake` with its output in ``log_path``: (status, stopping signal, the OSError that stopped
    the run or None, the OSError of closing the log after Snakemake ended or None)."""
    try:
        log = open(log_path, "w", encoding="utf-8")  # not an output: the live log of the run
    except OSError as error:
        raise UserError(f"{os.path.relpath(log_path)}: cannot write the log ({error.strerror or error})") from None
    failure = unfinished = None
    try:
        try:
            log.write("$ " + shlex.join(command) + "\n")
            log.flush()
        except OSError as error:
            failure = error
        if failure is None:
            status, stopped_by, failure = _snakemake(command, project, log, watch)
        else:
            status, stopped_by = None, None  # Snakemake not started
    finally:
        try:
            log.close()  # the last lines reach the file here
        except OSError as error:
            unfinished = error
    return status, stopped_by, failure, (None if failure else unfinished)


@contextmanager
def _exclusive(path: Path, name: str):
    """Hold an exclusive lock on ``path`` while the run lasts; a second ``ordeval run`` of the same
    configuration name is refused before it touches anything of the first (its log included)."""
    import fcntl

    handle = open(path, "a", encoding="utf-8")  # not an output: an empty lock file, never truncated
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(
                f"another 'ordeval run' of {name!r} is running (lock {os.path.relpath(path)}); wait for it, or stop it"
            ) from None
        yield
    finally:
        handle.close()


class _Watch:
    """What the summary needs from Snakemake's output, read line by line."""

    def __init__(self, progress: Progress):
        self.progress = progress
        self.done = self.total = 0
        self.failed: list[str] = []
        self.errors: list[str] = []  # one-line errors of the jobs (``<rule> failed: ...``, ``ordeval: error: ...``)
        self.other: list[str] = []  # Snakemake's own error lines
        self.nothing = False
        self.locked = self.incomplete = False
        self.jobs: dict[str, int] = {}  # jobs per rule, from Snakemake's first "Job stats" table
        self.logs: list[str] = []  # Snakemake's log of the run ("Complete log(s): ...")
        self._stats = False
        self._heading: int | None = None  # the error line of self.other that the next line completes

    def __call__(self, text: str) -> None:
        if text.startswith("Job stats:"):
            self._stats = not self.jobs
        elif self._stats and (count := _RULE_COUNT.match(text)):
            self._stats = count.group(1) != "total"
            if self._stats:
                self.jobs[count.group(1)] = int(count.group(2))
        if text.startswith("Complete log(s): "):
            self.logs = [part.strip() for part in text.removeprefix("Complete log(s): ").split(", ") if part.strip()]
        steps = _STEPS.search(text)
        if steps:
            self.done, self.total = int(steps.group(1)), int(steps.group(2))
            self.progress(self.done, self.total)
        planned = _TOTAL.match(text)
        if planned and not self.total:
            self.total = int(planned.group(1))
        rule = _ERROR_RULE.match(text)
        if rule:
            self.failed.append(rule.group(1))
        self.nothing = self.nothing or "Nothing to be done" in text
        self.locked = self.locked or bool(_LOCKED.search(text))
        self.incomplete = self.incomplete or bool(_INCOMPLETE.search(text))
        job_error = _JOB_ERROR.search(text)
        heading, self._heading = self._heading, None
        if job_error and len(self.errors) < 12:
            line = job_error.group(1).strip()
            if line not in self.errors:
                self.errors.append(line)
        elif heading is not None and text.strip() and not text.startswith(("  File ", "Traceback")):
            self.other[heading] += " " + text.strip()  # "XError in file ..., line N:" says what on the next line
        elif _ERROR_LINE.search(text) and not text.startswith((" ", "\t", "Traceback")) and len(self.other) < 12:
            self.other.append(text.strip())
            if _EXCEPTION_HEADING.match(text.rstrip()):
                self._heading = len(self.other) - 1


def _snakemake(command: list[str], project: Path, log, watch: _Watch) -> tuple[int, int | None, OSError | None]:
    """Run Snakemake in its own process group, its output into ``log`` and ``watch``. SIGINT and SIGTERM
    to this process are forwarded to the whole group (Snakemake and every job), which is waited for (and
    killed after :data:`STOP_GRACE` seconds). So is an error writing ``log`` (a full disk): the group is
    stopped and its output read to the end (Snakemake blocked on a full pipe would never stop), and the
    error returned. On any other exception here, the group is stopped and waited for before it is raised.
    Returns (exit status, the signal that stopped it or None, the log's write error or None)."""
    try:
        process = subprocess.Popen(
            command,
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            encoding="utf-8",  # the log is UTF-8 whatever the locale: Snakemake and its jobs write UTF-8 to it
            errors="replace",
            env={**os.environ, "PYTHONIOENCODING": "utf-8:backslashreplace"},
            start_new_session=True,
        )
    except OSError as error:
        raise UserError(f"cannot start Snakemake ({shlex.join(snakemake_command())}): {error}") from None
    received: list[int] = []
    stopping: list[bool] = []
    killer = threading.Timer(STOP_GRACE, _signal_group, (process.pid, signal.SIGKILL))
    killer.daemon = True

    def stop(number: int = signal.SIGTERM) -> None:
        _signal_group(process.pid, number)
        if not stopping:
            stopping.append(True)
            killer.start()

    def forward(number, frame):  # noqa: ARG001 - the signal module's signature
        if not received:
            received.append(number)
            stop(number)

    previous = {number: signal.signal(number, forward) for number in (signal.SIGINT, signal.SIGTERM)}
    failure: OSError | None = None
    try:
        try:
            for line in process.stdout:
                if failure is None:
                    try:
                        log.write(line)
                    except OSError as error:  # e.g. a full disk: stop the run, keep reading its output
                        failure = error
                        stop()
                watch(line.rstrip("\n"))
            status = process.wait()
        except BaseException:  # an error of this process's own: no Snakemake left behind
            stop()
            with suppress(Exception):
                for _ in process.stdout:
                    pass
            process.wait()
            raise
    finally:
        killer.cancel()
        for number, handler in previous.items():
            signal.signal(number, handler)
        process.stdout.close()
    if received or failure is not None:
        _signal_group(process.pid, signal.SIGTERM)  # a job that outlived Snakemake
    return status, (received[0] if received else None), failure


def _signal_group(group: int, number: int) -> None:
    try:
        os.killpg(group, number)
    except (ProcessLookupError, PermissionError):
        pass


def _summary(args, watch: _Watch, status: int, stopped_by: int | None, seconds: float) -> list[str]:
    if stopped_by is not None:
        name = signal.Signals(stopped_by).name
        lines = [f"ordeval run: stopped by {name} after {seconds / 60:.1f} min: Snakemake and its jobs were stopped"]
    else:
        lines = [f"ordeval run: snakemake exited with status {status} after {seconds / 60:.1f} min"]
    if args.dry_run and watch.total:
        rules = ", ".join(rule if count == 1 else f"{rule} x{count}" for rule, count in watch.jobs.items())
        lines.append(
            f"dry run: {watch.total} jobs would run{f' ({rules})' if rules else ''}; nothing was computed or written"
        )
    elif args.dry_run:
        lines.append("dry run: nothing computed or written")
    elif watch.nothing:
        lines.append("nothing to be done: every output is up to date")
    elif watch.total:
        lines.append(f"jobs done: {watch.done} of {watch.total}")
    if watch.failed:
        lines.append(f"jobs failed: {len(watch.failed)} ({', '.join(dict.fromkeys(watch.failed))})")
    return lines


def _where(
    project: Path, results: Path, configfile: Path, shown: str, log_path: Path, planned, extra, args, watch, status
) -> list[str]:
    """The summary a Snakemake run ends with (:func:`ordeval.workflow.summary.run_summary`: the PDF, the tables, a
    replication's verdict counts, a failed job's log), with the command for Snakemake's HTML report runnable from
    here as printed (with the run's ``--config`` items; after the 'report' stage where its manifest is missing),
    and the log of this run."""
    from ordeval.results.manifest import report_configuration_problem
    from ordeval.workflow.summary import run_summary

    relative_results = os.path.relpath(results)
    items = list(_config_items(extra).values())
    config = ["--config", *items] if items else []
    if Path.cwd().resolve() == project.resolve():
        html = ["snakemake", "--configfile", shown, *config, "--report", f"{relative_results}/report.html"]
    else:
        html = [
            "snakemake",
            *_project_arguments(project, configfile),
            *config,
            "--report",
            str(results / "report.html"),
        ]
    command = shlex.join(html)
    if report_configuration_problem(planned.config, project / planned.results / "manifest.json"):
        report_run = argparse.Namespace(configfile=args.configfile, target="report", cores=args.cores)
        command = f"{again(report_run, config and ['--config', *items])} && {command}"
    lines = run_summary(
        planned.config,
        failed=status != 0,
        snakemake_logs=watch.logs,
        html_command=command,
        workdir=project,
        heading=False,
    )
    lines.append(f"full log: {os.path.relpath(log_path)}")
    lines += left_behind(results)
    return lines


def add_parser(commands) -> None:
    """The ``run`` subcommand's arguments."""
    run = commands.add_parser(
        "run",
        help="run the pipeline (Snakemake) with a one-screen summary",
        description="Run the Snakemake pipeline from the project folder: the configuration is checked first (one-line "
        "errors), the full log goes to results/<name>/logs/ordeval-run.log (a dry run writes no log and no results), "
        "and a summary is printed. Arguments after '--' go to Snakemake, after the target (e.g. -- --rerun-incomplete, "
        "-- --config data_root=../data).",
    )
    run.add_argument("--configfile", help="configuration file (default config/config.yaml)")
    run.add_argument("--target", default="all", help=f"stage or file to make ({', '.join(_stages())}; default all)")
    add_run_options(run)


def add_run_options(parser) -> None:
    """--cores, --dry-run and --progress: how Snakemake runs (``run`` and ``evaluate-measure``)."""
    parser.add_argument(
        "--cores", default="all", type=checks.cores, help="cores Snakemake may use: all (default) or N >= 1"
    )
    parser.add_argument("--dry-run", "-n", action="store_true", help="show what would run, compute nothing")
    parser.add_argument(
        "--progress", action="store_true", help="show progress on stderr even when it is not a terminal"
    )
