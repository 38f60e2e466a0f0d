"""Rule agreement_mean: the tau matrix averaged over the data sets, and every measure's average
similarity with the other measures per data set and on average (SPEC 4.1)."""

import logging

from ordeval.agreement import mean_pair_table, read_pair_table, similarity_latex, similarity_table, tau_matrix_latex
from ordeval.outputs import read_origins, write_csv, write_latex

log = logging.getLogger("agreement_mean")


def main(measures: list[str], table_paths: dict, provenance_paths: dict, outputs: dict):
    """``table_paths`` and ``provenance_paths`` map each data set to its agreement CSV and provenance;
    ``outputs`` has the paths ``mean_csv``, ``mean_tex``, ``similarity_csv`` and ``similarity_tex``."""
    per_dataset = {dataset: read_pair_table(path) for dataset, path in table_paths.items()}
    origins = read_origins(provenance_paths)
    names = ", ".join(per_dataset)
    mean = mean_pair_table(list(per_dataset.values()))
    write_csv(mean, outputs["mean_csv"], origins)
    description = f"Kendall's tau between the measures' run rankings, averaged over the data sets {names}."
    write_latex(tau_matrix_latex(mean, measures), outputs["mean_tex"], origins, description)
    similarity = similarity_table(per_dataset, measures)
    write_csv(similarity, outputs["similarity_csv"], origins)
    description = (
        "Average similarity of each measure with the other measures (mean of the taus involving it), "
        f"per data set and averaged over {names}; the highest mean in bold."
    )
    write_latex(similarity_latex(similarity), outputs["similarity_tex"], origins, description)
    log.info("averaged %d measure pairs over %d data sets", len(mean), len(per_dataset))
    return mean, similarity


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "agreement_mean"):
        datasets = snakemake.params.datasets
        main(
            snakemake.params.measures,
            dict(zip(datasets, snakemake.input.tables, strict=True)),
            dict(zip(datasets, snakemake.input.provenance, strict=True)),
            dict(snakemake.output.items()),
        )
