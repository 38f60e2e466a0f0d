"""Rule significance_curves: the discriminative power curves of the data sets of one task, a panel each."""

from ordeval.analysis.significance import read_significance
from ordeval.io.provenance import origins_of
from ordeval.reports.figures import measure_text, save_figure
from ordeval.reports.figures.significance import dp_curves_grid
from ordeval.tasks.stack import read_measure_table
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    setting = f"randomised Tukey HSD, B = {params.hsd_trials}; dashed line: α = {params.alpha:g}"
    panels, names = {}, {}
    pvalues, arrays = keyed(inputs.pvalues, params.datasets), keyed(inputs.arrays, params.datasets)
    measure_tables = keyed(inputs.measures, params.datasets)
    for dataset in params.datasets:
        panels[dataset] = read_significance(
            pvalues[dataset], measure_tables[dataset], params.measures, params.hsd_trials, arrays[dataset]
        )
        info = read_measure_table(measure_tables[dataset])
        display = dict(zip(info["measure"], info["display"], strict=True))
        names[dataset] = [measure_text(display[m]) for m in params.measures]
    figure = dp_curves_grid(panels, names, params.alpha, f"Discriminative power curves ({params.task})")
    description = f"Discriminative power curves of {', '.join(params.datasets)} ({setting})."
    save_figure(figure, snakemake.output.pdf, snakemake.output.png, origins_of(inputs.provenance), description)
    log.info("curves of %d data sets", len(panels))
