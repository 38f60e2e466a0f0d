"""Rule score_runs: per-topic score matrix of every run for every measure, plus the mean per run."""

import logging
from pathlib import Path

from ordeval.datasets import read_canonical
from ordeval.scoring import score_dataset, write_scores

log = logging.getLogger("score_runs")


def main(name: str, classes: list, measures: list[str], gold_path, runs_path, provenance_path, scores_dir):
    """Write ``<scores_dir>/<measure>.tsv`` (topic, then one column per run) and ``means.tsv``."""
    dataset = read_canonical(name, classes, gold_path, runs_path, provenance_path)
    stack = score_dataset(dataset, measures)
    write_scores(stack, {m: Path(scores_dir) / f"{m}.tsv" for m in measures}, Path(scores_dir) / "means.tsv")
    log.info("%s: scored %d runs x %d topics with %d measures", name, len(stack.runs), len(stack.topics), len(measures))
    return stack


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "score_runs"):
        main(
            snakemake.wildcards.dataset,
            snakemake.params.classes,
            snakemake.params.measures,
            snakemake.input.gold,
            snakemake.input.runs,
            snakemake.input.provenance,
            Path(snakemake.output.means).parent,
        )
