# Stage 2: per-topic score matrices of every run for every measure, and the means per run.


rule score_runs:
    input:
        gold=f"{RESULTS}/data/{{dataset}}/gold.tsv",
        runs=f"{RESULTS}/data/{{dataset}}/runs.tsv",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
        library=library("scoring", "measures"),
    output:
        matrices=expand(
            f"{RESULTS}/scores/{{{{dataset}}}}/{{measure}}.tsv", measure=MEASURE_NAMES
        ),
        means=reported(f"{RESULTS}/scores/{{dataset}}/means.tsv", "scores", "{dataset}"),
    log:
        f"{RESULTS}/logs/score_runs/{{dataset}}.log",
    conda:
        "../../environment.yml"
    params:
        classes=lambda wildcards: config["datasets"][wildcards.dataset]["classes"],
        measures=MEASURE_NAMES,
    script:
        "../../scripts/score_runs.py"
