"""Rule agreement_heatmap: heatmap of the tau matrix averaged over the data sets."""

import logging

from ordeval.agreement import read_pair_table, tau_heatmap
from ordeval.outputs import read_origins, save_figure

log = logging.getLogger("agreement_heatmap")


def main(measures: list[str], mean_path, provenance_paths: dict, pdf_path, png_path):
    pairs = read_pair_table(mean_path)
    title = f"Kendall's tau between run rankings, mean over {len(provenance_paths)} data sets"
    description = f"Kendall's tau between the measures' run rankings, averaged over {', '.join(provenance_paths)}."
    save_figure(tau_heatmap(pairs, measures, title), pdf_path, png_path, read_origins(provenance_paths), description)
    log.info("heatmap of %d measures", len(measures))


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "agreement_heatmap"):
        main(
            snakemake.params.measures,
            snakemake.input.mean,
            dict(zip(snakemake.params.datasets, snakemake.input.provenance, strict=True)),
            snakemake.output.pdf,
            snakemake.output.png,
        )
