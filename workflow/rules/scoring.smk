# Stage: every run of a data set scored on every topic with every measure the data set scores, one job per data
# set (the scores as computed, scores.npz; the means; each measure's direction), then one score table per measure,
# and the stack the analyses read made from the tables (stack.npz: a table edited by hand is what the analyses
# then read, as Snakemake re-runs what depends on it); for the ordinal classification data sets also the official
# SemEval protocol (one confusion matrix over all items) and the counts of the measures' 0/0 conventions.
from ordeval.tasks.stack import stack_of_tables, write_score_table
from ordeval.workflow.scripting import in_process

OC = PLAN.task_datasets("classification")


rule score_runs:
    input:
        gold=rules.prepare_data.output.gold,
        runs=rules.prepare_data.output.runs,
        arrays=rules.prepare_data.output.arrays,
        provenance=rules.prepare_data.output.provenance,
        plugins=PLUGINS,
    output:
        scores=f"{RESULTS}/scores/{{dataset}}/scores.npz",
        means=f"{RESULTS}/scores/{{dataset}}/means.tsv",
        means_html=shown(
            f"{RESULTS}/scores/{{dataset}}/means.html",
            "scores/means",
            "scores",
            "{dataset}",
        ),
        measures=f"{RESULTS}/scores/{{dataset}}/measures.tsv",
    log:
        f"{RESULTS}/logs/score_runs/{{dataset}}.log",
    priority: 4
    conda:
        ENV
    threads: threads("score")
    resources:
        mem_mb=mem_mb("score"),
        runtime=runtime("score"),
    params:
        task=lambda wildcards: PLAN.datasets[wildcards.dataset].task,
        spec=lambda wildcards: PLAN.datasets[wildcards.dataset].spec,
        measures=lambda wildcards: PLAN.datasets[wildcards.dataset].measures,
        plugins=PLUGINS,
        code=code("score_runs"),
    script:
        "../../scripts/score_runs.py"


# A score table per measure, and the stack from the tables: run: blocks in the Snakemake process (threads:
# profiles/default/config.yaml sets force-use-threads) rather than scripts: each is a few milliseconds of work,
# and a process per table would cost ~0.2 s, for ~130 tables in the default configuration.
rule score_table:
    input:
        scores=rules.score_runs.output.scores,
    output:
        table=f"{RESULTS}/scores/{{dataset}}/{{measure}}.tsv",
    log:
        f"{RESULTS}/logs/score_table/{{dataset}}/{{measure}}.log",
    threads: 1
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        code=code(modules=["ordeval.tasks.stack", "ordeval.workflow.scripting"]),
    run:
        in_process(
            log,
            rule,
            wildcards,
            write_score_table,
            input.scores,
            wildcards.measure,
            output.table,
        )


rule score_stack:
    input:
        tables=lambda wildcards: expand(
            rules.score_table.output.table,
            dataset=wildcards.dataset,
            measure=PLAN.datasets[wildcards.dataset].measures,
        ),
        measures=rules.score_runs.output.measures,
        scores=rules.score_runs.output.scores,
    output:
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
    log:
        f"{RESULTS}/logs/score_stack/{{dataset}}.log",
    threads: 1
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        code=code(modules=["ordeval.tasks.stack", "ordeval.workflow.scripting"]),
    run:
        in_process(
            log,
            rule,
            wildcards,
            stack_of_tables,
            input.tables,
            input.measures,
            output.stack,
            input.scores,
        )


rule official_scores:
    input:
        gold=rules.prepare_data.output.gold,
        runs=rules.prepare_data.output.runs,
        arrays=rules.prepare_data.output.arrays,
        provenance=rules.prepare_data.output.provenance,
        plugins=PLUGINS,
    output:
        pooled=f"{RESULTS}/scores/{{dataset}}/pooled.tsv",
        pooled_html=shown(
            f"{RESULTS}/scores/{{dataset}}/pooled.html",
            "scores/pooled",
            "scores",
            "{dataset}",
        ),
        conventions=f"{RESULTS}/scores/{{dataset}}/conventions.tsv",
        conventions_html=shown(
            f"{RESULTS}/scores/{{dataset}}/conventions.html",
            "scores/conventions",
            "scores",
            "{dataset}",
        ),
    log:
        f"{RESULTS}/logs/official_scores/{{dataset}}.log",
    wildcard_constraints:
        dataset=alternatives(OC),
    priority: 4
    conda:
        ENV
    threads: threads("score")
    resources:
        mem_mb=mem_mb("score"),
        runtime=runtime("score"),
    params:
        spec=lambda wildcards: PLAN.datasets[wildcards.dataset].spec,
        measures=lambda wildcards: PLAN.datasets[wildcards.dataset].measures,
        plugins=PLUGINS,
        code=code("official_scores"),
    script:
        "../../scripts/official_scores.py"


rule scores:
    input:
        made(rules.score_runs, dataset=DATASETS),
        made(rules.score_stack, dataset=DATASETS),
        [
            made(rules.score_table, dataset=[name], measure=data.measures)
            for name, data in PLAN.datasets.items()
        ],
        made(rules.official_scores, dataset=OC),
