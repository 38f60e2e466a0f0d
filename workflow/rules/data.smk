# Stage: each data set's gold and runs (read, computed or simulated) as canonical tables, and the
# data-description table. One job builds every data set (each in its own log).


rule prepare_data:
    input:
        # every data set's input files, as its configuration names them (none for simulated data)
        files=PLAN.input_files(),
        library=library("prepare_data"),
    output:
        gold=expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=BUILT),
        runs=expand(f"{RESULTS}/data/{{dataset}}/runs.tsv", dataset=BUILT),
        arrays=expand(f"{RESULTS}/data/{{dataset}}/arrays.npz", dataset=OQ),
        scores=expand(f"{RESULTS}/data/{{dataset}}/scores.npz", dataset=GIVEN),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
    log:
        job_log("prepare_data"),
        dataset_logs("prepare_data"),
    priority: priority("prepare_data")
    conda:
        ENV
    threads: job_threads("prepare_data")
    resources:
        **job_resources("prepare_data"),
    params:
        datasets=PLAN.dataset_settings(),
        data_root=str(PLAN.data_root),
        seed=SEED,
    script:
        "../../scripts/prepare_data.py"


rule datasets_table:
    input:
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("datasets_table"),
    output:
        csv=reported(f"{RESULTS}/tables/datasets.csv"),
        tex=f"{RESULTS}/tables/datasets.tex",
    log:
        job_log("datasets_table"),
    conda:
        ENV
    threads: job_threads("datasets_table")
    resources:
        **job_resources("datasets_table"),
    params:
        datasets=DATASETS,
    script:
        "../../scripts/datasets_table.py"


rule data:
    input:
        PLAN.targets("data"),
