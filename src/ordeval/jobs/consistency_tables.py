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
    """params: datasets, measures ({data set: measures}), tasks (per task: datasets), conditions, trials,
    hsd_trials, alpha. Per data set and condition (data set first) the inputs ``summary`` and ``pairs``
    and the outputs ``tex``, ``pairs_tex``; per data set ``measures`` and ``provenance``; per task and
    condition (task first) the outputs ``mean_csv``, ``mean_tex``."""
    params = job.params
    conditions = params["conditions"]
    test = f"randomised Tukey HSD with B = {params['hsd_trials']}, alpha = {params['alpha']}"
    summaries: dict[tuple[str, str], object] = {}
    provenance = dict(zip(params["datasets"], job.input["provenance"], strict=True))
    measures_tsv = dict(zip(params["datasets"], job.input["measures"], strict=True))
    for index, dataset in enumerate(params["datasets"]):
        origins = read_origins({dataset: provenance[dataset]})
        labels = measure_labels(read_measure_table(measures_tsv[dataset]))
        symbol_of = symbols(params["measures"][dataset])
        for offset, condition in enumerate(conditions):
            at = index * len(conditions) + offset
            summary = read_summary(job.input["summary"][at])
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
            write_latex(comparison_latex(summary, symbol_of, labels), job.output["tex"][at], origins,
                        description + setting)  # fmt: skip
            pairs = read_pairs(job.input["pairs"][at])
            description = (
                "Effect sizes (mean tau of the row measure - that of the column measure) / sqrt(VE2); "
                "significant differences in bold. "
            )
            write_latex(effect_size_latex(pairs, list(summary["measure"]), labels), job.output["pairs_tex"][at],
                        origins, description + setting)  # fmt: skip
    for index, summary in enumerate(params["tasks"]):
        names = summary["datasets"]
        labels = measure_labels(read_measure_table(measures_tsv[names[0]]))
        origins = read_origins({name: provenance[name] for name in names})
        for offset, condition in enumerate(conditions):
            at = index * len(conditions) + offset
            table = mean_summary({name: summaries[(name, condition)] for name in names})
            write_csv(table, job.output["mean_csv"][at], origins)
            description = (
                f"System ranking consistency, condition {condition}: mean Kendall's tau between the rankings on "
                "the two topic sets per data set, and their mean; sorted by the mean, the highest of each column "
                "in bold."
            )
            write_latex(mean_summary_latex(table, labels), job.output["mean_tex"][at], origins, description)
            log.info("%s %s: %d measures over %d data sets", summary["task"], condition, len(table), len(names))
