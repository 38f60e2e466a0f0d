# Stage: provenance manifest and reports.


rule manifest:
    input:
        sources=all_dataset_files(),
        provenance=[provenance_path(dataset) for dataset in DATASETS],
        requirements=workflow.source_path("../../requirements.txt"),
        library=library("manifest"),
    output:
        f"{RESULTS}/manifest.json",
    log:
        f"{RESULTS}/logs/manifest.log",
    conda:
        "../../environment.yml"
    params:
        config=config,
        input_files={dataset: dataset_file_list(dataset) for dataset in DATASETS},
        commit=GIT_COMMIT,
    script:
        "../../scripts/write_manifest.py"
