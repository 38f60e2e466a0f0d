"""Rule popularity_tables: Popularity vs Uniform per topic (docs/methods.md 4.6) on the data sets that have both
runs: the topics on which each measure prefers either baseline (with TOTAL rows), the per-topic deltas,
and per data set the quadrant counts and Pearson r of the deltas of two measures."""

from __future__ import annotations

import logging

from ..analysis.popularity import (
    compared_origins,
    compute_deltas,
    deltas_table,
    panels_table,
    preference_table,
    scatter_panels,
    total_origins,
)
from ..latex import measure_label, measure_labels, write_latex
from ..latex.popularity import panels_latex, preference_latex
from ..scores import read_stack
from ..table import write_csv
from . import Job, files_by

log = logging.getLogger("popularity_tables")


def run(job: Job):
    """params: popularity_run, uniform_run, tie_tolerance, ci_level, measures, skipped ({data set:
    reason}), datasets (those compared), all_datasets. Inputs ``stack`` and outputs ``scatter_csv``,
    ``scatter_tex`` one per compared data set; input ``provenance`` one per data set (all_datasets);
    outputs ``csv``, ``tex``, ``deltas``."""
    params = job.params
    inputs, output = job.input, job.output
    provenance = dict(zip(params["all_datasets"], inputs["provenance"], strict=True))
    datasets = files_by(params["datasets"], stack=inputs["stack"], scatter_csv=output["scatter_csv"],
                        scatter_tex=output["scatter_tex"])  # fmt: skip
    runs = [params["popularity_run"], params["uniform_run"]]
    tolerance, level, measures = params["tie_tolerance"], params["ci_level"], params["measures"]
    # Labels from the scores' measure tables; a measure's escaped name where no data set is compared.
    deltas, labels = {}, {measure: measure_label(measure) for measure in measures}
    for dataset, files in datasets.items():
        stack = read_stack(files["stack"], measures)
        labels.update(measure_labels(stack))
        deltas[dataset] = compute_deltas(stack, *runs)
        panels = scatter_panels(deltas[dataset], tolerance, level)
        origin = compared_origins(provenance, [dataset], runs)
        write_csv(panels_table(dataset, panels), files["scatter_csv"], origin)
        description = (
            f"{dataset}: for each pair of measures, the topics in the 2nd and 4th quadrants of the scatter plot "
            f"of their oriented deltas (they prefer different baselines) and Pearson r with a {level:.0%} CI."
        )
        write_latex(panels_latex(panels, labels, level), files["scatter_tex"], origin, description)
    origins = compared_origins(provenance, list(deltas), runs)
    skipped = "; ".join(f"{name}: {reason}" for name, reason in params["skipped"].items())
    note = f"No data set has both {runs[0]} and {runs[1]}." + (f" Left out: {skipped}." if skipped else "")
    table = preference_table(deltas, measures, tolerance, origins)
    outputs = job.output
    write_csv(table, outputs["csv"], total_origins(table, origins))
    description = (
        f"Popularity vs Uniform: topics on which each measure prefers {runs[1]} (U) or {runs[0]} (P), "
        f"ties (|Delta| <= {tolerance:g}) in T where any; the larger count in bold; TOTAL sums the data sets "
        "(one TOTAL per data origin when they differ)." + (f" Left out: {skipped}." if skipped else "")
    )
    write_latex(preference_latex(table, measures, labels, note), outputs["tex"], origins, description)
    write_csv(deltas_table(deltas), outputs["deltas"], origins)
    log.info("compared %d data sets; left out: %s", len(deltas), skipped or "none")
    return table
