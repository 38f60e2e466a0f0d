# Stage: one measure's meta-evaluation next to the established measures of its task (each measure of
# `measure_reports`, set by `ordeval evaluate-measure`), from the tables of the analysis stages: one job per
# measure (results/<name>/measures/<measure>/report.*).


if PLAN.measure_reports:

    rule measure_report:
        input:
            **{
                f"consistency_{c}": lambda wildcards, c=c: expand(
                    path("consistency/summary", "csv", condition=c),
                    dataset=focus_datasets(wildcards),
                )
                for c in CONDITIONS
            },
            agreement=lambda wildcards: expand(
                path("agreement/dataset", "csv"), dataset=focus_datasets(wildcards)
            ),
            topic_set_size=lambda wildcards: expand(
                path("topic_set_size/table", "csv"), dataset=focus_datasets(wildcards)
            ),
            similarity=lambda wildcards: path(
                "agreement/similarity", "csv", suffix=focus_suffix(wildcards)
            ),
            power=lambda wildcards: path(
                "significance/power", "csv", suffix=focus_suffix(wildcards)
            ),
            plugins=PLAN.plugin_files,
        output:
            **({"pdf": path("measures/pdf", "pdf")} if PLAN.pdf_wanted() else {}),
            md=path("measures/report", "md"),
            html=path("measures/report", "html"),
            tex=path("measures/report", "tex"),
        log:
            f"{RESULTS}/logs/measure_report/{{focus}}.log",
        wildcard_constraints:
            focus=alternatives(PLAN.measure_reports),
        conda:
            ENV
        threads: threads("light")
        resources:
            **cost("light"),
        params:
            task=lambda wildcards: PLAN.measure_reports[wildcards.focus],
            datasets=focus_datasets,
            conditions=list(CONDITIONS),
            plugins=PLAN.plugin_files,
            property_instances=2000,  # the property checks: random instances per property
            seed=SEED,
        script:
            "../../scripts/measure_report.py"


rule measure_reports:
    input:
        PLAN.targets("measure_reports"),
