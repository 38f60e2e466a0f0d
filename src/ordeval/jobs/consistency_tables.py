"""Rule consistency_tables: the LaTeX of every consistency summary and pair table, and the mean tau
per measure over the data sets of each task (CSV and LaTeX)."""

from __future__ import annotations

import logging

from ..analysis.consistency import mean_summary, read_pairs, read_summary
from ..latex import measure_labels, write_latex
from ..latex.consistency import comparison_latex, effect_size_latex, mean_summary_latex, symbols
from ..provenance import read_origins
from ..scores import read_measure_table
from ..table import write_csv
from . import Job

log = logging.getLogger("consistency_tables")


def run(job: Job):
    params = job.params
    test = f"randomised Tukey HSD with B = {params['hsd_trials']}, alpha = {params['alpha']}"
    summaries: dict[tuple[str, str], object] = {}
    for dataset, files in params["datasets"].items():
        origins = read_origins({dataset: files["provenance"]})
        labels = measure_labels(read_measure_table(files["measures_tsv"]))
        symbol_of = symbols(files["measures"])
        for condition, paths in files["conditions"].items():
            summary = read_summary(paths["summary"])
            summaries[(dataset, condition)] = summary
            ve2 = float(summary.column("ve2", float)[0])
            setting = (
                f"{dataset}, condition {condition}: {params['trials']} random splits "
                f"({int(summary['trials'][0])} with every tau defined); {test}; VE2 = {ve2:.3g}."
            )
            description = (
                "System ranking consistency: mean Kendall's tau between the run rankings on the two topic sets, "
                "sorted; each measure's symbol and the symbols of the measures it significantly outperforms. "
            )
            write_latex(comparison_latex(summary, symbol_of, labels), paths["tex"], origins, description + setting)
            pairs = read_pairs(paths["pairs"])
            description = (
                "Effect sizes (mean tau of the row measure - that of the column measure) / sqrt(VE2); "
                "significant differences in bold. "
            )
            write_latex(effect_size_latex(pairs, list(summary["measure"]), labels), paths["pairs_tex"], origins,
                        description + setting)  # fmt: skip
    for group in params["groups"]:
        labels = measure_labels(read_measure_table(group["measures_tsv"]))
        origins = read_origins(group["provenance"])
        for condition, paths in group["conditions"].items():
            table = mean_summary({name: summaries[(name, condition)] for name in group["datasets"]})
            write_csv(table, paths["csv"], origins)
            description = (
                f"System ranking consistency, condition {condition}: mean Kendall's tau between the rankings on "
                "the two topic sets per data set, and their mean; sorted by the mean, the highest of each column "
                "in bold."
            )
            write_latex(mean_summary_latex(table, labels), paths["tex"], origins, description)
            log.info(
                "%s %s: %d measures over %d data sets", group["task"], condition, len(table), len(group["datasets"])
            )
