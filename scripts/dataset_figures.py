"""Rule dataset_figures: the figures of one data set: the distribution of the split taus of every measure per
consistency condition, the discriminative power curves, the leaderboards (means with intervals and groups) and
the topics needed against the minimum detectable difference (topic set size design)."""

from ordeval.analysis.consistency import read_taus
from ordeval.analysis.leaderboard import read_leaderboards
from ordeval.analysis.significance import read_significance
from ordeval.io.provenance import read_origins
from ordeval.io.table import read_csv
from ordeval.reports.figures import measure_text, save_figure
from ordeval.reports.figures.consistency import tau_distribution_figure
from ordeval.reports.figures.leaderboard import leaderboard_figure
from ordeval.reports.figures.significance import dp_curves_figure
from ordeval.reports.figures.topic_set_size import dataset_figure
from ordeval.tasks.stack import read_measure_table, read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs, output = snakemake.wildcards.dataset, snakemake.params, snakemake.input, snakemake.output
    origins = read_origins({dataset: inputs.provenance})
    info = read_measure_table(inputs.measures)
    display = dict(zip(info["measure"], info["display"], strict=True))
    names = {m: measure_text(d) for m, d in display.items()}

    for condition in params.conditions:  # consistency
        measures, taus = read_taus(inputs[f"taus_{condition}"])
        title = f"{dataset}, {condition}: tau over {taus.shape[0]} random topic splits (whiskers 2.5-97.5%)"
        description = (
            f"{dataset}, condition {condition}: distribution of Kendall's τ between the run rankings on the two "
            f"topic sets of each of {taus.shape[0]} random splits (seeded), per measure, sorted by mean τ."
        )
        figure = tau_distribution_figure(taus, [names[m] for m in measures], title)
        save_figure(
            figure, output[f"consistency_pdf_{condition}"], output[f"consistency_png_{condition}"], origins, description
        )

    measures = params.significance_measures  # discriminative power curves
    significance = read_significance(inputs.pvalues, inputs.measures, measures, params.hsd_trials, inputs.arrays)
    setting = f"randomised Tukey HSD, B = {params.hsd_trials}; dashed line: α = {params.alpha:g}"
    figure = dp_curves_figure(
        significance, [names[m] for m in measures], params.alpha, f"{dataset}: discriminative power curves"
    )
    description = (
        f"{dataset}: discriminative power curves, the p-values of all {significance.pair_count} run pairs "
        f"sorted in decreasing order, per measure ({setting})."
    )
    save_figure(figure, output.curves_pdf, output.curves_png, origins, description)

    table = read_csv(inputs.leaderboard, numeric=["mean", "ci_low", "ci_high"], integer=["rank"])  # leaderboards
    boards = read_leaderboards(table)
    description = (
        f"{dataset}: every run's mean score with its {params.ci_level:.0%} interval per measure, best first; "
        "runs sharing a letter do not differ significantly (randomised Tukey HSD)."
    )
    figure = leaderboard_figure(boards, names, f"{dataset}: leaderboards")
    save_figure(figure, output.leaderboard_pdf, output.leaderboard_png, origins, description)

    stack = read_stack(inputs.stack, params.topic_set_size_measures)  # topic set size design
    alpha, power = params.tss_alpha, params.tss_power
    matrices = {m: stack.matrix(m) for m in stack.measures}
    title = f"{dataset}: topics needed (α = {alpha:g}, power = {power:g})"
    figure = dataset_figure(matrices, {m: names[m] for m in stack.measures}, title, alpha=alpha, power=power)
    description = (
        f"{dataset}: topics needed against the minimum detectable difference, per measure, for a paired "
        f"t-test and a one-way ANOVA over the {len(stack.runs)} runs (α = {alpha:g}, power = {power:g}) "
        "and for a CI of a paired difference of that width; from each measure's residual variance."
    )
    save_figure(figure, output.topic_set_size_pdf, output.topic_set_size_png, origins, description)
    log.info("%s: %d figures", dataset, len(params.conditions) + 3)
