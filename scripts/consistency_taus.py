"""Rule consistency_taus: system ranking consistency of the measures on one data set (Sakai, CIKM 2021). For
each condition (topic halves, two small subsets): the taus between the run rankings on the two topic sets of
every random split, then the measures compared on them (mean tau, randomised Tukey HSD, VE2, effect sizes):
the taus as TSV, the summary and the pairs as CSV and LaTeX."""

import numpy as np

from ordeval.analysis.consistency import compare_measures, taus_table
from ordeval.io.provenance import read_origins
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.consistency import comparison_latex, effect_size_latex, symbols
from ordeval.reports.table_page import write_table_page
from ordeval.stats.seeding import stream
from ordeval.stats.splits import condition_splits, split_taus
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, output = snakemake.wildcards.dataset, snakemake.params, snakemake.output
    stack = read_stack(snakemake.input.stack, params.measures)
    origins = read_origins({dataset: snakemake.input.provenance})
    labels, symbol_of = measure_labels(stack), symbols(params.measures)
    test = f"randomised Tukey HSD with B = {params.hsd_trials}, α = {params.alpha}"
    for condition in params.conditions:
        rng = stream(params.seed, dataset, f"consistency-{condition}")
        splits = condition_splits(condition, len(stack.topics), params.splits, params.subset_size, rng)
        taus = split_taus(stack.values, splits, variant=params.kendall)
        taus_table(taus, stack.measures).write(output[f"taus_{condition}"])
        rng = stream(params.seed, dataset, f"consistency-{condition}-hsd")
        comparison = compare_measures(taus, stack.measures, params.hsd_trials, params.alpha, rng, snakemake.threads)
        summary, pairs = comparison.summary_table(), comparison.pair_table()
        write_csv(summary, output[f"summary_{condition}"], origins)
        write_table_page(output[f"summary_{condition}"], output[f"summary_html_{condition}"])
        write_csv(pairs, output[f"pairs_{condition}"], origins)
        write_table_page(output[f"pairs_{condition}"], output[f"pairs_html_{condition}"])
        setting = (
            f"{dataset}, condition {condition}: {params.splits} random splits ({comparison.trials} with every "
            f"tau defined); {test}; VE2 = {comparison.ve2:.3g}."
        )
        description = (
            "System ranking consistency: mean Kendall's τ between the run rankings on the two topic sets, "
            "sorted; each measure's symbol and the symbols of the measures it significantly outperforms. "
        )
        write_latex(
            comparison_latex(summary, symbol_of, labels),
            output[f"summary_tex_{condition}"],
            origins,
            description + setting,
        )
        description = (
            "Effect sizes (mean τ of the row measure - that of the column measure) / sqrt(VE2); "
            "significant differences in bold. "
        )
        write_latex(
            effect_size_latex(pairs, list(summary["measure"]), labels),
            output[f"pairs_tex_{condition}"],
            origins,
            description + setting,
        )
        log.info(
            "%s %s: %d vs %d of %d topics; undefined taus %d; best %s (%.4f), VE2 %.3g",
            dataset,
            condition,
            splits.first[0].sum(),
            splits.second[0].sum(),
            len(stack.topics),
            np.isnan(taus).sum(),
            comparison.measures[0],
            comparison.mean_tau[0],
            comparison.ve2,
        )
