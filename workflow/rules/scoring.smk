# Stage: per-topic score matrices of every run for every measure of the data set's task, the means per
# run, the measures' directions, and the task's own tables. One job scores every data set.


rule score_runs:
    input:
        gold=expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=BUILT),
        runs=expand(f"{RESULTS}/data/{{dataset}}/runs.tsv", dataset=BUILT),
        arrays=expand(f"{RESULTS}/data/{{dataset}}/arrays.npz", dataset=OQ),
        scores=expand(f"{RESULTS}/data/{{dataset}}/scores.npz", dataset=GIVEN),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        plugins=PLAN.plugin_files,
        library=library("score_runs"),
    output:
        matrices=expand(
            f"{RESULTS}/scores/{{dataset}}/{{measure}}.tsv",
            zip,
            dataset=MATRIX_DATASETS,
            measure=MATRIX_MEASURES,
        ),
        means=reported(
            expand(f"{RESULTS}/scores/{{dataset}}/means.tsv", dataset=DATASETS)
        ),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=DATASETS),
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=DATASETS),
        # ordinal classification: how often each 0/0 convention was applied; the pooled SemEval protocol
        conventions=reported(
            expand(f"{RESULTS}/scores/{{dataset}}/conventions.tsv", dataset=OC)
        ),
        pooled=reported(expand(f"{RESULTS}/scores/{{dataset}}/pooled.tsv", dataset=OC)),
    log:
        job_log("score_runs"),
        dataset_logs("score_runs"),
    priority: priority("score_runs")
    conda:
        ENV
    threads: job_threads("score_runs")
    resources:
        **job_resources("score_runs"),
    params:
        datasets=PLAN.dataset_settings(),
        plugins=PLAN.plugin_files,
    script:
        "../../scripts/score_runs.py"


rule scores:
    input:
        PLAN.targets("scores"),
