# Stage: Popularity vs Uniform (Sakai, CIKM 2021 LQ workshop) on the data sets that have both runs: per data
# set the deltas of two measures (quadrant counts, Pearson r, scatter plots); over them the topics on which
# each measure prefers either baseline, the per-topic deltas, and the example topics where NMD and RNOD
# disagree most. The other data sets are left out; the tables, figures and logs say why.
POPULARITY = PLAN.popularity_datasets
POPULARITY_MEASURES = (
    PLAN.measures("popularity", PLAN.datasets[POPULARITY[0]].task) if POPULARITY else []
)
# The data sets whose example topics are drawn: their gold and runs are distributions (with arrays), and NMD
# and RNOD are compared.
EXAMPLES = [
    name
    for name in POPULARITY
    if PLAN.provides(name, "data/arrays")
    and {"NMD", "RNOD"} <= set(POPULARITY_MEASURES)
]
POPULARITY_SETTINGS = {
    "popularity_run": PLAN.config["popularity"]["popularity_run"],
    "uniform_run": PLAN.config["popularity"]["uniform_run"],
    "ci_level": PLAN.config["popularity"]["ci_level"],
    "measures": POPULARITY_MEASURES,
}


rule popularity_scatter:
    input:
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        csv=reported(f"{RESULTS}/tables/popularity_scatter/{{dataset}}.csv"),
        tex=f"{RESULTS}/tables/popularity_scatter/{{dataset}}.tex",
        pdf=f"{RESULTS}/figures/popularity_scatter/{{dataset}}.pdf",
        png=reported(f"{RESULTS}/figures/popularity_scatter/{{dataset}}.png"),
    log:
        f"{RESULTS}/logs/popularity_scatter/{{dataset}}.log",
    wildcard_constraints:
        dataset=alternatives(POPULARITY),
    priority: 1
    conda:
        ENV
    threads: threads("popularity")
    resources:
        **cost("popularity"),
    params:
        **POPULARITY_SETTINGS,
        tie_tolerance=PLAN.config["popularity"]["tie_tolerance"],
    script:
        "../../scripts/popularity_scatter.py"


rule popularity_tables:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=POPULARITY),
        tables=PLAN.score_tables(*POPULARITY),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
    output:
        csv=reported(f"{RESULTS}/tables/popularity_vs_uniform.csv"),
        tex=f"{RESULTS}/tables/popularity_vs_uniform.tex",
        deltas=reported(f"{RESULTS}/tables/popularity_deltas.csv"),
    log:
        f"{RESULTS}/logs/popularity_tables.log",
    priority: 1
    conda:
        ENV
    threads: threads("popularity")
    resources:
        **cost("popularity"),
    params:
        **POPULARITY_SETTINGS,
        tie_tolerance=PLAN.config["popularity"]["tie_tolerance"],
        skipped=PLAN.popularity_skipped,  # {data set: why it is left out}
        datasets=POPULARITY,
        all_datasets=DATASETS,
    script:
        "../../scripts/popularity_tables.py"


rule popularity_examples:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=EXAMPLES),
        tables=PLAN.score_tables(*EXAMPLES),
        gold=expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=EXAMPLES),
        runs=expand(f"{RESULTS}/data/{{dataset}}/runs.tsv", dataset=EXAMPLES),
        arrays=expand(f"{RESULTS}/data/{{dataset}}/arrays.npz", dataset=EXAMPLES),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
    output:
        pdf=f"{RESULTS}/figures/popularity_examples.pdf",
        png=reported(f"{RESULTS}/figures/popularity_examples.png"),
    log:
        f"{RESULTS}/logs/popularity_examples.log",
    priority: 1
    conda:
        ENV
    threads: threads("popularity")
    resources:
        **cost("popularity"),
    params:
        **POPULARITY_SETTINGS,
        skipped=PLAN.popularity_skipped,
        datasets=EXAMPLES,
        compared=POPULARITY,
        all_datasets=DATASETS,
        classes={name: PLAN.datasets[name].classes for name in EXAMPLES},
    script:
        "../../scripts/popularity_examples.py"


rule popularity:
    input:
        PLAN.targets("popularity"),
