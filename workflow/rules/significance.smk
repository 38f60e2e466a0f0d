# Stage: randomised Tukey HSD p-values of every run pair of a data set (Sakai, ACL-IJCNLP 2021), then the
# significance overlap (SSO) per data set; discriminative power, contradictions and the discriminative power
# curves of each task's data sets. (A data set's own curves: rule dataset_figures.)
SIGNIFICANCE = PLAN.config["significance"]


rule significance_pvalues:
    input:
        stack=path("scores/stack"),
        tables=score_tables,
    output:
        pvalues=path("significance/pvalues"),
        # the same p-values as arrays, read instead of the table while its SHA-256 matches
        arrays=path("significance/arrays"),
        identical_runs=path("significance/identical"),
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
        pvalues=path("significance/pvalues"),
        arrays=path("significance/arrays"),
        measures=path("scores/measures"),
        provenance=path("data/provenance"),
    output:
        csv=reported(path("significance/sso", "csv")),
        tex=path("significance/sso", "tex"),
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
            path("significance/pvalues"), dataset=suffix_datasets(wildcards)
        ),
        arrays=lambda wildcards: expand(
            path("significance/arrays"), dataset=suffix_datasets(wildcards)
        ),
        identical_runs=lambda wildcards: expand(
            path("significance/identical"), dataset=suffix_datasets(wildcards)
        ),
        measures=lambda wildcards: expand(
            path("scores/measures"), dataset=suffix_datasets(wildcards)
        ),
        provenance=lambda wildcards: expand(
            path("data/provenance"), dataset=suffix_datasets(wildcards)
        ),
    output:
        power_csv=reported(path("significance/power", "csv", suffix="{suffix}")),
        power_tex=path("significance/power", "tex", suffix="{suffix}"),
        counts_csv=reported(path("significance/counts", "csv", suffix="{suffix}")),
        counts_tex=path("significance/counts", "tex", suffix="{suffix}"),
        contradictions_csv=reported(
            path("significance/contradictions", "csv", suffix="{suffix}")
        ),
        contradictions_tex=path("significance/contradictions", "tex", suffix="{suffix}"),
        collapsed_csv=reported(path("significance/collapsed", "csv", suffix="{suffix}")),
        collapsed_tex=path("significance/collapsed", "tex", suffix="{suffix}"),
    log:
        f"{RESULTS}/logs/significance_summary/summary{{suffix}}.log",
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        datasets=suffix_datasets,
        measures=lambda wildcards: PLAN.suffix_measures(
            "significance", wildcards.suffix
        ),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
    script:
        "../../scripts/significance_summary.py"


rule significance_curves:
    input:
        pvalues=lambda wildcards: expand(
            path("significance/pvalues"), dataset=suffix_datasets(wildcards)
        ),
        arrays=lambda wildcards: expand(
            path("significance/arrays"), dataset=suffix_datasets(wildcards)
        ),
        measures=lambda wildcards: expand(
            path("scores/measures"), dataset=suffix_datasets(wildcards)
        ),
        provenance=lambda wildcards: expand(
            path("data/provenance"), dataset=suffix_datasets(wildcards)
        ),
    output:
        pdf=path("significance/curves_all", "pdf", suffix="{suffix}"),
        png=reported(path("significance/curves_all", "png", suffix="{suffix}")),
    log:
        f"{RESULTS}/logs/significance_curves/curves{{suffix}}.log",
    priority: 1
    conda:
        ENV
    threads: threads("figures")
    resources:
        **cost("figures"),
    params:
        datasets=suffix_datasets,
        task=lambda wildcards: PLAN.suffix_task(wildcards.suffix),
        measures=lambda wildcards: PLAN.suffix_measures(
            "significance", wildcards.suffix
        ),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
    script:
        "../../scripts/significance_curves.py"


rule significance:
    input:
        PLAN.targets("significance"),
