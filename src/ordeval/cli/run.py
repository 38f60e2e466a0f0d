"""``ordeval run``: the Snakemake pipeline, with a one-screen summary and the full log in a file."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from ..errors import ConfigError, InputError
from . import checks
from .common import Progress, UserError, describe, progress_wanted


def _stages() -> tuple[str, ...]:
    from ..catalogue import STAGES

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
_ERROR_LINE = re.compile(r"(Error|error:|Exception|MissingInput|Missing input|Directory cannot be locked|failed)")
#: A job's one-line error: ``ordeval: error: ...`` or the job log's ``<rule> ERROR <rule> failed: ...``.
_JOB_ERROR = re.compile(r"(?:ordeval: error: |\bERROR )(.*)$")
_LOCKED = re.compile(r"LockException|Directory cannot be locked")
_INCOMPLETE = re.compile(r"IncompleteFilesException|--rerun-incomplete|incomplete")
#: Seconds Snakemake and its jobs get to stop after a forwarded SIGINT/SIGTERM before SIGKILL.
STOP_GRACE = 30.0


def cmd_run(args, extra: Sequence[str]) -> int:
    from ..config import load_yaml
    from ..plan import plan as make_plan

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
        # every check the Snakefile makes (plugins loaded first: they may add a file format), before Snakemake
        config = make_plan(data, workdir=project).config
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
    with _exclusive(log_path.parent / ".ordeval-run.lock", name):  # before the log of a running call is touched
        print(f"ordeval run: configuration {shown} (name {name}), target {args.target}, {args.cores} cores; "
              f"log: {os.path.relpath(log_path)}", file=sys.stderr)  # fmt: skip
        started = time.monotonic()
        watch = _Watch(Progress(f"ordeval run {name}", progress_wanted(args)))
        with open(log_path, "w", encoding="utf-8") as log:  # not an output: the live log of the run
            log.write("$ " + " ".join(command) + "\n")
            log.flush()
            status, stopped_by = _snakemake(command, project, log, watch)
    lines = _summary(args, watch, status, stopped_by, time.monotonic() - started)
    lines += _where(project, results, configfile, shown, log_path)
    if status != 0:
        lines += _diagnosis(watch, stopped_by)
    print("\n".join(lines), file=sys.stderr if status else sys.stdout)
    if stopped_by is not None:
        return 128 + stopped_by
    return status


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

    def __call__(self, text: str) -> None:
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
        if job_error and len(self.errors) < 12:
            line = job_error.group(1).strip()
            if line not in self.errors:
                self.errors.append(line)
        elif _ERROR_LINE.search(text) and not text.startswith((" ", "\t", "Traceback")) and len(self.other) < 12:
            self.other.append(text.strip())


def _snakemake(command: list[str], project: Path, log, watch: _Watch) -> tuple[int, int | None]:
    """Run Snakemake in its own process group, its output into ``log`` and ``watch``. SIGINT and SIGTERM
    to this process are forwarded to the whole group (Snakemake and every job), which is waited for (and
    killed after :data:`STOP_GRACE` seconds). Returns (exit status, the signal that stopped it or None)."""
    try:
        process = subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, errors="replace", start_new_session=True)  # fmt: skip
    except OSError as error:
        raise UserError(f"cannot start Snakemake ({' '.join(snakemake_command())}): {error}") from None
    received: list[int] = []
    killer = threading.Timer(STOP_GRACE, _signal_group, (process.pid, signal.SIGKILL))
    killer.daemon = True

    def forward(number, frame):  # noqa: ARG001 - the signal module's signature
        if not received:
            received.append(number)
            _signal_group(process.pid, number)
            killer.start()

    previous = {number: signal.signal(number, forward) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        for line in process.stdout:
            log.write(line)
            watch(line.rstrip("\n"))
        status = process.wait()
    finally:
        killer.cancel()
        for number, handler in previous.items():
            signal.signal(number, handler)
        process.stdout.close()
    if received:
        _signal_group(process.pid, signal.SIGTERM)  # a job that outlived Snakemake
    return status, (received[0] if received else None)


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
    if args.dry_run:
        lines.append(f"dry run: {watch.total} jobs would run; nothing was computed" if watch.total
                     else "dry run: nothing computed")  # fmt: skip
    elif watch.nothing:
        lines.append("nothing to be done: every output is up to date")
    elif watch.total:
        lines.append(f"jobs done: {watch.done} of {watch.total}")
    if watch.failed:
        lines.append(f"jobs failed: {len(watch.failed)} ({', '.join(dict.fromkeys(watch.failed))})")
    return lines


def _where(project: Path, results: Path, configfile: Path, shown: str, log_path: Path) -> list[str]:
    """Where the results, report and log are; the command for Snakemake's HTML report, runnable from here."""
    relative_results = os.path.relpath(results)
    lines = [f"results: {relative_results}/ (tables/, figures/, scores/)"]
    report = results / "report" / "ordeval.pdf"
    if report.is_file():
        lines.append(f"report: {os.path.relpath(report)}")
    else:
        lines.append(f"report: {os.path.relpath(results / 'report')}/ once the 'report' stage has run")
    if Path.cwd().resolve() == project.resolve():
        lines.append(f"HTML report: snakemake --configfile {shown} --report {relative_results}/report.html")
    else:
        lines.append(f"HTML report: snakemake --snakefile {project / 'Snakefile'} --directory {project} --configfile "
                     f"{configfile} --report {results / 'report.html'}")  # fmt: skip
    lines.append(f"full log: {os.path.relpath(log_path)}")
    return lines


def _diagnosis(watch: _Watch, stopped_by: int | None) -> list[str]:
    """The one-line errors, and only the hints that apply."""
    if stopped_by is not None:  # the jobs' errors are those of the stop itself
        return ["hint: run the same command again to continue"]
    found = watch.errors or watch.other[:3] or ["(see the full log)"]
    lines = ["error:" if len(found) == 1 else "errors:"] + [f"  {line}" for line in found]
    if watch.locked:
        lines.append("hint: the folder is locked by another Snakemake or an interrupted one; once none runs: "
                     "ordeval run ... -- --unlock")  # fmt: skip
    elif watch.incomplete:
        lines.append("hint: outputs of an interrupted run are incomplete: ordeval run ... -- --rerun-incomplete")
    return lines


def add_parser(commands) -> None:
    """The ``run`` subcommand's arguments."""
    run = commands.add_parser(
        "run",
        help="run the pipeline (Snakemake) with a one-screen summary",
        description="Run the Snakemake pipeline from the project folder: the configuration is checked first (one-line "
        "errors), the full log goes to results/<name>/logs/ordeval-run.log, and a summary is printed. Arguments "
        "after '--' go to Snakemake (e.g. -- --rerun-incomplete, -- --config data_root=../data).",
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
