# Stage: per-topic score matrices of every run for every measure of the data set's task, the means per
# run, the measures' directions, and the task's own tables. One rule per task and measure list: the
# outputs of a rule must follow from its wildcards.


for rule_name, task, measures, datasets in SPECS.score_groups():

    rule:
        name:
            rule_name
        input:
            **SPECS.score_runs(task, measures).inputs,
            library=lambda w: PLAN.library("score_runs", w.dataset),
        output:
            **reported(SPECS.score_runs(task, measures)),
        log:
            log("score_runs", wildcard=True),
        wildcard_constraints:
            dataset=PLAN.dataset_regex(datasets),
        priority: priority("score_runs")
        conda:
            ENV
        threads: job_threads("score_runs", wildcard=True)
        resources:
            **job_resources("score_runs", wildcard=True),
        params:
            job=lambda w: SPECS.score_runs_params(w.dataset),
        script:
            "../../scripts/score_runs.py"


rule scores:
    input:
        PLAN.targets("scores"),
