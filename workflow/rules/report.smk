# Stage: the provenance manifest, the captions of the HTML report, and the LaTeX report (and its PDF).
# The HTML report's caption files: one per reported rule output, with each of its files' caption (and a table's
# rows) under a condition on the wildcards; {caption file name: [{wildcards, caption, table}]}.
CAPTIONS = pipeline.report_captions(PLAN)
# The LaTeX report's items: (section, data set or "", table fragment or figure), in catalogue order.
REPORT_ITEMS = pipeline.report_items(PLAN)


rule manifest:
    input:
        sources=PLAN.input_files(),
        # every output of the other jobs (the manifest records their SHA-256)
        outputs=pipeline.hashed_outputs(PLAN),
        requirements=workflow.source_path("../../requirements.txt"),
    output:
        manifest=reported(f"{RESULTS}/manifest.json"),
    log:
        f"{RESULTS}/logs/manifest.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        config=PLAN.config,
        input_files={name: data.files for name, data in PLAN.datasets.items()},
        data_root=str(PLAN.data_root),
        commit=git_commit(workflow.basedir),
    script:
        "../../scripts/manifest.py"


rule report_captions:
    input:
        tables=[
            block["table"]
            for blocks in CAPTIONS.values()
            for block in blocks
            if block["table"]
        ],
    output:
        # one caption file per template of a reported output (CAPTIONS: its name -> the tables it names)
        captions=expand(f"{RESULTS}/report/captions/{{key}}.rst", key=CAPTIONS),
    log:
        f"{RESULTS}/logs/report_captions.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        captions=CAPTIONS,
    script:
        "../../scripts/report_captions.py"


rule report_intro:
    input:
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        # the verdict counts (where the configuration compares)
        replication=f"{RESULTS}/tables/replication/summary.csv" if REPLICATED else [],
        # the published-versus-reproduced page, linked as the HTML report keys it (its path)
        page=(
            f"{RESULTS}/tables/replication/published_vs_reproduced.html"
            if REPLICATED
            else []
        ),
    output:
        rst=f"{RESULTS}/report/intro.rst",
    log:
        f"{RESULTS}/logs/report_intro.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        name=PLAN.name,
        seed=SEED,
    script:
        "../../scripts/report_intro.py"


rule report_tex:
    input:
        fragments=[item for *_, item in REPORT_ITEMS],
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        manifest=f"{RESULTS}/manifest.json",
        # the verdict counts, said on the first page (where the configuration compares)
        replication=f"{RESULTS}/tables/replication/summary.csv" if REPLICATED else [],
    output:
        tex=f"{RESULTS}/report/ordeval.tex",
    log:
        f"{RESULTS}/logs/report_tex.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        sections=[section for section, *_ in REPORT_ITEMS],
        datasets=[dataset for _, dataset, _ in REPORT_ITEMS],
        name=PLAN.name,
        seed=SEED,
        parameters=pipeline.report_parameters(PLAN),
    script:
        "../../scripts/report_tex.py"


rule report_pdf:
    input:
        tex=f"{RESULTS}/report/ordeval.tex",
        fragments=[item for *_, item in REPORT_ITEMS],
    output:
        pdf=reported(f"{RESULTS}/report/ordeval.pdf"),
    log:
        f"{RESULTS}/logs/report_pdf.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    script:
        "../../scripts/report_pdf.py"


rule report:
    input:
        PLAN.targets("report"),
