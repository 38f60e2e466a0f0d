# Stage: provenance manifest, the captions of the HTML report, and the LaTeX report (and its PDF).

# The HTML report's captions: one per reported catalogue entry, and one per reported table showing it.
CAPTIONS = {key: PLAN.caption(key) for key in PLAN.reported_keys()}
TABLE_CAPTIONS = PLAN.table_captions()  # {caption file: {caption, table (its CSV)}}
# The LaTeX report's items: (section, table fragment or figure), in catalogue order.
REPORT_ITEMS = wf.report_items(PLAN)


rule manifest:
    input:
        sources=PLAN.input_files(),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        # every output of the other jobs (the manifest records their SHA-256)
        outputs=wf.hashed_outputs(PLAN),
        requirements=workflow.source_path("../../requirements.txt"),
        library=library("manifest"),
    output:
        manifest=reported(f"{RESULTS}/manifest.json"),
    log:
        job_log("manifest"),
    conda:
        ENV
    threads: job_threads("manifest")
    resources:
        **job_resources("manifest"),
    params:
        config=PLAN.config,
        input_files={name: data.files for name, data in PLAN.datasets.items()},
        data_root=str(PLAN.data_root),
        commit=git_commit(workflow.basedir),
    script:
        "../../scripts/manifest.py"


rule report_captions:
    input:
        tables=[table["table"] for table in TABLE_CAPTIONS.values()],
        library=library("report_captions"),
    output:
        captions=expand(
            f"{RESULTS}/report/captions/{{key}}.rst",
            key=[caption_name(key) for key in CAPTIONS],
        ),
        tables=list(TABLE_CAPTIONS),
    log:
        job_log("report_captions"),
    conda:
        ENV
    threads: job_threads("report_captions")
    resources:
        **job_resources("report_captions"),
    params:
        captions=list(CAPTIONS.values()),
        table_captions=[table["caption"] for table in TABLE_CAPTIONS.values()],
        max_rows=wf.REPORT_TABLE_ROWS,
    script:
        "../../scripts/report_captions.py"


rule report_tex:
    input:
        fragments=[path for _, path in REPORT_ITEMS],
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        manifest=f"{RESULTS}/manifest.json",
        library=library("report_tex"),
    output:
        tex=f"{RESULTS}/report/ordeval.tex",
    log:
        job_log("report_tex"),
    conda:
        ENV
    threads: job_threads("report_tex")
    resources:
        **job_resources("report_tex"),
    params:
        sections=[section for section, _ in REPORT_ITEMS],
        datasets=DATASETS,
        name=PLAN.name,
        seed=SEED,
        parameters=wf.report_parameters(PLAN),
    script:
        "../../scripts/report_tex.py"


rule report_pdf:
    input:
        tex=f"{RESULTS}/report/ordeval.tex",
        fragments=[path for _, path in REPORT_ITEMS],
        library=library("report_pdf"),
    output:
        pdf=reported(f"{RESULTS}/report/ordeval.pdf"),
    log:
        job_log("report_pdf"),
    conda:
        ENV
    threads: job_threads("report_pdf")
    resources:
        **job_resources("report_pdf"),
    script:
        "../../scripts/report_pdf.py"


rule report:
    input:
        PLAN.targets("report"),
