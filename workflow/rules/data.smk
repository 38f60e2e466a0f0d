# Stage: each data set's gold and runs (read, computed or simulated) as canonical tables, and the
# data-description table.

for task in PLAN.tasks:

    rule:
        name:
            f"prepare_data_{task}"
        input:
            files=lambda w: PLAN.datasets[w.dataset].files,
            library=lambda w: PLAN.library("prepare_data", w.dataset),
        output:
            **SPECS.prepare_data(task).outputs,
        log:
            log("prepare_data", wildcard=True),
        wildcard_constraints:
            dataset=PLAN.dataset_regex(PLAN.task_datasets(task)),
        priority: priority("prepare_data")
        conda:
            ENV
        threads: job_threads("prepare_data", wildcard=True)
        resources:
            **job_resources("prepare_data", wildcard=True),
        params:
            job=lambda w: SPECS.prepare_data_params(w.dataset),
        script:
            "../../scripts/prepare_data.py"


DATASETS_TABLE = SPECS.datasets_table()


rule datasets_table:
    input:
        **DATASETS_TABLE.inputs,
        library=PLAN.library("datasets_table"),
    output:
        **reported(DATASETS_TABLE),
    log:
        log("datasets_table"),
    conda:
        ENV
    threads: job_threads("datasets_table")
    resources:
        **job_resources("datasets_table"),
    params:
        job=DATASETS_TABLE.params,
    script:
        "../../scripts/datasets_table.py"


rule data:
    input:
        PLAN.targets("data"),
