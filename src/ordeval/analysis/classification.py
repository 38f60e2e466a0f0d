"""The ordinal classification measures compared as in the ACL 2021 paper's Table 4, and the checks the
paper makes on constant baselines.

Columns (I)-(III) of the properties table are computed for each measure by :mod:`ordeval.properties`
(``ordinal``, ``handles_constant``, ``handles_imbalance``: the defining cases and seeded random
instances; a measure's declared flags must agree, ``tests/test_properties.py``). Columns (IV)-(VI) are
derived from the computed results by the rules below, which the table's caption states:

* (IV) ranking-similarity cluster: average-linkage clustering of the measures into two clusters on the
  distance 1 - tau, tau averaged over the OC data sets; cluster A holds the first measure of the paper's
  order (alpha_ORD), cluster B the other; a measure whose mean tau with the other cluster is within
  ``SIMILARITY_MARGIN`` of its mean tau with its own cluster is A/B.
* (V) consistency and (VI) discriminative power: the measures ranked by their mean tau over the OC data
  sets and both split conditions (V) and by their pooled discriminative power (VI); the top third is
  good, the middle third fair, the bottom third poor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ordeval.analysis.consistency import beaten_worst, split_heading
from ordeval.io.table import Table

#: (IV): a measure this close to both clusters (in mean tau) is in A/B.
SIMILARITY_MARGIN = 0.05
#: (V), (VI): good / fair / poor by thirds of the ranking.
RATINGS = ("good", "fair", "poor")
#: The row order of the ACL 2021 paper's Table 4 (alpha_ORD and alpha_INT share a row there); other
#: measures follow in the order given.
PROPERTY_ORDER = ("kappa", "alpha_ORD", "alpha_INT", "CEM_ORD", "MAE_M", "F1_M", "HMPR", "MAE_mu", "Accuracy")
#: |kappa| below this is 0 (the paper's proof: a constant run gets kappa = 0 where it is defined).
KAPPA_ZERO = 1e-12


def similarity_clusters(taus: np.ndarray, measures: Sequence[str], margin: float = SIMILARITY_MARGIN) -> list[str]:
    """A, B or A/B per measure from the symmetric measures x measures mean tau matrix (see the module)."""
    count = len(measures)
    if count < 2:
        return ["A"] * count
    distance = 1.0 - np.asarray(taus, dtype=float)
    clusters = [[i] for i in range(count)]
    while len(clusters) > 2:  # average linkage
        best, pair = np.inf, (0, 1)
        for a in range(len(clusters)):
            for b in range(a + 1, len(clusters)):
                d = distance[np.ix_(clusters[a], clusters[b])].mean()
                if d < best:
                    best, pair = d, (a, b)
        a, b = pair
        clusters[a] = clusters[a] + clusters[b]
        del clusters[b]
    first = 0 if 0 in clusters[0] else 1
    members = {"A": clusters[first], "B": clusters[1 - first]}
    labels = []
    for i in range(count):
        own = "A" if i in members["A"] else "B"
        other = "B" if own == "A" else "A"
        within = [j for j in members[own] if j != i]
        mean_own = np.mean(np.asarray(taus)[i, within]) if within else 1.0
        mean_other = np.mean(np.asarray(taus)[i, members[other]])
        labels.append("A/B" if abs(mean_own - mean_other) <= margin else own)
    return labels


def thirds(values: Sequence[float], higher_is_better: bool = True) -> list[str]:
    """good / fair / poor by thirds of the ranking of ``values`` (ties share the better rating)."""
    values = np.asarray(values, dtype=float)
    count = len(values)
    order = np.argsort(-values if higher_is_better else values, kind="stable")
    rank = np.empty(count, dtype=int)
    rank[order] = np.arange(count)
    for i in range(count):  # ties: the best rank among equal values
        equal = np.flatnonzero(values == values[i])
        rank[i] = rank[equal].min()
    return [RATINGS[min(2, 3 * r // max(count, 1))] for r in rank]


def properties_table(
    measures: Sequence[str],
    flags: Mapping[str, Mapping[str, bool]],
    mean_taus: np.ndarray,
    consistency: Mapping[str, float],
    power: Mapping[str, float],
) -> Table:
    """One row per measure: (I) ordinal, (II) handles constant runs, (III) handles class imbalance
    (``flags``, computed by :func:`ordeval.properties.computed_flags`), (IV) similarity cluster, (V)
    consistency, (VI) discriminative power, with the numbers (V) and (VI) are rated from. Rows in the
    paper's order (:data:`PROPERTY_ORDER`); the clusters and ratings are computed in the order of
    ``measures`` (cluster A holds its first measure)."""
    clusters = dict(zip(measures, similarity_clusters(mean_taus, measures), strict=True))
    consistency_ratings = dict(zip(measures, thirds([consistency[m] for m in measures]), strict=True))
    power_ratings = dict(zip(measures, thirds([power[m] for m in measures]), strict=True))
    rows = [m for m in PROPERTY_ORDER if m in measures] + [m for m in measures if m not in PROPERTY_ORDER]
    return Table(
        {
            "measure": rows,
            "ordinal": [bool(flags[m].get("ordinal", False)) for m in rows],
            "handles_constant": [bool(flags[m].get("handles_constant", False)) for m in rows],
            "handles_imbalance": [bool(flags[m].get("handles_imbalance", False)) for m in rows],
            "similarity_cluster": [clusters[m] for m in rows],
            "consistency": [consistency_ratings[m] for m in rows],
            "mean_tau": [consistency[m] for m in rows],
            "discriminative_power": [power_ratings[m] for m in rows],
            "pooled_dp_percent": [power[m] for m in rows],
        }
    )


def constant_kappa_table(
    dataset: str,
    runs: Sequence[str],
    classes: Sequence[str],
    kappa: np.ndarray,
    undefined: np.ndarray,
) -> Table:
    """For each constant baseline (``runs`` with the class it returns), the topics where kappa = 0,
    where kappa is undefined (gold and run all in the run's class: the convention value is used), and
    the topics in all. ``kappa`` is topics x len(runs); ``undefined`` a boolean topics x len(runs)."""
    kappa = np.asarray(kappa, dtype=float)
    undefined = np.asarray(undefined, dtype=bool)
    zero = (np.abs(kappa) < KAPPA_ZERO) & ~undefined
    return Table(
        {
            "dataset": [dataset] * len(runs),
            "run": list(runs),
            "class": list(classes),
            "topics": [kappa.shape[0]] * len(runs),
            "defined": (~undefined).sum(axis=0).astype(np.int64),
            "kappa_zero": zero.sum(axis=0).astype(np.int64),
            "kappa_not_zero": ((~zero) & ~undefined).sum(axis=0).astype(np.int64),
        }
    )


def gold_single_class(gold_path, topics: list[str]) -> dict[str, str | None]:
    """Per topic, its only gold label, or None when the gold has several (from the canonical gold table)."""
    labels: dict[str, set[str]] = {}
    with open(gold_path, encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            topic, _, label = line.rstrip("\n").split("\t")
            labels.setdefault(topic, set()).add(label)
    return {topic: next(iter(labels[topic])) if len(labels[topic]) == 1 else None for topic in topics}


# --------------------------------------------------------------------------- the inputs of the paper's tables


def consistency_table(panels: Mapping[str, Mapping[str, Table]], topics: Mapping[str, int], subset_size: int) -> Table:
    """The numbers of the paper's Table 3 from each data set's consistency summaries (``panels``: {data set:
    {condition: summary}}, each sorted by mean tau): per data set, condition and measure, the sizes of the split's
    two topic sets (:func:`~ordeval.analysis.consistency.split_heading`, from the data set's ``topics`` and
    ``subset_size``), the mean tau, k = how many of the worst measures it significantly outperforms
    (:func:`~ordeval.analysis.consistency.beaten_worst`) and VE2."""
    rows = []
    for name, summaries in panels.items():
        for condition, summary in summaries.items():
            split = split_heading(condition, topics[name], subset_size)
            for row, k in zip(summary.records(), beaten_worst(summary), strict=True):
                rows.append((name, condition, split, row["measure"], row["mean_tau"], k, row["ve2"]))
    columns = ["dataset", "condition", "split", "measure", "mean_tau", "beats_worst", "ve2"]
    return Table({name: [row[i] for row in rows] for i, name in enumerate(columns)})


def mean_consistency(panels: Mapping[str, Mapping[str, Table]], measures: Sequence[str]) -> dict[str, float]:
    """Each measure's consistency as Table 4's (V) rates it: the mean of its mean tau over every data set and
    condition of ``panels`` ({data set: {condition: summary}})."""
    return {
        measure: float(
            np.mean(
                [
                    summary.column("mean_tau", float)[list(summary["measure"]).index(measure)]
                    for summaries in panels.values()
                    for summary in summaries.values()
                ]
            )
        )
        for measure in measures
    }


def pooled_power(power: Table) -> dict[str, float]:
    """Each measure's discriminative power pooled over the data sets (the POOLED rows of a discriminative power
    table: sum S / sum T, in percent), as Table 4's (VI) rates it."""
    return {row["measure"]: float(row["percent"]) for row in power.records() if row["dataset"] == "POOLED"}


def constant_kappa(stack, gold_path, constant_runs: Mapping[str, str], dataset: str) -> Table:
    """The :func:`constant_kappa_table` of data set ``dataset``: linear weighted kappa (the stack's ``kappa``) of
    each of its ``constant_runs`` ({run: the class it always returns}) per topic, undefined on the topics whose
    gold is all in that class (:func:`gold_single_class` of the canonical gold at ``gold_path``)."""
    single = gold_single_class(gold_path, stack.topics)
    runs = list(constant_runs)
    classes = [str(constant_runs[run]) for run in runs]
    kappa = stack.matrix("kappa")[:, [stack.runs.index(run) for run in runs]]
    undefined = np.array([[single[topic] == label for label in classes] for topic in stack.topics])
    return constant_kappa_table(dataset, runs, classes, kappa, undefined)
