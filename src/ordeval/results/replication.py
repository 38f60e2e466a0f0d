"""Published versus reproduced: every number the replicated papers print, beside the pipeline's.

The published numbers (``ordeval/published/published.tsv``, one a row, with its README: source, data set,
statistic, measures or team, value as printed) are compared with the tables the pipeline wrote for the
same data set, cell by cell, by the comparison engine of ``ordeval diff`` (:mod:`ordeval.results.compare`: a
published number is a reference at its printed precision). Each gets a verdict:

* ``exact`` -- equal at the printed precision (the reproduced number rounds to the printed one);
* ``within randomisation error`` -- a statistic of random splits or permutations (consistency, VE2, the
  count of significant pairs) that differs at the printed precision by at most its stated tolerance (the
  configuration's ``replication.tolerance``, set from re-runs with other seeds:
  ``benchmarks/replication_seeds.py``);
* ``differs`` -- any other difference (shown, never hidden);
* ``fixed by the set-up`` -- a number the configuration fixes, whatever the data (the run pairs compared,
  n(n-1)/2 of its n runs), equal to the published one: nothing is reproduced, so it is counted apart (a run
  set of another size differs);
* ``not comparable`` -- the number is not computed on real data here (its data origin is not ``real``: the
  participants' runs are not public, so they are simulated), whatever it equals; or the run set is not the
  papers', or the measure is not in this configuration. A statistic of the gold alone (CIKM 2021 LQ
  workshop, Table 7: the dialogues on which a measure prefers Uniform or Popularity, two baselines computed
  from the gold) is real, so comparable, wherever the gold is real.

Each number is compared and shown at the precision the paper prints it with (:func:`printed_places`: a tau
printed "1" among three-decimal taus is 1.000); :func:`shown` gives the texts both reports print.

Only the data sets of the configuration are compared: the published numbers of the others are left out of
every output (``data_origin`` describes what was run).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ordeval.io.table import Table, read_csv
from ordeval.results.compare import Tolerance, compare_printed, number
from ordeval.results.published import (
    COUNTS,
    SET_UP,
    STATISTICS,
    Published,
    papers_runs,
    printed_places,
    read_published,
)

VERDICTS = ("exact", "within randomisation error", "differs", "fixed by the set-up", "not comparable")
#: What each verdict says, in the words both reports print.
VERDICT_MEANINGS = {
    "exact": "the reproduced number, rounded to the printed precision, is the printed number",
    "within randomisation error": "a statistic of random splits or permutations, within its stated tolerance",
    "differs": "any other difference, shown, never hidden",
    "fixed by the set-up": (
        "a number the configuration fixes whatever the data (the run pairs compared, n(n-1)/2 of its n runs), "
        "equal to the paper's; nothing is reproduced"
    ),
    "not comparable": (
        "not computed on real data here (the runs, or for a statistic of the gold alone the gold, are not the "
        "papers': most are not public and are simulated), whatever it equals"
    ),
}

#: The tolerance key of each randomised statistic (``replication.tolerance`` in the configuration).
TOLERANCE_KEYS = {
    "consistency_mean_tau_half": "consistency_mean_tau",
    "consistency_mean_tau_10v10": "consistency_mean_tau",
    "consistency_ve2_half": "consistency_ve2",
    "consistency_ve2_10v10": "consistency_ve2",
    "dp_significant": "dp_significant",
}
#: Statistics of the gold alone (with the baselines computed from it; CIKM 2021 LQ workshop, Table 7): the
#: column of ``tables/popularity_vs_uniform.csv`` that holds each. They are comparable wherever the gold is
#: real, whatever the other runs are; their origin is the one that table gives the row.
GOLD_ONLY = {"prefers_uniform": "uniform", "prefers_popularity": "popularity"}
#: The data set name of the published rows pooled over several data sets (CIKM 2021 LQ, Table 3).
POOLED = "pooled"


def verdict_column(verdict: str) -> str:
    """The column of :func:`summary` (``tables/replication/summary.csv``) that counts ``verdict``."""
    return "".join(character if character.isalnum() else "_" for character in verdict)


def published_numbers(path: str | Path | None = None) -> list[Published]:
    """The published numbers (default: the transcription shipped with ordeval; not to be modified), every row
    checked (:mod:`ordeval.results.published`: an InputError naming the file and line otherwise). Read anew at
    each call (8 ms): an edited file is never answered from memory."""
    return read_published(path)


def datasets_with_numbers(rows: list[Published] | None = None) -> list[str]:
    """The data sets the published numbers are about (without the pooled rows), in order of appearance."""
    rows = published_numbers() if rows is None else rows
    return list(dict.fromkeys(row.dataset for row in rows if row.dataset != POOLED))


# --------------------------------------------------------------------------- the reproduced numbers


@dataclass
class Reproduced:
    """The pipeline's tables of one data set that hold the numbers the papers print (None: not made)."""

    dataset: str
    origin: str  #: the data set's data origin (real, partly synthetic, synthetic)
    agreement: Table | None = None  #: tables/agreement/<dataset>.csv
    consistency: Mapping[str, Table] | None = None  #: condition -> tables/consistency/<dataset>_<condition>.csv
    power: Table | None = None  #: the task's tables/discriminative_power<suffix>.csv
    pooled: Table | None = None  #: scores/<dataset>/pooled.tsv (classification: the official protocol)
    means: Table | None = None  #: scores/<dataset>/means.tsv
    classes: int = 5
    #: tables/popularity_vs_uniform.csv with its data_origin column (the data sets that have both baselines)
    popularity: Table | None = None

    @classmethod
    def read(
        cls,
        dataset: str,
        origin: str,
        *,
        agreement=None,
        consistency=None,
        power=None,
        pooled=None,
        means=None,
        classes: int = 5,
        popularity=None,
    ) -> Reproduced:
        """From the files (any may be None)."""
        return cls(
            dataset,
            origin,
            agreement=read_csv(agreement, numeric=("tau", "ci_low", "ci_high")) if agreement else None,
            consistency={
                condition: read_csv(path, numeric=("mean_tau", "ve2"))
                for condition, path in (consistency or {}).items()
            },
            power=read_csv(power, numeric=("significant", "pairs")) if power else None,
            pooled=Table.read(pooled) if pooled else None,
            means=Table.read(means) if means else None,
            classes=classes,
            popularity=Table.read(popularity, sep=",", numeric=tuple(GOLD_ONLY.values())) if popularity else None,
        )

    def value(self, row: Published) -> tuple[float | None, str]:
        """(the reproduced number of a published one, or None with the reason)."""
        statistic = row.statistic
        if statistic in GOLD_ONLY:
            return self._popularity(row)[0]
        if statistic.startswith("tau_"):
            return self._agreement(
                row.a, row.b, {"tau_a": "tau", "tau_ci_low": "ci_low", "tau_ci_high": "ci_high"}[statistic]
            )
        if statistic.startswith("consistency_"):
            condition = statistic.rsplit("_", 1)[1]
            table = (self.consistency or {}).get(condition)
            if table is None:
                return None, f"no consistency table for {condition}"
            if "_ve2_" in statistic:
                return (float(table.column("ve2", float)[0]), "") if len(table) else (None, "empty table")
            return _cell(table, {"measure": row.a}, "mean_tau", f"{row.a} not in the consistency measures")
        if statistic.startswith("dp_"):
            if self.power is None:
                return None, "no discriminative power table"
            column = "significant" if statistic == "dp_significant" else "pairs"
            return _cell(
                self.power,
                {"dataset": self.dataset, "measure": row.a},
                column,
                f"{row.a} not in the significance measures",
            )
        if statistic == "official_EMD":
            found, note = (
                _cell(self.means, {"run": row.a}, "NMD", f"no run {row.a} scored with NMD")
                if self.means is not None
                else (None, "no means")
            )
            return (None if found is None else found * (self.classes - 1)), note
        measure = statistic.removeprefix("official_")
        if self.pooled is None:
            return None, "no pooled scores"
        return _cell(self.pooled, {"run": row.a}, measure, f"no pooled {measure} of run {row.a}")

    def _popularity(self, row: Published) -> tuple[tuple[float | None, str], str]:
        """((the count of a Table 7 statistic, or None with the reason), the data origin of its row)."""
        if self.popularity is None:
            return (None, "no Popularity vs Uniform table for this data set"), self.origin
        for record in self.popularity.records():
            if record["dataset"] == self.dataset and record["measure"] == row.a:
                return (float(record[GOLD_ONLY[row.statistic]]), ""), str(record.get("data_origin") or self.origin)
        return (None, f"{row.a} not in the Popularity vs Uniform measures"), self.origin

    def row_origin(self, row: Published) -> str:
        """The data origin of the reproduced number of ``row``: the Popularity vs Uniform row's for a statistic of
        the gold alone (real on a real gold, whatever the other runs), else the data set's."""
        return self._popularity(row)[1] if row.statistic in GOLD_ONLY else self.origin

    def basis(self, row: Published) -> str:
        """A note on a comparable number of a data set that is not real: what it depends on."""
        if self.origin != "real" and row.statistic in GOLD_ONLY:
            return "the real gold and the two baselines computed from it alone"
        return ""

    def not_comparable(self, row: Published) -> str:
        """Why the reproduced number of ``row`` cannot be compared with the published one ("" when it can): it is
        not computed on real data here (:meth:`row_origin`; a statistic of the gold alone is real wherever the
        gold and the two baselines computed from it are), whatever it equals."""
        if row.statistic in GOLD_ONLY:
            (found, _), origin = self._popularity(row)
            return "" if origin == "real" or found is None else f"gold not public: {row.dataset} is {origin} here"
        return "" if self.origin == "real" else f"runs not public: {row.dataset} is {self.origin} here"

    def set_up(self, row: Published, value: float) -> tuple[str, str]:
        """(verdict, note) of a number the set-up fixes (:data:`SET_UP`): the run pairs of the configuration's
        runs, equal to the paper's wherever it has the paper's number of runs, whatever the data."""
        runs = round((1 + (1 + 8 * value) ** 0.5) / 2)
        if compare_printed(row.value, value).equal:
            return "fixed by the set-up", f"{runs} runs here, as in the paper: n(n-1)/2 pairs, not a reproduced number"
        return "differs", f"run set of another size: {runs} runs here"

    def _agreement(self, a: str, b: str, column: str) -> tuple[float | None, str]:
        if self.agreement is None:
            return None, "no agreement table"
        for first, second in ((a, b), (b, a)):
            found, _ = _cell(self.agreement, {"measure_a": first, "measure_b": second}, column, "")
            if found is not None:
                return found, ""
        return None, f"{a} and {b} not both in the agreement measures"


def _cell(table: Table, key: Mapping[str, str], column: str, missing: str) -> tuple[float | None, str]:
    """The number in ``column`` of the row of ``table`` matching ``key``, or (None, ``missing``)."""
    if column not in table.columns:
        return None, missing
    for record in table.records():
        if all(str(record.get(name)) == value for name, value in key.items()):
            value = record[column]
            return (None, missing) if value in ("", None) else (float(value), "")
    return None, missing


# --------------------------------------------------------------------------- verdicts


def verdicts(
    rows: list[Published], reproduced: Reproduced | None, tolerances: Mapping[str, float], reason: str = ""
) -> Table:
    """Every published number of ``rows`` beside the reproduced one (from ``reproduced``, the data set's
    tables; None: not comparable for ``reason``), the difference (reproduced - published), the verdict and
    the tolerance applied (randomised statistics only). A data set whose runs are not all real is not
    comparable, nor is a statistic over the runs (tau, consistency, discriminative power) where the run set is
    not the papers' (:func:`other_runs`); their numbers are shown for information."""
    records = []
    other = other_runs(rows, reproduced) if reproduced is not None else ""
    for row, places in zip(rows, printed_places(rows), strict=True):
        randomised = STATISTICS[row.statistic][1]
        tolerance = float(tolerances[TOLERANCE_KEYS[row.statistic]]) if randomised else None
        value, note = (None, reason) if reproduced is None else reproduced.value(row)
        verdict, difference = "not comparable", None
        if row.statistic in SET_UP and value is not None:  # fixed by the number of runs, whatever the data
            verdict, note = reproduced.set_up(row, value)
            difference = compare_printed(row.value, value).difference
        elif reproduced is not None and (why := reproduced.not_comparable(row)):
            note = why
        elif not row.statistic.startswith("official_") and row.statistic not in GOLD_ONLY and other:
            note = other  # tau, consistency, DP over other runs (a statistic of the gold alone needs no runs)
        elif value is not None:
            note = note or (reproduced.basis(row) if reproduced is not None else "")
            exact = compare_printed(row.value, value, places=places)
            difference = exact.difference
            if exact.equal:
                verdict = "exact"
            elif (
                tolerance is not None
                and compare_printed(row.value, value, Tolerance(absolute=tolerance), places=places).equal
            ):
                verdict = "within randomisation error"
            else:
                verdict = "differs"
        records.append((row, value, difference, verdict, tolerance, note, places))
    nan = float("nan")
    table = Table(
        {
            "source": [row.source for row, *_ in records],
            "dataset": [row.dataset for row, *_ in records],
            "statistic": [row.statistic for row, *_ in records],
            "a": [row.a for row, *_ in records],
            "b": [row.b for row, *_ in records],
            "published": [row.value for row, *_ in records],
            "reproduced": [nan if value is None else value for _, value, *_ in records],
            "difference": [nan if difference is None else difference for _, _, difference, *_ in records],
            "verdict": [record[3] for record in records],
            "tolerance": [nan if record[4] is None else record[4] for record in records],
            "note": [record[5] for record in records],
            # added columns (after the first ones, whose order is kept): the precision compared and shown at, and
            # the reproduced number at that precision, as both reports show it (shown())
            "printed_places": [record[6] for record in records],
        }
    )
    return table.with_column("reproduced_printed", [shown(record)["reproduced"] for record in table.records()])


# --------------------------------------------------------------------------- how the numbers are shown


def _fixed(value, places: int, sign: str = "") -> str:
    """``value`` with ``places`` decimals, rounded half up from its shortest decimal form (0.2435 is 0.244 at 3);
    never "-0.000" (with ``sign="+"``, zero is "0")."""
    rounded = number(repr(float(value))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if rounded == 0:
        return "0" if sign else f"{abs(rounded):f}"
    return f"{rounded:{sign}f}"


def _trimmed(text: str) -> str:
    """A fixed-point text without trailing zeros after its decimal point ("0.848500" -> "0.8485", "1.000" -> "1")."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def shown(record: Mapping) -> dict[str, str]:
    """The texts of one row of :func:`verdicts` as both reports print them (the PDF's LaTeX and the HTML page,
    never apart): ``published`` as printed; ``reproduced`` rounded to the precision the published number is
    compared at (``printed_places``; a count as a whole number), so that the verdict can be read off the two:
    a number that agrees at that precision (a tie included) shows as the published one; ``unrounded`` the
    reproduced number with three decimals more (trailing zeros dropped; a count whole); ``difference``
    reproduced - published with one decimal more than printed; "-" where there is no reproduced number."""
    published = str(record["published"])
    places = int(record.get("printed_places", max(-number(published).as_tuple().exponent, 0)))
    count = record.get("statistic") in COUNTS
    texts = {"published": published, "reproduced": "-", "unrounded": "-", "difference": "-"}
    value = float(record["reproduced"])
    if math.isnan(value):
        return texts
    if count and value == round(value):
        texts["reproduced"] = texts["unrounded"] = str(int(value))
    else:
        agrees = compare_printed(published, value, places=places).equal
        texts["reproduced"] = _fixed(published, places) if agrees else _fixed(value, places)
        texts["unrounded"] = _trimmed(_fixed(value, places + 3))
    difference = float(record["difference"])
    if not math.isnan(difference):
        if count and difference == round(difference):
            texts["difference"] = f"{int(difference):+d}" if difference else "0"
        else:
            texts["difference"] = _fixed(difference, places + 1, "+")
    return texts


def dataset_verdicts(
    reproduced: Reproduced, tolerances: Mapping[str, float], rows: list[Published] | None = None
) -> tuple[Table, list[str]]:
    """Every published number of the data set of ``reproduced`` (of ``rows``, default every published number)
    beside the reproduced one, with its verdict (:func:`verdicts`), and each row's data origin
    (:meth:`Reproduced.row_origin`: a statistic of the gold alone is real on real gold)."""
    mine = [row for row in (published_numbers() if rows is None else rows) if row.dataset == reproduced.dataset]
    return verdicts(mine, reproduced, tolerances), [reproduced.row_origin(row) for row in mine]


def other_runs(rows: list[Published], reproduced: Reproduced) -> str:
    """Why the reproduced run set of ``reproduced.dataset`` (the runs of its ``means.tsv``) is not the papers'
    (their names where the published numbers name them: the official results; else their number: from
    ``dp_pairs``, or :data:`ordeval.results.published.RUN_COUNTS`), or "" where it is or nothing tells
    (docs/methods.md, section 7: numbers over other runs are not comparable)."""
    if reproduced.means is None or "run" not in reproduced.means.columns:
        return ""
    here = [str(run) for run in reproduced.means["run"]]
    names, count = papers_runs(rows, reproduced.dataset)
    if names is not None:
        extra = [run for run in here if run not in names]
        missing = [run for run in names if run not in here]
        parts = [
            f"{len(runs)} {what} ({', '.join(runs[:3])}{', ...' if len(runs) > 3 else ''})"
            for what, runs in (("extra", extra), ("missing", missing))
            if runs
        ]
        if parts:
            return f"run set not the papers': {len(here)} runs here, {len(names)} in the papers; {'; '.join(parts)}"
    elif count is not None and count != len(here):
        return f"run set not the papers': {len(here)} runs here, {count} in the papers"
    return ""


def pooled(power_paths, origins: Mapping[str, str], tolerances: Mapping[str, float]) -> Table:
    """The published numbers pooled over data sets (``dataset`` = ``pooled``) against the POOLED rows of the
    discriminative power table (of ``power_paths``, one per task) that pools exactly the data sets the paper
    pooled, where they are all real (``origins``: {data set: origin} of the configuration); else not comparable."""
    from ordeval.io.provenance import combined_origin

    every = published_numbers()
    rows = [row for row in every if row.dataset == POOLED]
    pooled_over = pooled_datasets(rows)
    if not pooled_over & set(origins):  # none of the data sets pooled in the paper is run here: nothing to show
        rows = []
    for path in power_paths:
        table = read_csv(path)
        if set(table["dataset"]) - {"POOLED"} == pooled_over:
            reproduced = Reproduced.read("POOLED", combined_origin({d: origins[d] for d in pooled_over}), power=path)
            papers = {
                row.dataset: row.value for row in every if row.dataset in pooled_over and row.statistic == "dp_pairs"
            }
            here = dict(zip(table["dataset"], table["pairs"], strict=True))
            other = [
                f"{d} ({here[d]} run pairs here, {papers[d]} in the papers)" for d in papers if here[d] != papers[d]
            ]
            if reproduced.origin == "real" and other:  # pooled over other runs
                return verdicts(rows, None, tolerances, reason=f"run set not the papers' on {'; '.join(other)}")
            return verdicts(rows, reproduced, tolerances)
    return verdicts(rows, None, tolerances, reason="the data sets pooled here are not those pooled in the paper")


def _summary_keys(groups) -> list[tuple[str, str]]:
    """The (source, data set) keys of ``groups`` in the order of the published numbers."""
    order: dict[tuple[str, str], int] = {}
    for row in published_numbers():
        order.setdefault((row.source, row.dataset), len(order))
    return sorted(groups, key=lambda key: order.get(key, len(order)))


def summary_origins(tables: list[Table]) -> list[str]:
    """The data origin of each row of :func:`summary` of ``tables`` (each with its ``data_origin`` column): the
    combined origin of the numbers the row counts (a published table of the gold alone, such as CIKM 2021 LQ
    Table 7 on STC-3, is real on a data set whose other runs are simulated), then that of every number."""
    from ordeval.io.provenance import combined_origin

    groups: dict[tuple[str, str], set[str]] = {}
    for table in tables:
        for source, dataset, origin in zip(table["source"], table["dataset"], table["data_origin"], strict=True):
            groups.setdefault((source, dataset), set()).add(origin)
    keys = _summary_keys(groups)
    every = set().union(set(), *groups.values())
    return [combined_origin({o: o for o in groups[key]}) for key in keys] + [combined_origin({o: o for o in every})]


def pooled_datasets(rows: list[Published] | None = None) -> set[str]:
    """The data sets that the published tables with pooled rows pool over."""
    every = published_numbers()
    rows = [row for row in every if row.dataset == POOLED] if rows is None else rows
    sources = {row.source for row in rows}
    return {row.dataset for row in every if row.source in sources} - {POOLED}


def pooled_origin(origins: Mapping[str, str]) -> str:
    """The data origin of the pooled rows: the combined origin of the pooled data sets that are run here."""
    from ordeval.io.provenance import combined_origin

    over = pooled_datasets()
    return combined_origin({name: origin for name, origin in origins.items() if name in over})


def total_counts(summary: Table) -> dict[str, int]:
    """The headline: {verdict: count, "numbers": count} of the total row of a summary table (:func:`summary`, or
    ``tables/replication/summary.csv`` read back). The PDF's first page, the HTML report and page, and the summary
    a run prints all take their counts from here."""
    total = summary.records()[-1]
    return {
        "numbers": int(total["numbers"]),
        **{verdict: int(total[verdict_column(verdict)]) for verdict in VERDICTS},
    }


def headline(counts: Mapping[str, int]) -> str:
    """The counts of :func:`total_counts` in one line: "of 484 published numbers: 226 exact, ..."."""
    parts = [f"{counts[verdict]} {'differ' if verdict == 'differs' else verdict}" for verdict in VERDICTS]
    return f"of {counts['numbers']} published numbers: {', '.join(parts)}"


#: The verdicts counted in summary.csv's first columns, before ``numbers`` (an output's columns are kept where
#: they were: a verdict added later has its column after ``numbers``).
_FIRST_VERDICTS = ("exact", "within randomisation error", "differs", "not comparable")


def summary(tables: list[Table]) -> Table:
    """Counts per verdict for each published table (source and data set), then a total row: a column per verdict
    (:func:`verdict_column`), ``numbers`` (all of them)."""
    groups: dict[tuple[str, str], Counter] = {}
    for table in tables:
        for source, dataset, verdict in zip(table["source"], table["dataset"], table["verdict"], strict=True):
            groups.setdefault((source, dataset), Counter())[verdict] += 1
    keys = _summary_keys(groups)
    total = Counter()
    for counts in groups.values():
        total.update(counts)
    counts = [groups[key] for key in keys] + [total]
    result = Table(
        {"source": [key[0] for key in keys] + ["all published numbers"], "dataset": [key[1] for key in keys] + [""]}
    )
    for verdict in _FIRST_VERDICTS:
        result[verdict_column(verdict)] = [count[verdict] for count in counts]
    result["numbers"] = [sum(count.values()) for count in counts]
    for verdict in VERDICTS:
        if verdict not in _FIRST_VERDICTS:
            result[verdict_column(verdict)] = [count[verdict] for count in counts]
    return result
