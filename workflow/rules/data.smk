# Stage: each data set's gold and runs (read, computed or simulated) as canonical tables, and the
# data-description table.

PREPARE_DATA = SPECS.prepare_data()


rule prepare_data:
    input:
        files=lambda w: PLAN.datasets[w.dataset].files,
        library=lambda w: PLAN.library("prepare_data", w.dataset),
    output:
        **reported(PREPARE_DATA),
    params:
        job=lambda w: SPECS.prepare_data_params(w.dataset),
    log:
        log("prepare_data", wildcard=True),
    conda:
        ENV
    script:
        "../../scripts/prepare_data.py"


DATASETS_TABLE = SPECS.datasets_table()


rule datasets_table:
    input:
        **DATASETS_TABLE.inputs,
        library=PLAN.library("datasets_table"),
    output:
        **reported(DATASETS_TABLE),
    params:
        job=DATASETS_TABLE.params,
    log:
        log("datasets_table"),
    conda:
        ENV
    script:
        "../../scripts/datasets_table.py"


rule data:
    input:
        PLAN.targets("data"),
