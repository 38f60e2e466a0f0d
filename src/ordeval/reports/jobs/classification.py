"""The ordinal classification data sets laid out as in Sakai's ACL-IJCNLP 2021 paper: its Table 2 (agreement),
Table 3 (consistency), Table 4 (the measures' properties), the constant baselines' kappa, the official SemEval
protocol and the 0/0 conventions, over every OC data set. (Its Figure 1:
:func:`ordeval.reports.figures.significance.write_classification_curves`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.analysis.agreement import mean_pair_table, tau_matrix
from ordeval.analysis.classification import (
    consistency_table,
    constant_kappa,
    constant_kappa_table,
    mean_consistency,
    pooled_power,
    properties_table,
)
from ordeval.analysis.consistency import read_summary
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table, dataset_rows, read_csv
from ordeval.properties import computed_flags
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex import measure_labels
from ordeval.reports.latex.agreement import paper_tau_latex
from ordeval.reports.latex.classification import conventions_latex, kappa_constant_latex, pooled_latex, properties_latex
from ordeval.reports.latex.consistency import paper_consistency_latex
from ordeval.tasks import get_task
from ordeval.tasks.plugins import load_plugins
from ordeval.tasks.stack import read_measure_tables, read_stack

Files = Mapping[str, str | Path]


def _outputs(outputs: Files, kind: str) -> tuple:
    return tuple(outputs[f"{kind}_{ext}"] for ext in ("csv", "html", "tex"))


def _pairs(agreement: Files) -> dict[str, Table]:
    return {name: read_csv(path, numeric=["tau", "ci_low", "ci_high"]) for name, path in agreement.items()}


def _panels(consistency: Mapping[str, Files]) -> dict[str, dict[str, Table]]:
    """{data set: {condition: its consistency summary}} from {condition: {data set: path}}."""
    panels: dict[str, dict[str, Table]] = {}
    for condition, files in consistency.items():
        for name, path in files.items():
            panels.setdefault(name, {})[condition] = read_summary(path)
    return panels


def write_oc_agreement(
    agreement: Files,
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    measures: Sequence[str],
) -> Table:
    """Table 2: Kendall's tau between the run rankings of ``measures`` on each data set of ``agreement`` ({data
    set: its agreement CSV}), one upper triangle per data set, shaded by strength (its note says how).
    ``outputs``: ``agreement_csv``, ``agreement_html``, ``agreement_tex``."""
    pairs = _pairs(agreement)
    table = dataset_rows(pairs)
    fragment = paper_tau_latex(pairs, measures, measure_labels(read_measure_tables(measure_tables)))
    write_table_files(table, fragment, origins_of(provenance), *_outputs(outputs, "agreement"))
    return table


def write_oc_consistency(
    consistency: Mapping[str, Files],
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    topics: Mapping[str, int],
    subset_size: int,
) -> Table:
    """Table 3: system ranking consistency per data set and condition of ``consistency`` ({condition: {data set:
    its consistency summary}}): the measures sorted by mean tau, each with a mark saying how many of the worst
    measures it significantly outperforms, and VE2 (:func:`~ordeval.analysis.classification.consistency_table`;
    ``topics``: {data set: its topics}, the sizes of its halves). ``outputs``: ``consistency_csv``,
    ``consistency_html``, ``consistency_tex`` ((a) full split, (b) two subsets)."""
    panels = _panels(consistency)
    table = consistency_table(panels, topics, subset_size)
    headings = {condition: condition.replace("half", "full split") for condition in consistency}
    fragment = paper_consistency_latex(panels, headings, measure_labels(read_measure_tables(measure_tables)))
    write_table_files(table, fragment, origins_of(provenance), *_outputs(outputs, "consistency"))
    return table


def write_properties(
    agreement: Files,
    consistency: Mapping[str, Files],
    power: str | Path,
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    measures: Sequence[str],
    plugins: Sequence[str | Path] = (),
) -> Table:
    """Table 4: the properties of ``measures`` (:func:`~ordeval.analysis.classification.properties_table`):
    (I)-(III) computed from each measure's entry in the registry of the task its ``measures.tsv`` names
    (:func:`~ordeval.properties.computed_flags`; ``plugins``: the plugin files that register more), (IV) the
    ranking-similarity cluster from the taus of ``agreement`` averaged over the data sets, (V) consistency from
    the mean tau over every data set and condition of ``consistency``, (VI) the pooled discriminative power of
    ``power`` (the task's discriminative power CSV). ``outputs``: ``properties_csv``, ``properties_html``,
    ``properties_tex``."""
    load_plugins(plugins)  # a plugin OC measure has its registry entry here too
    info = read_measure_tables(measure_tables)
    task_of = dict(zip(info["measure"], info["task"], strict=True))  # each measure's registry: its task's
    mean_taus = tau_matrix(mean_pair_table(list(_pairs(agreement).values())), measures)
    consistency_of = mean_consistency(_panels(consistency), measures)
    power_of = pooled_power(read_csv(power, numeric=["percent"], integer=["significant", "pairs"]))
    flags = computed_flags(get_task(task_of[m]).registry[m] for m in measures)  # (I)-(III) checked, not declared
    table = properties_table(measures, flags, mean_taus, consistency_of, power_of)
    fragment = properties_latex(table, measure_labels(info))
    write_table_files(table, fragment, origins_of(provenance), *_outputs(outputs, "properties"))
    return table


def write_constant_kappa(
    stacks: Files,
    golds: Files,
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    constant_runs: Mapping[str, Mapping[str, str]],
) -> Table:
    """The constant baselines' linear weighted kappa on each data set of ``stacks`` ({data set: its stack.npz};
    ``golds``: its canonical gold; ``constant_runs``: {data set: {run: the class it always returns}}): the topics
    where kappa = 0 among those where it is defined (:func:`~ordeval.analysis.classification.constant_kappa`); a
    data set without kappa or constant runs has no rows. ``outputs``: ``kappa_csv``, ``kappa_html``,
    ``kappa_tex``."""
    found = []
    for name, path in stacks.items():
        scores = read_stack(path)
        if "kappa" in scores.measures and constant_runs[name]:
            found.append(constant_kappa(scores, golds[name], constant_runs[name], name))
    table = Table.concat(found) if found else constant_kappa_table("", [], [], np.zeros((0, 0)), np.zeros((0, 0)))
    write_table_files(table, kappa_constant_latex(table), origins_of(provenance), *_outputs(outputs, "kappa"))
    return table


def write_oc_pooled(
    pooled: Files,
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    measures: Sequence[str],
) -> Table:
    """The official SemEval protocol on each data set of ``pooled`` ({data set: its pooled.tsv}): every run's
    ``measures`` on one confusion matrix over all items. ``outputs``: ``pooled_csv``, ``pooled_html``,
    ``pooled_tex``."""
    tables = {name: Table.read(path, numeric=list(measures)) for name, path in pooled.items()}
    table = dataset_rows(tables, ["run", *measures])
    fragment = pooled_latex(tables, measures, measure_labels(read_measure_tables(measure_tables)))
    write_table_files(table, fragment, origins_of(provenance), *_outputs(outputs, "pooled"))
    return table


def write_conventions(
    conventions: Files, measure_tables: Sequence[str | Path], provenance: Sequence[str | Path], outputs: Files
) -> Table:
    """How often each documented 0/0 convention was applied on each data set of ``conventions`` ({data set: its
    conventions.tsv}). ``outputs``: ``conventions_csv``, ``conventions_html``, ``conventions_tex``."""
    table = dataset_rows({name: Table.read(path) for name, path in conventions.items()})
    fragment = conventions_latex(table, measure_labels(read_measure_tables(measure_tables)))
    write_table_files(table, fragment, origins_of(provenance), *_outputs(outputs, "conventions"))
    return table
