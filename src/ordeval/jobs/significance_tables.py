"""Rule significance_tables: discriminative power (per data set and pooled), significance overlap per
data set, and the contradictions between measures (counts, exact run pairs, grouped view), for the data
sets of each task; each as CSV and LaTeX."""

from __future__ import annotations

import logging

from ..analysis.significance import (
    contradiction_counts,
    contradiction_table,
    discriminative_power,
    discriminative_power_table,
    grouped_contradictions,
    overlap_table,
    read_run_groups,
    read_significance,
)
from ..latex import measure_labels, write_latex
from ..latex.significance import (
    contradiction_counts_latex,
    contradictions_latex,
    discriminative_power_latex,
    sso_latex,
)
from ..provenance import read_origins
from ..scores import read_measure_table
from ..table import Table, write_csv
from . import Job, files_by

log = logging.getLogger("significance_tables")


def load_significance(files: dict, measures: list[str], trials: int):
    """A data set's p-values restricted to ``measures`` (with their directions) and the measures' LaTeX labels."""
    significance = read_significance(files["pvalues"], files["measures_tsv"], measures, trials)
    return significance, measure_labels(read_measure_table(files["measures_tsv"]))


def run(job: Job):
    """params: datasets, tasks (per task: datasets, measures), alpha, trials. Inputs ``pvalues``,
    ``run_groups``, ``measures``, ``provenance`` and outputs ``sso_csv``, ``sso_tex`` one per data set; outputs
    ``power_*``, ``counts_*``, ``contradictions_*``, ``grouped_*`` (csv, tex) one per task."""
    params = job.params
    alpha, trials = params["alpha"], params["trials"]
    test = f"randomised Tukey HSD, B = {trials} trials, alpha = {alpha:g}"
    inputs, output = job.input, job.output
    datasets = files_by(params["datasets"], pvalues=inputs["pvalues"], run_groups=inputs["run_groups"],
                        measures_tsv=inputs["measures"], provenance=inputs["provenance"],
                        sso_csv=output["sso_csv"], sso_tex=output["sso_tex"])  # fmt: skip
    tables = ("power", "counts", "contradictions", "grouped")
    per_task = files_by([summary["task"] for summary in params["tasks"]],
                        **{f"{t}_{ext}": output[f"{t}_{ext}"] for t in tables for ext in ("csv", "tex")})  # fmt: skip
    for summary in params["tasks"]:
        measures = summary["measures"]
        origins = read_origins({name: datasets[name]["provenance"] for name in summary["datasets"]})
        powers, contradictions, group_of, labels = {}, [], {}, {}
        for dataset in summary["datasets"]:
            files = datasets[dataset]
            significance, these_labels = load_significance(files, measures, trials)
            labels.update(these_labels)
            powers[dataset] = discriminative_power(significance, alpha)
            overlap = overlap_table(significance, alpha)
            own = {dataset: origins[dataset]}
            write_csv(overlap, files["sso_csv"], own)
            write_latex(
                sso_latex(overlap, measures, labels), files["sso_tex"], own,
                f"{dataset}: significance overlap SSO = b/(a+b+c) in % (a/b/c) of pairs of measures; "
                f"a, c = run pairs significant only with the row / column measure, b = with both ({test}).",
            )  # fmt: skip
            contradictions.append(contradiction_table(significance, alpha, dataset))
            group_of[dataset] = read_run_groups(files["run_groups"])
            log.info("%s: significant pairs per measure %s", dataset, powers[dataset].significant.tolist())

        outputs = per_task[summary["task"]]
        power_table = discriminative_power_table(powers)
        write_csv(power_table, outputs["power_csv"], origins)
        write_latex(
            discriminative_power_latex(power_table, labels), outputs["power_tex"], origins,
            f"Discriminative power: % of the T run pairs with p < alpha (S in parentheses), {test}; "
            "POOLED = sum S / sum T. Bold >= 50%, underlined < 40%.",
        )  # fmt: skip
        detail = Table.concat(contradictions)
        counts = contradiction_counts(detail, summary["datasets"], measures)
        write_csv(counts, outputs["counts_csv"], origins)
        write_latex(
            contradiction_counts_latex(counts, labels), outputs["counts_tex"], origins,
            f"Contradictions: run pairs significant under both measures whose better run differs ({test}).",
        )  # fmt: skip
        write_csv(detail, outputs["contradictions_csv"], origins)
        write_latex(
            contradictions_latex(detail, labels), outputs["contradictions_tex"], origins,
            f"Contradictions: measure 1 says run X is significantly better than run Y, measure 2 the reverse ({test}).",
        )  # fmt: skip
        grouped = grouped_contradictions(detail, group_of)
        write_csv(grouped, outputs["grouped_csv"], origins)
        write_latex(
            contradictions_latex(grouped, labels), outputs["grouped_tex"], origins,
            "Contradictions as in contradictions.tex, runs with identical scores under every measure grouped "
            "(e.g. BL-popularity-{C,E}); Pairs = individual run pairs in the row.",
        )  # fmt: skip
        log.info("%s: %d contradicting run pairs (%d grouped rows)", summary["task"], len(detail), len(grouped))
