# Stage: Popularity vs Uniform (Sakai, CIKM 2021 LQ workshop) on the data sets that have both runs;
# the others are left out, and the tables, figures and logs say why.

# The measures compared, and the OQ data sets whose example topics are drawn (they need NMD and RNOD).
POPULARITY_MEASURES = (
    PLAN.measures("popularity", PLAN.datasets[POPULARITY[0]].task) if POPULARITY else []
)
EXAMPLES = (
    [name for name in POPULARITY if name in OQ]
    if {"NMD", "RNOD"} <= set(POPULARITY_MEASURES)
    else []
)
POPULARITY_SETTINGS = {
    "popularity_run": PLAN.config["popularity"]["popularity_run"],
    "uniform_run": PLAN.config["popularity"]["uniform_run"],
    "ci_level": PLAN.config["popularity"]["ci_level"],
    "measures": POPULARITY_MEASURES,
    "skipped": PLAN.popularity_skipped,  # {data set: why it is left out}
    "datasets": POPULARITY,
    "all_datasets": DATASETS,
}


rule popularity_tables:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=POPULARITY),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("popularity_tables"),
    output:
        csv=reported(f"{RESULTS}/tables/popularity_vs_uniform.csv"),
        tex=f"{RESULTS}/tables/popularity_vs_uniform.tex",
        deltas=reported(f"{RESULTS}/tables/popularity_deltas.csv"),
        scatter_csv=reported(
            expand(
                f"{RESULTS}/tables/popularity_scatter/{{dataset}}.csv",
                dataset=POPULARITY,
            )
        ),
        scatter_tex=expand(
            f"{RESULTS}/tables/popularity_scatter/{{dataset}}.tex", dataset=POPULARITY
        ),
    log:
        job_log("popularity_tables"),
    priority: priority("popularity_tables")
    conda:
        ENV
    threads: job_threads("popularity_tables")
    resources:
        **job_resources("popularity_tables"),
    params:
        **POPULARITY_SETTINGS,
        tie_tolerance=PLAN.config["popularity"]["tie_tolerance"],
    script:
        "../../scripts/popularity_tables.py"


rule popularity_figures:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=POPULARITY),
        scatter_csv=expand(
            f"{RESULTS}/tables/popularity_scatter/{{dataset}}.csv", dataset=POPULARITY
        ),
        gold=expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=EXAMPLES),
        runs=expand(f"{RESULTS}/data/{{dataset}}/runs.tsv", dataset=EXAMPLES),
        arrays=expand(f"{RESULTS}/data/{{dataset}}/arrays.npz", dataset=EXAMPLES),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("popularity_figures"),
    output:
        examples_pdf=f"{RESULTS}/figures/popularity_examples.pdf",
        examples_png=reported(f"{RESULTS}/figures/popularity_examples.png"),
        scatter_pdf=expand(
            f"{RESULTS}/figures/popularity_scatter/{{dataset}}.pdf", dataset=POPULARITY
        ),
        scatter_png=reported(
            expand(
                f"{RESULTS}/figures/popularity_scatter/{{dataset}}.png",
                dataset=POPULARITY,
            )
        ),
    log:
        job_log("popularity_figures"),
    priority: priority("popularity_figures")
    conda:
        ENV
    threads: job_threads("popularity_figures")
    resources:
        **job_resources("popularity_figures"),
    params:
        **POPULARITY_SETTINGS,
        classes={name: PLAN.datasets[name].classes for name in EXAMPLES},
    script:
        "../../scripts/popularity_figures.py"


rule popularity:
    input:
        PLAN.targets("popularity"),
