# The figures of one data set, one job per data set (each job pays for matplotlib once): the distributions of
# the consistency taus (one per condition), the discriminative power curves, the leaderboards and the topic set
# size curves. Their stages are those of their tables (consistency, significance, leaderboard, topic_set_size).


rule dataset_figures:
    input:
        taus_half=f"{RESULTS}/consistency/{{dataset}}/half.tsv",
        taus_10v10=f"{RESULTS}/consistency/{{dataset}}/10v10.tsv",
        pvalues=f"{RESULTS}/significance/{{dataset}}/pvalues.tsv",
        arrays=f"{RESULTS}/significance/{{dataset}}/pvalues.npz",
        leaderboard=f"{RESULTS}/tables/leaderboard/{{dataset}}.csv",
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        measures=f"{RESULTS}/scores/{{dataset}}/measures.tsv",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        consistency_pdf_half=f"{RESULTS}/figures/consistency/{{dataset}}_half.pdf",
        consistency_pdf_10v10=f"{RESULTS}/figures/consistency/{{dataset}}_10v10.pdf",
        consistency_png_half=reported(
            f"{RESULTS}/figures/consistency/{{dataset}}_half.png"
        ),
        consistency_png_10v10=reported(
            f"{RESULTS}/figures/consistency/{{dataset}}_10v10.png"
        ),
        curves_pdf=f"{RESULTS}/figures/dp_curves/{{dataset}}.pdf",
        curves_png=reported(f"{RESULTS}/figures/dp_curves/{{dataset}}.png"),
        leaderboard_pdf=f"{RESULTS}/figures/leaderboard/{{dataset}}.pdf",
        leaderboard_png=reported(f"{RESULTS}/figures/leaderboard/{{dataset}}.png"),
        topic_set_size_pdf=f"{RESULTS}/figures/topic_set_size/{{dataset}}.pdf",
        topic_set_size_png=reported(f"{RESULTS}/figures/topic_set_size/{{dataset}}.png"),
    log:
        f"{RESULTS}/logs/dataset_figures/{{dataset}}.log",
    priority: 1
    conda:
        ENV
    threads: threads("figures")
    resources:
        **cost("figures"),
    params:
        conditions=list(CONDITIONS),
        significance_measures=lambda wildcards: PLAN.dataset_measures(
            "significance", wildcards.dataset
        ),
        topic_set_size_measures=lambda wildcards: PLAN.dataset_measures(
            "topic_set_size", wildcards.dataset
        ),
        alpha=PLAN.config["significance"]["alpha"],
        hsd_trials=PLAN.config["significance"]["hsd_trials"],
        ci_level=PLAN.config["leaderboard"]["ci_level"],
        tss_alpha=PLAN.config["topic_set_size"]["alpha"],
        tss_power=PLAN.config["topic_set_size"]["power"],
    script:
        "../../scripts/dataset_figures.py"
