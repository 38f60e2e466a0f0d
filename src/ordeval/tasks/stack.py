"""Score matrices: the seam between a task and the analyses.

A task scores every run on every topic with each of its measures; everything after that -- agreement,
consistency, significance, discriminative power, SSO, Popularity vs Uniform, leaderboards, reports --
sees only a :class:`ScoreStack`: measures x topics x runs scores plus, per measure, its direction
(``lower_is_better``) and display name. No analysis asks which task produced it.

On disk, a data set's scores are (``results/<name>/scores/<dataset>/``):

* ``<measure>.tsv`` -- topics x runs: column ``topic``, then one column per run (full precision);
* ``means.tsv`` -- column ``run``, then the mean score of each measure;
* ``measures.tsv`` -- ``measure, display, lower_is_better, task, latex``: what the analyses need to know;
* ``stack.npz`` -- all of it in one binary file, which the analysis jobs read (fast), with the SHA-256 of the
  tables it was made from;
* ``scores.npz`` -- in the pipeline, the scores as the scoring job computed them, which each table is written from.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.files import sha256, write_atomically, write_text
from ordeval.io.floattext import float_rows
from ordeval.io.table import Table
from ordeval.tasks.score_tables import MEASURE_COLUMNS as MEASURE_COLUMNS
from ordeval.tasks.score_tables import SUMMARY_FILES as SUMMARY_FILES
from ordeval.tasks.score_tables import is_score_table as is_score_table
from ordeval.tasks.score_tables import read_measure_table as read_measure_table
from ordeval.tasks.score_tables import read_measure_tables as read_measure_tables
from ordeval.tasks.score_tables import read_score_matrices as read_score_matrices
from ordeval.tasks.score_tables import read_score_matrix as read_score_matrix
from ordeval.tasks.score_tables import score_matrix_header as score_matrix_header


@dataclass
class ScoreStack:
    """Score matrices of several measures on one data set: ``values[m]`` is topics x runs."""

    measures: list[str]
    topics: list[str]
    runs: list[str]
    values: np.ndarray  # measures x topics x runs
    lower_is_better: list[bool] = field(default_factory=list)  # per measure; default: all lower is better
    display: list[str] = field(default_factory=list)  # per measure; default: the names
    task: str = ""
    latex: list[str] = field(default_factory=list)  # per measure: trusted LaTeX markup, "" for none

    def __post_init__(self):
        self.values = np.asarray(self.values, dtype=float)
        if not self.lower_is_better:
            self.lower_is_better = [True] * len(self.measures)
        if not self.display:
            self.display = list(self.measures)
        if not self.latex:
            self.latex = [""] * len(self.measures)
        expected = (len(self.measures), len(self.topics), len(self.runs))
        if self.values.shape != expected:
            raise ValueError(f"score stack has shape {self.values.shape}, its labels say {expected}")
        if {len(self.lower_is_better), len(self.display), len(self.latex)} != {len(self.measures)}:
            raise ValueError("one direction, one display name and one markup per measure")

    @property
    def orientation(self) -> np.ndarray:
        """+1 for a measure where lower is better, -1 where higher is better (per measure)."""
        return np.where(np.asarray(self.lower_is_better, dtype=bool), 1.0, -1.0)

    def means(self) -> np.ndarray:
        """Mean score of every run under every measure, measures x runs."""
        return self.values.mean(axis=1)

    def matrix(self, measure: str) -> np.ndarray:
        return self.values[self.measures.index(measure)]

    def direction_of(self, measure: str) -> bool:
        return self.lower_is_better[self.measures.index(measure)]

    def subset(self, measures: Sequence[str]) -> ScoreStack:
        missing = [name for name in measures if name not in self.measures]
        if missing:
            raise KeyError(f"no scores for measure(s) {', '.join(missing)}; scored: {', '.join(self.measures)}")
        rows = [self.measures.index(name) for name in measures]
        return ScoreStack(
            list(measures),
            self.topics,
            self.runs,
            self.values[rows],
            [self.lower_is_better[i] for i in rows],
            [self.display[i] for i in rows],
            self.task,
            [self.latex[i] for i in rows],
        )

    def measure_table(self) -> Table:
        return Table(
            {
                "measure": self.measures,
                "display": self.display,
                "lower_is_better": list(self.lower_is_better),
                "task": [self.task] * len(self.measures),
                "latex": list(self.latex),
            }
        )


# --------------------------------------------------------------------------- writing


def matrix_text(topics: Sequence[str], runs: Sequence[str], matrix: np.ndarray, first: str = "topic") -> str:
    """A topics x runs matrix as TSV text: column ``first``, then one column per run; floats in their
    shortest round-trip form (as pandas writes them: ``repr``, see :mod:`ordeval.io.floattext`)."""
    lines = ["\t".join([first, *runs])]
    lines += [label + "\t" + row for label, row in zip(topics, float_rows(matrix), strict=True)]
    return "\n".join(lines) + "\n"


def score_files(stack: ScoreStack, folder: str | Path) -> dict[str, Path]:
    """The files :func:`write_scores` writes: ``{measure: <measure>.tsv, "means": ..., "measures": ...,
    "stack": ...}``."""
    folder = Path(folder)
    paths = {measure: folder / f"{measure}.tsv" for measure in stack.measures}
    return {**paths, "means": folder / "means.tsv", "measures": folder / "measures.tsv", "stack": folder / "stack.npz"}


def write_scores(stack: ScoreStack, paths: Mapping[str, str | Path]) -> Mapping[str, str | Path]:
    """Write a data set's score files (see the module docstring) to ``paths`` (:func:`score_files` names them in a
    folder): ``{measure: its topics x runs table}`` for every measure, ``"means"``, ``"measures"``, and ``"stack"``,
    which records the name and SHA-256 of the tables it mirrors; returns ``paths``. (The pipeline writes the same
    files in three steps: :func:`write_scored`, :func:`write_score_table`, :func:`stack_of_tables`.)"""
    write_scored(stack, paths)
    for index, measure in enumerate(stack.measures):
        write_text(matrix_text(stack.topics, stack.runs, stack.values[index]), paths[measure])
    write_stack(stack, paths["stack"], [*(paths[measure] for measure in stack.measures), paths["measures"]])
    return paths


def write_scored(stack: ScoreStack, paths: Mapping[str, str | Path]) -> None:
    """What scoring a data set writes (rule score_runs): the means (``paths["means"]``), the measures' directions
    and names (``"measures"``) and, where ``paths`` has ``"scores"``, the scores as computed (a stack of its own,
    which rule score_table writes each measure's table from)."""
    write_text(matrix_text(stack.runs, stack.measures, stack.means().T, first="run"), paths["means"])
    stack.measure_table().write(paths["measures"])
    if "scores" in paths:
        write_stack(stack, paths["scores"])


def write_score_table(scores_path: str | Path, measure: str, table_path: str | Path) -> None:
    """The table of ``measure`` (topics x runs, :func:`matrix_text`) from the scores at ``scores_path`` (rule
    score_table: a table per measure)."""
    stack, _ = load_stack(scores_path, [measure])
    write_text(matrix_text(stack.topics, stack.runs, stack.values[0]), table_path)


def stack_of_tables(
    tables: Sequence[str | Path],
    measures_path: str | Path,
    stack_path: str | Path,
    scores_path: str | Path | None = None,
) -> ScoreStack:
    """The stack the analyses read, made from a data set's score tables (``<measure>.tsv``, in the order given)
    and its ``measures.tsv`` (rule score_stack), written to ``stack_path`` with the SHA-256 of each; the stack.

    With ``scores_path`` (the scores as computed, which rule score_table writes each table from), a table whose
    bytes are exactly the text of its measure's scores there is not parsed: its values are those scores (the text
    is their shortest round-trip form, so parsing it would give the same floats). Writing a table's text again
    costs about a sixth of parsing it (``benchmarks/scoring_scale.py``); a table changed since it was written is
    parsed and checked like any other."""
    named = {Path(path).stem: path for path in tables}
    if scores_path is None:
        stack = read_score_tables(named, measures_path)
    else:
        stack = _stack_of_written_tables(named, measures_path, scores_path)
    write_stack(stack, stack_path, [*tables, measures_path])
    return stack


def _stack_of_written_tables(
    tables: Mapping[str, str | Path], measures_path: str | Path, scores_path: str | Path
) -> ScoreStack:
    """:func:`read_score_tables`, taking each table that is the text of its scores in ``scores_path`` from there."""
    scores, _ = load_stack(scores_path)
    info = {row["measure"]: row for row in read_measure_table(measures_path).records()}
    missing = [name for name in tables if name not in info]
    if missing:
        raise InputError(measures_path, None, f"lists no measure {missing[0]!r} (it has {', '.join(info)})")
    matrices = []
    for name, path in tables.items():
        written = name in scores.measures and Path(path).read_bytes() == matrix_text(
            scores.topics, scores.runs, scores.matrix(name)
        ).encode("utf-8")
        if written:
            matrices.append(scores.matrix(name))
            continue
        topics, runs, values = read_score_matrix(path)
        if topics != scores.topics or runs != scores.runs:
            from ordeval.io.names import normalisation_hints

            hint = normalisation_hints(set(scores.topics) - set(topics), set(topics) - set(scores.topics))
            raise InputError(path, "line 1", f"its topics or runs differ from those of {scores_path}{hint}")
        matrices.append(values)
    names = list(tables)
    return ScoreStack(
        names,
        scores.topics,
        scores.runs,
        np.stack(matrices) if matrices else np.zeros((0, len(scores.topics), len(scores.runs))),
        [bool(info[n]["lower_is_better"]) for n in names],
        [str(info[n]["display"]) for n in names],
        str(info[names[0]]["task"]) if names else scores.task,
        [str(info[n]["latex"] or "") for n in names],
    )


def write_stack(stack: ScoreStack, path: str | Path, sources: Sequence[str | Path] = ()) -> None:
    """``stack`` as ``path`` (``.npz``), with the names (relative to its folder) and SHA-256 of ``sources``, the files
    it mirrors (:func:`stack_of_tables`: each measure's table and ``measures.tsv``), so that :func:`read_stack`
    trusts it only while they are unchanged (none: the stack is its own source, e.g. the scores as computed)."""
    folder = Path(path).parent
    names = [os.path.relpath(source, folder) for source in sources]
    digests = [sha256(source) for source in sources]

    def write(temporary: str) -> None:
        with open(temporary, "wb") as handle:
            np.savez(
                handle,
                values=stack.values,
                measures=np.array(stack.measures, dtype=str),
                topics=np.array(stack.topics, dtype=str),
                runs=np.array(stack.runs, dtype=str),
                lower_is_better=np.array(stack.lower_is_better, dtype=bool),
                display=np.array(stack.display, dtype=str),
                task=np.array(stack.task, dtype=str),
                latex=np.array(stack.latex, dtype=str),
                **(
                    {"sources": np.array(names, dtype=str), "sources_sha256": np.array(digests, dtype=str)}
                    if sources
                    else {}
                ),
            )

    write_atomically(path, write)


# --------------------------------------------------------------------------- reading

#: The arrays of a ``stack.npz``: name -> numpy kind (f float, U text, b bool) and dimensions.
STACK_ARRAYS = {
    "values": ("f", 3),
    "measures": ("U", 1),
    "topics": ("U", 1),
    "runs": ("U", 1),
    "lower_is_better": ("b", 1),
    "display": ("U", 1),
    "task": ("U", 0),
    "latex": ("U", 1),
}


def load_stack(path: str | Path, measures: Sequence[str] | None = None) -> tuple[ScoreStack, dict[str, str]]:
    """(the ScoreStack of ``path``, {table it mirrors, relative to its folder: SHA-256 when written}), the
    file checked to be what :func:`write_stack` writes: a file that is not (empty, not a zip of arrays,
    pickled objects, arrays missing or of another kind or shape, scores that are not finite) is an
    InputError naming it. The tables are not looked at (:func:`read_stack` does). With ``measures``, the stack
    of those measures only, in that order, whose scores alone are read (rule score_table: one measure's table)."""
    stack, recorded, _ = _load(path, measures=measures)
    return stack, recorded


def _load(path: str | Path, trusted=None, measures=None) -> tuple[ScoreStack | None, dict[str, str], str]:
    """(stack, recorded tables, task) of :func:`load_stack`; with ``trusted`` (recorded tables -> whether the stack
    may be used), the scores are read only where it says so (else the stack is None: a stale stack's scores are
    never read); with ``measures``, only theirs."""
    from ordeval.io.archives import Archive
    from ordeval.stats import MAX_SCORE

    what = "a score stack"
    with Archive(path, what) as archive:  # checked from its headers before any array is read
        archive.require(STACK_ARRAYS)
        arrays = {name: archive.read(name) for name in archive.headers if name != "values"}
        sources = arrays.get("sources", np.array([], dtype=str))
        digests = arrays.get("sources_sha256", np.array([], dtype=str))
        if (
            sources.dtype.kind != "U"
            or digests.dtype.kind != "U"
            or sources.shape != digests.shape
            or sources.ndim != 1
        ):
            raise archive.corrupt("its tables and their SHA-256 do not match")
        if any("/" in name or name in (".", "..") for name in sources.tolist()):  # beside it, nowhere else
            raise archive.corrupt("a table it mirrors is not a file beside it")
        recorded = dict(zip(sources.tolist(), digests.tolist(), strict=True))
        task = str(arrays["task"])
        if trusted is not None and not trusted(recorded):
            return None, recorded, task
        expected = tuple(len(arrays[name]) for name in ("measures", "topics", "runs"))
        if archive.shape("values") != expected:  # before the scores are read: a shape no label accounts for
            raise archive.corrupt(f"array 'values' has shape {archive.shape('values')}, its labels say {expected}")
        names = arrays["measures"].tolist()
        if measures is None:
            values = archive.read("values")
        else:
            missing = [name for name in measures if name not in names]
            if missing:
                raise InputError(path, None, f"has no scores of measure {missing[0]!r} (it has {', '.join(names)})")
            values = archive.read_rows("values", [names.index(name) for name in measures])
    if not np.isfinite(values).all():
        raise InputError(path, None, f"not {what} as ordeval writes it (scores that are not finite)")
    if np.abs(values).max(initial=0) > MAX_SCORE:
        raise InputError(path, None, f"not {what} as ordeval writes it (scores beyond {MAX_SCORE:g} in magnitude)")
    try:
        labels = ScoreStack(  # every measure's labels, checked, then the chosen measures' with their scores
            names,
            [],
            arrays["runs"].tolist(),
            np.empty((len(names), 0, len(arrays["runs"]))),
            arrays["lower_is_better"].tolist(),
            arrays["display"].tolist(),
            task,
            arrays["latex"].tolist(),
        )
        chosen = labels if measures is None else labels.subset(measures)
        stack = replace(chosen, topics=arrays["topics"].tolist(), values=values)
    except ValueError as error:
        raise InputError(path, None, f"not {what} as ordeval writes it ({error})") from None
    return stack, recorded, task


def stale_tables(path: str | Path, recorded: Mapping[str, str], measures: Sequence[str] | None = None) -> list[str]:
    """The tables among ``recorded`` ({name relative to the stack's folder: SHA-256 when written}; with
    ``measures``, only those of these measures and ``measures.tsv``) that are missing or changed."""
    folder = Path(path).parent
    wanted = None if measures is None else {f"{name}.tsv" for name in measures} | {"measures.tsv"}
    stale = []
    for name, digest in recorded.items():
        if wanted is not None and Path(name).name not in wanted:
            continue
        table = folder / name
        if not table.is_file() or sha256(table) != digest:
            stale.append(name)
    return stale


def read_stack(path: str | Path, measures: Sequence[str] | None = None) -> ScoreStack:
    """The ScoreStack in a ``stack.npz`` (``measures``: a subset, in that order), trusted only as far as it is
    checked: what :func:`load_stack` checks, and the tables it mirrors (beside it, with the SHA-256 it recorded):
    where one of them changed since (a table edited outside the pipeline, which would have made the stack again),
    the stack is stale and the tables are read instead (the tables, not the stack, are what a user edits and
    sees); a table it mirrors that is gone is an InputError naming it. A stack that records no tables (the scores
    as computed, a data set's precomputed scores) is its own source."""
    stack, recorded, task = _load(path, lambda recorded: not (recorded and stale_tables(path, recorded, measures)))
    if stack is None:  # stale: its scores were not read
        folder = Path(path).parent
        missing = [name for name in recorded if not (folder / name).is_file()]
        if missing:
            raise InputError(
                folder / missing[0],
                None,
                f"no such file, though {Path(path).name} beside it was written with it (deleted since?)",
            )
        tables = {Path(name).stem: folder / name for name in recorded if Path(name).name != "measures.tsv"}
        if measures is not None:
            tables = {name: tables[name] for name in measures if name in tables}
        stack = read_score_tables(tables, folder / "measures.tsv", task)
    return stack.subset(measures) if measures is not None else stack


def read_score_tables(tables: Mapping[str, str | Path], measures_path: str | Path, task: str = "") -> ScoreStack:
    """The ScoreStack of score tables ({measure: its ``<measure>.tsv``}, one topics and runs for all) and the
    directions, display names and LaTeX labels of ``measures.tsv`` (which must list every one of them)."""
    info = {row["measure"]: row for row in read_measure_table(measures_path).records()}
    missing = [name for name in tables if name not in info]
    if missing:
        raise InputError(measures_path, None, f"lists no measure {missing[0]!r} (it has {', '.join(info)})")
    topics, runs, values = read_score_matrices(list(tables.values()))
    names = list(tables)
    return ScoreStack(
        names,
        topics,
        runs,
        values,
        [bool(info[n]["lower_is_better"]) for n in names],
        [str(info[n]["display"]) for n in names],
        task or str(info[names[0]]["task"]),
        [str(info[n]["latex"] or "") for n in names],
    )


def read_score_folder(folder) -> dict[str, np.ndarray]:
    """``{measure: topics x runs scores}`` of a score folder (``results/<name>/scores/<dataset>/``): its
    ``stack.npz`` while it mirrors the score tables beside it (the SHA-256 it recorded of each; one that records
    none, only where the folder has no score table), else the tables: those ``measures.tsv`` lists, or every
    ``<measure>.tsv`` score table (``means.tsv`` aside), in name order. Errors name the file."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(folder, None, "no such folder of score matrices")
    listed = folder / "measures.tsv"
    paths = sorted(p for p in folder.glob("*.tsv") if p.name not in SUMMARY_FILES and is_score_table(p))
    stack_path = folder / "stack.npz"
    if stack_path.is_file():
        stack, recorded = load_stack(stack_path)  # a corrupt one: an error naming it
        if recorded or not (paths or listed.is_file()):
            stack = read_stack(stack_path) if recorded else stack  # the tables instead where it is stale
            return {name: stack.matrix(name) for name in stack.measures}
    if listed.is_file():
        names = read_measure_table(listed)["measure"]
        paths = [folder / f"{name}.tsv" for name in names]
        for path in paths:
            if not path.is_file():
                raise InputError(path, None, f"no such file (listed in {listed})")
    if not paths:
        raise InputError(folder, None, "holds neither stack.npz nor a <measure>.tsv score table")
    matrices = {}
    for path in paths:
        topics, runs, matrix = read_score_matrix(path)
        if len(topics) < 2 or len(runs) < 2:
            raise InputError(path, None, f"{len(topics)} topic(s) x {len(runs)} run(s): at least 2 x 2 are needed")
        matrices[path.stem] = matrix
    return matrices
