"""Rule popularity_examples: gold, Popularity and Uniform distributions of the topics on which NMD
favours Popularity most over what RNOD does (most negative d = Delta_NMD - Delta_RNOD, SPEC 4.6)."""

import logging

import numpy as np

from ordeval.outputs import save_figure
from ordeval.popularity import ExamplePanel, compared_origins, compute_deltas, examples_figure, most_negative_d
from ordeval.readers import align_to_gold, class_labels, read_canonical_gold, read_canonical_runs
from ordeval.scoring import load_score_stack

log = logging.getLogger("popularity_examples")

#: Topics shown per data set.
EXAMPLES = 2


def main(
    datasets: dict[str, dict],
    provenance_paths: dict[str, str],
    skipped: dict[str, str],
    popularity_run: str,
    uniform_run: str,
    pdf_path,
    png_path,
    count: int = EXAMPLES,
):
    """``datasets`` maps each compared data set to its ``classes`` and the paths ``gold``, ``runs``
    and ``scores`` ({NMD: ..., RNOD: ...}); ``skipped`` gives the reason each other one is left out."""
    for name, reason in skipped.items():
        log.info("%s skipped: %s", name, reason)
    runs = [popularity_run, uniform_run]
    origins = compared_origins(provenance_paths, datasets, runs)
    panels = []
    for name, files in datasets.items():
        classes = class_labels(files["classes"])
        gold = read_canonical_gold(files["gold"], classes)
        estimates = read_canonical_runs(files["runs"], classes)
        distributions = np.stack([gold.values] + [align_to_gold(estimates[run], gold.topics, run) for run in runs])
        deltas = compute_deltas(load_score_stack(files["scores"]), popularity_run, uniform_run)
        for example in most_negative_d(deltas, count):
            log.info("%s: topic %s, d = %.4f", name, example.topic, example.d)
            title = f"{name} ({origins[name]})"
            labels = ["gold", *runs]
            panels.append(ExamplePanel(title, example, classes, labels, distributions[:, example.index]))
    note = "No data set to show.\n" + "\n".join(f"{name}: {reason}" for name, reason in skipped.items())
    title = (
        f"Topics with the most negative d = \u0394NMD \u2212 \u0394RNOD, "
        f"\u0394M = M({popularity_run}) \u2212 M({uniform_run})"
    )
    figure = examples_figure(panels, title, note)
    description = (
        f"Gold, {popularity_run} and {uniform_run} distributions of the {count} topics of each data set with "
        f"the most negative d = Delta_NMD - Delta_RNOD (NMD favours Popularity most relative to RNOD)."
    )
    save_figure(figure, pdf_path, png_path, origins, description)
    return panels


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "popularity_examples"):
        main(
            snakemake.params.datasets,
            snakemake.params.provenance,
            snakemake.params.skipped,
            snakemake.params.popularity_run,
            snakemake.params.uniform_run,
            snakemake.output.pdf,
            snakemake.output.png,
        )
