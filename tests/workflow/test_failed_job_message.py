"""A job that fails is named with its logs, although the workflow profile's ``quiet: [rules]`` hides Snakemake's
own "Error in rule" message with every job's details (workflow/rules/common.smk prints it again, in Snakemake's
words), and ``ordeval run`` counts it among the jobs failed. On a cluster the message names the scheduler's log
of the job too (tests/workflow/test_slurm.py)."""

import subprocess
import sys

import yaml
from conftest import project_copy, run_workflow, tiny_config

#: A plugin measure that fails when a data set is scored (the job score_runs of each data set).
FAILING = """
from ordeval.tasks.quantification import register


@register("BROKEN", description="fails on every call")
def broken(estimate, gold):
    raise RuntimeError("the BROKEN measure fails on purpose")
"""


def failing_config() -> dict:
    config = tiny_config("failing", plugins=["broken_measure.py"])
    config["measures"] = [*config["measures"], "BROKEN"]
    del config["datasets"]["TinyDQ"]
    return config


def test_a_failed_job_is_named_with_its_log_under_the_quiet_workflow_profile(tmp_path):
    (tmp_path / "broken_measure.py").write_text(FAILING)
    config = failing_config()
    result = run_workflow(tmp_path, config, "scores", check=False)
    assert result.returncode != 0
    assert "profiles/default" in result.stderr  # the workflow profile, with its quiet: [rules], was used
    assert "Error in rule score_runs:\n    jobid: " in result.stderr, result.stderr[-3000:]
    assert "    log: results/failing/logs/score_runs/TinySem.log (check log" in result.stderr, result.stderr[-3000:]
    assert result.stderr.count("Error in rule score_runs") == 1  # once, not also Snakemake's own
    # with Snakemake's own message shown (--quiet host instead of rules), it is not printed twice
    again = run_workflow(tmp_path, config, "scores", "--quiet", "host", check=False)
    assert again.returncode != 0 and again.stderr.count("Error in rule score_runs") == 1


def test_ordeval_run_counts_the_failed_job(tmp_path):
    project = project_copy(tmp_path / "project")
    (project / "broken_measure.py").write_text(FAILING)
    (project / "failing.yaml").write_text(yaml.safe_dump(failing_config()))
    command = [sys.executable, "-m", "ordeval", "run", "--configfile", "failing.yaml", "--target", "scores"]
    done = subprocess.run([*command, "--cores", "2"], cwd=project, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "jobs failed: 1 (score_runs)" in done.stdout + done.stderr, done.stdout + done.stderr
