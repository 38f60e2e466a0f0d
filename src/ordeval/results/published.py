"""The published numbers (``ordeval/published/published.tsv``) read strictly.

The transcription is data the replication trusts: a number that is not one, a row that says again what an
earlier row says, a measure or data set that the papers do not have would give tables that compare with
nothing, silently. So every row is checked when the file is read (when a configuration asks for the
comparison, that is when it is planned, before any job), and the first problem is an
:class:`~ordeval.io.errors.InputError` naming the file, the line and the problem:

* UTF-8 text without NUL bytes, not empty, the header ``source dataset statistic a b value``, six
  tab-separated fields on every line (no tab inside a field);
* ``source`` printable text; ``dataset`` one of the papers' data sets (:data:`DATASETS`) or ``pooled``;
  ``statistic`` one of :data:`STATISTICS`;
* ``a`` and ``b``: two different measures of the data set's task (``tau_*``), one measure (``consistency_mean_tau_*``,
  ``dp_*``), nothing (``consistency_ve2_*``), or a run name by the name policy (``official_*``); a measure is
  one registered with the task (``ordeval measures``);
* ``value`` a number as printed (the strict grammar of :mod:`ordeval.io.parsing`: no ``NaN``, no ``inf``), a
  whole number for a count (``dp_*``), within [-1, 1] for a tau;
* each (source, dataset, statistic, a, b) once.

:func:`papers_runs` says which runs the papers' tables used, where the transcription tells: the run names of
the official results, else the number of runs from the pairs compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ordeval.io.errors import InputError

#: The number of runs of the papers' tables where the transcription has neither the runs' names nor a count
#: of pairs: Sem17T4C, the 20 runs of SemEval-2017 Task 4 subtask C (Sakai, ACL-IJCNLP 2021, Section 4).
RUN_COUNTS = {"Sem17T4C": 20}
HEADER = ("source", "dataset", "statistic", "a", "b", "value")
#: Where the transcription shipped with ordeval is (inside the package).
SHIPPED = "published/published.tsv"


#: statistic -> (what it is, randomised). Randomised statistics may differ within their tolerance.
STATISTICS: dict[str, tuple[str, bool]] = {
    "tau_a": ("Kendall's tau-a between two measures' run rankings", False),
    "tau_ci_low": ("lower bound of the 95% interval of that tau", False),
    "tau_ci_high": ("upper bound of the 95% interval of that tau", False),
    "consistency_mean_tau_half": ("mean tau over random splits into topic halves", True),
    "consistency_mean_tau_10v10": ("mean tau over random pairs of disjoint 10-topic sets", True),
    "consistency_ve2_half": ("VE2 of the halves' taus", True),
    "consistency_ve2_10v10": ("VE2 of the 10 vs 10 taus", True),
    "dp_significant": ("run pairs significant under the randomised Tukey HSD", True),
    "dp_pairs": ("run pairs compared", False),
    "official_MAE_M": ("official MAE^M, pooled over all tweets", False),
    "official_MAE_mu": ("official MAE^mu, pooled over all tweets", False),
    "official_EMD": ("official EMD, mean over topics ((K-1) x NMD)", False),
    "prefers_uniform": ("dialogues on which the measure scores Uniform better than Popularity", False),
    "prefers_popularity": ("dialogues on which the measure scores Popularity better than Uniform", False),
}


#: Statistics that are counts (printed as whole numbers, shown as whole numbers).
COUNTS = ("dp_significant", "dp_pairs", "prefers_uniform", "prefers_popularity")
#: Statistics that the set-up fixes (the run pairs compared, n(n-1)/2 of the configuration's n runs): equal to
#: the published number wherever the configuration has the papers' number of runs, whatever the data, so a match
#: reproduces nothing (verdict "fixed by the set-up", counted apart).
SET_UP = ("dp_pairs",)


@dataclass(frozen=True)
class Published:
    """One published number: where it is printed, what it is, and the value as printed."""

    source: str
    dataset: str
    statistic: str
    a: str
    b: str
    value: str


def shipped_path() -> Path:
    """The file of the transcription shipped with ordeval (what the replication rules declare as input)."""
    return Path(str(resources.files("ordeval").joinpath(SHIPPED)))


def read_published(path: str | Path | None = None) -> list:
    """The published numbers of ``path`` (default: :func:`shipped_path`) as
    :class:`Published` rows, every row checked (see the module docstring)."""
    from ordeval.io.parsing import iter_lines

    path = shipped_path() if path is None else Path(path)
    rows, seen = [], {}
    header_seen = False
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        fields = line.split("\t")
        if not header_seen:
            if tuple(fields) != HEADER:
                raise InputError(path, f"line {number}", f"header must be {chr(9).join(HEADER)!r}")
            header_seen = True
            continue
        row = _checked_row(path, number, fields)
        key = (row.source, row.dataset, row.statistic, row.a, row.b)
        if key in seen:
            first, value = seen[key]
            again = "again" if value == row.value else f"with another value ({row.value} here, {value} there)"
            raise InputError(path, f"line {number}", f"the number of line {first} {again}: {_key_text(row)}")
        seen[key] = (number, row.value)
        rows.append(row)
    if not rows:
        raise InputError(path, None, "holds a header but no published number")
    return rows


def _key_text(row) -> str:
    named = " vs ".join(name for name in (row.a, row.b) if name)
    return f"{row.statistic} of {row.dataset}{f' ({named})' if named else ''}, {row.source}"


def _checked_row(path: Path, number: int, fields: list[str]):
    from ordeval.io.names import name_problem, printable
    from ordeval.io.parsing import NUMBER, quoted

    where = f"line {number}"
    if len(fields) != len(HEADER):
        raise InputError(
            path, where, f"expected {len(HEADER)} tab-separated fields ({', '.join(HEADER)}), found {len(fields)}"
        )
    row = Published(*fields)
    for column, text in zip(HEADER, fields, strict=True):
        if text != text.strip() or printable(text) != text:
            raise InputError(
                path,
                where,
                f"column {column}: {quoted(printable(text))} has white space around it or a control character",
            )
    if not row.source:
        raise InputError(path, where, "column source: empty (the publication and table)")
    datasets = published_datasets()
    if row.dataset not in datasets:
        raise InputError(
            path,
            where,
            f"column dataset: {quoted(row.dataset)} is not a data set of the replicated papers ({', '.join(datasets)})",
        )
    if row.statistic not in STATISTICS:
        raise InputError(
            path, where, f"column statistic: unknown statistic {quoted(row.statistic)} ({', '.join(STATISTICS)})"
        )
    expected = _expected_names(row.statistic)
    task = datasets[row.dataset]
    for column, name, kind in zip(("a", "b"), (row.a, row.b), expected, strict=True):
        if kind is None and name:
            raise InputError(path, where, f"column {column}: {row.statistic} has no {column}, found {quoted(name)}")
        if kind is not None and not name:
            raise InputError(path, where, f"column {column}: empty, {row.statistic} needs a {kind}")
        if kind == "measure" and name and name not in _measures(task):
            raise InputError(
                path, where, f"column {column}: {quoted(name)} is not a {task} measure ({', '.join(_measures(task))})"
            )
        if kind == "run" and (problem := name_problem(name, kind="run")):
            raise InputError(path, where, f"column {column}: {problem}")
    if expected == ("measure", "measure") and row.a == row.b:
        raise InputError(path, where, f"columns a and b: tau of {row.a} with itself")
    if len(row.value) > 64 or not NUMBER.fullmatch(row.value):
        raise InputError(path, where, f"column value: {quoted(row.value)} is not a number as printed")
    value = float(row.value)
    if row.statistic.startswith("dp_") and not row.value.isdigit():
        raise InputError(path, where, f"column value: {quoted(row.value)} is not a count of run pairs")
    if row.statistic.startswith(("tau_", "consistency_mean_tau_")) and not -1 <= value <= 1:
        raise InputError(path, where, f"column value: {row.value} is not a tau (within -1 and 1)")
    if row.statistic.startswith(("consistency_ve2_", "official_")) and value < 0:
        raise InputError(path, where, f"column value: {row.value} is negative")
    return row


def published_datasets() -> dict[str, str]:
    """{data set of the published numbers (ordeval's names): its task}, as each task registers them
    (``Task.published_datasets``)."""
    from ordeval.tasks import all_tasks

    return {name: task.name for task in all_tasks() for name in task.published_datasets}


def _expected_names(statistic: str) -> tuple[str | None, str | None]:
    """What columns a and b name for ``statistic``: a measure, a run, or nothing (None)."""
    if statistic.startswith("tau_"):
        return "measure", "measure"
    if statistic.startswith("official_"):
        return "run", None
    if statistic.startswith("consistency_ve2_"):
        return None, None
    return "measure", None


def _measures(task: str) -> list[str]:
    from ordeval.tasks import get_task

    return get_task(task).registry.names()


def papers_runs(rows: Sequence, dataset: str) -> tuple[list[str] | None, int | None]:
    """(the names of the runs of the papers' tables on ``dataset``, or None where the transcription does not
    name them; their number, or None where it does not tell): the names from the official results (every
    run of SemEval-2016 Task 4 C and E), the number from the run pairs compared (``dp_pairs``: n(n-1)/2)
    or :data:`RUN_COUNTS`."""
    names = list(
        dict.fromkeys(row.a for row in rows if row.dataset == dataset and row.statistic.startswith("official_"))
    )
    if names:
        return names, len(names)
    pairs = {int(row.value) for row in rows if row.dataset == dataset and row.statistic == "dp_pairs"}
    if len(pairs) == 1:
        count = round((1 + (1 + 8 * pairs.pop()) ** 0.5) / 2)
        return None, count
    return None, RUN_COUNTS.get(dataset)


def printed_places(rows: Sequence) -> list[int]:
    """The decimals each published number of ``rows`` is compared and shown at: those it is printed with, except
    a whole number printed among fractions (a tau of "1" where the paper prints the others with 3 decimals: it is
    1.000, not 1 +- 0.5), which takes the most decimals of its published table and statistic in ``rows``."""
    from ordeval.results.compare import decimals

    most: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row.source, row.statistic)
        most[key] = max(most.get(key, 0), decimals(row.value))
    return [
        most[(row.source, row.statistic)]
        if row.statistic not in COUNTS and decimals(row.value) <= 0
        else max(decimals(row.value), 0)
        for row in rows
    ]
