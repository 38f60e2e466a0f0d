"""What a task is: the seam between the data of one kind of evaluation and the analyses.

A :class:`Task` says what the items of a data set are, and owns its readers (``build``, the canonical
tables), its measure registry and its per-topic scoring. Its output is a :class:`Scored`: a
:class:`~ordeval.tasks.stack.ScoreStack` (topics x runs per measure, with each measure's direction) plus
any task-specific tables; the analyses see only the stack.

Two tasks ship with ordeval: ``quantification`` (a gold distribution per topic) and
``classification`` (one gold label per item, items grouped into topics).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import ConfigError, InputError, MeasureError
from ordeval.io.table import Table
from ordeval.tasks.registry import Measure, Registry
from ordeval.tasks.stack import ScoreStack


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


@dataclass(frozen=True)
class FileFormat:
    """A file format of a task: its reader, what a file of it can be, and what else the reader needs.

    ``read(path, classes, source)`` returns ``{"": table}`` for a file holding one gold or one run (the
    run takes the source's ``name``), or ``{run name: table}`` for a file holding several runs (a task that pairs
    runs with the gold by topic reads tables with ``topics`` and their ``locations``, "line 3": what ``ordeval
    validate`` pairs and names); ``source``
    is the data set's source entry (``path``, ``name``, and keys of ``needs`` such as ``score``) with
    ``role`` ``"gold"`` or ``"run"``. Errors are :class:`~ordeval.io.errors.InputError` naming file and line."""

    name: str
    read: Callable[[Path, Sequence, Mapping], dict]
    roles: tuple[str, ...]  #: "gold", "run"
    description: str
    needs: tuple[str, ...] = ()  #: source keys the reader needs besides ``path`` (e.g. ``score``)
    json: bool = False  #: a JSON file (its problems are reported per record)
    several_runs: bool = False  #: a runs file holds several runs (their names in it; ``runs`` picks some)


class FileFormats(dict):
    """A task's file formats by name: the one place a format is registered (its task's readers, the
    configuration schema's source types, the command line's ``--format`` choices and the docs take it
    from here)."""

    def register(
        self,
        name: str,
        *,
        roles: Sequence[str],
        description: str,
        needs: Sequence[str] = (),
        json: bool = False,
        several_runs: bool = False,
    ):
        """Decorator: register ``read`` as format ``name`` (see :class:`FileFormat`)."""

        def add(read):
            if name in self:
                raise ValueError(f"file format {name!r} is registered already")
            self[name] = FileFormat(name, read, tuple(roles), description, tuple(needs), json, several_runs)
            return read

        return add

    def names(self, role: str | None = None) -> list[str]:
        """The formats (that a file of ``role`` can have), in registration order."""
        return [name for name, fmt in self.items() if role is None or role in fmt.roles]


class Task(ABC):
    """A kind of evaluation data. Subclasses set the class attributes and implement the methods."""

    name: str  #: configuration value of a data set's ``task``
    short: str  #: OQ, OC
    title: str  #: in captions: "ordinal quantification"
    description: str
    order: int = 100  #: where the task comes in listings (registry, documentation, command line)
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
    #: The task-specific catalogue entries the task makes (``Entry.task_specific``): its canonical files
    #: besides ``data/provenance`` (``data/<key>``, given to :meth:`write_canonical` and
    #: :meth:`read_canonical` by key), the tables of :attr:`extras` (``scores/<key>``), and any output of its
    #: own. Nothing outside the task's package names a task.
    outputs: frozenset[str] = frozenset({"data/gold", "data/runs"})

    def canonical_files(self) -> tuple[str, ...]:
        """The keys of the files that preparing a data set writes (``gold``, ``runs``, ``provenance``...)."""
        return (*(key.split("/", 1)[1] for key in sorted(self.outputs) if key.startswith("data/")), "provenance")

    def source_defaults(self, kind: str | None) -> Mapping:
        """The defaults of the parameters of a source of type ``kind`` (a simulator's), for the checks of
        ``<x>_min`` <= ``<x>_max`` against a default (:mod:`ordeval.workflow.config_checks`). Default: none."""
        return {}

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

    def dataset_measures(self, spec: Mapping) -> list[str] | None:
        """The measures a data set of this task has by itself (None: those of the task's registry)."""
        return None

    def check_settings(self, name: str, spec: Mapping) -> None:
        """Raise a ConfigError naming the key for settings of data set ``name`` that cannot be met (e.g.
        simulation parameters), before any job runs. Default: nothing beyond the schema."""
        return None

    # ------------------------------------------------------------------ data
    @abstractmethod
    def build(self, name: str, spec: Mapping, data_root: str | Path, seed: int) -> TaskData:
        """Read, compute or simulate the gold and every run of data set ``name``; validate; write nothing."""

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


# --------------------------------------------------------------------------- calling a measure


def measure_values(measure: Measure, *arguments) -> np.ndarray:
    """``measure(*arguments)`` as a float array. A measure that raises, calls ``sys.exit`` or returns
    anything but numbers (None, strings, objects, complex numbers) is a :class:`~ordeval.io.errors.MeasureError`
    naming it and the file that defines it (what it raised is chained: ``ORDEVAL_DEBUG=1`` shows it)."""
    try:
        result = measure(*arguments)
    except MeasureError:  # a combination measure's component: named already
        raise
    except SystemExit as stop:
        raise measure_error(measure, f"called sys.exit({stop.code!r}) while scoring") from stop
    except Exception as error:
        raise measure_error(measure, f"raised {type(error).__name__}: {error}") from error
    if result is None:
        raise measure_error(measure, "returned None, not scores")
    try:
        values = np.asarray(result)
    except ValueError as error:  # e.g. a ragged list
        raise measure_error(measure, f"returned something that is not an array of scores ({error})") from error
    if values.dtype.kind not in "biuf":
        what = "strings" if values.dtype.kind in "US" else f"values of type {values.dtype}"
        raise measure_error(measure, f"returned {what}, not numbers")
    return values.astype(float, copy=False)


def checked_scores(
    measure: Measure, values: np.ndarray, runs: Sequence[str], topics: Sequence[str], dataset: str
) -> np.ndarray:
    """``values``, the runs x topics scores of ``measure`` on data set ``dataset``, once checked: one finite
    number per run and topic, else a :class:`~ordeval.io.errors.MeasureError` naming the measure and the first
    run and topic without one."""
    expected = (len(runs), len(topics))
    if values.shape != expected:
        shape = "a single number" if values.ndim == 0 else f"shape {values.shape}"
        raise measure_error(
            measure,
            f"returned {shape} on data set {dataset!r}; expected one score per run and topic, shape {expected} "
            f"({len(runs)} runs x {len(topics)} topics)",
        )
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        run, topic = bad[0]
        raise measure_error(
            measure,
            f"gave {values[run, topic]} for run {runs[run]!r} on topic {topics[topic]!r} of data set {dataset!r} "
            f"({len(bad)} of {values.size} scores not finite); a measure must give a finite number for every run "
            "and topic (with a documented convention where it is 0/0)",
        )
    from ordeval.stats import MAX_SCORE

    large = np.argwhere(np.abs(values) > MAX_SCORE)
    if large.size:
        run, topic = large[0]
        raise measure_error(
            measure,
            f"gave {values[run, topic]} for run {runs[run]!r} on topic {topics[topic]!r} of data set {dataset!r}, "
            f"beyond {MAX_SCORE:g} in magnitude ({len(large)} of {values.size} scores): the statistics square scores",
        )
    return values


def measure_error(measure: Measure, problem: str) -> MeasureError:
    """A MeasureError about ``measure``, naming the file that defines its function."""
    import inspect

    try:
        source = inspect.getsourcefile(measure.function) or measure.function.__module__
    except TypeError:  # not a Python function (a builtin, a callable object without source)
        source = getattr(measure.function, "__module__", None) or repr(measure.function)
    path = Path(source)
    with suppress(OSError):  # shown relative to the current folder where it is inside it
        path = path.relative_to(Path.cwd()) if path.is_absolute() and path.is_relative_to(Path.cwd()) else path
    return MeasureError(path, None, f"{measure.task} measure {measure.name!r} {problem}")


def team_count(systems: int, team_size: int) -> int:
    """Teams of ``team_size`` consecutive simulated systems (the last may be smaller): ceil(systems / team_size)."""
    return -(-systems // team_size)


def registry_on_first_use(package: str):
    """A module ``__getattr__`` for a task package: its ``REGISTRY`` and ``register`` come from
    ``<package>.measures``, imported on first use, so that jobs that only read or write data (and do
    not score) do not depend on the measures' code."""

    def __getattr__(name: str):
        if name in ("REGISTRY", "register"):
            import importlib

            return getattr(importlib.import_module(f"{package}.measures"), name)
        raise AttributeError(name)

    return __getattr__


def build_runs(
    dataset: str, spec: Mapping, runs_of: Callable[[Mapping, int, str], Iterator[tuple[str, object, dict]]]
) -> tuple[list[str], np.ndarray, dict[str, dict]]:
    """Run names, the runs' values stacked (runs first) and each run's provenance record, from the run sources
    of data set ``dataset``'s configuration in order: ``runs_of(source, index, entry)`` yields each (run name,
    values, record) of one source (``entry``: ``runs[<index>]``). A run name used twice is an error naming the
    source, and so is a data set without runs."""
    names: list[str] = []
    values: list = []
    records: dict[str, dict] = {}
    for index, source in enumerate(spec["runs"]):
        entry = f"runs[{index}]"
        for run_name, run, record in runs_of(source, index, entry):
            if run_name in records:
                raise ConfigError(f"datasets.{dataset}.{entry}: run name {run_name!r} is used twice")
            names.append(run_name)
            values.append(run)
            records[run_name] = record
    if not names:
        raise ConfigError(f"datasets.{dataset}.runs: no runs")
    return names, np.stack(values), records


def file_record(source: Mapping, data_root: str | Path) -> dict:
    """The provenance of a source read from a file: its type, its path as the configuration gives it (relative
    to ``data_root`` unless absolute: the same bytes wherever the data and the checkout lie) and its SHA-256."""
    from ordeval.io.files import sha256

    record = {"source": "file", "type": source["type"], "path": str(source["path"])}
    record["sha256"] = sha256(resolve_path(source["path"], data_root))
    if "score" in source:
        record["score"] = source["score"]
    return record


def resolve_path(path: str, data_root: str | Path) -> Path:
    """A source path: absolute as given, otherwise relative to ``data_root``."""
    candidate = Path(path)
    return candidate if candidate.is_absolute() else Path(data_root) / candidate


def source_entries(spec: Mapping) -> Iterator[tuple[str, Mapping]]:
    """(config entry, source) of the gold and every run source of a data set's spec."""
    if "gold" in spec:
        yield "gold", spec["gold"]
    for index, source in enumerate(spec.get("runs", [])):
        yield f"runs[{index}]", source


def source_files(name: str, spec: Mapping, data_root: str | Path) -> Iterator[tuple[Path, str]]:
    """(path, config entry that asks for it) for every file the data set ``name`` reads."""
    for entry, source in source_entries(spec):
        if "path" in source:
            yield resolve_path(source["path"], data_root), f"datasets.{name}.{entry}"
    for index, source in enumerate(spec.get("scores", [])):
        yield resolve_path(source["path"], data_root), f"datasets.{name}.scores[{index}]"


def _not_regular(path: Path) -> str:
    """`` (a folder)``, `` (a FIFO (named pipe), not a regular file)`` for a path that exists and is not a regular
    file; "" for a missing one."""
    from ordeval.io.files import file_kind

    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    kind = file_kind(mode)
    return " (a folder)" if kind == "a folder" else f" ({kind}, not a regular file)"


def check_files_exist(datasets: Mapping[str, Mapping], data_root: str | Path) -> None:
    """One line about the input files that are not there: a ``data_root`` that is no folder (when files are
    to be read below it), else the missing files (or folders given as files), the first three with the config
    entry that asked for each, and how many more."""
    listed = [(path, entry) for name, spec in datasets.items() for path, entry in source_files(name, spec, data_root)]
    root = Path(data_root)
    below = [path for path, _ in listed if path.is_relative_to(root)]
    if below and not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "no such folder"
        files = f"{len(below)} file{'s' if len(below) != 1 else ''}"
        raise ConfigError(
            f"config key data_root: {str(data_root)!r}: {what}; the configuration reads {files} below "
            f"it (e.g. {below[0].relative_to(root)})"
        )
    missing = [f"{path}{_not_regular(path)} (asked for by {entry})" for path, entry in listed if not path.is_file()]
    if missing:
        more = f"; and {len(missing) - 3} more" if len(missing) > 3 else ""
        files = f"{len(missing)} input file{'s' if len(missing) != 1 else ''}"
        raise ConfigError(f"data_root {str(data_root)!r} lacks {files}: {'; '.join(missing[:3])}{more}")
