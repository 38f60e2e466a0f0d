# Stage: one measure's meta-evaluation next to the established measures of its task (each measure of
# `measure_reports`, set by `ordeval evaluate-measure`), from the tables of the analysis stages: one job per
# measure (results/<name>/measures/<measure>/report.{md,html,tex}), and its PDF where a TeX engine is wanted.


rule measure_report:
    input:
        consistency_half=gathered(
            rules.consistency_taus.output.summary_half, measure_datasets
        ),
        consistency_10v10=gathered(
            rules.consistency_taus.output.summary_10v10, measure_datasets
        ),
        agreement=gathered(rules.agreement_dataset.output.csv, measure_datasets),
        topic_set_size=gathered(rules.topic_set_size_table.output.csv, measure_datasets),
        similarity=lambda wildcards: expand(
            rules.agreement_summary.output.similarity_csv,
            task_suffix=measure_task_suffix(wildcards),
        )[0],
        power=lambda wildcards: expand(
            rules.significance_summary.output.power_csv,
            task_suffix=measure_task_suffix(wildcards),
        )[0],
        plugins=PLUGINS,
    output:
        md=f"{RESULTS}/measures/{{measure}}/report.md",
        html=f"{RESULTS}/measures/{{measure}}/report.html",
        tex=f"{RESULTS}/measures/{{measure}}/report.tex",
    log:
        f"{RESULTS}/logs/measure_report/{{measure}}.log",
    wildcard_constraints:
        measure=alternatives(PLAN.measure_reports),
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        task=lambda wildcards: PLAN.measure_reports[wildcards.measure],
        datasets=measure_datasets,
        conditions=list(CONDITIONS),
        plugins=PLUGINS,
        property_instances=2000,  # the property checks: random instances per property
        seed=SEED,
        code=code("measure_report"),
    script:
        "../../scripts/measure_report.py"


rule measure_report_pdf:
    input:
        tex=rules.measure_report.output.tex,
    output:
        pdf=f"{RESULTS}/measures/{{measure}}/report.pdf",
    log:
        f"{RESULTS}/logs/measure_report_pdf/{{measure}}.log",
    wildcard_constraints:
        measure=alternatives(PLAN.measure_reports),
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


rule measure_reports:
    input:
        made(rules.measure_report, measure=list(PLAN.measure_reports)),
        made(
            rules.measure_report_pdf,
            measure=list(PLAN.measure_reports) if PLAN.pdf_wanted() else [],
        ),
