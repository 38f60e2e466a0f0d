"""Rule popularity_figures: scatter plots of the deltas of two measures per compared data set, and the
gold, Popularity and Uniform distributions of the topics where NMD and RNOD disagree most."""

from __future__ import annotations

import logging

import numpy as np

from ..analysis.popularity import D_MEASURES, compared_origins, compute_deltas, most_negative_d, read_panels
from ..figures import measure_text, save_figure
from ..figures.popularity import ExamplePanel, examples_figure, scatter_figure
from ..scores import read_stack
from ..table import read_csv
from ..tasks.quantification.data import read_arrays
from ..tasks.quantification.readers import read_canonical_selection
from . import Job, files_by

log = logging.getLogger("popularity_figures")


def run(job: Job):
    """params: popularity_run, uniform_run, ci_level, measures, skipped, datasets (those compared),
    all_datasets, classes ({data set: classes} of the compared OQ data sets). Inputs ``stack``,
    ``scatter_csv`` and outputs ``scatter_pdf``, ``scatter_png`` one per compared data set; inputs ``gold``,
    ``runs``, ``arrays`` one per compared OQ data set (the example topics); ``provenance`` one per data set."""
    params = job.params
    runs = [params["popularity_run"], params["uniform_run"]]
    level = params["ci_level"]
    inputs, output = job.input, job.output
    provenance = dict(zip(params["all_datasets"], inputs["provenance"], strict=True))
    datasets = files_by(params["datasets"], stack=inputs["stack"], scatter_csv=inputs["scatter_csv"],
                        scatter_pdf=output["scatter_pdf"], scatter_png=output["scatter_png"])  # fmt: skip
    canonical = files_by(list(params["classes"]), gold=inputs["gold"], runs=inputs["runs"], arrays=inputs["arrays"])
    for name, files in canonical.items():
        datasets[name].update(files, classes=params["classes"][name])
    examples = []
    for dataset, files in datasets.items():
        stack = read_stack(files["stack"], params["measures"])
        deltas = compute_deltas(stack, *runs)
        panels = read_panels(read_csv(files["scatter_csv"], numeric=["r", "r_low", "r_high"]))
        names = {m: measure_text(d) for m, d in zip(stack.measures, stack.display, strict=True)}
        origin = compared_origins(provenance, [dataset], runs)
        title = f"{dataset}: oriented Delta = M({runs[0]}) - M({runs[1]}) per topic (< 0: prefers {runs[0]})"
        description = (
            f"{dataset}: per topic, Delta_M = M({runs[0]}) - M({runs[1]}), signed so that a negative value means "
            "the measure prefers Popularity; NMD against every other measure and RNOD against the nominal "
            f"measures, with the 2nd/4th-quadrant counts and Pearson r ({level:.0%} CI)."
        )
        save_figure(scatter_figure(title, deltas, panels, names, level), files["scatter_pdf"], files["scatter_png"],
                    origin, description)  # fmt: skip
        if all(m in stack.measures for m in D_MEASURES) and files.get("gold"):
            examples += _examples(dataset, files, deltas, runs)
    origins = compared_origins(provenance, list(datasets), runs)
    skipped = "; ".join(f"{name}: {reason}" for name, reason in params["skipped"].items())
    note = "No example topics: " + (skipped or "no data set has both runs and the measures NMD and RNOD.")
    title = "Topics where NMD favours Popularity most relative to RNOD (most negative d = ΔNMD − ΔRNOD)"
    description = (
        "Gold, Popularity and Uniform distributions of the two topics of each compared data set with the most "
        "negative d = ΔNMD − ΔRNOD." + (f" Left out: {skipped}." if skipped else "")
    )
    save_figure(examples_figure(examples, title, note), job.output["examples_pdf"], job.output["examples_png"],
                origins, description)  # fmt: skip
    log.info("%d scatter figures, %d example panels", len(datasets), len(examples))


def _selection(files: dict, topics: list[str], runs: list[str]) -> tuple[dict, dict]:
    """({topic: gold}, {(run, topic): distribution}) of a few topics: from the data set's arrays when they
    mirror its canonical tables (tens of MB instead of the whole runs table as text), else by scanning
    the tables."""
    stored = None
    if files.get("arrays"):
        stored = read_arrays(files["arrays"], files["classes"], files["gold"], files["runs"])
    if stored is None:
        return read_canonical_selection(files["gold"], files["runs"], files["classes"], topics, runs)
    all_topics, run_names, gold, estimates = stored
    row = {topic: index for index, topic in enumerate(all_topics)}
    column = {run: index for index, run in enumerate(run_names)}
    chosen = {(run, topic): estimates[column[run], row[topic]] for run in runs for topic in topics}
    return {topic: gold[row[topic]] for topic in topics}, chosen


def _examples(dataset: str, files: dict, deltas, runs: list[str]) -> list[ExamplePanel]:
    picked = most_negative_d(deltas)
    topics = [example.topic for example in picked]
    gold, chosen = _selection(files, topics, runs)
    panels = []
    for example in picked:
        distributions = np.stack([gold[example.topic], *(chosen[(run, example.topic)] for run in runs)])
        panels.append(ExamplePanel(dataset, example, list(files["classes"]), ["gold", *runs], distributions))
    return panels
