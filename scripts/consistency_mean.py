"""Rule consistency_mean: mean tau of every measure per data set and averaged over the data sets, for
each condition (SPEC 4.2)."""

import logging

from ordeval.consistency import mean_summary, mean_summary_latex, read_summary
from ordeval.outputs import read_origins, write_csv, write_latex

log = logging.getLogger("consistency_mean")


def main(provenance_paths: dict, summaries: dict):
    """``summaries`` maps each condition to ``tables`` ({data set: consistency summary CSV}) and the
    ``csv`` and ``tex`` output paths."""
    origins = read_origins(provenance_paths)
    results = {}
    for condition, paths in summaries.items():
        summary = mean_summary({dataset: read_summary(path) for dataset, path in paths["tables"].items()})
        write_csv(summary, paths["csv"], origins)
        description = (
            f"System ranking consistency, condition {condition}: mean Kendall's tau between the rankings on "
            "the two topic sets per data set, and their mean; sorted by the mean, the highest of each column in bold."
        )
        write_latex(mean_summary_latex(summary), paths["tex"], origins, description)
        log.info("%s: %d measures over %d data sets", condition, len(summary), len(paths["tables"]))
        results[condition] = summary
    return results


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "consistency_mean"):
        datasets = snakemake.params.datasets
        conditions = snakemake.params.conditions
        tables = list(snakemake.input.tables)  # data sets x conditions
        main(
            dict(zip(datasets, snakemake.input.provenance, strict=True)),
            {
                condition: {
                    "tables": {d: tables[i * len(conditions) + j] for i, d in enumerate(datasets)},
                    "csv": snakemake.output.csv[j],
                    "tex": snakemake.output.tex[j],
                }
                for j, condition in enumerate(conditions)
            },
        )
