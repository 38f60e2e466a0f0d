# Stage: provenance manifest and reports.


rule manifest:
    input:
        sources=all_dataset_files(),
        provenance=[provenance_path(dataset) for dataset in DATASETS],
        requirements=workflow.source_path("../../requirements.txt"),
        library=library("manifest"),
    output:
        reported(f"{RESULTS}/manifest.json", "manifest"),
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


rule report_tex:
    input:
        outputs=report_inputs(),
        provenance=provenance_paths(DATASETS),
        manifest=f"{RESULTS}/manifest.json",
        library=library("report"),
    output:
        tex=f"{RESULTS}/report/ordeval.tex",
    log:
        f"{RESULTS}/logs/report_tex.log",
    conda:
        "../../environment.yml"
    params:
        config=config,
        datasets=DATASETS,
        results=lambda wildcards, output: str(Path(output.tex).parent.parent),
    script:
        "../../scripts/report_tex.py"


rule report_pdf:
    input:
        tex=f"{RESULTS}/report/ordeval.tex",
        outputs=report_inputs(),
        library=library("report"),
    output:
        pdf=reported(f"{RESULTS}/report/ordeval.pdf", "paper"),
    log:
        f"{RESULTS}/logs/report_pdf.log",
    conda:
        "../../environment.yml"
    script:
        "../../scripts/report_pdf.py"
