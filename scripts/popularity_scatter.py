"""Rule popularity_scatter: Popularity vs Uniform on one data set (docs/methods.md 4.6): for each pair of measures,
the quadrant counts and Pearson r of their per-topic deltas (CSV and LaTeX), and the scatter plots."""

from ordeval.analysis.popularity import compared_origins, compute_deltas, panels_table, scatter_panels
from ordeval.io.table import write_csv
from ordeval.reports.figures import measure_text, save_figure
from ordeval.reports.figures.popularity import scatter_figure
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.popularity import panels_latex
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, output = snakemake.wildcards.dataset, snakemake.params, snakemake.output
    runs, level = [params.popularity_run, params.uniform_run], params.ci_level
    stack = read_stack(snakemake.input.stack, params.measures)
    deltas = compute_deltas(stack, *runs)
    panels = scatter_panels(deltas, params.tie_tolerance, level)
    origin = compared_origins({dataset: snakemake.input.provenance}, [dataset], runs)
    write_csv(panels_table(dataset, panels), output.csv, origin)
    write_table_page(output.csv, output.html)
    description = (
        f"{dataset}: for each pair of measures, the topics in the 2nd and 4th quadrants of the scatter plot "
        f"of their oriented deltas (they prefer different baselines) and Pearson r with a {level:.0%} CI."
    )
    write_latex(panels_latex(panels, measure_labels(stack), level), output.tex, origin, description)
    names = {m: measure_text(d) for m, d in zip(stack.measures, stack.display, strict=True)}
    title = f"{dataset}: oriented Delta = M({runs[0]}) - M({runs[1]}) per topic (< 0: prefers {runs[0]})"
    description = (
        f"{dataset}: per topic, Delta_M = M({runs[0]}) - M({runs[1]}), signed so that a negative value means "
        "the measure prefers Popularity; NMD against every other measure and RNOD against the nominal "
        f"measures, with the 2nd/4th-quadrant counts and Pearson r ({level:.0%} CI)."
    )
    save_figure(scatter_figure(title, deltas, panels, names, level), output.pdf, output.png, origin, description)
    log.info("%s: %d panels", dataset, len(panels))
