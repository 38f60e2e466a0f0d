# The figures of one data set, one job per data set (each job pays for matplotlib once): the distributions of
# the consistency taus (one per condition), the discriminative power curves, the leaderboards and the topic set
# size curves. Their stages are those of their tables (consistency, significance, leaderboard, topic_set_size).


rule dataset_figures:
    input:
        taus_half=rules.consistency_taus.output.taus_half,
        taus_10v10=rules.consistency_taus.output.taus_10v10,
        pvalues=rules.significance_pvalues.output.pvalues,
        arrays=rules.significance_pvalues.output.arrays,
        leaderboard=rules.leaderboard_tables.output.csv,
        stack=rules.score_stack.output.stack,
        measures=rules.score_runs.output.measures,
        provenance=rules.prepare_data.output.provenance,
    output:
        consistency_pdf_half=f"{RESULTS}/figures/consistency/{{dataset}}_half.pdf",
        consistency_png_half=shown(
            f"{RESULTS}/figures/consistency/{{dataset}}_half.png",
            "consistency/figure_half",
            "consistency",
            "{dataset}",
        ),
        consistency_pdf_10v10=f"{RESULTS}/figures/consistency/{{dataset}}_10v10.pdf",
        consistency_png_10v10=shown(
            f"{RESULTS}/figures/consistency/{{dataset}}_10v10.png",
            "consistency/figure_10v10",
            "consistency",
            "{dataset}",
        ),
        curves_pdf=f"{RESULTS}/figures/dp_curves/{{dataset}}.pdf",
        curves_png=shown(
            f"{RESULTS}/figures/dp_curves/{{dataset}}.png",
            "significance/curves",
            "power",
            "{dataset}",
        ),
        leaderboard_pdf=f"{RESULTS}/figures/leaderboard/{{dataset}}.pdf",
        leaderboard_png=shown(
            f"{RESULTS}/figures/leaderboard/{{dataset}}.png",
            "leaderboard/figure",
            "leaderboard",
            "{dataset}",
        ),
        topic_set_size_pdf=f"{RESULTS}/figures/topic_set_size/{{dataset}}.pdf",
        topic_set_size_png=shown(
            f"{RESULTS}/figures/topic_set_size/{{dataset}}.png",
            "topic_set_size/figure",
            "topic_set_size",
            "{dataset}",
        ),
    log:
        f"{RESULTS}/logs/dataset_figures/{{dataset}}.log",
    priority: 1
    conda:
        ENV
    threads: threads("figures")
    resources:
        mem_mb=mem_mb("figures"),
        runtime=runtime("figures"),
    params:
        conditions=list(CONDITIONS),
        significance_measures=dataset_measures("significance"),
        topic_set_size_measures=dataset_measures("topic_set_size"),
        alpha=PLAN.config["significance"]["alpha"],
        hsd_trials=PLAN.config["significance"]["hsd_trials"],
        ci_level=PLAN.config["leaderboard"]["ci_level"],
        tss_alpha=PLAN.config["topic_set_size"]["alpha"],
        tss_power=PLAN.config["topic_set_size"]["power"],
        code=code("dataset_figures"),
    script:
        "../../scripts/dataset_figures.py"


rule figures:
    input:
        made(rules.dataset_figures, dataset=DATASETS),
