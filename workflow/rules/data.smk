# Stage: each data set's gold and runs (read, computed or simulated) as canonical files, one job per data
# set, and the data-description table. A task's data sets write the same files (data/<dataset>/: gold.tsv
# and runs.tsv, quantification also arrays.npz, precomputed scores scores.npz; provenance.json always: the
# task's canonical files, Task.outputs), so each task of the configuration has its rule,
# prepare_data_<task>.
for TASK in TASKS:

    rule:
        name:
            f"prepare_data_{TASK}"
        input:
            # the data set's input files, as its configuration names them (none for simulated data)
            files=lambda wildcards: PLAN.datasets[wildcards.dataset].files,
            plugins=PLAN.plugin_files,  # a plugin's file format or task
        output:
            **PLAN.canonical_paths(TASK),
        log:
            f"{RESULTS}/logs/prepare_data/{{dataset}}.log",
        wildcard_constraints:
            dataset=alternatives(PLAN.task_datasets(TASK)),
        priority: 4
        conda:
            ENV
        threads: threads("build")
        resources:
            **cost("build"),
        params:
            task=TASK,
            spec=lambda wildcards: PLAN.datasets[wildcards.dataset].spec,
            data_root=str(PLAN.data_root),
            seed=SEED,
            plugins=PLAN.plugin_files,
        script:
            "../../scripts/prepare_data.py"


rule datasets_table:
    input:
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
    output:
        csv=reported(f"{RESULTS}/tables/datasets.csv"),
        tex=f"{RESULTS}/tables/datasets.tex",
    log:
        f"{RESULTS}/logs/datasets_table.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    script:
        "../../scripts/datasets_table.py"


rule data:
    input:
        PLAN.targets("data"),
