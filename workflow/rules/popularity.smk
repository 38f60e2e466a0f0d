# Stage: Popularity vs Uniform (SPEC 4.6) on the data sets that have both runs; the others are left
# out, and the tables, figures and logs say why.

POPULARITY_TABLES = SPECS.popularity_tables()
POPULARITY_FIGURES = SPECS.popularity_figures()


rule popularity_tables:
    input:
        **POPULARITY_TABLES.inputs,
        library=PLAN.library("popularity_tables"),
    output:
        **reported(POPULARITY_TABLES),
    log:
        log("popularity_tables"),
    priority: priority("popularity_tables")
    conda:
        ENV
    threads: job_threads("popularity_tables")
    resources:
        **job_resources("popularity_tables"),
    params:
        **job_params(POPULARITY_TABLES.params),
    script:
        "../../scripts/popularity_tables.py"


rule popularity_figures:
    input:
        **POPULARITY_FIGURES.inputs,
        library=PLAN.library("popularity_figures"),
    output:
        **reported(POPULARITY_FIGURES),
    log:
        log("popularity_figures"),
    priority: priority("popularity_figures")
    conda:
        ENV
    threads: job_threads("popularity_figures")
    resources:
        **job_resources("popularity_figures"),
    params:
        **job_params(POPULARITY_FIGURES.params),
    script:
        "../../scripts/popularity_figures.py"


rule popularity:
    input:
        PLAN.targets("popularity"),
