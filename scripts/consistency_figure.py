"""Rule consistency_figure: distribution of the split taus of every measure on one data set, one
figure per condition."""

import logging

from ordeval.consistency import read_taus, tau_distribution_figure
from ordeval.outputs import read_origins, save_figure

log = logging.getLogger("consistency_figure")


def main(dataset: str, provenance_path, figures: dict):
    """``figures`` maps each condition to its ``taus`` TSV and the ``pdf`` and ``png`` paths."""
    origins = read_origins({dataset: provenance_path})
    for condition, paths in figures.items():
        measures, taus = read_taus(paths["taus"])
        title = f"{dataset}, {condition}: tau over {taus.shape[0]} random topic splits (whiskers 2.5-97.5%)"
        description = (
            f"{dataset}, condition {condition}: distribution of Kendall's tau between the run rankings on the two "
            f"topic sets of each of {taus.shape[0]} random splits (seeded), per measure, sorted by mean tau."
        )
        save_figure(tau_distribution_figure(taus, measures, title), paths["pdf"], paths["png"], origins, description)
        log.info("%s %s: %d measures", dataset, condition, len(measures))


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "consistency_figure"):
        main(
            snakemake.wildcards.dataset,
            snakemake.input.provenance,
            {
                condition: {
                    "taus": snakemake.input.taus[i],
                    "pdf": snakemake.output.pdf[i],
                    "png": snakemake.output.png[i],
                }
                for i, condition in enumerate(snakemake.params.conditions)
            },
        )
