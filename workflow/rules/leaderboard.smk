# Stage: per data set and measure, every run's mean with its interval, rank and significance groups (the
# randomised Tukey HSD p-values of the significance stage), as CSV, LaTeX, Markdown and a results page; for the
# ordinal classification data sets, also under the official SemEval protocol (pooled over all items). (A data
# set's leaderboard figure: rule dataset_figures.)
SIGNIFICANCE = PLAN.config["significance"]


rule leaderboard_tables:
    input:
        stack=rules.score_stack.output.stack,
        pvalues=rules.significance_pvalues.output.pvalues,
        arrays=rules.significance_pvalues.output.arrays,
        provenance=rules.prepare_data.output.provenance,
        # the official protocol's scores, where the data set has them (the results page shows both protocols)
        pooled=lambda wildcards: (
            expand(rules.official_scores.output.pooled, dataset=wildcards.dataset)
            if wildcards.dataset in OC
            else []
        ),
    output:
        csv=f"{RESULTS}/tables/leaderboard/{{dataset}}.csv",
        tex=f"{RESULTS}/tables/leaderboard/{{dataset}}.tex",
        md=f"{RESULTS}/tables/leaderboard/{{dataset}}.md",
        # the results page: every measure's table, sortable, with per-topic scores on demand
        html=shown(
            f"{RESULTS}/tables/leaderboard/{{dataset}}.html",
            "leaderboard/table",
            "leaderboard",
            "{dataset}",
        ),
        # for print: every measure side by side, a row per run
        compact=f"{RESULTS}/tables/leaderboard/{{dataset}}_compact.tex",
    log:
        f"{RESULTS}/logs/leaderboard_tables/{{dataset}}.log",
    priority: 3
    conda:
        ENV
    threads: threads("tables")
    resources:
        mem_mb=mem_mb("tables"),
        runtime=runtime("tables"),
    params:
        measures=dataset_measures("leaderboard"),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        ci_level=PLAN.config["leaderboard"]["ci_level"],
        code=code("leaderboard_tables"),
    script:
        "../../scripts/leaderboard_tables.py"


rule leaderboard_pooled:
    input:
        stack=rules.score_stack.output.stack,
        pooled=rules.official_scores.output.pooled,
        provenance=rules.prepare_data.output.provenance,
    output:
        csv=f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.csv",
        html=shown(
            f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.html",
            "leaderboard/pooled",
            "leaderboard",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.tex",
        md=f"{RESULTS}/tables/leaderboard/{{dataset}}_pooled.md",
    log:
        f"{RESULTS}/logs/leaderboard_pooled/{{dataset}}.log",
    wildcard_constraints:
        dataset=alternatives(OC),
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        measures=dataset_measures("leaderboard"),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        ci_level=PLAN.config["leaderboard"]["ci_level"],
        code=code("leaderboard_pooled"),
    script:
        "../../scripts/leaderboard_pooled.py"


rule leaderboard:
    input:
        made(rules.leaderboard_tables, dataset=DATASETS),
        made(rules.leaderboard_pooled, dataset=OC),
