# Stage: randomised Tukey HSD p-values of every run pair per data set (Sakai, ACL-IJCNLP 2021), then
# discriminative power, significance overlap (SSO), contradictions and discriminative power curves.


rule significance_pvalues:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=DATASETS),
        library=library("significance_pvalues"),
    output:
        pvalues=expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.tsv", dataset=DATASETS
        ),
        # the same p-values as arrays, read instead of the table while its SHA-256 matches
        arrays=expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.npz", dataset=DATASETS
        ),
        run_groups=expand(
            f"{RESULTS}/significance/{{dataset}}/run_groups.tsv", dataset=DATASETS
        ),
    log:
        job_log("significance_pvalues"),
        dataset_logs("significance_pvalues"),
    priority: priority("significance_pvalues")
    conda:
        ENV
    threads: job_threads("significance_pvalues")
    resources:
        **job_resources("significance_pvalues"),
    params:
        datasets=DATASETS,
        trials=PLAN.config["significance"]["hsd_trials"],
        seed=SEED,
    script:
        "../../scripts/significance_pvalues.py"


rule significance_tables:
    input:
        pvalues=expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.tsv", dataset=DATASETS
        ),
        run_groups=expand(
            f"{RESULTS}/significance/{{dataset}}/run_groups.tsv", dataset=DATASETS
        ),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("significance_tables"),
    output:
        sso_csv=reported(
            expand(f"{RESULTS}/tables/sso/{{dataset}}.csv", dataset=DATASETS)
        ),
        sso_tex=expand(f"{RESULTS}/tables/sso/{{dataset}}.tex", dataset=DATASETS),
        # per task (suffix "" for OQ, "_oc" for OC)
        power_csv=reported(
            expand(
                f"{RESULTS}/tables/discriminative_power{{suffix}}.csv", suffix=SUFFIXES
            )
        ),
        power_tex=expand(
            f"{RESULTS}/tables/discriminative_power{{suffix}}.tex", suffix=SUFFIXES
        ),
        counts_csv=reported(
            expand(
                f"{RESULTS}/tables/contradiction_counts{{suffix}}.csv", suffix=SUFFIXES
            )
        ),
        counts_tex=expand(
            f"{RESULTS}/tables/contradiction_counts{{suffix}}.tex", suffix=SUFFIXES
        ),
        contradictions_csv=reported(
            expand(f"{RESULTS}/tables/contradictions{{suffix}}.csv", suffix=SUFFIXES)
        ),
        contradictions_tex=expand(
            f"{RESULTS}/tables/contradictions{{suffix}}.tex", suffix=SUFFIXES
        ),
        grouped_csv=reported(
            expand(
                f"{RESULTS}/tables/contradictions_grouped{{suffix}}.csv",
                suffix=SUFFIXES,
            )
        ),
        grouped_tex=expand(
            f"{RESULTS}/tables/contradictions_grouped{{suffix}}.tex", suffix=SUFFIXES
        ),
    log:
        job_log("significance_tables"),
    conda:
        ENV
    threads: job_threads("significance_tables")
    resources:
        **job_resources("significance_tables"),
    params:
        datasets=DATASETS,
        tasks=task_summaries("significance"),
        alpha=PLAN.config["significance"]["alpha"],
        trials=PLAN.config["significance"]["hsd_trials"],
    script:
        "../../scripts/significance_tables.py"


rule significance_figures:
    input:
        pvalues=expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.tsv", dataset=DATASETS
        ),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("significance_figures"),
    output:
        curves_pdf=expand(
            f"{RESULTS}/figures/dp_curves/{{dataset}}.pdf", dataset=DATASETS
        ),
        curves_png=reported(
            expand(f"{RESULTS}/figures/dp_curves/{{dataset}}.png", dataset=DATASETS)
        ),
        all_pdf=expand(
            f"{RESULTS}/figures/dp_curves/all{{suffix}}.pdf", suffix=SUFFIXES
        ),
        all_png=reported(
            expand(f"{RESULTS}/figures/dp_curves/all{{suffix}}.png", suffix=SUFFIXES)
        ),
    log:
        job_log("significance_figures"),
    priority: priority("significance_figures")
    conda:
        ENV
    threads: job_threads("significance_figures")
    resources:
        **job_resources("significance_figures"),
    params:
        datasets=DATASETS,
        tasks=task_summaries("significance"),
        alpha=PLAN.config["significance"]["alpha"],
        trials=PLAN.config["significance"]["hsd_trials"],
    script:
        "../../scripts/significance_figures.py"


rule significance:
    input:
        PLAN.targets("significance"),
