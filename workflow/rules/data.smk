# Stage 1: every data set as canonical tables (gold.tsv, runs.tsv) plus provenance.json.


rule prepare_data:
    input:
        sources=dataset_files,
        library=library("datasets"),
    output:
        gold=f"{RESULTS}/data/{{dataset}}/gold.tsv",
        runs=f"{RESULTS}/data/{{dataset}}/runs.tsv",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    log:
        f"{RESULTS}/logs/prepare_data/{{dataset}}.log",
    conda:
        "../../environment.yml"
    params:
        spec=lambda wildcards: config["datasets"][wildcards.dataset],
        data_root=config["data_root"],
        seed=config["seed"],
    script:
        "../../scripts/prepare_data.py"
