"""``ordeval run``: the Snakemake pipeline, with a one-screen summary and the full log in a file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigError, InputError
from .common import Progress, UserError, describe, progress_wanted

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
_ERROR_LINE = re.compile(
    r"(ordeval: |Error|error:|Exception|Traceback|MissingInput|Missing input|LockException|IncompleteFiles"
    r"|Directory cannot be locked|Nothing to be done|failed)",
)


def cmd_run(args, extra: Sequence[str]) -> int:
    from ..config import load_yaml, validate
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
    progress = Progress(f"ordeval run {name}", progress_wanted(args))
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
    run.add_argument("--target", default="all", help=f"stage or file to make ({', '.join(STAGES)}; default all)")
    run.add_argument("--cores", default="all", help="cores Snakemake may use (default all)")
    run.add_argument("--dry-run", "-n", action="store_true", help="show what would run, compute nothing")
    run.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
