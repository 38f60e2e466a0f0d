# Stage: system ranking consistency (SPEC 4.2): taus between the rankings on random topic splits and the
# measures compared by the randomised Tukey HSD (a job per large data set, one for all the small ones),
# then tables and figures.

CONSISTENCY_TAUS = SPECS.consistency_taus()
# Small data sets run together in one job (ordeval.resources.GROUPED), larger ones in a job each.
CONSISTENCY_TAUS_GROUPED, CONSISTENCY_TAUS_ALONE = SPECS.grouped_datasets(
    "consistency_taus"
)
CONSISTENCY_TAUS_GROUP = SPECS.group("consistency_taus")
CONSISTENCY_TABLES = SPECS.consistency_tables()
CONSISTENCY_FIGURES = SPECS.consistency_figures()


if CONSISTENCY_TAUS_ALONE:

    rule consistency_taus:
        input:
            **CONSISTENCY_TAUS.inputs,
            library=PLAN.library("consistency_taus"),
        output:
            **reported(CONSISTENCY_TAUS),
        log:
            log("consistency_taus", wildcard=True),
        wildcard_constraints:
            dataset=PLAN.dataset_regex(CONSISTENCY_TAUS_ALONE),
        priority: priority("consistency_taus")
        conda:
            ENV
        threads: job_threads("consistency_taus", wildcard=True)
        resources:
            **job_resources("consistency_taus", wildcard=True),
        params:
            **job_params(SPECS.consistency_taus_params, wildcard=True),
        script:
            "../../scripts/consistency_taus.py"


if CONSISTENCY_TAUS_GROUPED:

    rule consistency_taus_group:
        input:
            **CONSISTENCY_TAUS_GROUP.inputs,
            library=PLAN.library("consistency_taus"),
        output:
            **reported(CONSISTENCY_TAUS_GROUP),
        log:
            [log("consistency_taus_group")]
            + [m["log"] for m in CONSISTENCY_TAUS_GROUP.params["members"]],
        priority: priority("consistency_taus")
        conda:
            ENV
        threads: job_threads("consistency_taus", group=CONSISTENCY_TAUS_GROUP)
        resources:
            **job_resources("consistency_taus", group=CONSISTENCY_TAUS_GROUP),
        params:
            **job_params(CONSISTENCY_TAUS_GROUP.params),
        script:
            "../../scripts/consistency_taus.py"


rule consistency_tables:
    input:
        **CONSISTENCY_TABLES.inputs,
        library=PLAN.library("consistency_tables"),
    output:
        **reported(CONSISTENCY_TABLES),
    log:
        log("consistency_tables"),
    conda:
        ENV
    threads: job_threads("consistency_tables")
    resources:
        **job_resources("consistency_tables"),
    params:
        **job_params(CONSISTENCY_TABLES.params),
    script:
        "../../scripts/consistency_tables.py"


rule consistency_figures:
    input:
        **CONSISTENCY_FIGURES.inputs,
        library=PLAN.library("consistency_figures"),
    output:
        **reported(CONSISTENCY_FIGURES),
    log:
        log("consistency_figures"),
    priority: priority("consistency_figures")
    conda:
        ENV
    threads: job_threads("consistency_figures")
    resources:
        **job_resources("consistency_figures"),
    params:
        **job_params(CONSISTENCY_FIGURES.params),
    script:
        "../../scripts/consistency_figures.py"


rule consistency:
    input:
        PLAN.targets("consistency"),
