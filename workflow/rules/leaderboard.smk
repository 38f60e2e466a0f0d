# Stage: per data set and measure, every run's mean with its interval, rank and significance groups (the
# randomised Tukey HSD p-values of the significance stage), as CSV, LaTeX, Markdown and a results page; where
# the task has one (classification), also under its official protocol (pooled over all items). (A data
# set's leaderboard figure: rule dataset_figures.)
LEADERBOARD = {
    "alpha": PLAN.config["significance"]["alpha"],
    "hsd_trials": PLAN.config["significance"]["hsd_trials"],
    "ci_level": PLAN.config["leaderboard"]["ci_level"],
}


rule leaderboard_tables:
    input:
        stack=path("scores/stack"),
        tables=score_tables,
        pvalues=path("significance/pvalues"),
        arrays=path("significance/arrays"),
        provenance=path("data/provenance"),
        # the official protocol's scores, where the task has one (the results page shows both protocols)
        pooled=lambda wildcards: PLAN.paths("scores/pooled", dataset=wildcards.dataset),
    output:
        csv=reported(path("leaderboard/table", "csv")),
        tex=path("leaderboard/table", "tex"),
        md=path("leaderboard/table", "md"),
        # the results page: every measure's table, sortable, with per-topic scores on demand
        html=path("leaderboard/table", "html"),
        # for print: every measure side by side, a row per run
        compact=path("leaderboard/compact", "tex"),
    log:
        f"{RESULTS}/logs/leaderboard_tables/{{dataset}}.log",
    priority: 3
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        **LEADERBOARD,
        measures=lambda wildcards: PLAN.dataset_measures(
            "leaderboard", wildcards.dataset
        ),
    script:
        "../../scripts/leaderboard_tables.py"


rule leaderboard_pooled:
    input:
        stack=path("scores/stack"),
        tables=score_tables,
        pooled=path("scores/pooled"),
        provenance=path("data/provenance"),
    output:
        csv=reported(path("leaderboard/pooled", "csv")),
        tex=path("leaderboard/pooled", "tex"),
        md=path("leaderboard/pooled", "md"),
    log:
        f"{RESULTS}/logs/leaderboard_pooled/{{dataset}}.log",
    wildcard_constraints:
        dataset=alternatives(PLAN.stage_datasets("scores/pooled")),
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        **LEADERBOARD,
        measures=lambda wildcards: PLAN.dataset_measures(
            "leaderboard", wildcards.dataset
        ),
    script:
        "../../scripts/leaderboard_pooled.py"


rule leaderboard:
    input:
        PLAN.targets("leaderboard"),
