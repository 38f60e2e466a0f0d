# Stage: provenance manifest, the captions of the HTML report, and the LaTeX report (and its PDF).

MANIFEST = SPECS.manifest(git_commit(workflow.basedir))
REPORT_CAPTIONS = SPECS.report_captions()
REPORT_TEX = SPECS.report_tex()
REPORT_PDF = SPECS.report_pdf()


rule manifest:
    input:
        **MANIFEST.inputs,
        requirements=workflow.source_path("../../requirements.txt"),
        library=PLAN.library("manifest"),
    output:
        **reported(MANIFEST),
    log:
        log("manifest"),
    conda:
        ENV
    threads: job_threads("manifest")
    resources:
        **job_resources("manifest"),
    params:
        **job_params(MANIFEST.params),
    script:
        "../../scripts/manifest.py"


rule report_captions:
    input:
        **REPORT_CAPTIONS.inputs,
        library=PLAN.library("report_captions"),
    output:
        **REPORT_CAPTIONS.outputs,
    log:
        log("report_captions"),
    conda:
        ENV
    threads: job_threads("report_captions")
    resources:
        **job_resources("report_captions"),
    params:
        **job_params(REPORT_CAPTIONS.params),
    script:
        "../../scripts/report_captions.py"


rule report_tex:
    input:
        **REPORT_TEX.inputs,
        library=PLAN.library("report_tex"),
    output:
        **reported(REPORT_TEX),
    log:
        log("report_tex"),
    conda:
        ENV
    threads: job_threads("report_tex")
    resources:
        **job_resources("report_tex"),
    params:
        **job_params(REPORT_TEX.params),
    script:
        "../../scripts/report_tex.py"


rule report_pdf:
    input:
        **REPORT_PDF.inputs,
        library=PLAN.library("report_pdf"),
    output:
        **reported(REPORT_PDF),
    log:
        log("report_pdf"),
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
