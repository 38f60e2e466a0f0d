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
#: Where the public real data are (the files ../shared/data/raw/SOURCES.md lists): the folder named by
#: ORDEVAL_SHARED_DATA, else ../shared/data/raw beside the checkout.
SHARED_VARIABLE = "ORDEVAL_SHARED_DATA"
SHARED_RAW = Path(os.environ.get(SHARED_VARIABLE) or REPO.parent / "shared" / "data" / "raw").absolute()


def no_shared_data(path: Path = SHARED_RAW) -> str:
    """The message of a test skipped for want of the real data: what is missing, and how to point the tests at it."""
    return (
        f"real data not available: {path} (set {SHARED_VARIABLE} to the folder of the public files that "
        "shared/data/raw/SOURCES.md lists; default ../shared/data/raw beside the checkout)"
    )


def shared_file(relative: str) -> Path:
    """A file of the real data (:data:`SHARED_RAW`); the test is skipped where it is absent."""
    path = SHARED_RAW / relative
    if not path.is_file():
        pytest.skip(no_shared_data(path))
    return path


def pytest_report_header(config) -> str:
    """Said once at the start of every session: which real data the tests read, or how to give them."""
    if SHARED_RAW.is_dir():
        return f"real data: {SHARED_RAW} ({SHARED_VARIABLE})"
    return f"real data: none, the tests that read it are skipped: {no_shared_data()}"


#: What a project folder holds besides the library: the Snakefile and what it reads.
PROJECT_FILES = ("Snakefile", "workflow", "scripts", "config", "profiles", "environment.yml", "examples")


def project_copy(folder: Path) -> Path:
    """A project folder of its own (links to the checkout's Snakefile, rules, scripts, configurations,
    profiles and examples) where ``ordeval run`` and Snakemake write their results/ and .snakemake/
    instead of the checkout."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        (folder / name).symlink_to(REPO / name)
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
    (ordeval.workflow.scripting.mock_snakemake); its globals."""
    from ordeval.workflow.scripting import mock_snakemake, run_script

    return run_script(SCRIPTS / f"{script}.py", mock_snakemake(rule or script, **given))


def build_and_score(plan) -> None:
    """Run the scripts of the rules prepare_data_<task> and score_runs_<task> of ``plan`` on every data set
    in this process, with the inputs, outputs and params their rules give them (workflow/rules/data.smk,
    scoring.smk); paths are relative to the current folder."""
    for group in plan.scoring_groups():
        for name in group.datasets:
            data = plan.datasets[name]
            files = {key: path.format(dataset=name) for key, path in plan.canonical_paths(data.task).items()}
            params = {
                "task": data.task,
                "spec": data.spec,
                "data_root": str(plan.data_root),
                "seed": plan.config["seed"],
                "plugins": plan.plugin_files,
            }
            run_rule_script("prepare_data", output=files, params=params, wildcards={"dataset": name})
            outputs = {key: path.format(dataset=name) for key, path in plan.score_paths(group).items()}
            params = {"task": data.task, "spec": data.spec, "measures": group.measures, "plugins": plan.plugin_files}
            run_rule_script("score_runs", input=files, output=outputs, params=params, wildcards={"dataset": name})


def canonical_files(task: str, folder) -> dict[str, str]:
    """{key: path} of the canonical files of a data set of ``task`` in ``folder``, named as rule
    prepare_data_<task> names them (the catalogue's ``data/<key>`` entries)."""
    from ordeval.reports import catalogue
    from ordeval.tasks import get_task

    files = {}
    for key in get_task(task).canonical_files():
        entry = catalogue.ENTRIES[f"data/{key}"]
        files[key] = str(Path(folder) / Path(entry.pattern.format(dataset="", ext=entry.formats[0])).name)
    return files


def data_files(folder) -> dict[str, str]:
    """{key: path} of a data set's canonical files in ``folder``, named as rule prepare_data names them
    (workflow/rules/data.smk: gold.tsv, runs.tsv, arrays.npz, provenance.json, whatever the task)."""
    names = {"gold": "gold.tsv", "runs": "runs.tsv", "arrays": "arrays.npz", "provenance": "provenance.json"}
    return {key: str(Path(folder) / name) for key, name in names.items()}


def prepare_and_score(plan) -> None:
    """Run the scripts of rules prepare_data and score_runs, and what rule score_table writes, for every data set
    of ``plan`` in this process, with the inputs, outputs and params their rules give them (workflow/rules/data.smk,
    scoring.smk), below ``plan.results`` (relative to the current folder)."""
    from ordeval.tasks.stack import write_score_table

    for name, data in plan.datasets.items():
        files = data_files(f"{plan.results}/data/{name}")
        settings = {"task": data.task, "spec": data.spec, "plugins": plan.plugin_files}
        run_rule_script(
            "prepare_data",
            input={**plan.source_paths(name), "plugins": plan.plugin_files},
            output=files,
            params={**settings, "seed": plan.config["seed"]},
            wildcards={"dataset": name},
        )
        scores = f"{plan.results}/scores/{name}"
        names = {"stack": "stack.npz", "means": "means.tsv", "means_html": "means.html", "measures": "measures.tsv"}
        outputs = {key: f"{scores}/{file}" for key, file in names.items()}
        run_rule_script(
            "score_runs",
            input={**files, "plugins": plan.plugin_files},
            output=outputs,
            params={**settings, "measures": data.measures},
            wildcards={"dataset": name},
        )
        for measure in data.measures:
            write_score_table(outputs["stack"], measure, f"{scores}/{measure}.tsv")
