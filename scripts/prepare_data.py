"""Rule prepare_data: one data set's gold and runs (read, computed or simulated) as canonical tables."""

import logging

from ordeval.datasets import build_dataset, write_canonical

log = logging.getLogger("prepare_data")


def main(name: str, spec: dict, data_root: str, seed: int, gold_path, runs_path, provenance_path):
    """Build data set ``name`` from its configuration ``spec`` and write gold.tsv, runs.tsv and
    provenance.json. Everything is validated before the first file is written."""
    dataset = build_dataset(name, spec, data_root, seed)
    log.info(
        "%s: %d topics, %d runs, %d classes, origin %s",
        name,
        len(dataset.topics),
        len(dataset.run_names),
        len(dataset.classes),
        dataset.origin,
    )
    write_canonical(dataset, gold_path, runs_path, provenance_path)
    return dataset


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "prepare_data"):
        main(
            snakemake.wildcards.dataset,
            snakemake.params.spec,
            snakemake.params.data_root,
            snakemake.params.seed,
            snakemake.output.gold,
            snakemake.output.runs,
            snakemake.output.provenance,
        )
