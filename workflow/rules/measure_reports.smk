# Stage: one measure's meta-evaluation next to the established measures of its task (the measures of
# `measure_reports`, set by `ordeval evaluate-measure`), from the tables of the analysis stages.

# {measure: its task, the task's data sets and summary suffix} of each reported measure.
REPORTS = {
    measure: {
        "task": task,
        "datasets": PLAN.task_datasets(task),
        "suffix": PLAN.suffix(task),
    }
    for measure, task in PLAN.measure_reports.items()
}
REPORTED_TASKS = list(dict.fromkeys(report["task"] for report in REPORTS.values()))
REPORTED_DATASETS = [
    name for task in REPORTED_TASKS for name in PLAN.task_datasets(task)
]
REPORTED_SUFFIXES = [PLAN.suffix(task) for task in REPORTED_TASKS]


rule measure_report:
    input:
        agreement=expand(
            f"{RESULTS}/tables/agreement/{{dataset}}.csv", dataset=REPORTED_DATASETS
        ),
        similarity=expand(
            f"{RESULTS}/tables/agreement/similarity{{suffix}}.csv",
            suffix=REPORTED_SUFFIXES,
        ),
        consistency=expand(
            f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}.csv",
            dataset=REPORTED_DATASETS,
            condition=CONDITIONS,
        ),
        power=expand(
            f"{RESULTS}/tables/discriminative_power{{suffix}}.csv",
            suffix=REPORTED_SUFFIXES,
        ),
        topic_set_size=expand(
            f"{RESULTS}/tables/topic_set_size/{{dataset}}.csv",
            dataset=REPORTED_DATASETS,
        ),
        plugins=PLAN.plugin_files,
        library=library("measure_report"),
    output:
        md=expand(f"{RESULTS}/measures/{{focus}}/report.md", focus=list(REPORTS)),
        html=expand(f"{RESULTS}/measures/{{focus}}/report.html", focus=list(REPORTS)),
        tex=expand(f"{RESULTS}/measures/{{focus}}/report.tex", focus=list(REPORTS)),
        pdf=expand(
            f"{RESULTS}/measures/{{focus}}/report.pdf",
            focus=list(REPORTS) if PLAN.pdf_wanted() else [],
        ),
    log:
        job_log("measure_report"),
    conda:
        ENV
    threads: job_threads("measure_report")
    resources:
        **job_resources("measure_report"),
    params:
        reports=REPORTS,
        datasets=REPORTED_DATASETS,
        tasks=REPORTED_TASKS,
        conditions=list(CONDITIONS),
        plugins=PLAN.plugin_files,
        trials=2000,  # property checks: instances per property
        seed=SEED,
    script:
        "../../scripts/measure_report.py"


rule measure_reports:
    input:
        PLAN.targets("measure_reports"),
