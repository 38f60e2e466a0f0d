"""Rule agreement_heatmap: heatmap of the tau matrix averaged over the data sets of one task."""

from ordeval.io.provenance import origins_of
from ordeval.io.table import read_csv
from ordeval.reports.figures import measure_text, save_figure
from ordeval.reports.figures.agreement import tau_heatmap
from ordeval.tasks.stack import read_measure_tables
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params = snakemake.params
    origins = origins_of(snakemake.input.provenance)
    pairs = read_csv(snakemake.input.mean, numeric=["tau", "ci_low", "ci_high"])
    info = read_measure_tables(snakemake.input.measures)
    display = dict(zip(info["measure"], info["display"], strict=True))
    names = [measure_text(display[m]) for m in params.measures]
    title = f"Kendall's τ-{params.kendall} between run rankings, mean over {len(origins)} data sets"
    description = f"Kendall's τ between the measures' run rankings, averaged over {', '.join(origins)}."
    figure = tau_heatmap(pairs, params.measures, names, title)
    save_figure(figure, snakemake.output.pdf, snakemake.output.png, origins, description)
    log.info("heatmap of %d measures", len(params.measures))
