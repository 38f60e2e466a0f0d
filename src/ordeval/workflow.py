"""What each rule of the Snakemake workflow reads, writes and is told, worked out from a :class:`~ordeval.plan.Plan`.

A :class:`JobSpec` holds a rule's named inputs and outputs (lists of paths, or patterns with a
``{dataset}`` wildcard for the per-data-set rules), its ``params`` (everything its job needs, as plain
JSON-like data) and which of its outputs appear in the HTML report. The ``.smk`` files unpack these;
they decide nothing themselves. Tested without Snakemake (``tests/test_plan.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import catalogue
from .plan import CONDITIONS, Plan
from .resources import GROUPED, UNKNOWN_TOPICS, DataSize, estimate, grouped
from .tasks import get_task

#: Rows of a table shown in the HTML report (the whole table is attached as CSV).
REPORT_TABLE_ROWS = 200


@dataclass
class JobSpec:
    name: str
    inputs: dict[str, list[str] | str] = field(default_factory=dict)
    outputs: dict[str, list[str] | str] = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    #: output path -> (catalogue key, HTML report subcategory)
    reports: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: the job module (``ordeval.jobs.<job>``) that runs it; default: the rule's name
    job: str = ""
    #: what the job asks a scheduler for: threads, mem_mb, runtime (minutes); see ordeval.resources
    resources: dict[str, int] = field(default_factory=dict)

    def run(self, threads: int = 1):
        """Run the job in this process (what the rule's adapter does in a Snakemake job)."""
        import importlib

        from .jobs import Job, run_job

        module = importlib.import_module(f"ordeval.jobs.{self.job or self.name}")
        job = Job(self.name, dict(self.inputs), dict(self.outputs), dict(self.params), threads=threads)
        return run_job(module.run, job)


def _one(plan: Plan, entry_key: str, ext: str | None = None, **fields) -> str:
    paths = plan.paths(entry_key, (ext,) if ext else None, **fields)
    if len(paths) != 1:
        raise KeyError(f"catalogue entry {entry_key} with {fields} gives {len(paths)} paths")
    return paths[0]


def _flatten(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [path for item in value.values() for path in _flatten(item)]
    return [path for item in value for path in _flatten(item)]


class Specs:
    """The job specs of one plan (:func:`job_specs` builds them all)."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.results = plan.results
        self.reported = set(plan.reported_keys())

    # ------------------------------------------------------------------ helpers
    def stack(self, dataset: str) -> str:
        return _one(self.plan, "scores/stack", dataset=dataset)

    def measures_tsv(self, dataset: str) -> str:
        return _one(self.plan, "scores/measures", dataset=dataset)

    def provenance(self, dataset: str) -> str:
        return _one(self.plan, "data/provenance", dataset=dataset)

    def provenances(self, datasets) -> dict[str, str]:
        return {name: self.provenance(name) for name in datasets}

    def report(self, spec: JobSpec, key: str, paths, subcategory: str = "") -> None:
        """Mark ``paths`` of catalogue entry ``key`` for the HTML report (its reported format only)."""
        entry = catalogue.ENTRIES[key]
        if not entry.category or key not in self.reported:
            return
        for path in _flatten(paths):
            if path.endswith("." + entry.reported_format):
                spec.reports[path] = (key, subcategory)

    def groups(self, analysis: str):
        """(task, suffix, data sets, measures) of every task group."""
        for task in self.plan.tasks:
            yield task, self.plan.suffix(task), self.plan.task_datasets(task), self.plan.measures(analysis, task)

    # ------------------------------------------------------------------ resources
    def data_size(self, dataset: str) -> DataSize:
        """The size of a data set as the plan knows it (topics unknown before it is built: UNKNOWN_TOPICS)."""
        data = self.plan.datasets[dataset]
        return DataSize(
            topics=data.topics or UNKNOWN_TOPICS,
            runs=max(1, len(data.runs)),
            measures=max(1, len(data.measures)),
            classes=max(2, len(data.classes)),
        )

    def resources(self, job: str, dataset: str | None = None) -> dict[str, int]:
        """threads, mem_mb and runtime (minutes) of ``job`` (its job module's name) on ``dataset``, or
        over every data set (jobs without a data set wildcard)."""
        names = [dataset] if dataset is not None else list(self.plan.datasets)
        return self.resources_over(job, names)

    def resources_over(self, job: str, datasets, threads: int | None = None) -> dict[str, int]:
        """threads, mem_mb and runtime of ``job`` over the data sets ``datasets`` (one job for all) with
        at most ``threads`` (default: the configured threads)."""
        sizes = [self.data_size(name) for name in datasets]
        threads = self.plan.config["threads"] if threads is None else threads
        return estimate(job, sizes, self._settings(), threads=threads).as_dict()

    def _settings(self) -> dict:
        config = self.plan.config
        return {
            "consistency_trials": config["consistency"]["trials"],
            "consistency_hsd_trials": config["consistency"]["hsd_trials"],
            "significance_hsd_trials": config["significance"]["hsd_trials"],
            "conditions": len(CONDITIONS),
        }

    def units(self, job: str) -> list[tuple[str, JobSpec, list[str]]]:
        """(rule, spec with ``{dataset}`` patterns, data sets) of each rule of the per-data-set ``job``
        (:data:`ordeval.resources.GROUPED`): a rule per task for ``prepare_data``, per task and measure list
        for ``score_runs``, one for each kernel job."""
        if job == "prepare_data":
            return [(f"prepare_data_{task}", self.prepare_data(task), self.plan.task_datasets(task))
                    for task in self.plan.tasks]  # fmt: skip
        if job == "score_runs":
            return [(rule, self.score_runs(task, measures), datasets)
                    for rule, task, measures, datasets in self.score_groups()]  # fmt: skip
        return [(job, getattr(self, job)(), list(self.plan.datasets))]

    def grouped_datasets(self, job: str, datasets=None) -> tuple[list[str], list[str]]:
        """(grouped, alone): of ``datasets`` (default: all), those the per-data-set ``job`` runs in its rule's
        one job for the small data sets (``<rule>_group``), and those with a job each
        (:data:`ordeval.resources.GROUPED`)."""
        names = list(self.plan.datasets) if datasets is None else list(datasets)
        small = [name for name in names if grouped(job, self.data_size(name), self._settings())]
        return small, [name for name in names if name not in small]

    def group(self, job: str, rule: str | None = None) -> JobSpec:
        """The one job (``<rule>_group``) of the per-data-set rule ``rule`` (default: ``job``, the job module)
        for its small data sets: their inputs and outputs (the rule's patterns filled in) and, in
        ``params["members"]``, what each data set's run gets (inputs, outputs, params, log file), run in
        turn by :func:`ordeval.jobs.run_job`."""
        rule = rule or job
        pattern, datasets = next((spec, names) for name, spec, names in self.units(job) if name == rule)
        datasets = self.grouped_datasets(job, datasets)[0]
        spec = JobSpec(f"{rule}_group", {name: [] for name in pattern.inputs}, {name: [] for name in pattern.outputs},
                       {"members": []}, job=job)  # fmt: skip
        for dataset in datasets:
            member = _expanded(pattern, dataset)
            if job == "prepare_data":  # the data set's own files (the rule takes them from its wildcard)
                member.inputs["files"] = list(self.plan.datasets[dataset].files)
            for name, value in member.inputs.items():
                spec.inputs.setdefault(name, []).extend(_flatten(value))
            for name, value in member.outputs.items():
                spec.outputs[name] += _flatten(value)
            spec.reports.update(member.reports)
            spec.params["members"].append({
                "input": member.inputs, "output": member.outputs, "params": getattr(self, f"{job}_params")(dataset),
                "log": log_path(self.plan, job, wildcard=True).format(dataset=dataset),
            })  # fmt: skip
        # one thread: each data set's work is small, and the other core runs another job meanwhile
        spec.resources = self.resources_over(job, datasets, threads=1)
        return spec

    # ------------------------------------------------------------------ per-data-set rules (wildcards)
    def prepare_data(self, task: str) -> JobSpec:
        """The canonical files of a data set of ``task`` (named by the entry: gold, runs, scores, provenance)."""
        entries = get_task(task).canonical_entries
        return JobSpec(
            f"prepare_data_{task}",
            outputs={key.split("/")[1]: self.plan.path(key) for key in entries},
            job="prepare_data",
        )

    def prepare_data_params(self, dataset: str) -> dict:
        data = self.plan.datasets[dataset]
        return {
            "dataset": dataset,
            "task": data.task,
            "spec": data.spec,
            "data_root": str(self.plan.data_root),
            "seed": self.plan.config["seed"],
        }

    def score_groups(self) -> list[tuple[str, str, list[str], list[str]]]:
        """(rule name, task, measures, data sets): the data sets scored by one rule share a task and
        their measures (and so their outputs). The data sets of a task with a registry share its
        measures; precomputed-score data sets may each have their own."""
        groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        for name, data in self.plan.datasets.items():
            groups.setdefault((data.task, tuple(data.measures)), []).append(name)
        named = []
        for index, ((task, measures), datasets) in enumerate(groups.items()):
            first = next(i for i, (t, _) in enumerate(groups) if t == task)
            suffix = "" if index == first else f"_{index - first + 1}"
            named.append((f"score_runs_{task}{suffix}", task, list(measures), datasets))
        return named

    def score_runs(self, task: str, measures: list[str]) -> JobSpec:
        """Outputs of scoring a data set of ``task`` with ``measures``."""
        canonical = {key.split("/")[1]: self.plan.path(key) for key in get_task(task).canonical_entries}
        outputs = {
            "matrices": [self.plan.path("scores/matrix", measure=m) for m in measures],
            "means": self.plan.path("scores/means"),
            "measures": self.plan.path("scores/measures"),
            "stack": self.plan.path("scores/stack"),
        }
        for extra in get_task(task).extras:
            outputs[extra] = self.plan.path(f"scores/{extra}")
        spec = JobSpec("score_runs", inputs=canonical, outputs=outputs, job="score_runs")
        for key in ("scores/means", *(f"scores/{extra}" for extra in get_task(task).extras)):
            self.report(spec, key, self.plan.path(key), "{dataset}")
        return spec

    def score_runs_params(self, dataset: str) -> dict:
        data = self.plan.datasets[dataset]
        return {
            "dataset": dataset,
            "task": data.task,
            "spec": data.spec,
            "measures": data.measures,
            "plugins": self.plan.plugin_files,
        }

    def consistency_taus(self) -> JobSpec:
        spec = JobSpec(
            "consistency_taus",
            inputs={"stack": self.plan.path("scores/stack"), "provenance": self.plan.path("data/provenance")},
            outputs={
                "taus": [self.plan.path("consistency/taus", condition=c) for c in CONDITIONS],
                "summary": [self.plan.path("consistency/summary", "csv", condition=c) for c in CONDITIONS],
                "pairs": [self.plan.path("consistency/pairs", "csv", condition=c) for c in CONDITIONS],
            },
        )
        self.report(spec, "consistency/summary", spec.outputs["summary"], "{dataset}")
        self.report(spec, "consistency/pairs", spec.outputs["pairs"], "{dataset}")
        return spec

    def consistency_taus_params(self, dataset: str) -> dict:
        settings = self.plan.config["consistency"]
        return {
            "dataset": dataset,
            "measures": self.plan.dataset_measures("consistency", dataset),
            "trials": settings["trials"],
            "subset_size": settings["subset_size"],
            "hsd_trials": settings["hsd_trials"],
            "alpha": settings["alpha"],
            "seed": self.plan.config["seed"],
            "kendall": self.plan.config["kendall"],
            "conditions": list(CONDITIONS),
        }

    def significance_pvalues(self) -> JobSpec:
        return JobSpec(
            "significance_pvalues",
            inputs={"stack": self.plan.path("scores/stack")},
            outputs={
                "pvalues": self.plan.path("significance/pvalues"),
                "groups": self.plan.path("significance/groups"),
            },
        )

    def significance_pvalues_params(self, dataset: str) -> dict:
        return {
            "dataset": dataset,
            "seed": self.plan.config["seed"],
            "trials": self.plan.config["significance"]["hsd_trials"],
        }

    # ------------------------------------------------------------------ rules over all data sets
    def datasets_table(self) -> JobSpec:
        names = list(self.plan.datasets)
        spec = JobSpec(
            "datasets_table",
            inputs={"provenance": list(self.provenances(names).values())},
            outputs={"csv": _one(self.plan, "data/table", "csv"), "tex": _one(self.plan, "data/table", "tex")},
            params={"provenance": self.provenances(names)},
        )
        self.report(spec, "data/table", spec.outputs["csv"])
        return spec

    def agreement_tables(self) -> JobSpec:
        plan = self.plan
        datasets = {
            name: {
                "stack": self.stack(name),
                "provenance": self.provenance(name),
                "measures": plan.dataset_measures("agreement", name),
                "csv": _one(plan, "agreement/dataset", "csv", dataset=name),
                "tex": _one(plan, "agreement/dataset", "tex", dataset=name),
            }
            for name in plan.datasets
        }
        groups = [
            {
                "task": task,
                "datasets": names,
                "measures": measures,
                **{
                    f"{table}_{ext}": _one(plan, f"agreement/{table}", ext, suffix=suffix)
                    for table in ("mean", "similarity")
                    for ext in ("csv", "tex")
                },
            }  # fmt: skip
            for task, suffix, names, measures in self.groups("agreement")
        ]
        quantification = plan.task_datasets("quantification")
        dnkt = [
            {
                "combination": m,
                "datasets": quantification,
                "csv": _one(plan, "agreement/dnkt", "csv", combination=m),
                "tex": _one(plan, "agreement/dnkt", "tex", combination=m),
            }
            for m in plan.dnkt_combinations
        ]
        params = {
            "ci_level": plan.config["agreement"]["ci_level"],
            "kendall": plan.config["kendall"],
            "datasets": datasets,
            "groups": groups,
            "dnkt": dnkt,
        }
        outputs = {
            "datasets": [files[k] for files in datasets.values() for k in ("csv", "tex")],
            "groups": [
                group[k] for group in groups for k in ("mean_csv", "mean_tex", "similarity_csv", "similarity_tex")
            ],
            "dnkt": [item[k] for item in dnkt for k in ("csv", "tex")],
        }
        spec = JobSpec(
            "agreement_tables",
            inputs={
                "stacks": [self.stack(n) for n in plan.datasets],
                "provenance": list(self.provenances(plan.datasets).values()),
            },
            outputs={name: paths for name, paths in outputs.items() if paths},
            params=params,
        )
        for name, files in datasets.items():
            self.report(spec, "agreement/dataset", files["csv"], name)
        for group in groups:
            self.report(spec, "agreement/mean", group["mean_csv"], group["task"])
            self.report(spec, "agreement/similarity", group["similarity_csv"], group["task"])
        for item in dnkt:
            self.report(spec, "agreement/dnkt", item["csv"], "DNKT_" + item["combination"])
        return spec

    def agreement_figures(self) -> JobSpec:
        plan = self.plan
        groups = [
            {
                "task": task,
                "measures": measures,
                "mean_csv": _one(plan, "agreement/mean", "csv", suffix=suffix),
                "measures_tsv": self.measures_tsv(names[0]),
                "provenance": self.provenances(names),
                "pdf": _one(plan, "agreement/heatmap", "pdf", suffix=suffix),
                "png": _one(plan, "agreement/heatmap", "png", suffix=suffix),
            }
            for task, suffix, names, measures in self.groups("agreement")
        ]
        spec = JobSpec(
            "agreement_figures",
            inputs={
                "tables": [group["mean_csv"] for group in groups],
                "measures": [group["measures_tsv"] for group in groups],
                "provenance": list(self.provenances(plan.datasets).values()),
            },
            outputs={"figures": [group[k] for group in groups for k in ("pdf", "png")]},
            params={"groups": groups, "kendall": plan.config["kendall"]},
        )
        for group in groups:
            self.report(spec, "agreement/heatmap", group["png"], group["task"])
        return spec

    def _consistency_files(self, name: str) -> dict:
        plan = self.plan
        return {
            "provenance": self.provenance(name),
            "measures_tsv": self.measures_tsv(name),
            "measures": plan.dataset_measures("consistency", name),
            "conditions": {
                c: {
                    "taus": _one(plan, "consistency/taus", dataset=name, condition=c),
                    "summary": _one(plan, "consistency/summary", "csv", dataset=name, condition=c),
                    "tex": _one(plan, "consistency/summary", "tex", dataset=name, condition=c),
                    "pairs": _one(plan, "consistency/pairs", "csv", dataset=name, condition=c),
                    "pairs_tex": _one(plan, "consistency/pairs", "tex", dataset=name, condition=c),
                    "pdf": _one(plan, "consistency/figure", "pdf", dataset=name, condition=c),
                    "png": _one(plan, "consistency/figure", "png", dataset=name, condition=c),
                }
                for c in CONDITIONS
            },
        }

    def consistency_tables(self) -> JobSpec:
        plan = self.plan
        settings = plan.config["consistency"]
        datasets = {name: self._consistency_files(name) for name in plan.datasets}
        groups = [
            {
                "task": task,
                "datasets": names,
                "measures_tsv": self.measures_tsv(names[0]),
                "provenance": self.provenances(names),
                "conditions": {
                    c: {
                        "csv": _one(plan, "consistency/mean", "csv", condition=c, suffix=suffix),
                        "tex": _one(plan, "consistency/mean", "tex", condition=c, suffix=suffix),
                    }
                    for c in CONDITIONS
                },
            }
            for task, suffix, names, _ in self.groups("consistency")
        ]
        read = [
            f for files in datasets.values() for c in files["conditions"].values() for f in (c["summary"], c["pairs"])
        ]
        spec = JobSpec(
            "consistency_tables",
            inputs={
                "tables": read,
                "measures": [files["measures_tsv"] for files in datasets.values()],
                "provenance": list(self.provenances(plan.datasets).values()),
            },
            outputs={
                "tex": [
                    c[k]
                    for files in datasets.values()
                    for c in files["conditions"].values()
                    for k in ("tex", "pairs_tex")
                ],
                "means": [c[k] for group in groups for c in group["conditions"].values() for k in ("csv", "tex")],
            },
            params={
                "datasets": datasets,
                "groups": groups,
                "trials": settings["trials"],
                "hsd_trials": settings["hsd_trials"],
                "alpha": settings["alpha"],
            },
        )
        for group in groups:
            for condition in group["conditions"].values():
                self.report(spec, "consistency/mean", condition["csv"], group["task"])
        return spec

    def consistency_figures(self) -> JobSpec:
        plan = self.plan
        datasets = {name: self._consistency_files(name) for name in plan.datasets}
        spec = JobSpec(
            "consistency_figures",
            inputs={
                "taus": [c["taus"] for files in datasets.values() for c in files["conditions"].values()],
                "measures": [files["measures_tsv"] for files in datasets.values()],
                "provenance": list(self.provenances(plan.datasets).values()),
            },
            outputs={
                "figures": [
                    c[k] for files in datasets.values() for c in files["conditions"].values() for k in ("pdf", "png")
                ]
            },
            params={"datasets": datasets},
        )
        for name, files in datasets.items():
            for condition in files["conditions"].values():
                self.report(spec, "consistency/figure", condition["png"], name)
        return spec

    def _significance_files(self, name: str) -> dict:
        plan = self.plan
        return {
            "pvalues": _one(plan, "significance/pvalues", dataset=name),
            "groups": _one(plan, "significance/groups", dataset=name),
            "measures_tsv": self.measures_tsv(name),
            "provenance": self.provenance(name),
            "sso_csv": _one(plan, "significance/sso", "csv", dataset=name),
            "sso_tex": _one(plan, "significance/sso", "tex", dataset=name),
            "curves_pdf": _one(plan, "significance/curves", "pdf", dataset=name),
            "curves_png": _one(plan, "significance/curves", "png", dataset=name),
        }

    def _significance_groups(self) -> list[dict]:
        plan = self.plan
        groups = []
        for task, suffix, names, measures in self.groups("significance"):
            outputs = {}
            for key, stem in (
                ("significance/power", "power"),
                ("significance/counts", "counts"),
                ("significance/contradictions", "contradictions"),
                ("significance/grouped", "grouped"),
            ):
                for ext in ("csv", "tex"):
                    outputs[f"{stem}_{ext}"] = _one(plan, key, ext, suffix=suffix)
            groups.append({
                "task": task, "datasets": names, "measures": measures, "outputs": outputs,
                "pdf": _one(plan, "significance/curves_all", "pdf", suffix=suffix),
                "png": _one(plan, "significance/curves_all", "png", suffix=suffix),
            })  # fmt: skip
        return groups

    def _significance_params(self, datasets: dict, groups: list[dict]) -> dict:
        settings = self.plan.config["significance"]
        return {"datasets": datasets, "groups": groups, "alpha": settings["alpha"], "trials": settings["hsd_trials"]}

    def significance_tables(self) -> JobSpec:
        plan = self.plan
        datasets = {name: self._significance_files(name) for name in plan.datasets}
        groups = self._significance_groups()
        spec = JobSpec(
            "significance_tables",
            inputs={
                "pvalues": [f["pvalues"] for f in datasets.values()],
                "groups": [f["groups"] for f in datasets.values()],
                "measures": [f["measures_tsv"] for f in datasets.values()],
                "provenance": [f["provenance"] for f in datasets.values()],
            },
            outputs={
                "sso": [f[k] for f in datasets.values() for k in ("sso_csv", "sso_tex")],
                "tables": [path for group in groups for path in group["outputs"].values()],
            },
            params=self._significance_params(datasets, groups),
        )
        for name, files in datasets.items():
            self.report(spec, "significance/sso", files["sso_csv"], name)
        for group in groups:
            for key, stem in (
                ("significance/power", "power"),
                ("significance/counts", "counts"),
                ("significance/contradictions", "contradictions"),
                ("significance/grouped", "grouped"),
            ):
                self.report(spec, key, group["outputs"][f"{stem}_csv"], group["task"])  # fmt: skip
        return spec

    def significance_figures(self) -> JobSpec:
        plan = self.plan
        datasets = {name: self._significance_files(name) for name in plan.datasets}
        groups = self._significance_groups()
        spec = JobSpec(
            "significance_figures",
            inputs={
                "pvalues": [f["pvalues"] for f in datasets.values()],
                "measures": [f["measures_tsv"] for f in datasets.values()],
                "provenance": [f["provenance"] for f in datasets.values()],
            },
            outputs={
                "curves": [f[k] for f in datasets.values() for k in ("curves_pdf", "curves_png")],
                "all": [group[k] for group in groups for k in ("pdf", "png")],
            },
            params=self._significance_params(datasets, groups),
        )
        for name, files in datasets.items():
            self.report(spec, "significance/curves", files["curves_png"], name)
        for group in groups:
            self.report(spec, "significance/curves_all", group["png"], group["task"])
        return spec

    def _popularity_common(self) -> dict:
        plan = self.plan
        settings = plan.config["popularity"]
        compared = plan.popularity_datasets
        return {
            "popularity_run": settings["popularity_run"],
            "uniform_run": settings["uniform_run"],
            "tie_tolerance": settings["tie_tolerance"],
            "ci_level": settings["ci_level"],
            "skipped": dict(plan.popularity_skipped),
            "provenance": self.provenances(plan.datasets),
            "measures": plan.measures("popularity", plan.datasets[compared[0]].task) if compared else [],
        }

    def popularity_tables(self) -> JobSpec:
        plan = self.plan
        datasets = {
            name: {
                "stack": self.stack(name),
                "scatter_csv": _one(plan, "popularity/scatter_table", "csv", dataset=name),
                "scatter_tex": _one(plan, "popularity/scatter_table", "tex", dataset=name),
            }
            for name in plan.popularity_datasets
        }
        outputs = {
            "csv": _one(plan, "popularity/table", "csv"),
            "tex": _one(plan, "popularity/table", "tex"),
            "deltas": _one(plan, "popularity/deltas", "csv"),
        }
        scatter = [f[k] for f in datasets.values() for k in ("scatter_csv", "scatter_tex")]
        spec = JobSpec(
            "popularity_tables",
            inputs={
                "stacks": [f["stack"] for f in datasets.values()],
                "provenance": list(self.provenances(plan.datasets).values()),
            },
            outputs={**outputs, **({"scatter": scatter} if scatter else {})},
            params={**self._popularity_common(), "datasets": datasets},
        )
        self.report(spec, "popularity/table", outputs["csv"])
        self.report(spec, "popularity/deltas", outputs["deltas"])
        for name, files in datasets.items():
            self.report(spec, "popularity/scatter_table", files["scatter_csv"], name)
        return spec

    def popularity_figures(self) -> JobSpec:
        plan = self.plan
        common = self._popularity_common()
        examples = {"NMD", "RNOD"} <= set(common["measures"])
        datasets = {}
        for name in plan.popularity_datasets:
            files = {
                "stack": self.stack(name),
                "scatter_csv": _one(plan, "popularity/scatter_table", "csv", dataset=name),
                "scatter_pdf": _one(plan, "popularity/scatter", "pdf", dataset=name),
                "scatter_png": _one(plan, "popularity/scatter", "png", dataset=name),
            }
            if examples and plan.datasets[name].task == "quantification":
                files.update(
                    gold=_one(plan, "data/gold", dataset=name),
                    runs=_one(plan, "data/runs", dataset=name),
                    arrays=_one(plan, "data/arrays", dataset=name),
                    classes=plan.datasets[name].classes,
                )
            datasets[name] = files
        read = [f[k] for f in datasets.values() for k in ("stack", "scatter_csv", "gold", "runs", "arrays") if k in f]
        outputs = {
            "examples_pdf": _one(plan, "popularity/examples", "pdf"),
            "examples_png": _one(plan, "popularity/examples", "png"),
        }
        scatter = [f[k] for f in datasets.values() for k in ("scatter_pdf", "scatter_png")]
        spec = JobSpec(
            "popularity_figures",
            inputs={"files": read, "provenance": list(self.provenances(plan.datasets).values())},
            outputs={**outputs, **({"scatter": scatter} if scatter else {})},
            params={**common, "datasets": datasets},
        )
        self.report(spec, "popularity/examples", outputs["examples_png"])
        for name, files in datasets.items():
            self.report(spec, "popularity/scatter", files["scatter_png"], name)
        return spec

    def _leaderboard_files(self, name: str) -> dict:
        plan = self.plan
        return {
            "stack": self.stack(name),
            "pvalues": _one(plan, "significance/pvalues", dataset=name),
            "provenance": self.provenance(name),
            "measures_tsv": self.measures_tsv(name),
            "measures": plan.dataset_measures("leaderboard", name),
            **{ext: _one(plan, "leaderboard/table", ext, dataset=name) for ext in ("csv", "tex", "md")},
            **{ext: _one(plan, "leaderboard/figure", ext, dataset=name) for ext in ("pdf", "png")},
        }

    def _leaderboard_params(self, datasets: dict) -> dict:
        config = self.plan.config
        return {
            "datasets": datasets,
            "alpha": config["significance"]["alpha"],
            "trials": config["significance"]["hsd_trials"],
            "ci_level": config["leaderboard"]["ci_level"],
        }

    def leaderboard_tables(self) -> JobSpec:
        datasets = {name: self._leaderboard_files(name) for name in self.plan.datasets}
        spec = JobSpec(
            "leaderboard_tables",
            inputs={"files": [f[k] for f in datasets.values() for k in ("stack", "pvalues", "provenance")]},
            outputs={"tables": [f[k] for f in datasets.values() for k in ("csv", "tex", "md")]},
            params=self._leaderboard_params(datasets),
        )
        for name, files in datasets.items():
            self.report(spec, "leaderboard/table", files["csv"], name)
        return spec

    def leaderboard_figures(self) -> JobSpec:
        datasets = {name: self._leaderboard_files(name) for name in self.plan.datasets}
        spec = JobSpec(
            "leaderboard_figures",
            inputs={"files": [f[k] for f in datasets.values() for k in ("csv", "measures_tsv", "provenance")]},
            outputs={"figures": [f[k] for f in datasets.values() for k in ("pdf", "png")]},
            params=self._leaderboard_params(datasets),
        )
        for name, files in datasets.items():
            self.report(spec, "leaderboard/figure", files["png"], name)
        return spec

    def _classification_params(self) -> dict:
        plan = self.plan
        config = plan.config
        names = plan.task_datasets("classification")
        datasets = {}
        for name in names:
            spec = plan.datasets[name].spec
            datasets[name] = {
                "agreement": _one(plan, "agreement/dataset", "csv", dataset=name),
                "consistency": {
                    c: _one(plan, "consistency/summary", "csv", dataset=name, condition=c) for c in CONDITIONS
                },
                "pvalues": _one(plan, "significance/pvalues", dataset=name),
                "stack": self.stack(name),
                "measures_tsv": self.measures_tsv(name),
                "provenance": self.provenance(name),
                "gold": _one(plan, "data/gold", dataset=name),
                "pooled": _one(plan, "scores/pooled", dataset=name),
                "conventions": _one(plan, "scores/conventions", dataset=name),
                "topics": plan.datasets[name].topics,
                "constant_runs": {s["name"]: s["class"] for s in spec["runs"] if s["type"] == "constant_class"},
            }
        suffix = plan.suffix("classification")
        return {
            "datasets": datasets,
            "measures": plan.measures("agreement", "classification"),
            "significance_measures": plan.measures("significance", "classification"),
            "power_csv": _one(plan, "significance/power", "csv", suffix=suffix),
            "kendall": config["kendall"],
            "subset_size": config["consistency"]["subset_size"],
            "trials": config["consistency"]["trials"],
            "hsd_trials": config["consistency"]["hsd_trials"],
            "alpha": config["consistency"]["alpha"],
            "significance_alpha": config["significance"]["alpha"],
            "significance_trials": config["significance"]["hsd_trials"],
        }

    def classification_tables(self) -> JobSpec:
        plan = self.plan
        params = self._classification_params()
        outputs = {}
        for key, stem in (
            ("agreement", "agreement"),
            ("consistency", "consistency"),
            ("properties", "properties"),
            ("kappa", "kappa"),
            ("pooled", "pooled"),
            ("conventions", "conventions"),
        ):
            for ext in ("csv", "tex"):
                outputs[f"{stem}_{ext}"] = _one(plan, f"classification/{key}", ext)  # fmt: skip
        read = [f[k] for f in params["datasets"].values()
                for k in ("agreement", "stack", "measures_tsv", "provenance", "gold", "pooled",
                          "conventions")]  # fmt: skip
        read += [p for f in params["datasets"].values() for p in f["consistency"].values()] + [params["power_csv"]]
        spec = JobSpec("classification_tables", inputs={"files": read}, outputs=outputs, params=params)
        for key in ("agreement", "consistency", "properties", "kappa", "pooled", "conventions"):
            self.report(spec, f"classification/{key}", outputs[f"{key}_csv"])
        return spec

    def classification_figures(self) -> JobSpec:
        plan = self.plan
        params = self._classification_params()
        figure = {
            "datasets": {
                name: {k: files[k] for k in ("pvalues", "measures_tsv", "provenance")}
                for name, files in params["datasets"].items()
            },
            "measures": params["significance_measures"],
            "alpha": params["significance_alpha"],
            "trials": params["significance_trials"],
        }
        outputs = {ext: _one(plan, "classification/figure1", ext) for ext in ("pdf", "png")}
        read = [f[k] for f in figure["datasets"].values() for k in ("pvalues", "measures_tsv", "provenance")]
        spec = JobSpec("classification_figures", inputs={"files": read}, outputs=outputs, params=figure)
        self.report(spec, "classification/figure1", outputs["png"])
        return spec

    # ------------------------------------------------------------------ provenance and reports
    def hashed_outputs(self) -> list[str]:
        """Every output the manifest records the SHA-256 of: those of all jobs but the manifest and the
        LaTeX report built from it (sorted)."""
        jobs = all_jobs(self, with_manifest=False)
        skipped = {"report_tex", "report_pdf"}
        return sorted(
            {path for (rule, _), spec in jobs.items() if rule not in skipped for path in _flatten(spec.outputs)}
        )

    def manifest(self, commit: str) -> JobSpec:
        plan = self.plan
        spec = JobSpec(
            "manifest",
            inputs={
                "sources": [path for data in plan.datasets.values() for path in data.files],
                "provenance": list(self.provenances(plan.datasets).values()),
                "outputs": self.hashed_outputs(),
            },
            outputs={"manifest": _one(plan, "report/manifest")},
            params={
                "config": plan.config,
                "input_files": {name: data.files for name, data in plan.datasets.items()},
                "commit": commit,
            },
        )
        self.report(spec, "report/manifest", spec.outputs["manifest"])
        return spec

    def report_captions(self) -> JobSpec:
        """Rule report_captions: the caption of every reported entry, and of every reported table its own
        caption with the table's contents (so that the HTML report shows the table, not only a download)."""
        plan = self.plan
        captions = {plan.caption_path(key): plan.caption(key) for key in plan.reported_keys()}
        tables = plan.table_captions()
        return JobSpec(
            "report_captions",
            inputs={"tables": [path for table in tables.values() for path in table["tables"].values()]},
            outputs={"captions": list(captions), "tables": list(tables)},
            params={"captions": captions, "tables": tables, "max_rows": REPORT_TABLE_ROWS},
        )

    def report_items(self) -> list[tuple[str, str]]:
        """(section, path) of every table fragment and figure, in catalogue order."""
        items = []
        for entry in catalogue.entries():
            if not entry.section:
                continue
            for path in self.plan.paths(entry.key):
                if path.endswith((".tex", ".pdf", ".png")) and not path.startswith(f"{self.results}/report/"):
                    items.append((entry.section, path))
        return items

    def report_tex(self) -> JobSpec:
        plan = self.plan
        config = plan.config
        items = self.report_items()
        consistency, significance = config["consistency"], config["significance"]
        parameters = (
            f"seed {config['seed']}; Kendall's tau-{config['kendall']}; ranking agreement CIs at level "
            f"{config['agreement']['ci_level']}; consistency with {consistency['trials']} random splits per condition "
            f"(halves, and two subsets of {consistency['subset_size']} topics), randomised Tukey HSD with "
            f"B = {consistency['hsd_trials']} and alpha = {consistency['alpha']}; significance tests by the "
            f"randomised Tukey HSD with B = {significance['hsd_trials']} and alpha = {significance['alpha']}"
        )
        return JobSpec(
            "report_tex",
            inputs={
                "outputs": [path for _, path in items],
                "provenance": list(self.provenances(plan.datasets).values()),
                "manifest": _one(plan, "report/manifest"),
            },
            outputs={"tex": _one(plan, "report/tex")},
            params={
                "items": [list(item) for item in items],
                "name": plan.name,
                "seed": config["seed"],
                "parameters": parameters,
                "provenance": self.provenances(plan.datasets),
            },
        )

    def report_pdf(self) -> JobSpec:
        spec = JobSpec(
            "report_pdf",
            inputs={"tex": _one(self.plan, "report/tex"), "outputs": [path for _, path in self.report_items()]},
            outputs={"pdf": _one(self.plan, "report/pdf")},
        )
        self.report(spec, "report/pdf", spec.outputs["pdf"])
        return spec


def _concrete(value, dataset: str):
    if isinstance(value, str):
        return value.format(dataset=dataset)
    return [path.format(dataset=dataset) for path in value]


def _expanded(spec: JobSpec, dataset: str) -> JobSpec:
    """A per-data-set spec with its ``{dataset}`` wildcard filled in."""
    return JobSpec(
        spec.name,
        {name: _concrete(value, dataset) for name, value in spec.inputs.items()},
        {name: _concrete(value, dataset) for name, value in spec.outputs.items()},
        spec.params,
        {path.format(dataset=dataset): (key, sub.format(dataset=dataset)) for path, (key, sub) in spec.reports.items()},
        spec.job,
        spec.resources,
    )


def all_jobs(
    specs: Specs, commit: str = "unknown", *, with_manifest: bool = True
) -> dict[tuple[str, str | None], JobSpec]:
    """Every job of the plan, as the Snakefile defines them: (rule, data set or None) -> its spec with
    concrete paths (and, for per-data-set rules, the params of that data set)."""
    plan = specs.plan
    found: dict[tuple[str, str | None], JobSpec] = {}
    for job in GROUPED:
        for rule, pattern, datasets in specs.units(job):
            small, alone = specs.grouped_datasets(job, datasets)
            if small:
                found[(f"{rule}_group", None)] = specs.group(job, rule)
            for dataset in alone:
                spec = _expanded(pattern, dataset)
                spec.params = getattr(specs, f"{job}_params")(dataset)
                spec.resources = specs.resources(job, dataset)
                found[(rule, dataset)] = spec
    rules = ["datasets_table", "agreement_tables", "agreement_figures", "consistency_tables", "consistency_figures",
             "significance_tables", "significance_figures", "popularity_tables", "popularity_figures",
             "leaderboard_tables", "leaderboard_figures", "report_captions", "report_tex", "report_pdf"]  # fmt: skip
    if "classification" in plan.tasks:
        rules += ["classification_tables", "classification_figures"]
    for rule in rules:
        found[(rule, None)] = getattr(specs, rule)()
    if with_manifest:
        found[("manifest", None)] = specs.manifest(commit)
    for (_, dataset), spec in found.items():
        if dataset is None and not spec.resources:
            spec.resources = specs.resources(spec.job or spec.name)
    return found


def log_path(plan: Plan, job: str, wildcard: bool = False) -> str:
    """The log file of a job (``results/<name>/logs/<job>[/<dataset>].log``)."""
    return f"{plan.results}/logs/{job}/{{dataset}}.log" if wildcard else f"{plan.results}/logs/{job}.log"
