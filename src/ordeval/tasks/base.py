"""What a task is: the seam between the data of one kind of evaluation and the analyses.

A :class:`Task` says what the items of a data set are, and owns its readers (``build``, the canonical
tables), its measure registry and its per-topic scoring. Its output is a :class:`Scored`: a
:class:`~ordeval.tasks.stack.ScoreStack` (topics x runs per measure, with each measure's direction) plus
any task-specific tables; the analyses see only the stack.

Two tasks ship with ordeval: ``quantification`` (a gold distribution per topic) and
``classification`` (one gold label per item, items grouped into topics). What is known of a data set's source
files before it is built (their paths, whether they are there, their provenance record) is in
:mod:`ordeval.tasks.sources`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.provenance import dataset_origin
from ordeval.io.table import Table
from ordeval.stats.seeding import stream
from ordeval.tasks.formats import FileFormats
from ordeval.tasks.registry import Registry
from ordeval.tasks.sources import check_source_files, file_record, resolve_path
from ordeval.tasks.stack import ScoreStack

#: The canonical files of every data set, whatever its task: the gold and the runs as tables (``gold.tsv``,
#: ``runs.tsv``: what a reader opens), the same as arrays (``arrays.npz``: what scoring reads while they mirror the
#: tables), and where they come from (``provenance.json``). A task says what each holds
#: (:meth:`Task.write_canonical`).
CANONICAL_FILES = ("gold", "runs", "arrays", "provenance")


@dataclass
class TaskData:
    """A prepared data set: topics, run names and provenance; subclasses add the gold and the runs."""

    name: str
    classes: list[str]
    topics: list[str]
    run_names: list[str]
    provenance: dict = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return self.provenance.get("origin", "synthetic")


@dataclass
class Scored:
    """What scoring a data set gives: the score stack, and task-specific tables written beside it
    (``scores/<dataset>/<key>.tsv``), e.g. the classification task's counts of 0/0 conventions."""

    stack: ScoreStack
    extras: dict[str, Table] = field(default_factory=dict)


class Task(ABC):
    """A kind of evaluation data. Subclasses set the class attributes and implement the methods."""

    name: str  #: configuration value of a data set's ``task``
    short: str  #: OQ, OC
    title: str  #: in captions: "ordinal quantification"
    description: str
    order: int = 100  #: where the task comes in listings (registry, documentation, command line)
    #: The task of a data set whose configuration names none (one task at most: :func:`ordeval.tasks.default_task`).
    implied: bool = False
    registry: Registry
    #: Appended to the names of outputs that combine the data sets of this task (e.g. ``mean_oc.csv``);
    #: empty for quantification, whose outputs keep the names they had before other tasks existed.
    summary_suffix: str
    #: The file formats (a source's ``type`` that reads a file): see :class:`FileFormats`.
    formats: FileFormats = FileFormats()
    #: The task's section of the configuration schema: a YAML file with ``dataset`` (the keys of a data set of
    #: this task: ``properties``, ``required``) and ``$defs`` (its sources' definitions), which
    #: :func:`ordeval.workflow.config.schema_with_formats` adds to the schema.
    schema_file: Path | None = None
    #: The definitions of the task's gold and run sources (``$defs`` names) that its file formats extend.
    schema_sources: Mapping[str, str] = {}

    @property
    def schema(self) -> Mapping:
        """The task's section of the configuration schema (:attr:`schema_file`; empty without one)."""
        if self.schema_file is None:
            return {"dataset": {}, "$defs": {}}
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: 10x faster, at every Snakemake start
        return yaml.load(Path(self.schema_file).read_text(encoding="utf-8"), Loader=loader)

    #: Keys (with their JSON schema) that every run source of a file format may have besides its own.
    run_file_options: Mapping[str, Mapping] = {}
    #: The columns of the canonical long tables (the ``tsv`` format, and a data frame given to the API):
    #: ``gold`` and ``run``.
    canonical_columns: Mapping[str, tuple[str, ...]] = {}
    #: Source types that build a baseline from the gold.
    baseline_types: frozenset[str]

    @property
    def file_types(self) -> frozenset[str]:
        """Source types that read a file: the registered formats."""
        return frozenset(self.formats)

    extras: tuple[str, ...] = ()  #: keys of :attr:`Scored.extras` that scoring always writes
    #: Modules that building / scoring a data set runs (imported lazily by the task), so that the
    #: rules can declare them: editing a measure re-runs scoring, not data preparation.
    data_modules: tuple[str, ...] = ()
    scoring_modules: tuple[str, ...] = ()
    #: The task scores runs with the measures of its registry (False: its data sets bring their scores).
    scores_runs: bool = True

    def canonical_files(self) -> tuple[str, ...]:
        """The keys of the files that preparing a data set writes (:data:`CANONICAL_FILES`), the same for every
        task (rule prepare_data: ``data/<dataset>/<key>.<ext>``)."""
        return CANONICAL_FILES

    def source_defaults(self, kind: str | None) -> Mapping:
        """The defaults of the parameters of a source of type ``kind`` (a simulator's), for the checks of
        ``<x>_min`` <= ``<x>_max`` against a default (:mod:`ordeval.workflow.config_checks`). Default: none."""
        return {}

    #: The keys of a profile of a simulated system fitted to real runs (the ``profiles`` of a ``simulate`` run
    #: source: :mod:`ordeval.tasks.latent`), those it may have besides, and whether the simulator's ``latent``
    #: model needs profiles (else it derives its systems from its other settings).
    profile_keys: tuple[str, ...] = ("noise_sd", "edges")
    profile_optional: tuple[str, ...] = ()
    latent_needs_profiles: bool = False

    def size_hints(self, spec: Mapping) -> dict:
        """What the configuration of a data set says of its size besides topics and runs, for the limits
        checked before any work (:mod:`ordeval.workflow.limits`): ``measures`` where the data set brings its own (else
        the configuration's), ``items`` (labels per run), ``ratings`` (simulated annotations)."""
        return {}

    #: The trailing axes of one case a measure of the task scores (a distribution: 1; a confusion matrix: 2).
    case_axes: int = 1
    #: How a run pairs with its gold: ``topics`` (a run gives every topic of the gold) or ``items`` (a run
    #: labels every item of the gold, by id or position): what ``ordeval validate`` checks.
    pairing: str = "topics"

    def checked_reader(self, read: Callable, role: str, name: str, gold=None, align: str = "id") -> Callable:
        """What ``ordeval validate`` reads a ``role`` file with: ``read`` (path -> {run: the reader's result}),
        and with ``gold`` the pairing of each run with it. Default: ``read`` (topics are paired by name)."""
        return read

    #: The measures each analysis (``agreement``, ``consistency``, ``significance``...) takes where the configuration
    #: names none, in order (None: every scored measure, in scoring order): for the built-in tasks, the lists of
    #: Sakai's papers. Every scored measure that :attr:`known_measures` lacks (one a plugin registers) follows.
    analysis_defaults: Mapping[str, Sequence[str] | None] = {}
    #: The measures the default lists know (:meth:`default_measures`).
    known_measures: frozenset[str] = frozenset()
    #: The measures M whose DNKT_M combination the DNKT tables show, where the configuration lists none.
    dnkt_combinations: tuple[str, ...] = ()
    #: The data sets of the replicated papers that are of this task, as the published numbers name them
    #: (``ordeval/published/published.tsv``; ``pooled``: numbers pooled over the task's data sets).
    published_datasets: tuple[str, ...] = ()

    def default_measures(self, analysis: str, scored: Sequence[str]) -> list[str]:
        """The measures of ``analysis`` where the configuration names none: its default list
        (:attr:`analysis_defaults`) restricted to the ``scored`` measures, then every scored measure the lists do
        not know (:attr:`known_measures`), in scoring order; so a measure added to the registry (in ordeval, in a
        plugin, by an installed package) shows up beside the papers' in every analysis."""
        base = self.analysis_defaults.get(analysis)
        listed = [name for name in (base if base is not None else scored) if name in scored]
        return listed + [name for name in scored if name not in self.known_measures and name not in listed]

    #: The module that defines the properties of the task's measures (its ``PROPERTIES``, a
    #: :class:`~ordeval.tasks.measure_properties.Properties`), imported by name when they are checked: only the
    #: property checks depend on it (:func:`ordeval.workflow.modules.discovered`), not the jobs that build or score.
    property_module: str | None = None

    def properties(self) -> Mapping:
        """The properties of the task's measures that ordeval checks on each of them ({name:
        :class:`~ordeval.tasks.measure_properties.Property`}, from :attr:`property_module`; none without one)."""
        if self.property_module is None:
            return {}
        import importlib

        return importlib.import_module(self.property_module).PROPERTIES

    def dataset_measures(self, spec: Mapping) -> list[str] | None:
        """The measures a data set of this task has by itself (None: those of the task's registry)."""
        return None

    def check_settings(self, name: str, spec: Mapping) -> None:
        """Raise a ConfigError naming the key for settings of data set ``name`` that cannot be met (e.g.
        simulation parameters), before any job runs. Default: nothing beyond the schema."""
        return None

    # ------------------------------------------------------------------ data
    def build(self, name: str, spec: Mapping, files: Mapping[str, str | Path], seed: int) -> TaskData:
        """Read, compute or simulate the gold and every run of data set ``name``; validate; write nothing.

        ``files`` holds the path of every source entry that reads a file, by key (``gold``, ``runs_0``, ``runs_1``,
        ...: :func:`~ordeval.tasks.sources.source_paths`); nothing else is read. The steps, the task supplying what
        differs:

        1. the files are there (:func:`~ordeval.tasks.sources.check_source_files`);
        2. the gold, read (:meth:`read_gold`) or simulated (:meth:`simulate_gold`, from its corpus's random stream);
        3. the runs, in the configuration's order: a file's (:meth:`read_run_file`) paired with the gold
           (:meth:`pair_run`), an organiser baseline computed from the gold (:meth:`baseline`), simulated systems
           (:meth:`simulate_runs`); a run name given twice is an error before its run is paired;
        4. the provenance of the gold and of each run (a file's path as configured and its SHA-256:
           :func:`~ordeval.tasks.sources.file_record`), and the data set (:meth:`dataset`)."""
        check_source_files(name, spec, files)
        source = spec["gold"]
        if source["type"] in self.formats:
            gold = self.read_gold(name, spec, Path(files["gold"]))
            gold_record = file_record(source, files["gold"])
        else:
            gold = self.simulate_gold(name, spec, stream(seed, source.get("corpus", name), "gold"))
            gold_record = {"source": "simulated", **source, "seed": seed}
        run_names, runs, run_records = self._build_runs(name, spec, gold, files, seed)
        provenance = {
            "dataset": name,
            "origin": dataset_origin(gold_record["source"], run_records),
            "description": spec.get("description", ""),
            "gold": gold_record,
            "runs": run_records,
            "simulated_runs": [run for run, record in run_records.items() if record["source"] == "simulated"],
        }
        return self.dataset(name, spec, gold, run_names, runs, provenance)

    def _build_runs(self, name: str, spec: Mapping, gold, files: Mapping, seed: int) -> tuple:
        """Run names, the runs' values stacked (runs first) and each run's provenance record, from the run sources
        of data set ``name`` in order. A run name used twice is an error naming the source (before the run is
        paired with the gold), and so is a data set without runs."""
        values: list = []
        records: dict[str, dict] = {}
        for index, source in enumerate(spec["runs"]):
            for run_name, run, record in self._source_runs(name, spec, source, index, gold, files, seed, records):
                values.append(run)
                records[run_name] = record
        if not records:
            raise ConfigError(f"datasets.{name}.runs: no runs")
        return list(records), np.stack(values), records

    def _source_runs(self, name: str, spec: Mapping, source: Mapping, index: int, gold, files, seed, taken):
        """Each (run name, values, provenance record) of run source ``runs[index]``, by its type; a name among
        ``taken`` is an error."""
        entry = f"runs[{index}]"

        def named(run_name: str) -> str:
            if run_name in taken:
                raise ConfigError(f"datasets.{name}.{entry}: run name {run_name!r} is used twice")
            return run_name

        kind = source["type"]
        if kind in self.formats:
            path = Path(files[f"runs_{index}"])
            tables = self.read_run_file(name, spec, source, path, entry)
            options = {key: source.get(key, option.get("default")) for key, option in self.run_file_options.items()}
            record = {**file_record(source, path), **options}
            for run_name, table in tables.items():
                yield named(run_name), self.pair_run(spec, source, table, gold, run_name), record
        elif kind in self.baseline_types:
            values, record = self.baseline(name, spec, source, gold, entry)
            yield named(source["name"]), values, record
        elif kind == "simulate":
            system_rng = stream(seed, source.get("corpus", name), "systems", index)
            values = self.simulate_runs(name, spec, source, gold, system_rng, stream(seed, name, "runs", index), entry)
            record = {"source": "simulated", **source, "seed": seed}
            for run_name, run in zip(self.simulated_run_names(source), values, strict=True):
                yield named(run_name), run, record
        else:  # the schema admits no other type
            raise ConfigError(f"datasets.{name}.{entry}: unknown source type {kind!r}")

    def read_gold(self, name: str, spec: Mapping, path: Path):
        """The gold of data set ``name`` from the file of its ``gold`` entry (what the other steps of
        :meth:`build` take as ``gold``)."""
        raise NotImplementedError(f"task {self.name} reads no gold file")

    def simulate_gold(self, name: str, spec: Mapping, rng):
        """The gold of data set ``name`` simulated by its ``gold`` entry, from ``rng`` (the random stream of
        its ``corpus``, by default the data set: data sets of one corpus share their gold)."""
        raise ConfigError(f"datasets.{name}.gold: unknown source type {spec['gold']['type']!r}")

    def read_run_file(self, name: str, spec: Mapping, source: Mapping, path: Path, entry: str) -> Mapping:
        """{run name: what the file holds of the run} of the run file ``path`` of ``source`` (the configuration's
        ``entry``, ``runs[<index>]``): a file of one run under the name the source gives, a file of several runs
        the runs it names (all by default); errors name the file and line."""
        raise NotImplementedError(f"task {self.name} reads no run file")

    def pair_run(self, spec: Mapping, source: Mapping, run, gold, run_name: str):
        """The values of run ``run_name`` (what :meth:`read_run_file` gave) paired with ``gold``: every topic or item
        of the gold, in its order; a topic or item missing or extra is an error naming the file."""
        raise NotImplementedError(f"task {self.name} reads no run file")

    def baseline(self, name: str, spec: Mapping, source: Mapping, gold, entry: str) -> tuple:
        """(values, provenance record) of the organiser baseline ``source`` (a type of :attr:`baseline_types`)
        computed from ``gold``."""
        raise ConfigError(f"datasets.{name}.{entry}: unknown source type {source['type']!r}")

    def simulate_runs(self, name: str, spec: Mapping, source: Mapping, gold, system_rng, noise_rng, entry: str):
        """The values of the systems a ``simulate`` run source yields (as many as
        :meth:`simulated_run_names`): their settings from ``system_rng`` (the stream of the source's corpus,
        shared by the data sets of one corpus), their outputs from ``noise_rng`` (the data set's)."""
        raise ConfigError(f"datasets.{name}.{entry}: task {self.name} simulates no runs")

    def dataset(self, name: str, spec: Mapping, gold, run_names: list[str], runs, provenance: dict) -> TaskData:
        """The data set of ``name`` from what :meth:`build` made: its gold, run names, runs stacked (runs
        first) and provenance."""
        raise NotImplementedError(f"task {self.name} builds its data sets itself")

    @abstractmethod
    def write_canonical(self, data: TaskData, files: Mapping[str, str | Path]) -> None:
        """Write the canonical files (``files``: key of :meth:`canonical_files` -> path), each atomically."""

    @abstractmethod
    def read_canonical(self, name: str, spec: Mapping, files: Mapping[str, str | Path]) -> TaskData:
        """The data set from its canonical files (the output of :meth:`write_canonical`; ``files`` as there)."""

    @abstractmethod
    def simulated_run_names(self, source: Mapping) -> list[str]:
        """Names of the runs a ``simulate`` run source yields."""

    @abstractmethod
    def tsv_run_names(self, path: Path) -> list[str]:
        """Names of the runs in a canonical runs table (used before the data set is built)."""

    def topic_count(self, spec: Mapping, data_root: str | Path) -> int | None:
        """The number of topics of a data set, where it is known before the data set is built: from a
        simulation's settings, or by counting the distinct topics of a line-based gold file (None
        where the file cannot be read: building the data set then reports the problem)."""
        gold = spec["gold"]
        if "topics" in gold:
            return int(gold["topics"])
        column = self.gold_topic_column.get(gold["type"])
        if column is None or "path" not in gold:
            return None
        from ordeval.io.parsing import iter_lines

        topics = set()
        try:  # line by line: the memory of the topics, not of the file, which may be huge or not text
            for number, line in iter_lines(resolve_path(gold["path"], data_root)):
                if line.strip() and len(fields := line.split("\t")) > column and (gold["type"] != "tsv" or number > 1):
                    topics.add(fields[column])
        except (OSError, InputError):
            return None
        return len(topics) or None

    #: For line-based gold formats, the tab-separated column holding the topic.
    gold_topic_column: Mapping[str, int] = {}

    def describe(self, data: TaskData) -> dict:
        """Facts for the data-description table: counts of topics, runs, classes (and items)."""
        return {"topics": len(data.topics), "runs": len(data.run_names), "classes": len(data.classes)}

    # ------------------------------------------------------------------ scoring
    @abstractmethod
    def score(self, data: TaskData, measures: Sequence[str]) -> Scored:
        """Every run scored on every topic with each of ``measures`` (registry names)."""

    def stack(self, measures: Sequence[str], topics, runs, values) -> ScoreStack:
        """A ScoreStack of this task's ``measures``, with directions and display names from the registry."""
        entries = [self.registry[name] for name in measures]
        return ScoreStack(
            list(measures),
            list(topics),
            list(runs),
            values,
            [entry.lower_is_better for entry in entries],
            [entry.display for entry in entries],
            self.name,
            [entry.properties.get("latex", "") for entry in entries],
        )

    # ------------------------------------------------------------------ configuration
    def declared_runs(self, spec: Mapping, data_root: str | Path) -> list[str]:
        """Names of the runs the data set's configuration yields, known without building it."""
        names: list[str] = []
        for source in spec["runs"]:
            if source["type"] == "simulate":
                names += self.simulated_run_names(source)
            elif not self.several_runs(source):
                names.append(source["name"])
            elif source.get("runs"):
                names += source["runs"]
            elif source["type"] == "tsv":
                path = resolve_path(source["path"], data_root)
                if path.is_file():
                    names += self.tsv_run_names(path)
            # another format of several runs, without ``runs``: its names are known once it is read
        return names

    def several_runs(self, source: Mapping) -> bool:
        """Whether ``source`` reads a file of several runs (a format registered with ``several_runs``)."""
        found = self.formats.get(source["type"])
        return found is not None and found.several_runs
