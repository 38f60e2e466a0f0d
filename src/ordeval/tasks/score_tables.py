"""Score tables as text: a measure's topics x runs table (``<measure>.tsv``) and a data set's ``measures.tsv``,
read strictly (every error names the file and line) -- the tables a user may edit, which :mod:`ordeval.tasks.stack`
makes the stack the analyses read from."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.table import Table


def read_score_matrices(paths: Sequence[str | Path]) -> tuple[list[str], list[str], np.ndarray]:
    """(topics, runs, measures x topics x runs scores) of the score tables ``paths`` of one data set, which must
    list the same topics and runs in the same order (an InputError naming the first that does not)."""
    topics = runs = first = None
    matrices = []
    for path in paths:
        these_topics, these_runs, values = read_score_matrix(path)
        if topics is None:
            topics, runs, first = these_topics, these_runs, path
        elif these_topics != topics or these_runs != runs:
            from ordeval.io.names import normalisation_hints

            hint = normalisation_hints(set(topics) - set(these_topics), set(these_topics) - set(topics))
            raise InputError(path, "line 1", f"its topics or runs differ from those of {first}{hint}")
        matrices.append(values)
    return topics, runs, np.stack(matrices)


def score_matrix_header(path: str | Path) -> tuple[int, list[str]]:
    """(physical line number, fields) of the header of a score table: its first non-empty line."""
    from ordeval.io.parsing import first_line

    number, line = first_line(path)  # the rest of the file is not read
    return number, line.split("\t")


def read_score_matrix(path: str | Path) -> tuple[list[str], list[str], np.ndarray]:
    """(topics, runs, topics x runs scores) from a score table ``<measure>.tsv``: a header
    ``topic<TAB>run...`` (run names follow the name policy, each once), one line per topic (non-empty,
    each once), scores in the strict number grammar (:mod:`ordeval.io.parsing`)."""
    from ordeval.io.fields import read_fields
    from ordeval.io.names import distinct, name_problem

    number, header = score_matrix_header(path)
    where = f"line {number}"
    if header[0] != "topic" or len(header) < 2:
        raise InputError(path, where, "a score table starts with a 'topic' column followed by one column per run")
    runs = header[1:]
    for run in runs:
        problem = name_problem(run, kind="run")
        if problem:
            raise InputError(path, where, f"{problem} (run names from files follow the configuration's name policy)")
    repeated = [run for index, run in enumerate(runs) if run in runs[:index]]
    if repeated:
        raise InputError(path, where, f"run {repeated[0]!r} has two columns")
    fields = read_fields(path, header, header=True, layout="topic, then one score per run")
    fields.require_nonempty(0)
    from ordeval.stats import MAX_SCORE  # the statistics square scores: larger ones would overflow

    columns = [fields.floats(k, f"score of run {header[k]!r}", MAX_SCORE) for k in range(1, len(header))]
    topics = fields.column(0)
    if len(set(topics)) < len(topics):
        seen: dict[str, int] = {}
        for record, topic in enumerate(topics):
            if topic in seen:
                raise fields.error(record, f"duplicate topic {distinct(topic)} (first at {fields.where(seen[topic])})")
            seen[topic] = record
    return topics, runs, np.column_stack(columns)


def read_measure_table(path: str | Path) -> Table:
    """A data set's ``measures.tsv``: measure, display, lower_is_better (bool), task, latex; parsed
    strictly, an InputError naming the line and column otherwise: measure names by the name policy
    (:mod:`ordeval.io.names`, so no path separator), ``lower_is_better`` exactly ``True`` or ``False``, no
    control character in a display name, LaTeX labels from the safe subset (:mod:`ordeval.io.markup`)."""
    from ordeval.io.markup import markup_problem
    from ordeval.io.names import name_problem, printable
    from ordeval.io.parsing import quoted

    table = Table.read(path)
    missing = [column for column in MEASURE_COLUMNS if column not in table.columns]
    if missing:
        raise InputError(path, "line 1", f"no column(s) {', '.join(missing)} (expected {', '.join(MEASURE_COLUMNS)})")
    directions = []
    for index, row in enumerate(table.records()):
        where = f"line {index + 2}"
        problem = name_problem(row["measure"], kind="measure")
        if problem:
            raise InputError(path, where, f"column measure: {printable(problem)}")
        if row["lower_is_better"] not in ("True", "False"):
            shown = printable(quoted(row["lower_is_better"]))
            raise InputError(path, where, f"column lower_is_better: {shown} is not True or False")
        directions.append(row["lower_is_better"] == "True")
        for column in ("display", "task"):
            if printable(row[column]) != row[column]:
                shown = printable(quoted(row[column]))
                raise InputError(path, where, f"column {column}: {shown} has a control character")
        problem = markup_problem(row["latex"])
        if problem:
            raise InputError(path, where, f"column latex: {printable(problem)}")
    table["lower_is_better"] = directions
    return table


def read_measure_tables(paths: str | Path | Sequence[str | Path]) -> Table:
    """The ``measures.tsv`` of several data sets (or one) as one table: every measure once, in the order of
    first appearance; a measure whose direction differs between two of them is an InputError naming the second."""
    rows: dict[str, dict] = {}
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        for row in read_measure_table(path).records():
            known = rows.setdefault(row["measure"], row)
            if known["lower_is_better"] != row["lower_is_better"]:
                raise InputError(path, f"measure {row['measure']}", "its direction differs from another data set's")
    if not rows:
        raise ValueError("no measures table given")
    return Table({column: [row[column] for row in rows.values()] for column in MEASURE_COLUMNS})


#: The columns of ``measures.tsv``.
MEASURE_COLUMNS = ("measure", "display", "lower_is_better", "task", "latex")


#: The tables of a scores folder that are not a measure's topics x runs score matrix.
SUMMARY_FILES = frozenset({"means.tsv", "measures.tsv"})


def is_score_table(path: str | Path) -> bool:
    """Whether ``path`` looks like a score table: its first line starts with a ``topic`` column (a UTF-8
    byte-order mark before it is ignored, as the readers do)."""
    import io

    from ordeval.io.files import open_regular

    with io.TextIOWrapper(open_regular(path), encoding="utf-8-sig", errors="replace") as handle:  # no FIFO
        return handle.readline(64).split("\t")[0].strip() == "topic"  # not a whole line: it may be a hole
