# Stage: one measure's meta-evaluation next to the established measures of its task (each measure of
# `measure_reports`, set by `ordeval evaluate-measure`), from the tables of the analysis stages: one job per
# measure (results/<name>/measures/<measure>/report.{md,html,tex}), and its PDF where a TeX engine is wanted.


if PLAN.measure_reports:

    rule measure_report:
        input:
            consistency_half=lambda wildcards: expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_half.csv",
                dataset=measure_datasets(wildcards),
            ),
            consistency_10v10=lambda wildcards: expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_10v10.csv",
                dataset=measure_datasets(wildcards),
            ),
            agreement=lambda wildcards: expand(
                f"{RESULTS}/tables/agreement/{{dataset}}.csv",
                dataset=measure_datasets(wildcards),
            ),
            topic_set_size=lambda wildcards: expand(
                f"{RESULTS}/tables/topic_set_size/{{dataset}}.csv",
                dataset=measure_datasets(wildcards),
            ),
            similarity=lambda wildcards: f"{RESULTS}/tables/agreement/similarity{measure_task_suffix(wildcards)}.csv",
            power=lambda wildcards: f"{RESULTS}/tables/discriminative_power{measure_task_suffix(wildcards)}.csv",
            plugins=PLAN.plugin_files,
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
            **cost("light"),
        params:
            task=lambda wildcards: PLAN.measure_reports[wildcards.measure],
            datasets=measure_datasets,
            conditions=list(CONDITIONS),
            plugins=PLAN.plugin_files,
            property_instances=2000,  # the property checks: random instances per property
            seed=SEED,
        script:
            "../../scripts/measure_report.py"


if PLAN.measure_reports and PLAN.pdf_wanted():

    rule measure_report_pdf:
        input:
            tex=f"{RESULTS}/measures/{{measure}}/report.tex",
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
            **cost("light"),
        script:
            "../../scripts/report_pdf.py"


rule measure_reports:
    input:
        PLAN.targets("measure_reports"),
