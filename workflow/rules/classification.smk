# Stage: the ordinal classification data sets laid out as in the ACL 2021 paper (its Tables 2-4 and
# Figure 1), the constant baselines' kappa, the official SemEval protocol and the 0/0 conventions.
# Only when the configuration has classification data sets.

if "classification" in PLAN.tasks:
    CLASSIFICATION_TABLES = SPECS.classification_tables()
    CLASSIFICATION_FIGURES = SPECS.classification_figures()

    rule classification_tables:
        input:
            **CLASSIFICATION_TABLES.inputs,
            library=PLAN.library("classification_tables"),
        output:
            **reported(CLASSIFICATION_TABLES),
        log:
            log("classification_tables"),
        conda:
            ENV
        threads: job_threads("classification_tables")
        resources:
            **job_resources("classification_tables"),
        params:
            **job_params(CLASSIFICATION_TABLES.params),
        script:
            "../../scripts/classification_tables.py"

    rule classification_figures:
        input:
            **CLASSIFICATION_FIGURES.inputs,
            library=PLAN.library("classification_figures"),
        output:
            **reported(CLASSIFICATION_FIGURES),
        log:
            log("classification_figures"),
        conda:
            ENV
        threads: job_threads("classification_figures")
        resources:
            **job_resources("classification_figures"),
        params:
            **job_params(CLASSIFICATION_FIGURES.params),
        script:
            "../../scripts/classification_figures.py"


rule classification:
    input:
        PLAN.targets("classification"),
