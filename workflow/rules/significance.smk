# Stage: randomised Tukey HSD p-values of every run pair of a data set (Sakai, ACL-IJCNLP 2021), then the
# significance overlap (SSO) per data set; discriminative power, contradictions and the discriminative power
# curves of each task's data sets. (A data set's own curves: rule dataset_figures.)
SIGNIFICANCE = PLAN.config["significance"]


rule significance_pvalues:
    input:
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
    output:
        pvalues=f"{RESULTS}/significance/{{dataset}}/pvalues.tsv",
        # the same p-values as arrays, read instead of the table while its SHA-256 matches
        arrays=f"{RESULTS}/significance/{{dataset}}/pvalues.npz",
        identical_runs=f"{RESULTS}/significance/{{dataset}}/identical_runs.tsv",
    log:
        f"{RESULTS}/logs/significance_pvalues/{{dataset}}.log",
    priority: 3
    conda:
        ENV
    threads: threads("hsd")
    resources:
        **cost("hsd"),
    params:
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        seed=SEED,
    script:
        "../../scripts/significance_pvalues.py"


rule significance_overlap:
    input:
        pvalues=f"{RESULTS}/significance/{{dataset}}/pvalues.tsv",
        arrays=f"{RESULTS}/significance/{{dataset}}/pvalues.npz",
        measures=f"{RESULTS}/scores/{{dataset}}/measures.tsv",
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        csv=reported(f"{RESULTS}/tables/sso/{{dataset}}.csv"),
        tex=f"{RESULTS}/tables/sso/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/significance_overlap/{{dataset}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        measures=lambda wildcards: PLAN.dataset_measures(
            "significance", wildcards.dataset
        ),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
    script:
        "../../scripts/significance_overlap.py"


rule significance_summary:
    input:
        pvalues=lambda wildcards: expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.tsv",
            dataset=task_datasets(wildcards),
        ),
        arrays=lambda wildcards: expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.npz",
            dataset=task_datasets(wildcards),
        ),
        identical_runs=lambda wildcards: expand(
            f"{RESULTS}/significance/{{dataset}}/identical_runs.tsv",
            dataset=task_datasets(wildcards),
        ),
        measures=lambda wildcards: expand(
            f"{RESULTS}/scores/{{dataset}}/measures.tsv",
            dataset=task_datasets(wildcards),
        ),
        provenance=lambda wildcards: expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json",
            dataset=task_datasets(wildcards),
        ),
    output:
        power_csv=reported(f"{RESULTS}/tables/discriminative_power{{task_suffix}}.csv"),
        power_tex=f"{RESULTS}/tables/discriminative_power{{task_suffix}}.tex",
        counts_csv=reported(f"{RESULTS}/tables/contradiction_counts{{task_suffix}}.csv"),
        counts_tex=f"{RESULTS}/tables/contradiction_counts{{task_suffix}}.tex",
        contradictions_csv=reported(
            f"{RESULTS}/tables/contradictions{{task_suffix}}.csv"
        ),
        contradictions_tex=f"{RESULTS}/tables/contradictions{{task_suffix}}.tex",
        collapsed_csv=reported(
            f"{RESULTS}/tables/contradictions_grouped{{task_suffix}}.csv"
        ),
        collapsed_tex=f"{RESULTS}/tables/contradictions_grouped{{task_suffix}}.tex",
    log:
        f"{RESULTS}/logs/significance_summary/summary{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        datasets=task_datasets,
        measures=lambda wildcards: PLAN.suffix_measures(
            "significance", wildcards.task_suffix
        ),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
    script:
        "../../scripts/significance_summary.py"


rule significance_curves:
    input:
        pvalues=lambda wildcards: expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.tsv",
            dataset=task_datasets(wildcards),
        ),
        arrays=lambda wildcards: expand(
            f"{RESULTS}/significance/{{dataset}}/pvalues.npz",
            dataset=task_datasets(wildcards),
        ),
        measures=lambda wildcards: expand(
            f"{RESULTS}/scores/{{dataset}}/measures.tsv",
            dataset=task_datasets(wildcards),
        ),
        provenance=lambda wildcards: expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json",
            dataset=task_datasets(wildcards),
        ),
    output:
        pdf=f"{RESULTS}/figures/dp_curves/all{{task_suffix}}.pdf",
        png=reported(f"{RESULTS}/figures/dp_curves/all{{task_suffix}}.png"),
    log:
        f"{RESULTS}/logs/significance_curves/curves{{task_suffix}}.log",
    priority: 1
    conda:
        ENV
    threads: threads("figures")
    resources:
        **cost("figures"),
    params:
        datasets=task_datasets,
        task=lambda wildcards: PLAN.suffix_task(wildcards.task_suffix),
        measures=lambda wildcards: PLAN.suffix_measures(
            "significance", wildcards.task_suffix
        ),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
    script:
        "../../scripts/significance_curves.py"


rule significance:
    input:
        PLAN.targets("significance"),
