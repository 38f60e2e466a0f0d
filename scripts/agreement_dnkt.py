"""Rule agreement_dnkt: how DNKT, a measure M and their harmonic mean DNKT_M rank the runs alike
(tau with CIs per data set, and averaged over the data sets; SPEC 4.1)."""

import logging

from ordeval.agreement import combination_latex, combination_measures, combination_table, ranking_agreement
from ordeval.outputs import read_origins, write_csv, write_latex
from ordeval.scoring import load_score_stack

log = logging.getLogger("agreement_dnkt")


def main(measure: str, level: float, score_paths: dict, provenance_paths: dict, csv_path, tex_path):
    """``score_paths`` maps each data set to ``{measure: score table}`` for DNKT, M and DNKT_M."""
    measures = combination_measures(measure)
    agreements = {}
    for dataset, paths in score_paths.items():
        stack = load_score_stack({name: paths[name] for name in measures})
        agreements[dataset] = ranking_agreement(stack.means(), measures, level)
    table = combination_table(agreements)
    origins = read_origins(provenance_paths)
    write_csv(table, csv_path, origins)
    description = (
        f"Kendall's tau (with {level:.0%} CIs) between the run rankings of DNKT, {measure} and their "
        f"harmonic mean DNKT_{measure}, per data set and averaged over the data sets (mean: no CI)."
    )
    write_latex(combination_latex(table), tex_path, origins, description)
    log.info("DNKT_%s: %d data sets", measure, len(agreements))
    return table


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "agreement_dnkt"):
        measure = snakemake.wildcards.combination
        datasets = snakemake.params.datasets
        names = combination_measures(measure)
        scores = list(snakemake.input.scores)
        main(
            measure,
            snakemake.params.ci_level,
            {d: dict(zip(names, scores[i * 3 : i * 3 + 3], strict=True)) for i, d in enumerate(datasets)},
            dict(zip(datasets, snakemake.input.provenance, strict=True)),
            snakemake.output.csv,
            snakemake.output.tex,
        )
