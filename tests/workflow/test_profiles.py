"""The Snakemake profiles (profiles/local, profiles/slurm, and the workflow profile profiles/default): their
options exist in the installed Snakemake (the Slurm profile's ``slurm-*`` options where the executor plugin is
installed), and a small configuration runs through the local profile with every job's resources (and the
workflow profile: no input checksums). The Slurm profile on a Slurm cluster: tests/workflow/test_slurm.py."""

import importlib.util
import json
import re

import pytest
import yaml
from conftest import REPO, run_workflow, tiny_config

PROFILES = REPO / "profiles"


def _options() -> set[str]:
    from snakemake.cli import get_argument_parser

    return {option[2:] for action in get_argument_parser()._actions for option in action.option_strings}


@pytest.mark.parametrize("name", ["local", "slurm", "default"])
def test_profile_options_exist_in_the_installed_snakemake(name):
    profile = yaml.safe_load((PROFILES / name / "config.yaml").read_text())
    plugin = importlib.util.find_spec("snakemake_executor_plugin_slurm") is not None
    # the executor plugin's options exist only where it is installed (pip install -e ".[slurm]")
    unknown = sorted(key for key in set(profile) - _options() if plugin or not key.startswith("slurm-"))
    assert unknown == []
    if name == "slurm":
        assert profile["executor"] == "slurm"
        assert {"slurm_partition", "runtime", "mem_mb"} <= set(profile["default-resources"])
        assert profile["rerun-incomplete"] is True and profile["latency-wait"] >= 30
        assert profile["slurm-status-command"] == "squeue"  # no accounting database needed
    if name == "default":  # the workflow profile: only what every run of this Snakefile needs
        assert profile == {
            "max-checksum-file-size": 0,
            "logger": ["rich"],
            "scheduler": "greedy",
            "max-jobs-per-timespan": "300/3s",
            "force-use-threads": True,
        }


def _small_config(name: str) -> dict:
    config = tiny_config(name)
    del config["datasets"]["TinyDQ"]
    config["datasets"]["TinySem"]["runs"][1]["systems"] = 5
    return config


def test_a_small_configuration_runs_through_the_local_profile(tmp_path):
    config = _small_config("profile_local")
    arguments = ["--profile", str(PROFILES / "local"), "scores", "consistency", "-p"]
    result = run_workflow(tmp_path, config, *arguments)
    results = tmp_path / "results" / "profile_local"
    assert (results / "consistency" / "TinySem" / "half.tsv").is_file()
    # every job ran with the resources its rule computed (threads, mem_mb, runtime): Snakemake's log has each job
    # with its details (the terminal has the workflow profile's progress bar instead)
    [snakemake_log] = (tmp_path / ".snakemake" / "log").glob("*.snakemake.log")
    log = snakemake_log.read_text() + result.stdout + result.stderr
    jobs = re.findall(r"rule (\w+):", log)
    for rule in ("prepare_data", "score_runs", "consistency_taus"):
        assert rule in jobs, rule
    assert len(re.findall(r"resources: .*mem_mb=\d+.*runtime=\d+|resources: .*runtime=\d+.*mem_mb=\d+", log)) >= 3
    # the workflow profile applies too: Snakemake recorded no input checksums (outputs x inputs hashes)
    assert "profiles/default" in log
    records = [json.loads(path.read_text()) for path in (tmp_path / ".snakemake" / "metadata").iterdir()]
    assert len(records) >= 10 and all(record["input_checksums"] == {} for record in records)
