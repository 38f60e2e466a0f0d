"""Shared helpers: paths, the real data in ../shared, a tiny configuration, running the workflow on it, and
the workflow tier (tests under tests/workflow/, marked ``workflow``), whose default tiny pipeline runs once
per test session (fixture ``pipeline``).

The package is imported as installed (``pip install -e .``, or ``PYTHONPATH=src``): no path edits here."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
#: Where the public real data are (the files the registry lists, docs/data.md): the folder named by
#: ORDEVAL_SHARED_DATA; else resources/ in the checkout once `ordeval fetch` has filled it; else ../shared/data/raw
#: beside the checkout.
SHARED_VARIABLE = "ORDEVAL_SHARED_DATA"
FETCHED = REPO / "resources"


def _fetched(folder: Path) -> bool:
    """Whether ``folder`` holds every registered file at its registered size (`ordeval fetch` verified their
    SHA-256 when it wrote them; planning checks it again where a configuration reads them)."""
    from ordeval.data.registry import load

    try:
        return all((folder / entry.place).stat().st_size == entry.size for entry in load().files)
    except OSError:
        return False


def _real_data() -> Path:
    if os.environ.get(SHARED_VARIABLE):
        return Path(os.environ[SHARED_VARIABLE]).absolute()
    if _fetched(FETCHED):
        return FETCHED
    return (REPO.parent / "shared" / "data" / "raw").absolute()


SHARED_RAW = _real_data()
#: The papers' published numbers as transcribed beside the real data (shared/data/published/), which some tests
#: compare src/ordeval/published/ with: next to the folder ORDEVAL_SHARED_DATA names, else ../shared/data/published.
SHARED_PUBLISHED = (
    Path(os.environ[SHARED_VARIABLE]).absolute().parent
    if os.environ.get(SHARED_VARIABLE)
    else REPO.parent / "shared" / "data"
) / "published"


def no_shared_data(path: Path = SHARED_RAW) -> str:
    """The message of a test skipped for want of the real data: what is missing, and how to point the tests at it."""
    return (
        f"real data not available: {path} (run `ordeval fetch` in the checkout, which puts the public files in "
        f"resources/, or set {SHARED_VARIABLE} to the folder of the public files that docs/data.md lists; default "
        "resources/ when fetched, else ../shared/data/raw beside the checkout)"
    )


def shared_file(relative: str) -> Path:
    """A file of the real data (:data:`SHARED_RAW`); the test is skipped where it is absent."""
    path = SHARED_RAW / relative
    if not path.is_file():
        pytest.skip(no_shared_data(path))
    return path


def published_file(name: str = "published.tsv") -> Path:
    """A file of :data:`SHARED_PUBLISHED`; the test is skipped where it is absent."""
    path = SHARED_PUBLISHED / name
    if not path.is_file():
        pytest.skip(f"the shared published numbers are not available: {path}")
    return path


def pytest_report_header(config) -> str:
    """Said once at the start of every session: which real data the tests read, or how to give them."""
    if SHARED_RAW.is_dir():
        return f"real data: {SHARED_RAW} ({SHARED_VARIABLE})"
    return f"real data: none, the tests that read it are skipped: {no_shared_data()}"


#: What a project folder holds besides the library: the Snakefile and what it reads.
PROJECT_FILES = (
    "Snakefile",
    "workflow",
    "scripts",
    "config",
    "profiles",
    "environment.yml",
    "requirements.txt",
    "examples",
)


def project_copy(folder: Path, data: bool = False) -> Path:
    """A project folder of its own (links to the checkout's Snakefile, rules, scripts, configurations,
    profiles and examples) where ``ordeval run`` and Snakemake write their results/ and .snakemake/
    instead of the checkout; with ``data``, its resources/ (the replication's and the presets' data_root) is a
    link to the real data (:data:`SHARED_RAW`), as after `ordeval fetch`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        (folder / name).symlink_to(REPO / name)
    if data:
        (folder / "resources").symlink_to(SHARED_RAW, target_is_directory=True)
    return folder


@contextmanager
def small_filesystem(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (e.g. ``64k``) mounted on ``folder`` while the block runs, to fill a disk; the test
    is skipped, with a message, where this process cannot mount one (not root, a container without the
    capability, no ``mount`` command)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        problem = done.stderr.strip() if done.returncode else ""
    except (OSError, subprocess.SubprocessError) as error:
        problem = str(error)
    if problem:
        pytest.skip(
            f"cannot mount a small filesystem here ({problem}): a full disk is tested where the tests "
            "may mount a tmpfs (as root)"
        )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=30)


OC_MEASURES = ["alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu"]


def tiny_config(name: str = "tiny", classification: bool = False, **overrides) -> dict:
    """A small configuration: two synthetic OQ data sets (SemEval-like and NTCIR-like), few trials;
    with ``classification``, also a small OC data set (tweets of 14 topics, a constant baseline)."""
    config = {
        "name": name,
        "seed": 7,
        "threads": 1,
        "measures": [
            "NMD",
            "RSNOD",
            "RNOD",
            "NVD",
            "RNSS",
            "JSD",
            "DNKT",
            "DNKT_JSD",
            "DNKT_NMD",
            "DNKT_RNOD",
            "RNADW",
            "RNOD2",
            "RNADW2",
        ],
        "agreement": {"ci_level": 0.95},
        "consistency": {"trials": 20, "hsd_trials": 50, "subset_size": 4},
        "significance": {"hsd_trials": 200},
        "datasets": {
            "TinySem": {
                "classes": [-2, -1, 0, 1, 2],
                "gold": {"type": "simulate_tweets", "topics": 12},
                "runs": [
                    {"type": "constant_class", "name": "BL-positive", "class": 1},
                    {"type": "simulate", "systems": 6},
                ],
            },
            "TinyDQ": {
                "classes": [-2, -1, 0, 1, 2],
                "gold": {"type": "simulate_annotators", "topics": 14, "annotators": 5, "score": "A"},
                "runs": [
                    {"type": "popularity", "name": "BL-popularity-C"},
                    {"type": "uniform", "name": "BL-uniform-C"},
                    {"type": "simulate", "systems": 4, "english_variants": 2},
                    {"type": "popularity", "name": "BL-popularity-E"},
                    {"type": "uniform", "name": "BL-uniform-E"},
                ],
            },
        },
    }
    if classification:
        config["measures"] = config["measures"] + OC_MEASURES
        config["datasets"]["TinyOC"] = {
            "task": "classification",
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "simulate_items", "topics": 14, "items_min": 10, "items_max": 60},
            "runs": [
                {"type": "constant_class", "name": "BL-neutral", "class": 0},
                {"type": "simulate", "systems": 6},
            ],
        }
    config.update(overrides)
    return config


#: Snakemake's plain text output (for a test that reads it: the jobs of a dry run's "Job stats:" table, the steps
#: done): the workflow profile turned off and its other settings given as arguments, as `ordeval run` does
#: (ordeval.cli.run.plain_output_arguments), but every job's lines kept; with the profile, a terminal shows the
#: progress bar of profiles/default's logger and a pipe little more than the summary.
PLAIN_OUTPUT = tuple(
    argument
    for argument in __import__("ordeval.cli.run", fromlist=["plain_output_arguments"]).plain_output_arguments(REPO)
    if argument not in ("--quiet", "rules")
)


def job_counts(output: str) -> dict[str, int] | None:
    """``{rule: jobs}`` of the first job counts a Snakemake run prints as it starts: Snakemake's plain "Job stats:"
    table, or the workflow profile's logger's "Job stats" table (which spells a rule's underscores as spaces: rule
    names have none of their own); None where there is none (nothing to be done)."""
    lines = [line.strip() for line in output.splitlines()]
    starts = [index for index, line in enumerate(lines) if line.rstrip(":") == "Job stats"]
    if not starts:
        return None
    rows = lines[starts[0] + 1 :]
    rows = rows[next(index for index, row in enumerate(rows) if row.split()[:2] == ["rule", "count"]) + 1 :]
    counts = {}
    for row in rows:
        if row.startswith("total"):
            return counts
        if row and not set(row) <= set("-─━ "):
            *name, count = row.split()
            counts["_".join(name)] = int(count)
    raise AssertionError(f"job counts without a total: {output[-2000:]}")


def run_workflow(
    workdir: Path, config: dict, *arguments: str, check: bool = True, timeout: float | None = None
) -> subprocess.CompletedProcess:
    """Run the project's Snakefile in ``workdir`` on ``config`` (written to workdir/config.yaml); a run
    longer than ``timeout`` seconds is killed and fails the test."""
    workdir.mkdir(parents=True, exist_ok=True)
    config_path = workdir / "config.yaml"
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(config_path),
        "--cores",
        "2",
        *arguments,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        output = f"{result.stdout[-4000:]}\n{result.stderr[-8000:]}"
        raise AssertionError(f"snakemake failed ({result.returncode}):\n{output}")
    return result


def run_as_written(block: str, cwd: Path, timeout: float = 900, **environment: str) -> subprocess.CompletedProcess:
    """A documented ```bash block run as written (``bash -e``) in ``cwd``, with the ``ordeval`` and ``snakemake``
    of this interpreter (the console scripts need not be on PATH), and ``environment`` added to this one's."""
    block = block.replace("ordeval ", f"{sys.executable} -m ordeval ").replace(
        "snakemake ", f"{sys.executable} -m snakemake "
    )
    return subprocess.run(
        ["bash", "-e", "-c", block],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONHASHSEED": "0", **environment},
    )


# --------------------------------------------------------------------------- the workflow tier

#: A user module registering two measures, one where lower and one where higher is better: they must
#: be scored and analysed everywhere with no other configuration.
#: A user module registering two OQ measures, ``{low}`` (lower is better) and ``{high}`` (higher is better).
PLUGIN_TEMPLATE = '''
import numpy as np

from ordeval.tasks.quantification import register


@register("{low}", display="MaxDiff", description="largest absolute difference of one class")
def max_difference(estimate, gold):
    """max_i |p_i - p*_i| (lower is better)."""
    return np.abs(estimate - gold).max(axis=-1)


@register("{high}", lower_is_better=False, description="probability mass the estimate shares with the gold")
def shared_mass(estimate, gold):
    """sum_i min(p_i, p*_i) (1 - NVD): higher is better."""
    return np.minimum(estimate, gold).sum(axis=-1)
'''
PLUGIN = PLUGIN_TEMPLATE.format(low="MAXDIFF", high="OVERLAP")


@dataclass
class Run:
    workdir: Path
    config: dict
    results: Path
    output: str = ""  #: what the cold run printed (stdout and stderr)

    def again(self, *arguments: str, check: bool = True):
        return run_workflow(self.workdir, self.config, *arguments, check=check)


@pytest.fixture(autouse=True)
def _own_working_folder(request, tmp_path_factory, monkeypatch) -> None:
    """Each library test runs in a folder of its own: a command that writes into the working folder by default
    (``ordeval score`` into ordeval-scores/) neither writes into the checkout nor meets the same command of a test
    running at the same time in another worker (which its lock on the folder then refuses). The workflow tier runs
    Snakemake in the checkout, as its user does."""
    if request.node.get_closest_marker("workflow") is None:
        monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


def pytest_collection_modifyitems(items):
    for item in items:
        if "/workflow/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.workflow)


@pytest.fixture(scope="session")
def pipeline(tmp_path_factory) -> Run:
    """The whole pipeline on the tiny configuration (two OQ data sets, one OC data set, a plugin with
    two measures, every default), run once per session."""
    workdir = tmp_path_factory.mktemp("pipeline")
    (workdir / "my_measures.py").write_text(PLUGIN)
    config = tiny_config(classification=True, plugins=["my_measures.py"])
    config["measures"] = config["measures"] + ["MAXDIFF", "OVERLAP"]
    done = run_workflow(workdir, config)
    return Run(workdir, config, workdir / "results" / config["name"], done.stdout + done.stderr)


# --------------------------------------------------------------------------- jobs run in this process


SCRIPTS = REPO / "scripts"


def run_rule_script(script: str, rule: str | None = None, **given):
    """Run ``scripts/<script>.py`` in this process as rule ``rule`` (default: the script's name) would, with
    the ``input``, ``output``, ``params``, ``wildcards`` (dicts), ``threads`` and ``log`` given
    (ordeval.workflow.offline.mock_snakemake); its globals."""
    from ordeval.workflow.offline import mock_snakemake, run_script

    return run_script(SCRIPTS / f"{script}.py", mock_snakemake(rule or script, **given))


#: The canonical files of a data set (rule prepare_data's outputs), the score files of rule score_runs, under
#: ``results/<name>/``.
CANONICAL = {"gold": "gold.tsv", "runs": "runs.tsv", "arrays": "arrays.npz", "provenance": "provenance.json"}
SCORED = {"scores": "scores.npz", "means": "means.tsv", "means_html": "means.html", "measures": "measures.tsv"}


def built(task, name: str, spec: dict, data_root, seed: int):
    """``task``'s data set ``name`` of configuration ``spec``, its files below ``data_root``, built as rule
    prepare_data builds it (every file it reads by its source entry: ordeval.tasks.sources.source_paths)."""
    from ordeval.tasks.sources import source_paths

    return task.build(name, spec, source_paths(name, spec, data_root), seed)


def build_and_score(plan) -> None:
    """Run the scripts of the rules prepare_data and score_runs of ``plan`` on every data set in this process, with
    the inputs, outputs and params their rules give them (workflow/rules/data.smk, scoring.smk), and write every
    measure's score table and the stack from them as the rules score_table and score_stack do; paths are relative to
    the current folder."""
    from ordeval.tasks.stack import stack_of_tables, write_score_table

    for name, data in plan.datasets.items():
        files = {key: f"{plan.results}/data/{name}/{file}" for key, file in CANONICAL.items()}
        params = {"task": data.task, "spec": data.spec, "seed": plan.config["seed"], "plugins": plan.plugin_files}
        inputs = {**plan.source_paths(name), "plugins": plan.plugin_files}
        run_rule_script("prepare_data", input=inputs, output=files, params=params, wildcards={"dataset": name})
        outputs = {key: f"{plan.results}/scores/{name}/{file}" for key, file in SCORED.items()}
        params = {"task": data.task, "spec": data.spec, "measures": data.measures, "plugins": plan.plugin_files}
        run_rule_script("score_runs", input=files, output=outputs, params=params, wildcards={"dataset": name})
        tables = [f"{plan.results}/scores/{name}/{measure}.tsv" for measure in data.measures]
        for measure, table in zip(data.measures, tables, strict=True):
            write_score_table(outputs["scores"], measure, table)
        stack_of_tables(tables, outputs["measures"], f"{plan.results}/scores/{name}/stack.npz", outputs["scores"])


def canonical_files(folder) -> dict[str, str]:
    """{key: path} of the canonical files of a data set (whatever its task) in ``folder``, named as rule
    prepare_data names them (workflow/rules/data.smk)."""
    return {key: str(Path(folder) / file) for key, file in CANONICAL.items()}
