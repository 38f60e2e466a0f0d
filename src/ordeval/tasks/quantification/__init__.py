"""Ordinal quantification (OQ): per topic, a gold distribution over ordered classes and each run's
estimated distribution (docs/methods.md, sections 1 and 2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.tasks.base import Scored, Task
from ordeval.tasks.quantification import canonical_tables, data, formats, readers, simulate
from ordeval.tasks.registry import checked_scores, registry_on_first_use

__all__ = ["TASK", "REGISTRY", "register", "register_format", "QuantificationTask"]


register_format = formats.register_format

__getattr__ = registry_on_first_use(__name__)

#: The measure lists of Sakai's papers on ordinal quantification (ACL-IJCNLP 2021; CIKM 2021 LQ workshop; the
#: RNOD-variants/DNKT study): the analyses' defaults.
AGREEMENT_MEASURES = ("NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD")
SIGNIFICANCE_MEASURES = ("NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD")


class QuantificationTask(Task):
    name = "quantification"
    short = "OQ"
    title = "ordinal quantification"
    order = 0
    implied = True  # the only task before tasks existed: a data set that names none is one of this task
    description = "ordinal quantification: a gold distribution per topic, an estimated distribution per run"
    summary_suffix = ""
    data_modules = ("ordeval.tasks.quantification.data",)
    scoring_modules = ("ordeval.tasks.quantification.measures",)
    property_module = "ordeval.tasks.quantification.properties"
    analysis_defaults = {
        "agreement": AGREEMENT_MEASURES,
        "consistency": None,
        "significance": SIGNIFICANCE_MEASURES,
        "popularity": SIGNIFICANCE_MEASURES,
        "leaderboard": SIGNIFICANCE_MEASURES,
        "topic_set_size": SIGNIFICANCE_MEASURES,
    }
    known_measures = frozenset(AGREEMENT_MEASURES) | {"DNKT_JSD", "DNKT_NMD", "DNKT_RNOD"}
    dnkt_combinations = ("JSD", "NMD", "RNOD")  # the measures M of the DNKT_M tables of the RNOD-variants study
    published_datasets = (
        "Sem16T4E",
        "Sem17T4E",
        *(f"{collection}-DQ-{score}" for collection in ("STC3", "DialEval1") for score in "AES"),
        "pooled",  # pooled over the eight (Sakai, CIKM 2021 LQ workshop, Table 3)
    )
    gold_topic_column = {"semeval_dist": 0, "semeval_labels": 1, "tsv": 0}
    formats = formats.FORMATS
    schema_file = Path(__file__).with_name("schema.yaml")
    canonical_columns = {"gold": canonical_tables.GOLD_COLUMNS, "run": canonical_tables.RUN_COLUMNS}
    schema_sources = {"gold": "gold_source", "run": "run_source"}
    baseline_types = data.BASELINE_SOURCES
    profile_keys, profile_optional = simulate.PROFILE_KEYS, simulate.PROFILE_OPTIONAL
    latent_needs_profiles = True

    @property
    def registry(self):
        from ordeval.tasks.quantification.measures import REGISTRY

        return REGISTRY

    # ------------------------------------------------------------------ data (the steps of Task.build)
    def read_gold(self, name: str, spec: Mapping, path: Path) -> data.Gold:
        gold = data.read_file(spec["gold"], "gold", readers.class_labels(spec["classes"]), path)[""]
        return gold.topics, gold.values

    def simulate_gold(self, name: str, spec: Mapping, rng) -> data.Gold:
        return data.simulate_gold(name, spec, rng) or super().simulate_gold(name, spec, rng)

    def read_run_file(self, name: str, spec: Mapping, source: Mapping, path: Path, entry: str) -> dict:
        found = data.read_file(source, "run", readers.class_labels(spec["classes"]), path)
        return {run or source["name"]: values for run, values in found.items()}  # one run: the name the source gives

    def pair_run(self, spec: Mapping, source: Mapping, run, gold: data.Gold, run_name: str):
        return readers.align_to_gold(run, gold[0], run_name)

    def baseline(self, name: str, spec: Mapping, source: Mapping, gold: data.Gold, entry: str) -> tuple:
        return data.baseline(name, spec, source, gold, entry)

    def simulate_runs(self, name: str, spec: Mapping, source: Mapping, gold: data.Gold, system_rng, noise_rng, entry):
        return data.simulate_runs(source, gold, system_rng, noise_rng)

    def dataset(self, name: str, spec: Mapping, gold: data.Gold, run_names, runs, provenance) -> data.Dataset:
        classes = readers.class_labels(spec["classes"])
        return data.Dataset(name, classes, gold[0], run_names, provenance, gold[1], runs)

    def source_defaults(self, kind: str | None) -> Mapping:
        """The defaults of the simulators' keyword arguments."""
        import inspect

        function = {
            "simulate_tweets": simulate.simulate_tweet_gold,
            "simulate_annotators": simulate.simulate_annotator_gold,
            "simulate": simulate.simulate_runs,
        }.get(kind)
        if function is None:
            return {}
        parameters = inspect.signature(function).parameters.items()
        return {name: value.default for name, value in parameters if value.default is not inspect.Parameter.empty}

    def size_hints(self, spec: Mapping) -> dict:
        """The ratings of an annotator simulation: topics x annotators x scores."""
        gold = spec.get("gold", {})
        if gold.get("type") != "simulate_annotators":
            return {}
        return {
            "ratings": int(gold["topics"]) * int(gold.get("annotators", 1)) * len(gold.get("scores", [gold["score"]]))
        }

    def write_canonical(self, dataset: data.Dataset, files: Mapping) -> None:
        data.write_canonical(dataset, files["gold"], files["runs"], files["provenance"], files["arrays"])

    def read_canonical(self, name: str, spec: Mapping, files: Mapping) -> data.Dataset:
        return data.read_canonical(
            name, spec["classes"], files["gold"], files["runs"], files.get("provenance"), files.get("arrays")
        )

    def simulated_run_names(self, source: Mapping) -> list[str]:
        return data.simulated_run_names(source)

    def tsv_run_names(self, path: Path) -> list[str]:
        return canonical_tables.tsv_run_names(path)

    def score(self, dataset: data.Dataset, measures: Sequence[str]) -> Scored:
        """Score every run on every topic: measure(estimate, gold) over runs x topics x K."""
        from ordeval.tasks.quantification.measures import score_runs

        scores = score_runs(list(measures), dataset.runs, dataset.gold)
        checked = [
            checked_scores(self.registry[name], scores[name], dataset.run_names, dataset.topics, dataset.name)
            for name in measures
        ]
        values = np.stack([matrix.T for matrix in checked])  # measures x topics x runs
        return Scored(self.stack(measures, dataset.topics, dataset.run_names, values))


TASK = QuantificationTask()
