# Stage: each data set's gold and runs (read, computed or simulated) as canonical files, one job per data set,
# whatever its task (ordeval.tasks.base.CANONICAL_FILES: the gold and runs as tables, the same as arrays, their
# provenance); then the table of the data sets.


rule prepare_data:
    input:
        unpack(dataset_files),
        plugins=PLUGINS,  # a plugin's file format or task
    output:
        gold=f"{RESULTS}/data/{{dataset}}/gold.tsv",
        runs=f"{RESULTS}/data/{{dataset}}/runs.tsv",
        arrays=f"{RESULTS}/data/{{dataset}}/arrays.npz",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    log:
        f"{RESULTS}/logs/prepare_data/{{dataset}}.log",
    priority: 4
    conda:
        ENV
    threads: threads("build")
    resources:
        mem_mb=mem_mb("build"),
        runtime=runtime("build"),
    params:
        task=lambda wildcards: PLAN.datasets[wildcards.dataset].task,
        spec=lambda wildcards: PLAN.datasets[wildcards.dataset].spec,
        seed=SEED,
        plugins=PLUGINS,
        code=code("prepare_data"),
    script:
        "../../scripts/prepare_data.py"


rule datasets_table:
    input:
        provenance=expand(rules.prepare_data.output.provenance, dataset=DATASETS),
    output:
        csv=f"{RESULTS}/tables/datasets.csv",
        html=shown(
            f"{RESULTS}/tables/datasets.html",
            "data/table",
            "data",
        ),
        tex=f"{RESULTS}/tables/datasets.tex",
    log:
        f"{RESULTS}/logs/datasets_table.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        code=code("datasets_table"),
    script:
        "../../scripts/datasets_table.py"


rule data:
    input:
        made(rules.prepare_data, dataset=DATASETS),
        made(rules.datasets_table),
