# Stage: every run of a data set scored on every topic with every measure of its task, one job per data set:
# scores/<dataset>/<measure>.tsv per measure, means.tsv, measures.tsv (each measure's direction), stack.npz
# (what the analyses read), and the task's own tables (classification: conventions.tsv, pooled.tsv). The data
# sets of one task with one list of measures write the same files: a rule each (score_runs_<task>).
for GROUP in PLAN.scoring_groups():

    rule:
        name:
            GROUP.rule
        input:
            **PLAN.canonical_paths(GROUP.task),
            plugins=PLAN.plugin_files,
        output:
            **reported(PLAN.score_paths(GROUP)),
        log:
            f"{RESULTS}/logs/score_runs/{{dataset}}.log",
        wildcard_constraints:
            dataset=alternatives(GROUP.datasets),
        priority: 4
        conda:
            ENV
        threads: threads("score")
        resources:
            **cost("score"),
        params:
            task=GROUP.task,
            spec=lambda wildcards: PLAN.datasets[wildcards.dataset].spec,
            measures=GROUP.measures,
            plugins=PLAN.plugin_files,
        script:
            "../../scripts/score_runs.py"


rule scores:
    input:
        PLAN.targets("scores"),
