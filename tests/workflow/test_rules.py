"""The rule files as Snakemake reads them are the one list of outputs: every job's outputs are exactly what the stages'
target rules list (each made by one rule), `rule all` asks for everything through the report stage, params hold
settings only (no path of the results), each rule's files are written out in its own .smk file, and the parse
changes no file."""

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, SHARED_RAW, no_shared_data, project_copy

from ordeval.reports.catalogue import STAGES

pytestmark = pytest.mark.workflow

CONFIGS = [
    "config/config.yaml",
    "config/replication.yaml",
    *sorted(str(path.relative_to(REPO)) for path in (REPO / "config" / "papers").glob("*.yaml")),
]

#: Loads the workflow with Snakemake's API (no DAG, no job) and prints, as JSON, what each stage's target rule
#: lists, the report's printed items, every rule's output templates with their report() captions, and the
#: workflow's globals that the tests read.
LOADER = """
import json, os, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.enums import Quietness
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings
extra = dict(item.split("=", 1) for item in sys.argv[2:])
def caption(flag):
    if not flag or flag.caption is None:
        return None
    return os.path.relpath(str(flag.caption.get_path_or_uri(secret_free=True)))
with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
    workflow = api.workflow(
        resource_settings=ResourceSettings(cores=1),
        config_settings=ConfigSettings(configfiles=[Path(sys.argv[1])], config=extra),
        snakefile=Path("Snakefile"),
    )._workflow
    rules = workflow.globals["rules"]
    stages = {stage: sorted(map(str, getattr(rules, stage).input)) for stage in STAGES}
    outputs = {}
    for rule in workflow.rules:
        outputs[rule.name] = {
            name: [str(path), caption(path.flags.get("report"))]
            for name, path in rule.output._allitems()
        }
    print(json.dumps({
        "stages": stages,
        "report": sorted(map(str, rules.report.input)),
        "all": sorted(map(str, rules.all.input)),
        "items": [{**item, "caption": os.path.relpath(item["caption"])} for item in workflow.globals["ITEMS"]],
        "outputs": outputs,
        "results": workflow.globals["RESULTS"],
        "provenance": str(rules.prepare_data.output.provenance),
    }))
""".replace("STAGES", repr(list(STAGES)))


def load(configfile: str, *extra: str) -> dict:
    """What the workflow lists for ``configfile`` (``extra``: ``key=value`` config items), loaded in a project folder
    of its own and a process of its own (the registries of this one hold the measures other tests registered)."""
    with tempfile.TemporaryDirectory(prefix="ordeval-rules-") as folder:
        project = project_copy(Path(folder) / "project")
        done = subprocess.run(
            [sys.executable, "-c", LOADER, configfile, *extra], cwd=project, capture_output=True, text=True, timeout=300
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


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


@pytest.fixture(scope="module")
def default():
    return load("config/config.yaml")


@pytest.mark.parametrize("configfile", CONFIGS)
def test_every_output_of_the_rules_is_listed_by_its_stage_and_made_once(configfile):
    extra = [] if configfile == "config/config.yaml" else [f"data_root={SHARED_RAW}"]
    if extra and not SHARED_RAW.is_dir():
        pytest.skip(no_shared_data())
    listed = load(configfile, *extra)
    rows = summary(configfile, *(["--config", *extra] if extra else []))
    outputs = [row["output_file"] for row in rows]
    assert len(outputs) == len(set(outputs))  # one rule per output
    targets = {path for paths in listed["stages"].values() for path in paths} | set(listed["report"])
    assert set(outputs) == targets
    assert set(listed["all"]) == set(listed["report"])  # rule all: the report stage, made from every other output
    for row in rows:  # a log for every job made (logs/<rule>.log, or logs/<rule>/<wildcards>.log)
        log = row["log-file(s)"]
        assert log == "-" or log.startswith(f"{listed['results']}/logs/"), row


def test_each_stage_lists_what_it_makes(default):
    results, stages = default["results"], default["stages"]
    agreement = stages["agreement"]
    for path in [
        "tables/agreement/mean.csv",
        "tables/agreement/mean.html",
        "tables/agreement/mean.tex",
        "tables/agreement/similarity.csv",
        "tables/agreement/Sem16T4E.csv",
        "tables/agreement/DialEval1-DQ-S.tex",
        "tables/agreement/dnkt_JSD.csv",
        "figures/agreement/mean_heatmap.pdf",
        "figures/agreement/mean_heatmap.png",
        "tables/agreement/mean_oc.csv",
    ]:
        assert f"{results}/{path}" in agreement, path
    scores = stages["scores"]
    assert f"{results}/scores/Sem16T4E/RNADW2.tsv" in scores and f"{results}/scores/STC3-DQ-E/stack.npz" in scores
    assert f"{results}/scores/Sem16T4C/pooled.tsv" in scores and f"{results}/scores/Sem16T4E/pooled.tsv" not in scores
    assert len([path for path in scores if re.search(r"/scores/[^/]+/[A-Za-z0-9_]+\.tsv$", path)]) == (
        8 * (13 + 2) + 2 * (9 + 4)  # every measure's table, means and measures; OC also pooled and conventions
    )
    assert f"{results}/data/Sem17T4E/provenance.json" in stages["data"]
    assert f"{results}/data/Sem17T4C/arrays.npz" in stages["data"]  # the same canonical files for every task
    assert f"{results}/tables/datasets.tex" in stages["data"]
    consistency = stages["consistency"]
    assert f"{results}/tables/consistency/Sem16T4E_10v10_pairs.csv" in consistency
    assert f"{results}/tables/consistency/mean_half.tex" in consistency
    assert f"{results}/consistency/STC3-DQ-A/half.tsv" in consistency
    assert f"{results}/figures/consistency/Sem16T4E_half.png" in stages["figures"]
    significance = stages["significance"]
    assert f"{results}/significance/Sem17T4E/pvalues.tsv" in significance
    assert f"{results}/tables/discriminative_power.csv" in significance
    assert f"{results}/tables/discriminative_power_oc.csv" in significance
    assert f"{results}/figures/dp_curves/all.png" in significance
    popularity = stages["popularity"]
    assert f"{results}/tables/popularity_vs_uniform.csv" in popularity
    assert f"{results}/figures/popularity_scatter/STC3-DQ-A.pdf" in popularity
    assert not any("Sem16T4E" in path for path in popularity)  # left out: no baselines
    assert f"{results}/manifest.json" in default["report"]
    assert f"{results}/tables/leaderboard/Sem17T4C.md" in stages["leaderboard"]
    assert f"{results}/tables/leaderboard/Sem17T4C_pooled.csv" in stages["leaderboard"]
    assert f"{results}/tables/oc/properties.tex" in stages["classification"]
    assert f"{results}/tables/topic_set_size/Sem16T4C.csv" in stages["topic_set_size"]
    assert not stages["replication"] and not stages["measure_reports"]  # not asked for by this configuration
    everything = [path for paths in stages.values() for path in paths]
    assert len(everything) == len(set(everything)) and all(path.startswith(f"{results}/") for path in everything)


def test_the_report_prints_the_reported_outputs_twins_with_their_captions(default):
    """Every item the PDF prints is a LaTeX fragment or a PDF figure of a job its stage makes, with a caption file
    that exists; every caption file is used by an output of the rules; every output the HTML report shows has a
    caption."""
    made = {path for paths in default["stages"].values() for path in paths}
    items = default["items"]
    assert items and all(item["path"] in made and item["path"].endswith((".tex", ".pdf")) for item in items)
    assert len({item["path"] for item in items}) == len(items)
    assert all((REPO / item["caption"]).is_file() for item in items)
    shown = {  # relative to the project folder
        os.path.normpath(REPO / caption)
        for outputs in default["outputs"].values()
        for _, caption in outputs.values()
        if caption
    }
    used = shown | {os.path.normpath(REPO / item["caption"]) for item in items}
    files = {os.path.normpath(path) for path in (REPO / "workflow" / "report").glob("*/*.rst")}
    assert used == files and shown <= files


def test_the_planner_reads_provenance_where_rule_prepare_data_writes_it(default):
    from ordeval.workflow.source_check import PROVENANCE

    assert default["provenance"] == f"{default['results']}/{PROVENANCE}"


def test_the_rule_files_name_their_paths_and_pass_settings_only():
    """Every rule is written out: a name, no rule made in a loop (no ``name:``), no output or input spread from a
    computed dict (``**``), every output path a literal template under the results folder (``f"{RESULTS}/..."``,
    its wildcards left), its log one too, and params that name no results path."""
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text()
        assert not re.search(r"^\s+name:", text, re.M) and "\nfor " not in text and "onstart" not in text, path.name
        for block in re.split(r"\n(?=rule \w+:)", text)[1:]:
            rule = block.split(":", 1)[0]
            output = block.split("output:", 1)[1].split("log:", 1)[0] if "output:" in block else ""
            inputs = block.split("input:", 1)[1].split("output:", 1)[0] if "input:" in block else ""
            assert "**" not in output and "**" not in inputs, rule
            if not output:  # a stage's target rule
                continue
            paths = re.findall(r'f"\{RESULTS\}/([^"]+)"', output)
            assert paths and "PLAN." not in output, rule
            log = block.split("log:", 1)[1].split("\n", 2)[1]
            assert log.strip().startswith('f"{RESULTS}/logs/'), rule
            params = block.split("params:", 1)[1].split("script:", 1)[0] if "params:" in block else ""
            assert "RESULTS" not in params and "results/" not in params, rule
    snakefile = (REPO / "Snakefile").read_text() + (REPO / "workflow" / "rules" / "common.smk").read_text()
    assert "date_scripts" not in snakefile and "job_rate_limiter" not in snakefile and "utime" not in snakefile


def test_a_parse_and_a_dry_run_change_no_file(tmp_path):
    """``snakemake -n`` (every start parses the Snakefile) leaves every file of the project as it was: contents
    and modification times of the scripts, the sources, the rules and the results."""
    project = project_copy(tmp_path / "project")
    watched = [REPO / "scripts", REPO / "src", REPO / "workflow", REPO / "Snakefile", REPO / "config"]

    def state() -> dict:
        found = {}
        for root in watched:
            for path in [root] if root.is_file() else root.rglob("*"):
                if path.is_file() and "__pycache__" not in path.parts:
                    status = path.stat()
                    found[str(path)] = (status.st_mtime_ns, status.st_size)
        for path in (project / "results").rglob("*") if (project / "results").exists() else []:
            found[str(path)] = path.stat().st_mtime_ns
        return found

    before = state()
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--cores", "1"], cwd=project, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert state() == before
