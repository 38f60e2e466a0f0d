"""What differs by task comes from the task: nothing outside a task's package names a task (its name, short name or
summary suffix as a string of the code), and the generic code asks the task for its analyses' default measures, its
DNKT combinations, its measures' properties, its simulated systems' profile keys and whether it is the task of a data
set that names none."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import REPO, tiny_config

from ordeval.tasks import all_tasks, default_task, get_task, register_task, task_of
from ordeval.workflow.modules import script_files
from ordeval.workflow.plan import plan as make_plan

#: Files that name a stage that shares its task's name: the OC paper's layout is a stage of its own,
#: ``classification`` (its target rule ``snakemake classification``, its HTML category and PDF section).
STILL_NAMING = {"src/ordeval/reports/catalogue.py"}
#: The task packages: the only places that name their task.
TASK_PACKAGE = re.compile(r"^src/ordeval/tasks/(quantification|classification)/|^src/ordeval/tasks/scores\.py$")


def _docstrings(tree: ast.AST) -> set[int]:
    nodes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, nodes) and node.body and isinstance(node.body[0], ast.Expr)
    }


def test_nothing_outside_a_task_package_names_a_task():
    """A string of the code (not a docstring) that is a built-in task's name, short name or summary suffix, or a
    path into its package, outside the task packages."""
    named = [task for task in all_tasks() if task.name != "scores"]  # "scores": a word of the code (folders, keys)
    names = {text for task in named for text in (task.name, task.short, task.summary_suffix) if text}
    found = []
    for path in sorted([*(REPO / "src" / "ordeval").rglob("*.py"), *(REPO / "scripts").glob("*.py")]):
        relative = str(path.relative_to(REPO))
        if TASK_PACKAGE.search(relative) or relative in STILL_NAMING:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
                if node.value in names or re.search(r"\btasks/(quantification|classification)\b", node.value):
                    found.append(f"{relative}:{node.lineno}: {node.value!r}")
    assert found == []


def test_the_analyses_default_measures_come_from_the_task():
    quantification, classification, scores = (get_task(name) for name in ("quantification", "classification", "scores"))
    scored = ["NMD", "RNOD", "JSD", "DNKT", "MINE", "DNKT_JSD"]
    assert quantification.default_measures("significance", scored) == ["NMD", "RNOD", "JSD", "MINE"]
    assert quantification.default_measures("consistency", scored) == scored  # None: every scored measure
    assert classification.default_measures("agreement", ["MAE_mu", "kappa", "NEW"]) == ["kappa", "MAE_mu", "NEW"]
    assert scores.default_measures("agreement", ["B", "A"]) == ["B", "A"]
    planned = make_plan(tiny_config())
    assert planned.dnkt_combinations == [
        m for m in quantification.dnkt_combinations if f"DNKT_{m}" in planned.scored("quantification")
    ]


def test_the_task_of_a_data_set_that_names_none_is_the_implied_one():
    assert default_task() == "quantification" and [task.name for task in all_tasks() if task.implied] == [
        "quantification"
    ]
    assert task_of({"classes": [0, 1]}) == "quantification" and task_of({"task": "classification"}) == "classification"

    class Another(type(get_task("scores"))):
        name = "another"
        implied = True

    with pytest.raises(ValueError, match="task 'another' is implied, but so is 'quantification'"):
        register_task(Another())
    assert "another" not in {task.name for task in all_tasks()}


def test_the_property_definitions_are_code_of_the_property_jobs_only():
    """Each task's properties module is imported by name when its properties are checked: an edit to it re-runs
    the jobs that check properties (a measure's report, the OC paper's property table), not the data and scoring
    jobs."""
    for task in ("quantification", "classification"):
        module = get_task(task).property_module
        assert module == f"ordeval.tasks.{task}.properties" and get_task(task).properties()
        definitions = REPO / "src" / "ordeval" / "tasks" / task / "properties.py"
        assert definitions.resolve() in {
            path.resolve() for path in script_files(REPO / "scripts" / "measure_report.py")
        }
        for script in ("prepare_data", "score_runs"):
            assert definitions.resolve() not in {
                path.resolve() for path in script_files(REPO / "scripts" / f"{script}.py")
            }
    assert get_task("scores").properties() == {}
