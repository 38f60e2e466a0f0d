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
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        pvalues=f"{RESULTS}/significance/{{dataset}}/pvalues.tsv",
        arrays=f"{RESULTS}/significance/{{dataset}}/pvalues.npz",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
        # the official protocol's scores, where the task has one (the results page shows both protocols)
        pooled=lambda wildcards: (
            f"{RESULTS}/scores/{wildcards.dataset}/pooled.tsv"
            if PLAN.provides(wildcards.dataset, "scores/pooled")
            else []
        ),
    output:
        csv=reported(f"{RESULTS}/tables/leaderboard/{{dataset}}.csv"),
        tex=f"{RESULTS}/tables/leaderboard/{{dataset}}.tex",
        md=f"{RESULTS}/tables/leaderboard/{{dataset}}.md",
        # the results page: every measure's table, sortable, with per-topic scores on demand
        html=f"{RESULTS}/tables/leaderboard/{{dataset}}.html",
        # for print: every measure side by side, a row per run
        compact=f"{RESULTS}/tables/leaderboard/{{dataset}}_compact.tex",
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
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        pooled=f"{RESULTS}/scores/{{dataset}}/pooled.tsv",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        csv=reported(f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.csv"),
        tex=f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.tex",
        md=f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.md",
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
