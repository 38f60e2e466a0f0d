"""Ordinal classification (OC): one gold class per item, items grouped into topics, and one class per item
from each run; measures score each topic's confusion matrix (docs/methods.md, section 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.io.table import Table
from ordeval.tasks.base import Scored, Task
from ordeval.tasks.classification import data, formats, readers, simulate_settings
from ordeval.tasks.registry import checked_scores, measure_values, registry_on_first_use

__all__ = ["TASK", "REGISTRY", "register", "register_format", "ClassificationTask", "ClassificationData"]

ClassificationData = data.ClassificationData


register_format = formats.register_format

__getattr__ = registry_on_first_use(__name__)

#: The measures of Sakai's ordinal classification paper (ACL-IJCNLP 2021), in its Table 2 order: every analysis's
#: default.
PAPER_MEASURES = ("alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu")


class ClassificationTask(Task):
    name = "classification"
    short = "OC"
    title = "ordinal classification"
    order = 1
    description = "ordinal classification: a gold class per item (items grouped into topics), a class per item per run"
    summary_suffix = "_oc"
    data_modules = ("ordeval.tasks.classification.data",)
    scoring_modules = ("ordeval.tasks.classification.measures",)
    property_module = "ordeval.tasks.classification.properties"
    analysis_defaults = dict.fromkeys(
        ("agreement", "consistency", "significance", "popularity", "leaderboard", "topic_set_size"), PAPER_MEASURES
    )
    known_measures = frozenset(PAPER_MEASURES)
    gold_topic_column = {"semeval_labels": 1, "tsv": 0}
    formats = formats.FORMATS
    schema_file = Path(__file__).with_name("schema.yaml")
    canonical_columns = {"gold": readers.GOLD_COLUMNS, "run": readers.RUN_COLUMNS}
    schema_sources = {"gold": "oc_gold_source", "run": "oc_run_source"}
    run_file_options = {
        "align": {
            "enum": ["id", "position"],
            "default": "id",
            "description": "Pair the run's lines with the gold's items by item id (default) or by position (the "
            "i-th line is the gold's i-th item; the topics must agree line by line).",
        }
    }
    baseline_types = data.BASELINE_SOURCES
    profile_keys, profile_optional = simulate_settings.PROFILE_KEYS, simulate_settings.PROFILE_OPTIONAL
    #: the tables that scoring writes besides the stack (the pipeline: rule official_scores)
    extras = ("conventions", "pooled")
    published_datasets = ("Sem16T4C", "Sem17T4C")  # Sakai, ACL-IJCNLP 2021

    def check_settings(self, name: str, spec: Mapping) -> None:
        """Simulation settings that cannot be met are errors at plan time, naming the key."""
        from ordeval.tasks.classification import simulate

        classes = len(spec.get("classes", []))
        if spec["gold"]["type"] == data.SIMULATED_GOLD:
            simulate.gold_parameters(spec["gold"], classes, f"datasets.{name}.gold")
        for index, source in enumerate(spec["runs"]):
            if source["type"] == "simulate":
                simulate.run_parameters(source, classes, f"datasets.{name}.runs[{index}]")

    @property
    def registry(self):
        from ordeval.tasks.classification.measures import REGISTRY

        return REGISTRY

    # ------------------------------------------------------------------ data (the steps of Task.build)
    def read_gold(self, name: str, spec: Mapping, path: Path) -> readers.Gold:
        return data.read_gold(spec, path)

    def simulate_gold(self, name: str, spec: Mapping, rng) -> readers.Gold:
        return data.simulate_gold(name, spec, rng) or super().simulate_gold(name, spec, rng)

    def read_run_file(self, name: str, spec: Mapping, source: Mapping, path: Path, entry: str) -> dict:
        return data.read_run_file(name, spec, source, path, entry)

    def pair_run(self, spec: Mapping, source: Mapping, run, gold: readers.Gold, run_name: str):
        return readers.pair(run, gold, source.get("align", "id"), run_name)

    def baseline(self, name: str, spec: Mapping, source: Mapping, gold: readers.Gold, entry: str) -> tuple:
        return data.baseline(name, spec, source, gold, entry)

    def simulate_runs(
        self, name: str, spec: Mapping, source: Mapping, gold: readers.Gold, system_rng, noise_rng, entry
    ):
        return data.simulate_runs(name, spec, source, gold, system_rng, noise_rng, entry)

    def dataset(self, name: str, spec: Mapping, gold: readers.Gold, run_names, runs, provenance) -> ClassificationData:
        return data.dataset(name, spec, gold, run_names, runs, provenance)

    def source_defaults(self, kind: str | None) -> Mapping:
        from ordeval.tasks.classification import simulate

        return {"simulate_items": simulate.GOLD_DEFAULTS, "simulate": simulate.RUN_DEFAULTS}.get(kind, {})

    def size_hints(self, spec: Mapping) -> dict:
        """The items of a simulated gold: its topics times their mean size (sizes log-uniform between
        ``items_min`` and ``items_max``)."""
        import math

        from ordeval.tasks.classification.simulate import GOLD_DEFAULTS

        gold = spec.get("gold", {})
        if gold.get("type") != "simulate_items":
            return {}
        low = int(gold.get("items_min", GOLD_DEFAULTS["items_min"]))
        high = int(gold.get("items_max", GOLD_DEFAULTS["items_max"]))
        return {"items": int(int(gold["topics"]) * ((high - low) / math.log(high / low) if high > low > 0 else high))}

    pairing = "items"
    case_axes = 2  # a measure scores a topic's confusion matrix

    def checked_reader(self, read, role: str, name: str, gold=None, align: str = "id"):
        """The gold's items; a run's labels paired with the gold's items (by id or position), or by itself its
        items (only its lines, where it is to be paired by position)."""
        if role == "gold":
            return lambda path: {"": readers.gold_items(read(path)[""])}

        def tables(path) -> dict:
            parsed = read(path)
            return {name: parsed[""]} if "" in parsed else parsed

        if gold is not None:
            return lambda path: {run: readers.pair(table, gold, align, run) for run, table in tables(path).items()}
        if align == "position":  # ids are ignored when paired by position: only the lines are checked
            return tables
        return lambda path: {run: readers.gold_items(table) for run, table in tables(path).items()}

    def write_canonical(self, dataset: ClassificationData, files: Mapping) -> None:
        data.write_canonical(dataset, files["gold"], files["runs"], files["provenance"], files["arrays"])

    def read_canonical(self, name: str, spec: Mapping, files: Mapping) -> ClassificationData:
        return data.read_canonical(
            name, spec, files["gold"], files["runs"], files.get("provenance"), files.get("arrays")
        )

    def simulated_run_names(self, source: Mapping) -> list[str]:
        return data.simulated_run_names(source)

    def tsv_run_names(self, path: Path) -> list[str]:
        return data.tsv_run_names(path)

    def describe(self, dataset: ClassificationData) -> dict:
        """Counts of topics, runs, classes, items, and of the topics with an empty gold class."""
        return {
            **super().describe(dataset),
            "items": dataset.num_items,
            "topics_with_empty_gold_class": dataset.empty_class_topics(),
        }

    # ------------------------------------------------------------------ scoring
    def score(self, dataset: ClassificationData, measures: Sequence[str]) -> Scored:
        """Every run scored on every topic's confusion matrix; extras: how often each measure's 0/0
        conventions applied (``conventions``), and each measure on one confusion matrix over all items
        per run (``pooled``, the official SemEval protocol)."""
        from ordeval.tasks.classification import measures as oc

        measures = list(measures)
        confusion = oc.confusion_matrices(
            dataset.gold, dataset.runs, dataset.item_topic, len(dataset.topics), len(dataset.classes)
        )
        shape = (0, len(dataset.topics), len(dataset.run_names))
        values = (
            np.stack([self._checked(name, confusion, dataset.topics, dataset) for name in measures])
            if measures
            else np.zeros(shape)
        )
        pooled_confusion = oc.pooled_confusion(confusion)
        if pooled_confusion.ndim == 3:  # runs x K x K: one "topic" per run
            pooled_confusion = pooled_confusion[:, None]
        pooled = Table({"run": list(dataset.run_names)})
        for name in measures:
            pooled[name] = self._checked(name, pooled_confusion, ["all items"], dataset)[0]
        masks = oc.convention_masks(confusion)
        topics = list(dataset.topics)
        if dataset.one_class_agreement == "nan":
            masks, values, topics = undefined_agreement(masks, measures, values, topics)
            for name, _, value, mask in oc.convention_masks(pooled_confusion):
                if name in ONE_CLASS_MEASURES and value == 1.0 and name in measures and mask.any():
                    pooled[name] = np.where(mask[:, 0], np.nan, pooled.column(name, float))
        extras = {"conventions": conventions_table(masks, measures), "pooled": pooled}
        return Scored(self.stack(measures, topics, dataset.run_names, values), extras)

    def _checked(self, name: str, confusion: np.ndarray, topics: Sequence[str], dataset) -> np.ndarray:
        """Measure ``name`` on runs x topics confusion matrices, as topics x runs; checked
        (:func:`~ordeval.tasks.registry.checked_scores`: NaN, a wrong shape or a raising measure is an error)."""
        measure = self.registry[name]
        scores = measure_values(measure, confusion)
        return checked_scores(measure, scores, dataset.run_names, topics, dataset.name).T


#: The measures whose 0/0 case "every label in one class" (convention value 1) the ``one_class_agreement:
#: nan`` option leaves undefined.
ONE_CLASS_MEASURES = ("kappa", "alpha_ORD", "alpha_INT")


def undefined_agreement(masks, measures: Sequence[str], values: np.ndarray, topics):
    """The ``one_class_agreement: nan`` option: kappa and the alphas are NaN (as scikit-learn and
    krippendorff give) instead of 1 where every label of a topic is in one class. The conventions table
    keeps counting those cells (with value NaN); the score stack leaves out the topics where a scored
    measure is NaN for some run, as every analysis needs a score per run on each of its topics.

    Returns the masks with the case's value None, and the values (measures x topics x runs) and topics
    that remain."""
    undefined = [m in ONE_CLASS_MEASURES and value == 1.0 for m, _, value, _ in masks]
    masks = [
        (m, case, None if flag else value, mask) for (m, case, value, mask), flag in zip(masks, undefined, strict=True)
    ]
    values = np.array(values, dtype=float)
    for (name, _, _, mask), flag in zip(masks, undefined, strict=True):
        if flag and name in measures:
            values[list(measures).index(name)][np.asarray(mask).T] = np.nan
    keep = ~np.isnan(values).any(axis=(0, 2))
    return masks, values[:, keep], [topic for topic, kept in zip(topics, keep, strict=True) if kept]


def conventions_table(masks, measures: Sequence[str]) -> Table:
    """Columns measure, case, value (None: the convention has no single value), cells (topic x run cells
    where it applied), runs (runs with at least one such cell); one row per case of each scored measure,
    including cases that never applied."""
    wanted = set(measures)
    rows = [(measure, case, value, mask) for measure, case, value, mask in masks if measure in wanted]
    rows.sort(key=lambda row: list(measures).index(row[0]))
    return Table(
        {
            "measure": [row[0] for row in rows],
            "case": [row[1] for row in rows],
            "value": [np.nan if row[2] is None else float(row[2]) for row in rows],
            "cells": [int(np.count_nonzero(row[3])) for row in rows],
            "runs": [int(np.asarray(row[3]).any(axis=1).sum()) for row in rows],
        }
    )


TASK = ClassificationTask()


def official_scores(
    name: str,
    spec: Mapping,
    canonical: Mapping[str, str | Path],
    measures: Sequence[str],
    pooled_path: str | Path,
    conventions_path: str | Path,
    plugins: Sequence[str] = (),
) -> int:
    """Data set ``name`` from its canonical files (``canonical``: gold, runs, arrays, provenance) under the official
    SemEval protocol, every one of ``measures`` on one confusion matrix over all items per run (``pooled_path``),
    and how often each measure's documented 0/0 conventions applied (``conventions_path``): the extras of
    :meth:`ClassificationTask.score` (rule official_scores). The number of runs."""
    from ordeval.tasks.plugins import load_plugins

    load_plugins(plugins)  # a plugin OC measure
    dataset = TASK.read_canonical(name, spec, {key: canonical[key] for key in TASK.canonical_files()})
    extras = TASK.score(dataset, measures).extras
    extras["pooled"].write(pooled_path)
    extras["conventions"].write(conventions_path)
    return len(dataset.run_names)
