# The figures of one data set, one job per data set (each job pays for matplotlib once): the distributions of
# the consistency taus (one per condition), the discriminative power curves, the leaderboards and the topic set
# size curves. Their stages are those of their tables (consistency, significance, leaderboard, topic_set_size).


rule dataset_figures:
    input:
        **{f"taus_{c}": path("consistency/taus", condition=c) for c in CONDITIONS},
        pvalues=path("significance/pvalues"),
        arrays=path("significance/arrays"),
        leaderboard=path("leaderboard/table", "csv"),
        stack=path("scores/stack"),
        tables=score_tables,
        measures=path("scores/measures"),
        provenance=path("data/provenance"),
    output:
        **{
            f"consistency_pdf_{c}": path("consistency/figure", "pdf", condition=c)
            for c in CONDITIONS
        },
        **reported(
            {
                f"consistency_png_{c}": path("consistency/figure", "png", condition=c)
                for c in CONDITIONS
            }
        ),
        curves_pdf=path("significance/curves", "pdf"),
        curves_png=reported(path("significance/curves", "png")),
        leaderboard_pdf=path("leaderboard/figure", "pdf"),
        leaderboard_png=reported(path("leaderboard/figure", "png")),
        topic_set_size_pdf=path("topic_set_size/figure", "pdf"),
        topic_set_size_png=reported(path("topic_set_size/figure", "png")),
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
