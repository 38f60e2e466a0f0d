"""The toy third task (tests/tasks/toy_task.py, a plugin) through Snakemake: a configuration with one data set of
it runs end to end, every stage that applies to it, with no rule, script or library file naming it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO, run_workflow
from test_toy_task import toy_config


def test_a_configuration_of_the_toy_task_runs_through_snakemake(tmp_path):
    shutil.copy(REPO / "tests" / "tasks" / "toy_task.py", tmp_path / "toy_task.py")
    shutil.copy(REPO / "tests" / "tasks" / "toy_task.yaml", tmp_path / "toy_task.yaml")
    config = toy_config(tmp_path)
    config["plugins"] = ["toy_task.py"]
    config["report"] = {"pdf": False}
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "toy"
    # every output the rules made for it (the manifest takes them all as input), each there
    outputs = json.loads((results / "manifest.json").read_text())["output_files"]
    assert len(outputs) > 40 and all((tmp_path / record["path"]).is_file() for record in outputs), outputs[:3]
    assert {"agreement", "consistency", "leaderboard"} <= {
        Path(record["path"]).relative_to("results/toy").parts[1] for record in outputs if "/tables/" in record["path"]
    }
    assert (results / "tables" / "agreement" / "Grades.csv").read_text().startswith("measure_a,measure_b,tau")
    assert "Grades" in (results / "tables" / "discriminative_power_grades.csv").read_text()
    done = run_workflow(tmp_path, config, "--dry-run")
    assert "Nothing to be done" in done.stdout + done.stderr  # the progress logger writes to stderr
