"""A third task is one package: the toy task of tests/tasks/toy_task.py (one gold grade per topic), registered by
a plugin, is validated, scored and planned, and its data set runs through the pipeline's scripts, with nothing
outside its file naming it (the workflow tier runs it through Snakemake: tests/workflow/test_toy_task_pipeline.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import REPO, prepare_and_score, run_rule_script

from ordeval.cli import main
from ordeval.tasks import get_task, scoring_tasks
from ordeval.tasks.plugins import load_plugins
from ordeval.workflow.config import schema_with_formats
from ordeval.workflow.plan import plan as make_plan

TOY = REPO / "tests" / "tasks" / "toy_task.py"
GRADES = ["low", "mid", "high"]
#: The runs and how often each guesses instead of giving the gold grade.
RUNS = {"good": 0.1, "fair": 0.3, "middling": 0.5, "weak": 0.7, "poor": 0.9}


def toy_files(folder, topics: int = 24) -> dict[str, str]:
    """A gold and three runs of ``topics`` topics (``toy_grades``), the runs of graded quality."""
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 3, topics)
    files = {"gold": folder / "gold.txt"}
    files["gold"].write_text("".join(f"t{t:02d}\t{GRADES[g]}\n" for t, g in enumerate(gold)))
    for run, noise in RUNS.items():
        grades = np.where(rng.random(topics) < noise, rng.integers(0, 3, topics), gold)
        files[run] = folder / f"{run}.txt"
        files[run].write_text("".join(f"t{t:02d}\t{GRADES[g]}\n" for t, g in reversed(list(enumerate(grades)))))
    return {key: str(path) for key, path in files.items()}


def toy_config(folder) -> dict:
    files = toy_files(folder)
    return {
        "name": "toy",
        "seed": 5,
        "plugins": [str(TOY)],
        "consistency": {"trials": 20, "hsd_trials": 50, "subset_size": 5},
        "significance": {"hsd_trials": 200},
        "datasets": {
            "Grades": {
                "task": "grades",
                "classes": GRADES,
                "gold": {"type": "toy_grades", "path": files["gold"]},
                "runs": [{"type": "toy_grades", "name": run, "path": files[run]} for run in RUNS],
            }
        },
    }


def test_the_toy_task_is_found_only_through_its_plugin():
    load_plugins([str(TOY)])
    task = get_task("grades")
    assert "grades" in scoring_tasks() and task.registry.default_names() == ["GradeError", "Hit"]
    schema = schema_with_formats()
    assert "grades" in schema["$defs"]["dataset"]["properties"]["task"]["enum"]
    assert schema["$defs"]["grades_run_source"]["properties"]["type"]["enum"] == ["toy_grades"]


def test_validate_and_score_on_the_command_line(tmp_path, capsys):
    files = toy_files(tmp_path)
    common = ["--plugins", str(TOY), "--task", "grades", "--format", "toy_grades", "--classes", ",".join(GRADES)]
    assert main(["validate", files["good"], "--gold", files["gold"], *common]) == 0
    assert "OK" in capsys.readouterr().out
    (tmp_path / "bad.txt").write_text("t00\tmiddling\n")
    assert main(["validate", str(tmp_path / "bad.txt"), *common]) == 1
    assert "bad.txt:1: unknown grade 'middling'" in capsys.readouterr().out
    runs = [argument for run in RUNS for argument in ("--run", f"{run}={files[run]}")]
    code = main(
        ["score", "--gold", files["gold"], *runs, *common, "--out", str(tmp_path / "out"), "--trials", "200", "--json"]
    )
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["measures"] == ["GradeError", "Hit"]
    errors = document["means"]["GradeError"]
    assert errors["good"] < errors["fair"] < errors["poor"]


def test_a_configuration_of_the_toy_task_runs_through_the_pipelines_scripts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    planned = make_plan(toy_config(tmp_path), workdir=tmp_path)
    assert planned.tasks == ["grades"] and planned.datasets["Grades"].measures == ["GradeError", "Hit"]
    assert planned.suffix("grades") == "_grades" and not planned.task_datasets("classification")
    prepare_and_score(planned)
    stack = "results/toy/scores/Grades/stack.npz"
    assert (tmp_path / "results/toy/scores/Grades/GradeError.tsv").is_file()
    params = {"ci_level": 0.95, "ci_method": "fisher_z", "kendall": "b", "measures": ["GradeError", "Hit"]}
    output = {ext: f"results/toy/tables/agreement/Grades.{ext}" for ext in ("csv", "html", "tex")}
    tables = [f"results/toy/scores/Grades/{name}" for name in ("GradeError.tsv", "Hit.tsv", "measures.tsv")]
    inputs = {"stack": stack, "tables": tables, "provenance": "results/toy/data/Grades/provenance.json"}
    run_rule_script("agreement_dataset", input=inputs, output=output, params=params, wildcards={"dataset": "Grades"})
    table = (tmp_path / output["csv"]).read_text().splitlines()
    assert table[0].startswith("measure_a,measure_b,tau") and table[1].startswith("GradeError,Hit,")


@pytest.mark.parametrize("key", ["unknown", "one_class_agreement"])
def test_keys_of_other_tasks_are_refused_for_a_toy_data_set(tmp_path, key):
    from ordeval.io.errors import ConfigError

    config = toy_config(tmp_path)
    config["datasets"]["Grades"][key] = "one"
    with pytest.raises(ConfigError, match=rf"datasets.Grades: unexpected key\(s\) '{key}' \(allowed: classes, "):
        make_plan(config, workdir=tmp_path)
