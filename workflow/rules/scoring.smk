# Stage: per-topic score matrices of every run for every measure of the data set's task, the means per
# run, the measures' directions, and the task's own tables. One rule per task and measure list: the
# outputs of a rule must follow from its wildcards.


for rule_name, task, measures, datasets in SPECS.score_groups():
    # Small data sets are scored together in one job (ordeval.resources.GROUPED), larger ones in a job each.
    SCORE_GROUPED, SCORE_ALONE = SPECS.grouped_datasets("score_runs", datasets)

    if SCORE_ALONE:

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
                dataset=PLAN.dataset_regex(SCORE_ALONE),
            priority: priority("score_runs")
            conda:
                ENV
            threads: job_threads("score_runs", wildcard=True)
            resources:
                **job_resources("score_runs", wildcard=True),
            params:
                **job_params(SPECS.score_runs_params, wildcard=True),
            script:
                "../../scripts/score_runs.py"

    if SCORE_GROUPED:
        SCORE_GROUP = SPECS.group("score_runs", rule_name)

        rule:
            name:
                SCORE_GROUP.name
            input:
                **SCORE_GROUP.inputs,
                library=PLAN.library("score_runs", SCORE_GROUPED[0]),
            output:
                **reported(SCORE_GROUP),
            log:
                [log(SCORE_GROUP.name)]
                + [m["log"] for m in SCORE_GROUP.params["members"]],
            priority: priority("score_runs")
            conda:
                ENV
            threads: job_threads("score_runs", group=SCORE_GROUP)
            resources:
                **job_resources("score_runs", group=SCORE_GROUP),
            params:
                **job_params(SCORE_GROUP.params),
            script:
                "../../scripts/score_runs.py"


rule scores:
    input:
        PLAN.targets("scores"),
