"""The leaderboards of one data set under one protocol: what ``ordeval score``, ``ordeval leaderboard``,
the Python API and the pipeline's leaderboard stage publish.

One function, :func:`build_leaderboards`, assembles them from a score stack (per-topic protocol) or the
pooled scores (pooled protocol) and the p-values of a significance test, and says in one sentence
(:attr:`Leaderboards.note`) which protocol, intervals and test they show:

* ``per-topic``: each run's mean over the topics with a t interval; groups from the randomised Tukey HSD
  over topics (:func:`ordeval.analysis.significance.pairwise_significance`);
* ``pooled``: each measure once per run on one confusion matrix over all items (the official SemEval
  protocol of the classification tasks, :mod:`ordeval.analysis.pooled`); no interval; groups from the
  paired randomisation test of each run pair (not adjusted for multiple comparisons);
* without p-values (one run, one topic, or no test asked for): ranks only, and the note says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..table import Table
from .leaderboard import Leaderboard, leaderboard

PROTOCOLS = ("per-topic", "pooled")


def check_finite_means(stack) -> None:
    """An :class:`~ordeval.analysis.leaderboard.UndefinedMean` for the first measure and run of ``stack`` whose
    mean is not a finite number (before any significance test is run on them)."""
    from .leaderboard import check_means

    for measure in stack.measures:
        check_means(stack.matrix(measure), list(stack.runs), measure)


def no_test_reason(stack) -> str:
    """Why a stack has no significance groups ("" when the randomised Tukey HSD applies)."""
    if len(stack.runs) < 2:
        return f"a single run ({stack.runs[0]}): groups compare runs"
    if len(stack.topics) < 2:
        return "a single topic: the randomised Tukey HSD permutes scores within topics"
    return ""


@dataclass(frozen=True)
class Leaderboards:
    """Every measure's leaderboard of one data set under one protocol."""

    dataset: str
    protocol: str
    boards: list[Leaderboard]
    display: dict[str, str]  #: measure -> display name
    labels: dict[str, str]  #: measure -> LaTeX label
    level: float
    setting: str  #: what the leaderboards show: protocol, intervals, test (see :func:`setting_note`)
    origins: dict[str, str] = field(default_factory=dict)  #: {data set: origin} where known

    @property
    def note(self) -> str:
        """The setting, and the data origin where known."""
        from ..provenance import origin_sentence

        return f"{self.setting} {origin_sentence(self.origins)}" if self.origins else self.setting

    def write(self, csv: str | Path, tex: str | Path, markdown: str | Path) -> None:
        """The leaderboards as CSV (with a ``data_origin`` column where the origin is known), LaTeX (headed by
        comments on the setting and origin) and Markdown."""
        from ..files import write_text
        from ..latex import comment, write_latex
        from ..table import write_csv

        if self.origins:
            write_csv(self.table(), csv, self.origins)
            write_latex(self.latex(), tex, self.origins, self.setting)
        else:
            self.table().write(csv, sep=",")
            write_text(comment(self.setting) + "\n" + self.latex(), tex)
        write_text(self.markdown(), markdown)

    def tables(self) -> list[Table]:
        return [board.table() for board in self.boards]

    def table(self) -> Table:
        """measure, rank, run, mean, ci_low, ci_high, group, lower_is_better (one block per measure)."""
        return Table.concat(self.tables())

    def markdown(self) -> str:
        from ..latex.leaderboard import leaderboard_markdown

        return leaderboard_markdown(self.dataset, self.tables(), self.display, self.level, self.note, self.value_header)

    def latex(self) -> str:
        from ..latex.leaderboard import leaderboard_latex

        return leaderboard_latex(self.tables(), self.labels, self.level, self.value_header)

    @property
    def value_header(self) -> str:
        """The score column's heading: each run's mean over the topics, or its one pooled score."""
        return "Score" if self.protocol == "pooled" else "Mean"

    def records(self) -> dict:
        """A JSON-ready dictionary: dataset, protocol, note, level and per measure its rows."""

        def number(value) -> float | None:
            value = float(value)
            return value if np.isfinite(value) else None

        measures = []
        for board in self.boards:
            rows = []
            for index, run in enumerate(board.runs):
                rows.append({"rank": int(board.ranks[index]), "run": run, "mean": number(board.means[index]),
                             "ci_low": number(board.ci_low[index]), "ci_high": number(board.ci_high[index]),
                             "group": board.groups[index]})  # fmt: skip
            measures.append({"measure": board.measure, "display": self.display[board.measure],
                             "lower_is_better": bool(board.lower_is_better), "rows": rows})  # fmt: skip
        return {"dataset": self.dataset, "protocol": self.protocol, "note": self.note, "origins": dict(self.origins),
                "level": self.level, "measures": measures}  # fmt: skip


def build_leaderboards(stack, significance=None, *, dataset: str, protocol: str = "per-topic",
                       pooled: np.ndarray | None = None, items: int | None = None, alpha: float = 0.05,
                       level: float = 0.95, test: str = "", no_test_reason: str = "",
                       origins: Mapping[str, str] | None = None) -> Leaderboards:  # fmt: skip
    """The leaderboards of every measure of ``stack`` (a :class:`~ordeval.scores.ScoreStack`).

    ``significance``: anything with ``matrix(measure)`` giving the runs x runs p-values (a
    :class:`~ordeval.analysis.significance.PairwiseSignificance`), or None for no significance groups
    (``no_test_reason`` says why, e.g. "a single run"). ``test`` names the test in the note (e.g.
    "randomised Tukey HSD, B = 5000, seed = 0"; "paired randomisation test of each run pair, B = 5000,
    seed = 0" for the pooled protocol). ``protocol="pooled"``: ``pooled`` holds the pooled
    scores, measures x runs (``items``: how many items they pool). ``origins``: ``{data set: origin}``
    (:func:`ordeval.provenance.read_origins`), said in the note and the CSV's ``data_origin`` column."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, not {protocol!r}")
    if protocol == "pooled" and pooled is None:
        raise ValueError("the pooled protocol needs the pooled scores (measures x runs)")
    runs = list(stack.runs)
    boards = []
    for index, measure in enumerate(stack.measures):
        p_values = significance.matrix(measure) if significance is not None else np.ones((len(runs), len(runs)))
        scores = stack.matrix(measure) if protocol == "per-topic" else np.asarray(pooled)[index][None, :]
        board = leaderboard(scores, runs, measure, stack.direction_of(measure), p_values, alpha, level)
        if protocol == "pooled":
            no_interval = np.full(len(runs), np.nan)
            board = replace(board, ci_low=no_interval, ci_high=no_interval)
        if significance is None:
            board = replace(board, groups=[""] * len(runs))
        boards.append(board)
    note = setting_note(dataset, protocol, len(stack.topics), items, level, alpha, test if significance else "",
                        no_test_reason)  # fmt: skip
    from ..latex import measure_labels

    return Leaderboards(dataset, protocol, boards, dict(zip(stack.measures, stack.display, strict=True)),
                        measure_labels(stack), level, note, dict(origins or {}))  # fmt: skip


def setting_note(dataset: str, protocol: str, topics: int, items: int | None, level: float, alpha: float,
                 test: str, no_test_reason: str = "") -> str:  # fmt: skip
    """One sentence: the protocol, what the mean and interval are, and the significance groups' test."""
    if protocol == "pooled":
        over = f"all {items} items" if items else "all items"
        shown = f"pooled protocol: each measure on one confusion matrix over {over} (no interval), rank"
        groups = (
            f"significance groups (runs sharing a letter do not differ significantly: {test}, not adjusted for "
            f"multiple comparisons, alpha = {alpha:g})"
        )
    elif topics < 2:
        shown = f"per-topic protocol: mean over {topics} topic (no interval: a t interval needs 2 topics or more), rank"
    else:
        shown = f"per-topic protocol: mean over {topics} topics with {level:.0%} t intervals, rank"
        groups = f"significance groups (runs sharing a letter do not differ significantly: {test}, alpha = {alpha:g})"
    if not test:
        groups = f"no significance groups ({no_test_reason or 'no test'})"
    return f"{dataset}, {shown}, and {groups}."


#: Why the pipeline's pooled leaderboards have no significance groups.
POOLED_WITHOUT_TEST = (
    "the pipeline ranks the pooled scores only; 'ordeval score --protocol pooled' adds the paired "
    "randomisation test of each run pair"
)


def pipeline_pooled_leaderboards(stack, pooled_path, *, dataset: str, items: int | None, alpha: float, level: float,
                                 origins: Mapping[str, str]) -> Leaderboards:  # fmt: skip
    """The pipeline's leaderboards of a data set under the official SemEval protocol, from its ``pooled.tsv``:
    ranks without significance groups (:data:`POOLED_WITHOUT_TEST`)."""
    scores = read_pooled(Table.read(pooled_path), stack.measures, stack.runs)
    return build_leaderboards(stack, None, dataset=dataset, protocol="pooled", pooled=scores, items=items, alpha=alpha,
                              level=level, no_test_reason=POOLED_WITHOUT_TEST, origins=origins)  # fmt: skip


def read_pooled(table: Table, measures: Sequence[str], runs: Sequence[str]) -> np.ndarray:
    """measures x runs from a ``pooled.tsv`` table (rows in any order)."""
    rows: Mapping[str, int] = {str(run): index for index, run in enumerate(table["run"])}
    missing = [run for run in runs if run not in rows]
    if missing:
        raise KeyError(f"pooled scores lack run(s) {', '.join(missing)}")
    order = [rows[run] for run in runs]
    return np.stack([np.asarray(table[measure], dtype=float)[order] for measure in measures])
