# Stage (SPEC 4.3-4.5): randomised Tukey HSD p-values of every run pair per data set (a job per large
# data set, one for all the small ones), then discriminative power, significance overlap (SSO),
# contradictions and DP curves.

SIGNIFICANCE_PVALUES = SPECS.significance_pvalues()
# Small data sets run together in one job (ordeval.resources.GROUPED), larger ones in a job each.
SIGNIFICANCE_PVALUES_GROUPED, SIGNIFICANCE_PVALUES_ALONE = SPECS.grouped_datasets(
    "significance_pvalues"
)
SIGNIFICANCE_PVALUES_GROUP = SPECS.group("significance_pvalues")
SIGNIFICANCE_TABLES = SPECS.significance_tables()
SIGNIFICANCE_FIGURES = SPECS.significance_figures()


if SIGNIFICANCE_PVALUES_ALONE:

    rule significance_pvalues:
        input:
            **SIGNIFICANCE_PVALUES.inputs,
            library=PLAN.library("significance_pvalues"),
        output:
            **reported(SIGNIFICANCE_PVALUES),
        log:
            log("significance_pvalues", wildcard=True),
        wildcard_constraints:
            dataset=PLAN.dataset_regex(SIGNIFICANCE_PVALUES_ALONE),
        priority: priority("significance_pvalues")
        conda:
            ENV
        threads: job_threads("significance_pvalues", wildcard=True)
        resources:
            **job_resources("significance_pvalues", wildcard=True),
        params:
            **job_params(SPECS.significance_pvalues_params, wildcard=True),
        script:
            "../../scripts/significance_pvalues.py"


if SIGNIFICANCE_PVALUES_GROUPED:

    rule significance_pvalues_group:
        input:
            **SIGNIFICANCE_PVALUES_GROUP.inputs,
            library=PLAN.library("significance_pvalues"),
        output:
            **reported(SIGNIFICANCE_PVALUES_GROUP),
        log:
            [log("significance_pvalues_group")]
            + [m["log"] for m in SIGNIFICANCE_PVALUES_GROUP.params["members"]],
        priority: priority("significance_pvalues")
        conda:
            ENV
        threads: job_threads("significance_pvalues", group=SIGNIFICANCE_PVALUES_GROUP)
        resources:
            **job_resources("significance_pvalues", group=SIGNIFICANCE_PVALUES_GROUP),
        params:
            **job_params(SIGNIFICANCE_PVALUES_GROUP.params),
        script:
            "../../scripts/significance_pvalues.py"


rule significance_tables:
    input:
        **SIGNIFICANCE_TABLES.inputs,
        library=PLAN.library("significance_tables"),
    output:
        **reported(SIGNIFICANCE_TABLES),
    log:
        log("significance_tables"),
    conda:
        ENV
    threads: job_threads("significance_tables")
    resources:
        **job_resources("significance_tables"),
    params:
        **job_params(SIGNIFICANCE_TABLES.params),
    script:
        "../../scripts/significance_tables.py"


rule significance_figures:
    input:
        **SIGNIFICANCE_FIGURES.inputs,
        library=PLAN.library("significance_figures"),
    output:
        **reported(SIGNIFICANCE_FIGURES),
    log:
        log("significance_figures"),
    priority: priority("significance_figures")
    conda:
        ENV
    threads: job_threads("significance_figures")
    resources:
        **job_resources("significance_figures"),
    params:
        **job_params(SIGNIFICANCE_FIGURES.params),
    script:
        "../../scripts/significance_figures.py"


rule significance:
    input:
        PLAN.targets("significance"),
