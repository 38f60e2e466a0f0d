# Stage: ranking agreement between measures (Sakai, ACL-IJCNLP 2021): Kendall's tau with CIs per
# data set, averaged over the data sets of each task, average similarity, the DNKT_M tables and heatmaps.

# The M of each DNKT_M table (over the OQ data sets), and each task's first data set (its measures).
COMBINATIONS = PLAN.dnkt_combinations
FIRST = [PLAN.task_datasets(task)[0] for task in TASKS]


rule agreement_tables:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("agreement_tables"),
    output:
        csv=reported(
            expand(f"{RESULTS}/tables/agreement/{{dataset}}.csv", dataset=DATASETS)
        ),
        tex=expand(f"{RESULTS}/tables/agreement/{{dataset}}.tex", dataset=DATASETS),
        # per task (suffix "" for OQ, "_oc" for OC)
        mean_csv=reported(
            expand(f"{RESULTS}/tables/agreement/mean{{suffix}}.csv", suffix=SUFFIXES)
        ),
        mean_tex=expand(
            f"{RESULTS}/tables/agreement/mean{{suffix}}.tex", suffix=SUFFIXES
        ),
        similarity_csv=reported(
            expand(
                f"{RESULTS}/tables/agreement/similarity{{suffix}}.csv", suffix=SUFFIXES
            )
        ),
        similarity_tex=expand(
            f"{RESULTS}/tables/agreement/similarity{{suffix}}.tex", suffix=SUFFIXES
        ),
        dnkt_csv=reported(
            expand(
                f"{RESULTS}/tables/agreement/dnkt_{{combination}}.csv",
                combination=COMBINATIONS,
            )
        ),
        dnkt_tex=expand(
            f"{RESULTS}/tables/agreement/dnkt_{{combination}}.tex",
            combination=COMBINATIONS,
        ),
    log:
        job_log("agreement_tables"),
    conda:
        ENV
    threads: job_threads("agreement_tables")
    resources:
        **job_resources("agreement_tables"),
    params:
        datasets=DATASETS,
        measures=measures("agreement"),
        tasks=task_summaries("agreement"),
        combinations=COMBINATIONS,
        dnkt_datasets=OQ,
        ci_level=PLAN.config["agreement"]["ci_level"],
        ci_method=PLAN.config["agreement"]["ci_method"],
        kendall=KENDALL,
    script:
        "../../scripts/agreement_tables.py"


rule agreement_figures:
    input:
        tables=expand(f"{RESULTS}/tables/agreement/mean{{suffix}}.csv", suffix=SUFFIXES),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=FIRST),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("agreement_figures"),
    output:
        pdf=expand(
            f"{RESULTS}/figures/agreement/mean_heatmap{{suffix}}.pdf", suffix=SUFFIXES
        ),
        png=reported(
            expand(
                f"{RESULTS}/figures/agreement/mean_heatmap{{suffix}}.png",
                suffix=SUFFIXES,
            )
        ),
    log:
        job_log("agreement_figures"),
    conda:
        ENV
    threads: job_threads("agreement_figures")
    resources:
        **job_resources("agreement_figures"),
    params:
        datasets=DATASETS,
        tasks=task_summaries("agreement"),
        kendall=KENDALL,
    script:
        "../../scripts/agreement_figures.py"


rule agreement:
    input:
        PLAN.targets("agreement"),
