# Stage: Popularity vs Uniform (Sakai, CIKM 2021 LQ workshop) on the data sets that have both runs: per data
# set the deltas of two measures (quadrant counts, Pearson r, scatter plots); over them the topics on which
# each measure prefers either baseline, the per-topic deltas, and the example topics where NMD and RNOD
# disagree most. The other data sets are left out; the tables, figures and logs say why.
POPULARITY = PLAN.popularity_datasets
POPULARITY_MEASURES = (
    PLAN.measures("popularity", PLAN.datasets[POPULARITY[0]].task) if POPULARITY else []
)
# The data sets whose example topics are drawn: ordinal quantification ones (gold and runs are distributions),
# where NMD and RNOD are compared.
EXAMPLES = (
    [name for name in POPULARITY if name in PLAN.task_datasets("quantification")]
    if {"NMD", "RNOD"} <= set(POPULARITY_MEASURES)
    else []
)
POPULARITY_SETTINGS = PLAN.config["popularity"]


rule popularity_scatter:
    input:
        stack=rules.score_stack.output.stack,
        provenance=rules.prepare_data.output.provenance,
    output:
        csv=f"{RESULTS}/tables/popularity_scatter/{{dataset}}.csv",
        html=shown(
            f"{RESULTS}/tables/popularity_scatter/{{dataset}}.html",
            "popularity/scatter_table",
            "popularity",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/popularity_scatter/{{dataset}}.tex",
        pdf=f"{RESULTS}/figures/popularity_scatter/{{dataset}}.pdf",
        png=shown(
            f"{RESULTS}/figures/popularity_scatter/{{dataset}}.png",
            "popularity/scatter",
            "popularity",
            "{dataset}",
        ),
    log:
        f"{RESULTS}/logs/popularity_scatter/{{dataset}}.log",
    wildcard_constraints:
        dataset=alternatives(POPULARITY),
    priority: 1
    conda:
        ENV
    threads: threads("popularity")
    resources:
        mem_mb=mem_mb("popularity"),
        runtime=runtime("popularity"),
    params:
        measures=POPULARITY_MEASURES,
        popularity_run=POPULARITY_SETTINGS["popularity_run"],
        uniform_run=POPULARITY_SETTINGS["uniform_run"],
        ci_level=POPULARITY_SETTINGS["ci_level"],
        tie_tolerance=POPULARITY_SETTINGS["tie_tolerance"],
        code=code("popularity_scatter"),
    script:
        "../../scripts/popularity_scatter.py"


rule popularity_tables:
    input:
        stack=expand(rules.score_stack.output.stack, dataset=POPULARITY),
        provenance=expand(rules.prepare_data.output.provenance, dataset=DATASETS),
    output:
        csv=f"{RESULTS}/tables/popularity_vs_uniform.csv",
        html=shown(
            f"{RESULTS}/tables/popularity_vs_uniform.html",
            "popularity/table",
            "popularity",
        ),
        tex=f"{RESULTS}/tables/popularity_vs_uniform.tex",
        deltas=f"{RESULTS}/tables/popularity_deltas.csv",
        deltas_html=shown(
            f"{RESULTS}/tables/popularity_deltas.html",
            "popularity/deltas",
            "popularity",
        ),
    log:
        f"{RESULTS}/logs/popularity_tables.log",
    priority: 1
    conda:
        ENV
    threads: threads("popularity")
    resources:
        mem_mb=mem_mb("popularity"),
        runtime=runtime("popularity"),
    params:
        datasets=POPULARITY,
        all_datasets=DATASETS,
        skipped=PLAN.popularity_skipped,  # {data set: why it is left out}
        measures=POPULARITY_MEASURES,
        popularity_run=POPULARITY_SETTINGS["popularity_run"],
        uniform_run=POPULARITY_SETTINGS["uniform_run"],
        ci_level=POPULARITY_SETTINGS["ci_level"],
        tie_tolerance=POPULARITY_SETTINGS["tie_tolerance"],
        code=code("popularity_tables"),
    script:
        "../../scripts/popularity_tables.py"


rule popularity_examples:
    input:
        stack=expand(rules.score_stack.output.stack, dataset=EXAMPLES),
        gold=expand(rules.prepare_data.output.gold, dataset=EXAMPLES),
        runs=expand(rules.prepare_data.output.runs, dataset=EXAMPLES),
        arrays=expand(rules.prepare_data.output.arrays, dataset=EXAMPLES),
        provenance=expand(rules.prepare_data.output.provenance, dataset=DATASETS),
    output:
        pdf=f"{RESULTS}/figures/popularity_examples.pdf",
        png=shown(
            f"{RESULTS}/figures/popularity_examples.png",
            "popularity/examples",
            "popularity",
        ),
    log:
        f"{RESULTS}/logs/popularity_examples.log",
    priority: 1
    conda:
        ENV
    threads: threads("popularity")
    resources:
        mem_mb=mem_mb("popularity"),
        runtime=runtime("popularity"),
    params:
        datasets=EXAMPLES,
        compared=POPULARITY,
        all_datasets=DATASETS,
        skipped=PLAN.popularity_skipped,
        classes={name: PLAN.datasets[name].classes for name in EXAMPLES},
        measures=POPULARITY_MEASURES,
        popularity_run=POPULARITY_SETTINGS["popularity_run"],
        uniform_run=POPULARITY_SETTINGS["uniform_run"],
        code=code("popularity_examples"),
    script:
        "../../scripts/popularity_examples.py"


rule popularity:
    input:
        made(rules.popularity_scatter, dataset=POPULARITY),
        made(rules.popularity_tables),
        made(rules.popularity_examples),
