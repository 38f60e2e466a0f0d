"""The rule files as Snakemake reads them: every job's outputs are exactly the plan's targets (each made
by one rule), params hold settings only (no path of the results), and each rule's files are written out
in its own .smk file."""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, SHARED_RAW, no_shared_data, project_copy

pytestmark = pytest.mark.workflow

CONFIGS = [
    "config/config.yaml",
    "config/replication.yaml",
    *sorted(str(path.relative_to(REPO)) for path in (REPO / "config" / "papers").glob("*.yaml")),
]


def summary(configfile: str, *extra: str) -> list[dict[str, str]]:
    """Snakemake's ``--summary`` of a configuration: one row per output file of the whole DAG (in a project
    folder of its own: Snakemake's .snakemake/ does not land in the checkout)."""
    command = [sys.executable, "-m", "snakemake", "--summary", "--cores", "1", "--configfile", configfile, *extra]
    with tempfile.TemporaryDirectory(prefix="ordeval-summary-") as folder:
        project = project_copy(Path(folder) / "project")
        result = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line for line in result.stdout.splitlines() if "\t" in line]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=False)) for line in lines[1:]]


def planned_targets(configfile: str, extra: list[str]) -> dict:
    """The plan's targets, made in a process of its own: the registries of this one hold the measures
    other tests registered."""
    code = (
        "import json, sys; from ordeval.workflow.config import load; from ordeval.workflow.plan import plan\n"
        "config = load(sys.argv[1])\n"
        "if len(sys.argv) > 2: config['data_root'] = sys.argv[2]\n"
        "p = plan(config, workdir='.'); print(json.dumps({'targets': p.targets(), 'results': p.results}))"
    )
    root = [str(SHARED_RAW)] if extra else []
    done = subprocess.run([sys.executable, "-c", code, configfile, *root], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("configfile", CONFIGS)
def test_every_output_of_the_rules_is_a_target_made_once(configfile):
    extra = [] if configfile == "config/config.yaml" else ["--config", f"data_root={SHARED_RAW}"]
    if extra and not SHARED_RAW.is_dir():
        pytest.skip(no_shared_data())
    rows = summary(configfile, *extra)
    outputs = [row["output_file"] for row in rows]
    assert len(outputs) == len(set(outputs))  # one rule per output
    targets = planned_targets(configfile, extra)
    assert set(outputs) == set(targets["targets"])
    for row in rows:  # a log for every job made (logs/<rule>.log, or logs/<rule>/<wildcards>.log)
        log = row["log-file(s)"]
        assert log == "-" or log.startswith(f"{targets['results']}/logs/"), row


def test_the_rule_files_name_their_paths_and_pass_settings_only():
    """Every output of a job rule is written out in its .smk file as a literal path template under the
    results folder (``f"{RESULTS}/..."``, its wildcards left), one of the catalogue's templates, and every
    template of the catalogue is written by a rule; only the data and scoring rules take the files they
    write (data/, scores/) from the task. Its log a template under the results' ``logs/``; params name no
    results path."""
    from ordeval.reports.catalogue import ENTRIES
    from ordeval.workflow.plan import CONDITIONS

    templates = {entry.pattern.replace("{ext}", ext) for entry in ENTRIES.values() for ext in entry.formats}
    # the consistency conditions are written out in the rules
    templates = {t.replace("{condition}", c) for t in templates for c in CONDITIONS}
    from_task = {"data.smk": "PLAN.canonical_paths(", "scoring.smk": "PLAN.score_paths("}
    written = set()
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text()
        for block in re.split(r"\n(?=\s*rule(?: \w+)?:)", text)[1:]:
            if "script:" not in block:
                continue
            output = block.split("output:", 1)[1].split("log:", 1)[0]
            literal = [t.replace("{{", "{").replace("}}", "}") for t in re.findall(r'f"\{RESULTS\}/([^"]+)"', output)]
            if path.name in from_task and from_task[path.name] in output:
                assert not literal, (path.name, block[:60])
            else:
                assert literal and "PLAN." not in output and "path(" not in output, (path.name, block[:60])
                assert set(literal) <= templates, (path.name, set(literal) - templates)
                written.update(literal)
            log = block.split("log:", 1)[1].split("\n", 2)[1]
            assert log.strip().startswith('f"{RESULTS}/logs/'), (path.name, block[:60])
            params = block.split("params:", 1)[1].split("script:", 1)[0] if "params:" in block else ""
            assert "RESULTS" not in params and "results/" not in params, (path.name, block[:60])
    assert {t for t in templates - written if not t.startswith(("data/", "scores/"))} == set()
