"""Rule popularity_examples: the gold, Popularity and Uniform distributions of the topics where NMD and RNOD
judge Popularity vs Uniform most differently (the most negative d = Delta_NMD - Delta_RNOD), two per data set."""

import numpy as np

from ordeval.analysis.popularity import D_MEASURES, compared_origins, compute_deltas, most_negative_d
from ordeval.reports.figures import save_figure
from ordeval.reports.figures.popularity import ExamplePanel, examples_figure
from ordeval.tasks.quantification.data import read_selection
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    provenance = keyed(inputs.provenance, params.all_datasets)
    runs = [params.popularity_run, params.uniform_run]
    examples = []
    files = {key: keyed(inputs[key], params.datasets) for key in ("stack", "gold", "runs", "arrays")}
    for dataset in params.datasets:
        stack = read_stack(files["stack"][dataset], params.measures)
        if not all(m in stack.measures for m in D_MEASURES):
            continue
        picked = most_negative_d(compute_deltas(stack, *runs))
        classes = list(params.classes[dataset])
        topics = [example.topic for example in picked]
        gold, chosen = read_selection(
            *(files[key][dataset] for key in ("gold", "runs", "arrays")), classes, topics, runs
        )
        for example in picked:
            distributions = np.stack([gold[example.topic], *(chosen[(run, example.topic)] for run in runs)])
            examples.append(ExamplePanel(dataset, example, classes, ["gold", *runs], distributions))
    origins = compared_origins(provenance, list(params.compared), runs)
    skipped = "; ".join(f"{name}: {reason}" for name, reason in params.skipped.items())
    note = "No example topics: " + (skipped or "no data set has both runs and the measures NMD and RNOD.")
    title = "Topics where NMD favours Popularity most relative to RNOD (most negative d = ΔNMD − ΔRNOD)"
    description = (
        "Gold, Popularity and Uniform distributions of the two topics of each compared data set with the most "
        "negative d = ΔNMD − ΔRNOD." + (f" Left out: {skipped}." if skipped else "")
    )
    save_figure(
        examples_figure(examples, title, note), snakemake.output.pdf, snakemake.output.png, origins, description
    )
    log.info("%d example panels", len(examples))
