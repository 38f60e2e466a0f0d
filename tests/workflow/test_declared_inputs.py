"""Issue 45, classes 1 and 2 in Snakemake itself: a file a job reads is tracked, so that editing it re-runs the
job (the published numbers, through the digest of the code the job runs: was "Nothing to be done"), and a derived
file is not trusted beyond its source (an edited score table re-runs the jobs that read the data set's stack.npz,
and they read the table)."""

import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import PLAIN_OUTPUT, REPO, tiny_config

pytestmark = pytest.mark.workflow


def snakemake(project: Path, environment: dict, *arguments: str) -> subprocess.CompletedProcess:
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(project),
        "--configfile",
        str(project / "config.yaml"),
        "--cores",
        "2",
        *arguments,
        *(PLAIN_OUTPUT if "-n" in arguments else ()),  # a dry run's "Job stats:" table, as Snakemake prints it
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, env=environment)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def planned_jobs(done: subprocess.CompletedProcess) -> set[str]:
    """The rules of the jobs a dry run would run (its first "Job stats" table; none when nothing is to be done)."""
    lines = (done.stdout + done.stderr).splitlines()
    if "Job stats:" not in lines:
        assert "Nothing to be done" in done.stdout + done.stderr, done.stdout[-2000:]
        return set()
    rows = lines[lines.index("Job stats:") + 3 :]
    return {row.split()[0] for row in rows[: next(i for i, row in enumerate(rows) if row.startswith("total"))]}


def test_edited_published_numbers_and_score_tables_re_run_the_jobs_that_read_them(tmp_path):
    """A tiny configuration with a data set named like a published one (Sem16T4E, simulated) and the comparison
    on, run up to the replication stage with a copy of the package (its published.tsv may be edited here)."""
    package = tmp_path / "src" / "ordeval"
    shutil.copytree(REPO / "src" / "ordeval", package, ignore=shutil.ignore_patterns("__pycache__"))
    environment = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
    project = tmp_path / "project"
    project.mkdir()
    config = tiny_config("declared", replication={"compare": True}, report={"pdf": False})
    config["datasets"] = {"Sem16T4E": config["datasets"]["TinySem"]}
    (project / "config.yaml").write_text(yaml.safe_dump(config))
    snakemake(project, environment, "replication", "topic_set_size")
    assert planned_jobs(snakemake(project, environment, "-n", "replication", "topic_set_size")) == set()
    # a transcription corrected: the published numbers are part of the code the replication jobs run (their params'
    # digest, ordeval.workflow.modules.DATA_FILES), so its contents count, not its time
    published = package / "published" / "published.tsv"
    lines = published.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[1].endswith("\t1.000\n")
    lines[1] = lines[1].replace("\t1.000\n", "\t0.999\n")
    published.write_text("".join(lines), encoding="utf-8")
    rerun = planned_jobs(snakemake(project, environment, "-n", "replication"))
    assert {"replication_dataset", "replication_summary"} <= rerun and "score_runs" not in rerun
    snakemake(project, environment, "replication")
    # NMD's scores times 10, written after the stack: the jobs that read the stack run again and read the table
    results = project / "results" / "declared"
    table = results / "scores" / "Sem16T4E" / "NMD.tsv"
    rows = [line.split("\t") for line in table.read_text().splitlines()]
    rows[1:] = [[row[0], *(repr(10 * float(value)) for value in row[1:])] for row in rows[1:]]
    time.sleep(1)
    table.write_text("".join("\t".join(row) + "\n" for row in rows))
    rerun = planned_jobs(snakemake(project, environment, "-n", "topic_set_size"))
    assert "topic_set_size_table" in rerun and "score_runs" not in rerun
    sizes = results / "tables" / "topic_set_size" / "Sem16T4E.csv"

    def nmd_variance() -> float:
        with open(sizes, encoding="utf-8") as handle:
            return next(float(row["residual_variance"]) for row in csv.DictReader(handle) if row["measure"] == "NMD")

    before = nmd_variance()
    snakemake(project, environment, "topic_set_size")
    assert nmd_variance() == pytest.approx(100 * before)
