# Stage: each data set's gold and runs (read, computed or simulated) as canonical tables, and the
# data-description table.

for task in PLAN.tasks:
    # Small data sets are built together in one job (ordeval.resources.GROUPED), larger ones in a job each.
    PREPARE_GROUPED, PREPARE_ALONE = SPECS.grouped_datasets(
        "prepare_data", PLAN.task_datasets(task)
    )

    if PREPARE_ALONE:

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
                dataset=PLAN.dataset_regex(PREPARE_ALONE),
            priority: priority("prepare_data")
            conda:
                ENV
            threads: job_threads("prepare_data", wildcard=True)
            resources:
                **job_resources("prepare_data", wildcard=True),
            params:
                **job_params(SPECS.prepare_data_params, wildcard=True),
            script:
                "../../scripts/prepare_data.py"

    if PREPARE_GROUPED:
        PREPARE_GROUP = SPECS.group("prepare_data", f"prepare_data_{task}")

        rule:
            name:
                PREPARE_GROUP.name
            input:
                **PREPARE_GROUP.inputs,
                library=PLAN.library("prepare_data", PREPARE_GROUPED[0]),
            output:
                **PREPARE_GROUP.outputs,
            log:
                [log(PREPARE_GROUP.name)]
                + [m["log"] for m in PREPARE_GROUP.params["members"]],
            priority: priority("prepare_data")
            conda:
                ENV
            threads: job_threads("prepare_data", group=PREPARE_GROUP)
            resources:
                **job_resources("prepare_data", group=PREPARE_GROUP),
            params:
                **job_params(PREPARE_GROUP.params),
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
        **job_params(DATASETS_TABLE.params),
    script:
        "../../scripts/datasets_table.py"


rule data:
    input:
        PLAN.targets("data"),
