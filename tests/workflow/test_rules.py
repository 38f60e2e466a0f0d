"""The rule files as Snakemake reads them: every job's outputs are exactly the plan's targets (each made
by one rule), params hold settings only (no path of the results), and each rule's files are written out
in its own .smk file."""

import re
import subprocess
import sys

import pytest
from conftest import REPO, SHARED_RAW

from ordeval.config import load
from ordeval.plan import plan as make_plan

pytestmark = pytest.mark.workflow

CONFIGS = ["config/config.yaml", "config/replication.yaml", *sorted(
    str(path.relative_to(REPO)) for path in (REPO / "config" / "papers").glob("*.yaml"))]  # fmt: skip


def summary(configfile: str, *extra: str) -> list[dict[str, str]]:
    """Snakemake's ``--summary`` of a configuration: one row per output file of the whole DAG."""
    command = [sys.executable, "-m", "snakemake", "--summary", "--cores", "1", "--configfile", configfile, *extra]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line for line in result.stdout.splitlines() if "\t" in line]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=False)) for line in lines[1:]]


@pytest.mark.parametrize("configfile", CONFIGS)
def test_every_output_of_the_rules_is_a_target_made_once(configfile):
    extra = [] if configfile == "config/config.yaml" else ["--config", f"data_root={SHARED_RAW}"]
    if extra and not SHARED_RAW.is_dir():
        pytest.skip("../shared/data/raw is not here")
    config = load(REPO / configfile)
    if extra:
        config["data_root"] = str(SHARED_RAW)
    plan = make_plan(config, workdir=REPO)
    rows = summary(configfile, *extra)
    outputs = [row["output_file"] for row in rows]
    assert len(outputs) == len(set(outputs))  # one rule per output
    assert set(outputs) == set(plan.targets())
    for row in rows:  # a log for every job made (its own first; one per data set for per-data-set work)
        assert row["log-file(s)"] == "-" or row["log-file(s)"].startswith(f"{plan.results}/logs/{row['rule']}.log"), row


def test_the_rule_files_name_their_paths_and_pass_settings_only():
    """Every output and input path of a job rule is a template in its .smk file (f"{RESULTS}/..."); params
    name no results path."""
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text()
        for block in re.split(r"\n(?=\s*rule \w+:)", text)[1:]:
            if "script:" not in block:
                continue
            output = block.split("output:", 1)[1].split("log:", 1)[0]
            assert 'f"{RESULTS}/' in output, (path.name, block[:60])
            params = block.split("params:", 1)[1].split("script:", 1)[0] if "params:" in block else ""
            assert "RESULTS" not in params and "results/" not in params, (path.name, block[:60])
