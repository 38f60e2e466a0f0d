"""The toy third task (tests/tasks/toy_task.py, a plugin) through Snakemake: a configuration with one data set of
it runs end to end, every stage that applies to it, with no rule, script or library file naming it."""

from __future__ import annotations

import shutil

from conftest import REPO, run_workflow
from test_toy_task import toy_config

from ordeval.workflow.plan import plan as make_plan


def test_a_configuration_of_the_toy_task_runs_through_snakemake(tmp_path):
    shutil.copy(REPO / "tests" / "tasks" / "toy_task.py", tmp_path / "toy_task.py")
    shutil.copy(REPO / "tests" / "tasks" / "toy_task.yaml", tmp_path / "toy_task.yaml")
    config = toy_config(tmp_path)
    config["plugins"] = ["toy_task.py"]
    config["report"] = {"pdf": False}
    run_workflow(tmp_path, config)
    planned = make_plan(config, workdir=tmp_path)
    made = [path for path in planned.targets() if not (tmp_path / path).is_file()]
    assert made == [], made[:5]
    results = tmp_path / "results" / "toy"
    assert (results / "tables" / "agreement" / "Grades.csv").read_text().startswith("measure_a,measure_b,tau")
    assert "Grades" in (results / "tables" / "discriminative_power_grades.csv").read_text()
    done = run_workflow(tmp_path, config, "--dry-run")
    assert "Nothing to be done" in done.stdout + done.stderr  # the progress logger writes to stderr
