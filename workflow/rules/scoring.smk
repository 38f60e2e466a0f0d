# Stage: per-topic score matrices of every run for every measure of the data set's task, the means per
# run, the measures' directions, and the task's own tables. One rule per task: their outputs differ.


for task in PLAN.tasks:

    rule:
        name:
            f"score_runs_{task}"
        input:
            **SPECS.score_runs(task).inputs,
            library=lambda w: PLAN.library("score_runs", w.dataset),
        output:
            **reported(SPECS.score_runs(task)),
        params:
            job=lambda w: SPECS.score_runs_params(w.dataset),
        log:
            log("score_runs", wildcard=True),
        wildcard_constraints:
            dataset=PLAN.dataset_regex(task),
        conda:
            ENV
        script:
            "../../scripts/score_runs.py"


rule scores:
    input:
        PLAN.targets("scores"),
