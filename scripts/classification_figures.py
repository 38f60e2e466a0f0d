"""Rule classification_figures: the discriminative power curves of the ordinal classification data sets (the
ACL 2021 paper's Figure 1), each measure's number of significant pairs in the legend."""

from ordeval.analysis.significance import read_significance
from ordeval.io.provenance import origins_of
from ordeval.reports.figures import measure_text, save_figure
from ordeval.reports.figures.significance import dp_curves_grid
from ordeval.tasks.stack import read_measure_table
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    alpha, trials, measures = params.alpha, params.hsd_trials, params.measures
    panels, names, counts = {}, {}, {}
    for name, pvalues, arrays, measures_tsv in zip(params.datasets, inputs.pvalues, inputs.arrays, inputs.measures,
                                                   strict=True):  # fmt: skip
        panels[name] = read_significance(pvalues, measures_tsv, measures, trials, arrays)
        info = read_measure_table(measures_tsv)
        display = dict(zip(info["measure"], info["display"], strict=True))
        names[name] = [measure_text(display[m]) for m in measures]
        counts[name] = panels[name].significant(alpha).sum(axis=1).tolist()
    figure = dp_curves_grid(panels, names, alpha, "Discriminative power curves of the ordinal classification measures",
                            counts)  # fmt: skip
    description = (
        "Discriminative power curves of the ordinal classification measures (the ACL 2021 paper's Figure 1): "
        f"p-values of all run pairs (randomised Tukey HSD, B = {trials}) sorted in decreasing order; the dashed "
        f"line is α = {alpha:g}; the legend gives each measure's number of significant pairs."
    )
    save_figure(figure, snakemake.output.pdf, snakemake.output.png, origins_of(inputs.provenance), description)
    log.info("%d panels", len(panels))
