"""A toy third task, registered from outside the package (a plugin): ``grades``, one gold grade per topic (a
class of an ordered scale) and one grade per topic from each run, scored by two measures of its own. Nothing
outside this file names it: it shows that a task is one package. Used by tests/test_toy_task.py and the workflow
tier's tests/workflow/test_toy_task_pipeline.py.

Files (format ``toy_grades``, gold or run): ``topic<TAB>grade``, one line per topic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.fields import read_fields
from ordeval.io.files import write_json, write_text
from ordeval.io.provenance import read_provenance
from ordeval.tasks import register_task
from ordeval.tasks.base import Scored, Task, TaskData
from ordeval.tasks.formats import FileFormats
from ordeval.tasks.registry import Registry

REGISTRY = Registry("grades")
FORMATS = FileFormats()


@REGISTRY.register("GradeError", description="absolute difference of the grades, over the scale's length")
def grade_error(run: np.ndarray, gold: np.ndarray, classes: int) -> np.ndarray:
    """|grade - gold grade| / (K - 1)."""
    return np.abs(run - gold) / (classes - 1)


@REGISTRY.register("Hit", lower_is_better=False, description="1 where the grade is the gold grade, else 0")
def hit(run: np.ndarray, gold: np.ndarray, classes: int) -> np.ndarray:
    """1 if grade = gold grade, else 0."""
    return (run == gold).astype(float)


@dataclass
class Grades:
    """What a ``toy_grades`` file holds: its topics (``topics``: how ``ordeval validate`` pairs a run with the
    gold) and their grades (class indices)."""

    topics: list[str]
    grades: np.ndarray
    locations: list[str]  # where each topic was read ("line 3"): what validate's messages name
    path: str = ""  # the file read


@FORMATS.register("toy_grades", roles=("gold", "run"), description="topic<TAB>grade, one line per topic")
def read_grades(path, classes: Sequence, source: Mapping) -> dict:
    fields = read_fields(path, ("topic", "grade"), layout="topic, grade")
    labels = [str(label) for label in classes]
    grades = []
    for record, label in enumerate(fields.column(1)):
        if label not in labels:
            raise fields.error(record, f"unknown grade {label!r}; grades are {', '.join(labels)}")
        grades.append(labels.index(label))
    locations = [fields.where(record) for record in range(len(fields))]
    return {"": Grades(fields.column(0), np.array(grades), locations, str(path))}


@dataclass
class GradeData(TaskData):
    gold: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))  # topics
    runs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=int))  # runs x topics


class GradesTask(Task):
    name = "grades"
    short = "GR"
    title = "graded topics"
    description = "one gold grade per topic, one grade per topic from each run (a toy task of the tests)"
    order = 50
    registry = REGISTRY
    summary_suffix = "_grades"
    formats = FORMATS
    schema_file = Path(__file__).with_name("toy_task.yaml")
    schema_sources = {"gold": "grades_gold_source", "run": "grades_run_source"}
    baseline_types = frozenset()
    gold_topic_column = {"toy_grades": 0}

    # the steps of Task.build: the gold, each run paired with it, the data set
    def read_gold(self, name: str, spec: Mapping, path: Path) -> Grades:
        gold = read_grades(path, [str(label) for label in spec["classes"]], spec["gold"])[""]
        if len(set(gold.topics)) != len(gold.topics):
            raise ConfigError(f"datasets.{name}.gold: a topic is given twice")
        return gold

    def read_run_file(self, name: str, spec: Mapping, source: Mapping, path: Path, entry: str) -> dict:
        return {source["name"]: read_grades(path, [str(label) for label in spec["classes"]], source)[""]}

    def pair_run(self, spec: Mapping, source: Mapping, run: Grades, gold: Grades, run_name: str) -> np.ndarray:
        if sorted(run.topics) != sorted(gold.topics):
            raise InputError(run.path, None, "its topics are not the gold's")
        order = {topic: i for i, topic in enumerate(run.topics)}
        return run.grades[[order[topic] for topic in gold.topics]]

    def dataset(self, name: str, spec: Mapping, gold: Grades, run_names, runs, provenance) -> GradeData:
        classes = [str(label) for label in spec["classes"]]
        return GradeData(name, classes, list(gold.topics), run_names, provenance, gold.grades, runs)

    def write_canonical(self, data: GradeData, files: Mapping) -> None:
        gold = [f"{t}\t{data.classes[g]}\n" for t, g in zip(data.topics, data.gold, strict=True)]
        write_text("topic\tgrade\n" + "".join(gold), files["gold"])
        rows = [
            f"{t}\t{run}\t{data.classes[g]}\n"
            for run, grades in zip(data.run_names, data.runs, strict=True)
            for t, g in zip(data.topics, grades, strict=True)
        ]
        write_text("topic\trun\tgrade\n" + "".join(rows), files["runs"])
        # every task writes the same canonical files: its grades as arrays too (read by nothing here)
        with open(files["arrays"], "wb") as handle:
            np.savez(handle, gold=np.asarray(data.gold), runs=np.asarray(data.runs))
        write_json(data.provenance, files["provenance"])

    def read_canonical(self, name: str, spec: Mapping, files: Mapping) -> GradeData:
        classes = [str(label) for label in spec["classes"]]
        gold = read_fields(files["gold"], ("topic", "grade"), header=True)
        runs = read_fields(files["runs"], ("topic", "run", "grade"), header=True)
        topics = gold.column(0)
        names = list(dict.fromkeys(runs.column(1)))
        grades = np.array([classes.index(g) for g in runs.column(2)]).reshape(len(names), len(topics))
        return GradeData(
            name,
            classes,
            topics,
            names,
            read_provenance(files["provenance"]),
            np.array([classes.index(g) for g in gold.column(1)]),
            grades,
        )

    def simulated_run_names(self, source: Mapping) -> list[str]:
        return []

    def tsv_run_names(self, path: Path) -> list[str]:
        return []

    def score(self, data: GradeData, measures: Sequence[str]) -> Scored:
        values = np.stack([self.registry[m](data.runs, data.gold, len(data.classes)).T for m in measures])
        return Scored(self.stack(measures, data.topics, data.run_names, values))


TASK = register_task(GradesTask())
