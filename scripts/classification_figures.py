"""Rule classification_figures: the discriminative power curves of the ordinal classification data sets (the
ACL 2021 paper's Figure 1), each measure's number of significant pairs in the legend."""

from ordeval.analysis.significance import read_significance
from ordeval.io.provenance import origins_of
from ordeval.reports.figures import measure_text, save_figure
from ordeval.reports.figures.significance import dp_curves_grid
from ordeval.tasks.stack import read_measure_table
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    alpha, trials, measures = params.alpha, params.hsd_trials, params.measures
    panels, names, counts = {}, {}, {}
    pvalues, arrays = keyed(inputs.pvalues, params.datasets), keyed(inputs.arrays, params.datasets)
    measure_tables = keyed(inputs.measures, params.datasets)
    for name in params.datasets:
        panels[name] = read_significance(pvalues[name], measure_tables[name], measures, trials, arrays[name])
        info = read_measure_table(measure_tables[name])
        display = dict(zip(info["measure"], info["display"], strict=True))
        names[name] = [measure_text(display[m]) for m in measures]
        counts[name] = panels[name].significant(alpha).sum(axis=1).tolist()
    figure = dp_curves_grid(
        panels, names, alpha, "Discriminative power curves of the ordinal classification measures", counts
    )
    description = (
        "Discriminative power curves of the ordinal classification measures (the ACL 2021 paper's Figure 1): "
        f"p-values of all run pairs (randomised Tukey HSD, B = {trials}) sorted in decreasing order; the dashed "
        f"line is α = {alpha:g}; the legend gives each measure's number of significant pairs."
    )
    save_figure(figure, snakemake.output.pdf, snakemake.output.png, origins_of(inputs.provenance), description)
    log.info("%d panels", len(panels))
