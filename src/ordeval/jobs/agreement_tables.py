"""Rule agreement_tables: Kendall's tau (with CIs) between the run rankings of every pair of measures
per data set, averaged over the data sets of each task, the measures' average similarity, and the
DNKT_M tables (docs/methods.md 4.1); each as CSV (unrounded) and LaTeX."""

from __future__ import annotations

import logging

from ..analysis.agreement import (
    combination_measures,
    combination_table,
    mean_pair_table,
    ranking_agreement,
    similarity_table,
)
from ..latex import measure_labels, write_latex
from ..latex.agreement import combination_latex, similarity_latex, tau_matrix_latex
from ..provenance import read_origins
from ..scores import read_stack
from ..stats import CI_METHODS
from ..table import write_csv
from . import Job, files_by

log = logging.getLogger("agreement_tables")


def run(job: Job):
    """params: datasets, measures ({data set: measures}), tasks (per task: datasets, measures),
    combinations (the M of each DNKT_M table; over the OQ data sets ``dnkt_datasets``), ci_level, ci_method,
    kendall.
    Inputs ``stack``, ``provenance`` and outputs ``csv``, ``tex`` one per data set; outputs ``mean_*``,
    ``similarity_*`` (csv, tex) one per task, ``dnkt_csv``, ``dnkt_tex`` one per combination."""
    params = job.params
    level, variant, method = params["ci_level"], params["kendall"], params["ci_method"]
    inputs, output = job.input, job.output
    datasets = files_by(params["datasets"], stack=inputs["stack"], provenance=inputs["provenance"],
                        csv=output["csv"], tex=output["tex"])  # fmt: skip
    tables = {f"{t}_{ext}": output[f"{t}_{ext}"] for t in ("mean", "similarity") for ext in ("csv", "tex")}
    per_task = files_by([summary["task"] for summary in params["tasks"]], **tables)
    per_combination = files_by(params["combinations"], csv=output["dnkt_csv"], tex=output["dnkt_tex"])
    origins = read_origins({name: files["provenance"] for name, files in datasets.items()})
    pairs, labels = {}, {}
    for dataset, files in datasets.items():
        stack = read_stack(files["stack"], params["measures"][dataset])
        agreement = ranking_agreement(stack.means(), stack.measures, stack.lower_is_better, level, variant, method)
        pairs[dataset] = agreement.pair_table()
        labels.update(measure_labels(stack))
        write_csv(pairs[dataset], files["csv"], {dataset: origins[dataset]})
        description = (
            f"{dataset}: Kendall's tau-{variant} between the rankings of {agreement.runs} runs by mean score, "
            f"for every pair of measures, with {level:.0%} CIs ({CI_METHODS[method]}) below the taus."
        )
        write_latex(
            tau_matrix_latex(pairs[dataset], stack.measures, labels),
            files["tex"],
            {dataset: origins[dataset]},
            description,
        )
        low = min(pairs[dataset].column("tau", float)) if len(pairs[dataset]) else float("nan")
        log.info(
            "%s: %d measure pairs over %d runs, lowest tau %.3f", dataset, len(pairs[dataset]), agreement.runs, low
        )

    for summary in params["tasks"]:
        summary.update(per_task[summary["task"]])
        names = summary["datasets"]
        task_origins = {name: origins[name] for name in names}
        listing = ", ".join(names)
        mean = mean_pair_table([pairs[name] for name in names])
        write_csv(mean, summary["mean_csv"], task_origins)
        description = (
            f"Kendall's tau-{variant} between the measures' run rankings, averaged over the data sets {listing}."
        )
        write_latex(tau_matrix_latex(mean, summary["measures"], labels), summary["mean_tex"], task_origins, description)
        similarity = similarity_table({name: pairs[name] for name in names}, summary["measures"])
        write_csv(similarity, summary["similarity_csv"], task_origins)
        description = (
            "Average similarity of each measure with the other measures (mean of the taus involving it), "
            f"per data set and averaged over {listing}; the highest mean in bold."
        )
        write_latex(similarity_latex(similarity, labels), summary["similarity_tex"], task_origins, description)
        log.info("%s: averaged %d measure pairs over %d data sets", summary["task"], len(mean), len(names))

    for measure in params["combinations"]:
        combination = {**per_combination[measure], "datasets": params["dnkt_datasets"]}
        measures = combination_measures(measure)
        agreements = {}
        for name in combination["datasets"]:
            stack = read_stack(datasets[name]["stack"], measures)
            agreements[name] = ranking_agreement(stack.means(), measures, stack.lower_is_better, level, variant,
                                                 method)  # fmt: skip
            labels.update(measure_labels(stack))
        table = combination_table(agreements)
        these = {name: origins[name] for name in combination["datasets"]}
        write_csv(table, combination["csv"], these)
        description = (
            f"Kendall's tau-{variant} (with {level:.0%} CIs, {CI_METHODS[method]}) between the run rankings of "
            f"DNKT, {measure} and their harmonic mean DNKT_{measure}, per data set and averaged over the data sets "
            "(mean: no CI)."
        )
        write_latex(combination_latex(table, labels), combination["tex"], these, description)
        log.info("DNKT_%s: %d data sets", measure, len(agreements))
    return pairs
