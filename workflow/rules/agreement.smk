# Stage: ranking agreement between measures (SPEC 4.1): Kendall's tau with CIs per data set, averaged
# over the data sets of each task, average similarity, the DNKT_M tables and heatmaps.

AGREEMENT_TABLES = SPECS.agreement_tables()
AGREEMENT_FIGURES = SPECS.agreement_figures()


rule agreement_tables:
    input:
        **AGREEMENT_TABLES.inputs,
        library=PLAN.library("agreement_tables"),
    output:
        **reported(AGREEMENT_TABLES),
    log:
        log("agreement_tables"),
    conda:
        ENV
    threads: job_threads("agreement_tables")
    resources:
        **job_resources("agreement_tables"),
    params:
        **job_params(AGREEMENT_TABLES.params),
    script:
        "../../scripts/agreement_tables.py"


rule agreement_figures:
    input:
        **AGREEMENT_FIGURES.inputs,
        library=PLAN.library("agreement_figures"),
    output:
        **reported(AGREEMENT_FIGURES),
    log:
        log("agreement_figures"),
    conda:
        ENV
    threads: job_threads("agreement_figures")
    resources:
        **job_resources("agreement_figures"),
    params:
        **job_params(AGREEMENT_FIGURES.params),
    script:
        "../../scripts/agreement_figures.py"


rule agreement:
    input:
        PLAN.targets("agreement"),
