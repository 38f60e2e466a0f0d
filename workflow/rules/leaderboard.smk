# Stage: per data set and measure, every run's mean with its interval, rank and significance groups
# (the randomised Tukey HSD p-values of the significance stage).


rule leaderboard_tables:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=DATASETS),
        pvalues=expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.tsv", dataset=DATASETS
        ),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        pooled=expand(f"{RESULTS}/scores/{{dataset}}/pooled.tsv", dataset=OC),
        library=library("leaderboard_tables"),
    output:
        csv=reported(
            expand(f"{RESULTS}/tables/leaderboard/{{dataset}}.csv", dataset=DATASETS)
        ),
        tex=expand(f"{RESULTS}/tables/leaderboard/{{dataset}}.tex", dataset=DATASETS),
        md=expand(f"{RESULTS}/tables/leaderboard/{{dataset}}.md", dataset=DATASETS),
        # the results page: every measure's table, sortable, with per-topic scores on demand
        html=expand(f"{RESULTS}/tables/leaderboard/{{dataset}}.html", dataset=DATASETS),
        # ordinal classification: the official SemEval protocol (one confusion matrix over all items)
        pooled_csv=reported(
            expand(f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.csv", dataset=OC)
        ),
        pooled_tex=expand(
            f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.tex", dataset=OC
        ),
        pooled_md=expand(
            f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.md", dataset=OC
        ),
    log:
        job_log("leaderboard_tables"),
    priority: priority("leaderboard_tables")
    conda:
        ENV
    threads: job_threads("leaderboard_tables")
    resources:
        **job_resources("leaderboard_tables"),
    params:
        datasets=DATASETS,
        measures=measures("leaderboard"),
        pooled=OC,
        alpha=PLAN.config["significance"]["alpha"],
        trials=PLAN.config["significance"]["hsd_trials"],
        ci_level=PLAN.config["leaderboard"]["ci_level"],
    script:
        "../../scripts/leaderboard_tables.py"


rule leaderboard_figures:
    input:
        tables=expand(f"{RESULTS}/tables/leaderboard/{{dataset}}.csv", dataset=DATASETS),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("leaderboard_figures"),
    output:
        pdf=expand(f"{RESULTS}/figures/leaderboard/{{dataset}}.pdf", dataset=DATASETS),
        png=reported(
            expand(f"{RESULTS}/figures/leaderboard/{{dataset}}.png", dataset=DATASETS)
        ),
    log:
        job_log("leaderboard_figures"),
    priority: priority("leaderboard_figures")
    conda:
        ENV
    threads: job_threads("leaderboard_figures")
    resources:
        **job_resources("leaderboard_figures"),
    params:
        datasets=DATASETS,
        ci_level=PLAN.config["leaderboard"]["ci_level"],
    script:
        "../../scripts/leaderboard_figures.py"


rule leaderboard:
    input:
        PLAN.targets("leaderboard"),
