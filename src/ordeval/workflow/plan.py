"""The planner: from a configuration to everything the pipeline will do, before any job runs.

:func:`plan` validates the configuration (schema, defaults, name policy), loads its plugins, resolves
each data set's task, scored measures and runs, the measures of every analysis, and checks everything
that can be checked before the first job (files exist, enough runs, subset sizes, known measures...).
The :class:`Plan` it returns answers the rules' questions: the data sets of each task, the measures each data
set scores and each analysis covers, the files each data set reads. The outputs are the rules' own
(``workflow/rules/*.smk``: each rule names its paths, each stage's target rule lists what the stage makes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ordeval.io.errors import ConfigError
from ordeval.io.names import check_name
from ordeval.tasks import all_tasks, get_task
from ordeval.tasks.plugins import load_plugins
from ordeval.tasks.sources import resolve_path, source_files, source_paths
from ordeval.workflow.config import parameters as config_parameters
from ordeval.workflow.config import validate
from ordeval.workflow.limits import check_limits
from ordeval.workflow.source_check import check_data_files

#: Analyses whose configuration section may list measures.
ANALYSES = ("agreement", "consistency", "significance", "popularity", "leaderboard", "topic_set_size")
#: Kendall's tau and its CI need more than 4 runs.
MIN_RUNS = 5


@dataclass
class DatasetPlan:
    """One data set as configured."""

    name: str
    task: str
    spec: dict
    classes: list[str]
    measures: list[str]  #: scored measures, registry order
    runs: list[str]  #: declared run names (those of an unreadable tsv source are missing)
    files: list[str]  #: input files
    topics: int | None  #: number of topics where known before reading the data


@dataclass
class Plan:
    config: dict
    workdir: Path
    data_root: Path
    datasets: dict[str, DatasetPlan]
    plugin_files: list[str] = field(default_factory=list)
    analysis_measures: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    dnkt_combinations: list[str] = field(default_factory=list)
    popularity_datasets: list[str] = field(default_factory=list)
    popularity_skipped: dict[str, str] = field(default_factory=dict)
    #: measures reported on one by one (``measure_reports``), with the task of each
    measure_reports: dict[str, str] = field(default_factory=dict)
    _replicated: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    # ------------------------------------------------------------------ basic facts
    @property
    def name(self) -> str:
        return self.config["name"]

    @property
    def results(self) -> str:
        """``results/<name>``: every output of this configuration goes below it."""
        return f"results/{self.name}"

    @property
    def tasks(self) -> list[str]:
        """The tasks of the configured data sets, in order of first appearance."""
        return list(dict.fromkeys(dataset.task for dataset in self.datasets.values()))

    def task_datasets(self, task: str) -> list[str]:
        return [name for name, dataset in self.datasets.items() if dataset.task == task]

    def suffix(self, task: str) -> str:
        return get_task(task).summary_suffix

    def scored(self, task: str) -> list[str]:
        """The measures scored on every data set of ``task`` (in the first data set's order)."""
        lists = [self.datasets[name].measures for name in self.task_datasets(task)]
        return [measure for measure in lists[0] if all(measure in other for other in lists[1:])]

    def input_files(self) -> list[str]:
        """Every input file of every data set, as :meth:`source_paths` gives it."""
        return [path for name in self.datasets for path in self.source_paths(name).values()]

    def constant_runs(self, datasets: list[str]) -> dict[str, dict[str, str]]:
        """{data set: {run: class}} of the runs that always return one class (``constant_class``)."""
        return {
            name: {s["name"]: s["class"] for s in self.datasets[name].spec["runs"] if s["type"] == "constant_class"}
            for name in datasets
        }

    def measures(self, analysis: str, task: str) -> list[str]:
        """The measures of ``analysis`` on the data sets of ``task``, in table order."""
        return self.analysis_measures[(analysis, task)]

    def dataset_measures(self, analysis: str, dataset: str) -> list[str]:
        return self.measures(analysis, self.datasets[dataset].task)

    def suffix_task(self, suffix: str) -> str:
        """The configured task whose summaries carry ``suffix``."""
        return next(task for task in self.tasks if self.suffix(task) == suffix)

    def suffix_measures(self, analysis: str, suffix: str) -> list[str]:
        """The measures of ``analysis`` on the data sets of the task whose summaries carry ``suffix``."""
        return self.measures(analysis, self.suffix_task(suffix))

    @property
    def replicated_datasets(self) -> list[str]:
        """The configured data sets the replicated papers print numbers for, where the configuration asks
        for the comparison (``replication: {compare: true}``); else none. The published numbers are read
        (and checked: :mod:`ordeval.results.published`) once, when the plan is made."""
        if self._replicated is None:
            self._replicated = []
            if self.config["replication"]["compare"]:
                from ordeval.results.replication import datasets_with_numbers

                published = set(datasets_with_numbers())
                self._replicated = [name for name in self.datasets if name in published]
        return self._replicated

    @property
    def dnkt_datasets(self) -> list[str]:
        """The data sets of the DNKT_M tables: those that score DNKT (and, planned, every M and DNKT_M)."""
        return [name for name, data in self.datasets.items() if "DNKT" in data.measures]

    def suffix_datasets(self, suffix: str) -> list[str]:
        """The data sets of the task whose summaries carry ``suffix`` (``""`` OQ, ``"_oc"`` OC)."""
        return [name for name in self.datasets if self.suffix(self.datasets[name].task) == suffix]

    def parameters(self) -> dict:
        """The values the analyses' settings give (:func:`ordeval.workflow.config.parameters`)."""
        return config_parameters(self.config)

    def source_paths(self, dataset: str) -> dict[str, str]:
        """The files data set ``dataset`` reads, by the entry of its configuration that reads each (``gold``,
        ``runs_0``, ``scores_1``...: :func:`ordeval.tasks.sources.source_paths`), each below the ``data_root`` as the
        configuration writes it (unless absolute): paths relative to the project folder wherever the configuration's
        are, so that the rules' inputs stay the same when the project moves."""
        root = str(self.config.get("data_root", "resources/"))
        return {key: str(path) for key, path in source_paths(dataset, self.datasets[dataset].spec, root).items()}

    def pdf_wanted(self) -> bool:
        """Config report: pdf: true, false, or auto (only where a TeX engine is installed)."""
        import shutil

        setting = self.config["report"]["pdf"]
        if setting == "auto":
            return bool(shutil.which("pdflatex"))
        return bool(setting)


# --------------------------------------------------------------------------- building the plan


def plan(config: Mapping, *, workdir: str | Path = ".", check_files: bool = True) -> Plan:
    """Validate ``config`` and work out everything the pipeline will do; every problem found is a
    ConfigError naming the configuration key."""
    plugins = config.get("plugins") if isinstance(config, Mapping) else None
    if isinstance(plugins, list) and len(plugins) <= 100 and all(isinstance(plugin, str) for plugin in plugins):
        load_plugins(plugins, base=workdir)  # first: a plugin may register a file format the schema then takes
    config = validate(config)
    check_limits(config)  # sizes first: nothing below lists a million runs
    workdir = Path(workdir)
    plugin_files = load_plugins(config["plugins"], base=workdir)
    data_root = resolve_path(config.get("data_root", "resources/"), workdir)

    datasets = {}
    known = set(_all_measures(config))  # once: a set per data set made planning quadratic in data sets
    for name, spec in config["datasets"].items():  # their names checked with the configuration
        datasets[name] = _dataset_plan(name, spec, config, data_root, known)
    _check_braces(workdir, datasets, data_root, plugin_files)
    if check_files:  # every input file there, the registered public ones unchanged (ordeval.workflow.source_check)
        check_data_files({name: d.spec for name, d in datasets.items()}, data_root, workdir)

    result = Plan(config, workdir, data_root, datasets, plugin_files)
    for task in result.tasks:
        for analysis in ANALYSES:
            result.analysis_measures[(analysis, task)] = _analysis_measures(config, analysis, task, result.scored(task))
    result.dnkt_combinations = _dnkt_combinations(config, result)
    result.measure_reports = _measure_reports(config, result)
    _plan_popularity(result)
    _check_consistency(result)
    result.replicated_datasets  # noqa: B018 - the published numbers checked before any job, not when a rule asks
    if check_files:  # the input files' contents, before any job (ordeval.workflow.source_check)
        from ordeval.workflow.source_check import check_contents

        check_contents(result)
    return result


def _check_braces(workdir: Path, datasets: Mapping, data_root: Path, plugin_files: list) -> None:
    """A ConfigError for a path Snakemake would take for a pattern of wildcards: the project folder (where it
    runs and the rules' inputs lie), an input file or a plugin file whose path holds ``{`` or ``}``. Snakemake
    reads braces in an input path as a wildcard, escaped (``{{``) or not, and stops in a WildcardError."""

    def braces(path) -> bool:
        return "{" in str(path) or "}" in str(path)

    folder = Path(workdir).resolve()
    if braces(folder):
        raise ConfigError(
            f"the project folder {folder} has '{{' or '}}' in its path, which Snakemake reads as a wildcard in "
            "every input path below it: move the project to a folder without braces"
        )
    for name, dataset in datasets.items():
        for path, entry in source_files(name, dataset.spec, data_root):
            if braces(path):
                raise ConfigError(
                    f"config key {entry}.path: {path}: '{{' or '}}' in the path of an input file, which Snakemake "
                    "reads as a wildcard (it cannot read such a file): rename the file or its folder"
                )
    for index, path in enumerate(plugin_files):
        if braces(path):
            raise ConfigError(
                f"config key plugins[{index}]: {path}: '{{' or '}}' in the path of a plugin file, which Snakemake "
                "reads as a wildcard: rename the file or its folder"
            )


def _dataset_plan(name: str, spec: dict, config: dict, data_root: Path, known: set[str]) -> DatasetPlan:
    task = get_task(spec["task"])
    registered = task.registry.names()
    listed = config.get("measures")
    own = task.dataset_measures(spec)
    if listed:
        unknown = [measure for measure in listed if measure not in known]
        if unknown:
            raise ConfigError(f"config key measures: unknown measure(s) {', '.join(unknown)}")
    if own is not None:
        for measure in own:
            check_name(measure, kind="measure", key=f"datasets.{name}.scores")
        measures = own
    elif listed:
        measures = [measure for measure in listed if measure in registered]
        if not measures:
            raise ConfigError(
                f"config key measures: lists no {task.name} measure, but data set {name} is {task.name}; "
                f"add some of: {', '.join(registered)}"
            )
    else:
        measures = task.registry.default_names()
    task.check_settings(name, spec)
    runs = task.declared_runs(spec, data_root)
    for run in runs:
        check_name(run, kind="run", key=f"datasets.{name}.runs")
    duplicates = sorted(run for run, count in Counter(runs).items() if count > 1)
    if duplicates:
        raise ConfigError(f"config key datasets.{name}.runs: run name(s) {', '.join(duplicates)} used twice")
    if len(runs) < MIN_RUNS and all(_runs_known(task, source, data_root) for source in spec["runs"]):
        raise ConfigError(
            f"config key datasets.{name}.runs: {len(runs)} runs; the analyses need at least {MIN_RUNS} "
            "(Kendall's tau and its confidence interval need more than 4 systems)"
        )
    classes = [str(label) for label in spec.get("classes", [])]
    return DatasetPlan(
        name=name,
        task=task.name,
        spec=spec,
        classes=classes,
        measures=list(measures),
        runs=runs,
        files=[str(path) for path, _ in source_files(name, spec, data_root)],
        topics=task.topic_count(spec, data_root),
    )


def _runs_known(task, source: dict, data_root: Path) -> bool:
    """Whether the run names of ``source`` are known before the data set is built (a canonical runs
    table that cannot be read yet is reported when it is built, not as too few runs)."""
    if not task.several_runs(source) or source.get("runs"):
        return True
    if source["type"] != "tsv":  # a plugin format of several runs: its names come with the data
        return False
    path = resolve_path(source["path"], data_root)
    return path.is_file() and bool(task.tsv_run_names(path))


def _analysis_measures(config: dict, analysis: str, task_name: str, scored: list[str]) -> list[str]:
    listed = config[analysis].get("measures")
    task = get_task(task_name)
    if not listed:  # the papers' lists, and what else is scored, but no measure scored only where named
        analysed = [name for name in scored if name not in task.registry or task.registry[name].meta_evaluated]
        return task.default_measures(analysis, analysed)
    known = set(task.registry.names()) or set(scored)  # precomputed scores: their data sets' measures
    mine = [measure for measure in listed if measure in known]
    unknown = [m for m in listed if m not in set(_all_measures(config))]
    if unknown:
        raise ConfigError(f"config key {analysis}.measures: unknown measure(s) {', '.join(unknown)}")
    unscored = [measure for measure in mine if measure not in scored]
    if unscored:
        raise ConfigError(
            f"config key {analysis}.measures: {', '.join(unscored)} not scored; add them to 'measures' "
            f"(scored {task_name} measures: {', '.join(scored)})"
        )
    if not mine:
        raise ConfigError(
            f"config key {analysis}.measures: lists no {task_name} measure, but there are {task_name} data sets"
        )
    return mine


def _measure_reports(config: dict, result: Plan) -> dict[str, str]:
    """{measure: task} of ``measure_reports``: each must be scored on the data sets of its task."""
    found = {}
    for index, measure in enumerate(config["measure_reports"]):
        tasks = [task for task in result.tasks if measure in result.scored(task)]
        if not tasks:
            raise ConfigError(
                f"config key measure_reports[{index}]: {measure!r} is not scored on any configured data set "
                f"(registered: {', '.join(_all_measures(config))})"
            )
        found[measure] = tasks[0]
    return found


def _all_measures(config: dict) -> list[str]:
    """Every measure a configuration can name: the registered ones of every task, and those of its
    precomputed-score data sets."""
    names = [m for task in all_tasks() for m in task.registry.names()]
    for spec in config["datasets"].values():
        names += [source["measure"] for source in spec.get("scores", [])]
    return names


def _dnkt_combinations(config: dict, result: Plan) -> list[str]:
    """The M of each DNKT_M table: those listed, else the papers' that are scored, on the data sets that
    score DNKT (:meth:`Plan.dnkt_datasets`)."""
    datasets = [data for data in result.datasets.values() if "DNKT" in data.measures]
    if not datasets:
        return []
    scored = set.intersection(*(set(data.measures) for data in datasets))
    listed = config["agreement"].get("dnkt_combinations")
    if listed:
        for measure in listed:
            missing = [m for m in ("DNKT", measure, f"DNKT_{measure}") if m not in scored]
            if missing:
                raise ConfigError(
                    f"config key agreement.dnkt_combinations: {measure} needs {', '.join(missing)} to be scored"
                )
        return list(listed)
    defaults = dict.fromkeys(m for data in datasets for m in get_task(data.task).dnkt_combinations)
    return [m for m in defaults if {"DNKT", m, f"DNKT_{m}"} <= scored]


def _plan_popularity(result: Plan) -> None:
    settings = result.config["popularity"]
    wanted = [settings["popularity_run"], settings["uniform_run"]]
    for name, dataset in result.datasets.items():
        missing = [run for run in wanted if run not in dataset.runs]
        if missing:
            result.popularity_skipped[name] = f"it has no run {' or '.join(missing)}"
        else:
            result.popularity_datasets.append(name)


def _check_consistency(result: Plan) -> None:
    settings = result.config["consistency"]
    size = settings["subset_size"]
    for name, dataset in result.datasets.items():
        if dataset.topics is None:
            continue
        if dataset.topics < 4:
            raise ConfigError(f"config key datasets.{name}: {dataset.topics} topics; consistency needs at least 4")
        if 2 * size > dataset.topics:
            raise ConfigError(
                f"config key consistency.subset_size: {size}, but data set {name} has {dataset.topics} topics; "
                f"two disjoint subsets of {size} need {2 * size}"
            )
    for (analysis, task), measures in result.analysis_measures.items():
        if analysis in ("agreement", "consistency", "significance") and len(measures) < 2:
            raise ConfigError(
                f"config key {analysis}.measures: {analysis} compares measures and needs at least 2 "
                f"{task} measures, got {', '.join(measures)}"
            )
