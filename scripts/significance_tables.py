"""Rule significance_tables: discriminative power (all data sets and pooled), significance overlap
per data set, and the contradictions between measures (counts, exact run pairs, grouped view)."""

import logging
from pathlib import Path

import pandas as pd

from ordeval.outputs import read_origins, write_csv, write_latex
from ordeval.significance import (
    contradiction_counts,
    contradiction_counts_latex,
    contradiction_table,
    contradictions_latex,
    discriminative_power,
    discriminative_power_latex,
    discriminative_power_table,
    grouped_contradictions,
    overlap_table,
    read_pvalue_table,
    read_run_groups,
    sso_latex,
)

log = logging.getLogger("significance_tables")


def main(
    datasets: list[str],
    pvalue_paths: list,
    group_paths: list,
    provenance_paths: list,
    measures: list[str],
    alpha: float,
    trials: int,
    tables_dir,
):
    """Write under ``tables_dir``: discriminative_power, sso/<dataset>, contradiction_counts,
    contradictions and contradictions_grouped, each as .csv and .tex."""
    tables = Path(tables_dir)
    origins = read_origins(dict(zip(datasets, provenance_paths, strict=True)))
    test = f"randomised Tukey HSD, B = {trials} trials, alpha = {alpha:g}"
    powers, contradictions, group_of = {}, [], {}
    for dataset, pvalue_path, group_path in zip(datasets, pvalue_paths, group_paths, strict=True):
        significance = read_pvalue_table(pvalue_path).subset(measures)
        powers[dataset] = discriminative_power(significance, alpha)
        overlap = overlap_table(significance, alpha)
        own_origin = {dataset: origins[dataset]}
        write_csv(overlap, tables / "sso" / f"{dataset}.csv", own_origin)
        write_latex(
            sso_latex(overlap, measures),
            tables / "sso" / f"{dataset}.tex",
            own_origin,
            f"{dataset}: significance overlap SSO = b/(a+b+c) in % (a/b/c) of pairs of measures; "
            f"a, c = run pairs significant only with the row / column measure, b = with both ({test}).",
        )
        contradictions.append(contradiction_table(significance, alpha, dataset))
        group_of[dataset] = read_run_groups(group_path)
        log.info("%s: significant pairs per measure %s", dataset, powers[dataset].significant.tolist())

    power_table = discriminative_power_table(powers)
    write_csv(power_table, tables / "discriminative_power.csv", origins)
    write_latex(
        discriminative_power_latex(power_table),
        tables / "discriminative_power.tex",
        origins,
        f"Discriminative power: % of the T run pairs with p < alpha (S in parentheses), {test}; "
        "POOLED = sum S / sum T. Bold >= 50%, underlined < 40%.",
    )

    detail = pd.concat(contradictions, ignore_index=True)
    counts = contradiction_counts(detail, datasets, measures)
    write_csv(counts, tables / "contradiction_counts.csv", origins)
    write_latex(
        contradiction_counts_latex(counts),
        tables / "contradiction_counts.tex",
        origins,
        f"Contradictions: run pairs significant under both measures whose better run differs ({test}).",
    )
    write_csv(detail, tables / "contradictions.csv", origins)
    write_latex(
        contradictions_latex(detail),
        tables / "contradictions.tex",
        origins,
        f"Contradictions: measure 1 says run X is significantly better than run Y, measure 2 the reverse ({test}).",
    )
    grouped = grouped_contradictions(detail, group_of)
    write_csv(grouped, tables / "contradictions_grouped.csv", origins)
    write_latex(
        contradictions_latex(grouped),
        tables / "contradictions_grouped.tex",
        origins,
        "Contradictions as in contradictions.tex, runs with identical scores under every measure grouped "
        "(e.g. BL-popularity-{C,E}); Pairs = individual run pairs in the row.",
    )
    log.info("%d contradicting run pairs in all (%d grouped rows)", len(detail), len(grouped))
    return power_table, counts, detail, grouped


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "significance_tables"):
        main(
            snakemake.params.datasets,
            snakemake.input.pvalues,
            snakemake.input.groups,
            snakemake.input.provenance,
            snakemake.params.measures,
            snakemake.params.alpha,
            snakemake.params.trials,
            Path(snakemake.output.power_csv).parent,
        )
