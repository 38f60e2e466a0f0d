"""Rule popularity_scatter: Popularity vs Uniform on one data set (docs/methods.md 4.6): for each pair of measures,
the quadrant counts and Pearson r of their per-topic deltas (CSV, its page and LaTeX), and the scatter plots."""

from ordeval.reports.figures.popularity import write_scatter_figure
from ordeval.reports.jobs.popularity import write_scatter_table
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    settings = {
        "dataset": dataset,
        "measures": params.measures,
        "runs": [params.popularity_run, params.uniform_run],
        "tolerance": params.tie_tolerance,
        "level": params.ci_level,
    }
    panels = write_scatter_table(inputs.stack, inputs.provenance, snakemake.output, **settings)
    write_scatter_figure(inputs.stack, inputs.provenance, snakemake.output, **settings)
    log.info("%s: %d panels", dataset, len(panels))
