# Stage: the provenance manifest, the first page of the HTML report, and the LaTeX report (and its PDF).

# Every output of the other stages (the manifest records their SHA-256; the reports are made after them).
OUTPUTS = [
    rules.data.input,
    rules.scores.input,
    rules.agreement.input,
    rules.consistency.input,
    rules.significance.input,
    rules.popularity.input,
    rules.leaderboard.input,
    rules.topic_set_size.input,
    rules.figures.input,
    rules.classification.input,
    rules.replication.input,
    rules.measure_reports.input,
]
# No two of them with one path (a data set or measure named like another output), before any job.
check_outputs()

# What the PDF prints, section by section (ordeval.reports.catalogue.SECTIONS): a rule's output (a LaTeX table
# fragment or a PDF figure) for every job of it that its stage makes, with the caption of its twin in the HTML
# report (workflow/report/<caption>.rst: the same words in both reports). Over several data sets first, then a
# subsection per data set.
PRINTED = [
    ("replication", rules.replication_summary, "tex", "replication/summary"),
    ("replication", rules.replication_summary, "pooled_tex", "replication/pooled"),
    ("replication", rules.replication_dataset, "tex", "replication/dataset"),
    ("data", rules.datasets_table, "tex", "data/table"),
    ("agreement", rules.agreement_summary, "mean_tex", "agreement/mean"),
    ("agreement", rules.agreement_summary, "similarity_tex", "agreement/similarity"),
    ("agreement", rules.agreement_heatmap, "pdf", "agreement/heatmap"),
    ("agreement", rules.agreement_dnkt, "tex", "agreement/dnkt"),
    ("agreement", rules.agreement_dataset, "tex", "agreement/dataset"),
    (
        "consistency",
        rules.consistency_summary,
        "mean_tex_half",
        "consistency/mean_half",
    ),
    (
        "consistency",
        rules.consistency_summary,
        "mean_tex_10v10",
        "consistency/mean_10v10",
    ),
    (
        "consistency",
        rules.consistency_taus,
        "summary_tex_half",
        "consistency/summary_half",
    ),
    (
        "consistency",
        rules.consistency_taus,
        "summary_tex_10v10",
        "consistency/summary_10v10",
    ),
    ("consistency", rules.consistency_taus, "pairs_tex_half", "consistency/pairs_half"),
    (
        "consistency",
        rules.consistency_taus,
        "pairs_tex_10v10",
        "consistency/pairs_10v10",
    ),
    (
        "consistency",
        rules.dataset_figures,
        "consistency_pdf_half",
        "consistency/figure_half",
    ),
    (
        "consistency",
        rules.dataset_figures,
        "consistency_pdf_10v10",
        "consistency/figure_10v10",
    ),
    ("power", rules.significance_summary, "power_tex", "significance/power"),
    ("power", rules.significance_curves, "pdf", "significance/curves_all"),
    ("power", rules.dataset_figures, "curves_pdf", "significance/curves"),
    ("sso", rules.significance_overlap, "tex", "significance/sso"),
    ("contradictions", rules.significance_summary, "counts_tex", "significance/counts"),
    (
        "contradictions",
        rules.significance_summary,
        "collapsed_tex",
        "significance/collapsed",
    ),
    ("popularity", rules.popularity_tables, "tex", "popularity/table"),
    ("popularity", rules.popularity_examples, "pdf", "popularity/examples"),
    ("popularity", rules.popularity_scatter, "tex", "popularity/scatter_table"),
    ("popularity", rules.popularity_scatter, "pdf", "popularity/scatter"),
    ("topic_set_size", rules.topic_set_size_table, "tex", "topic_set_size/table"),
    (
        "topic_set_size",
        rules.dataset_figures,
        "topic_set_size_pdf",
        "topic_set_size/figure",
    ),
    (
        "classification",
        rules.classification_tables,
        "agreement_tex",
        "classification/agreement",
    ),
    (
        "classification",
        rules.classification_tables,
        "consistency_tex",
        "classification/consistency",
    ),
    ("classification", rules.classification_figures, "pdf", "classification/figure1"),
    (
        "classification",
        rules.classification_tables,
        "properties_tex",
        "classification/properties",
    ),
    (
        "classification",
        rules.classification_tables,
        "kappa_tex",
        "classification/kappa",
    ),
    (
        "classification",
        rules.classification_tables,
        "pooled_tex",
        "classification/pooled",
    ),
    (
        "classification",
        rules.classification_tables,
        "conventions_tex",
        "classification/conventions",
    ),
    ("leaderboard", rules.dataset_figures, "leaderboard_pdf", "leaderboard/figure"),
    ("leaderboard", rules.leaderboard_tables, "compact", "leaderboard/compact"),
]
# Each printed item: {section, caption, path, wildcards}, in that order.
ITEMS = printed_items(PRINTED)


# The results the HTML report's first page links to first (what each shows: its caption's title, over which data
# sets): the first task's averaged ranking agreement and its discriminative power.
FIRST = f"the {get_task(PLAN.tasks[0]).title} data sets"
START = [
    (
        f"{caption_label(caption_file('agreement/heatmap'), PLAN.config)}, {FIRST}",
        expand(rules.agreement_heatmap.output.png, task_suffix=SUFFIXES[0])[0],
    ),
    (
        f"{caption_label(caption_file('significance/power'), PLAN.config)}, {FIRST}",
        expand(rules.significance_summary.output.power_html, task_suffix=SUFFIXES[0])[
            0
        ],
    ),
]


rule report_intro:
    input:
        provenance=expand(rules.prepare_data.output.provenance, dataset=DATASETS),
        # the verdict counts and the published-versus-reproduced page, linked (where the configuration compares)
        replication=(
            rules.replication_summary.output.csv
            if PLAN.config["replication"]["compare"]
            else []
        ),
        page=(
            rules.replication_summary.output.page
            if PLAN.config["replication"]["compare"]
            else []
        ),
        # what the first page links to first, one click each (START)
        start=[path for _, path in START],
    output:
        rst=f"{RESULTS}/report/intro.rst",
    log:
        f"{RESULTS}/logs/report_intro.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        name=PLAN.name,
        seed=SEED,
        start=[text for text, _ in START],
        code=code("report_intro"),
    script:
        "../../scripts/report_intro.py"


rule manifest:
    input:
        sources=PLAN.input_files(),
        outputs=[OUTPUTS, rules.report_intro.output],
        requirements=os.path.relpath(os.path.join(workflow.basedir, "requirements.txt")),
    output:
        manifest=shown(
            f"{RESULTS}/manifest.json",
            "report/manifest",
            "paper",
        ),
    log:
        f"{RESULTS}/logs/manifest.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        config=PLAN.config,
        input_files={name: list(PLAN.source_paths(name).values()) for name in DATASETS},
        data_root=PLAN.config["data_root"],
        commit=git_commit(workflow.basedir),
        code=code("manifest"),
    script:
        "../../scripts/manifest.py"


rule report_tex:
    input:
        printed=[item["path"] for item in ITEMS],
        captions=[item["caption"] for item in ITEMS],
        provenance=expand(rules.prepare_data.output.provenance, dataset=DATASETS),
        manifest=rules.manifest.output.manifest,
        # the verdict counts, said on the first page (where the configuration compares)
        replication=(
            rules.replication_summary.output.csv
            if PLAN.config["replication"]["compare"]
            else []
        ),
    output:
        tex=f"{RESULTS}/report/ordeval.tex",
    log:
        f"{RESULTS}/logs/report_tex.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        sections=[item["section"] for item in ITEMS],
        wildcards=[item["wildcards"] for item in ITEMS],
        config=PLAN.config,
        name=PLAN.name,
        task_titles={
            get_task(task).summary_suffix: get_task(task).title for task in PLAN.tasks
        },
        code=code("report_tex"),
    script:
        "../../scripts/report_tex.py"


rule report_pdf:
    input:
        tex=rules.report_tex.output.tex,
        printed=[item["path"] for item in ITEMS],
    output:
        pdf=shown(
            f"{RESULTS}/report/ordeval.pdf",
            "report/pdf",
            "paper",
        ),
    log:
        f"{RESULTS}/logs/report_pdf.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        code=code("report_pdf"),
    script:
        "../../scripts/report_pdf.py"


rule report:
    input:
        rules.manifest.output,
        rules.report_intro.output,
        rules.report_tex.output,
        rules.report_pdf.output if PLAN.pdf_wanted() else [],
