# Stage: randomised Tukey HSD p-values of every run pair of a data set (Sakai, ACL-IJCNLP 2021), then the
# significance overlap (SSO) per data set; discriminative power, contradictions and the discriminative power
# curves of each task's data sets. (A data set's own curves: rule dataset_figures.)
SIGNIFICANCE = PLAN.config["significance"]


rule significance_pvalues:
    input:
        stack=rules.score_stack.output.stack,
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
        mem_mb=mem_mb("hsd"),
        runtime=runtime("hsd"),
    params:
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        seed=SEED,
        code=code("significance_pvalues"),
    script:
        "../../scripts/significance_pvalues.py"


rule significance_overlap:
    input:
        pvalues=rules.significance_pvalues.output.pvalues,
        arrays=rules.significance_pvalues.output.arrays,
        measures=rules.score_runs.output.measures,
        provenance=rules.prepare_data.output.provenance,
    output:
        csv=f"{RESULTS}/tables/sso/{{dataset}}.csv",
        html=shown(
            f"{RESULTS}/tables/sso/{{dataset}}.html",
            "significance/sso",
            "sso",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/sso/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/significance_overlap/{{dataset}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        measures=dataset_measures("significance"),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        code=code("significance_overlap"),
    script:
        "../../scripts/significance_overlap.py"


rule significance_summary:
    input:
        pvalues=gathered(rules.significance_pvalues.output.pvalues, task_datasets),
        arrays=gathered(rules.significance_pvalues.output.arrays, task_datasets),
        identical_runs=gathered(
            rules.significance_pvalues.output.identical_runs, task_datasets
        ),
        measures=gathered(rules.score_runs.output.measures, task_datasets),
        provenance=gathered(rules.prepare_data.output.provenance, task_datasets),
    output:
        power_csv=f"{RESULTS}/tables/discriminative_power{{task_suffix}}.csv",
        power_html=shown(
            f"{RESULTS}/tables/discriminative_power{{task_suffix}}.html",
            "significance/power",
            "power",
            task_title,
        ),
        power_tex=f"{RESULTS}/tables/discriminative_power{{task_suffix}}.tex",
        counts_csv=f"{RESULTS}/tables/contradiction_counts{{task_suffix}}.csv",
        counts_html=shown(
            f"{RESULTS}/tables/contradiction_counts{{task_suffix}}.html",
            "significance/counts",
            "contradictions",
            task_title,
        ),
        counts_tex=f"{RESULTS}/tables/contradiction_counts{{task_suffix}}.tex",
        # every contradicting pair (for the screen; the report prints the grouped list)
        contradictions_csv=f"{RESULTS}/tables/contradictions{{task_suffix}}.csv",
        contradictions_html=shown(
            f"{RESULTS}/tables/contradictions{{task_suffix}}.html",
            "significance/contradictions",
            "contradictions",
            task_title,
        ),
        contradictions_tex=f"{RESULTS}/tables/contradictions{{task_suffix}}.tex",
        collapsed_csv=f"{RESULTS}/tables/contradictions_grouped{{task_suffix}}.csv",
        collapsed_html=shown(
            f"{RESULTS}/tables/contradictions_grouped{{task_suffix}}.html",
            "significance/collapsed",
            "contradictions",
            task_title,
        ),
        collapsed_tex=f"{RESULTS}/tables/contradictions_grouped{{task_suffix}}.tex",
    log:
        f"{RESULTS}/logs/significance_summary/summary{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("tables")
    resources:
        mem_mb=mem_mb("tables"),
        runtime=runtime("tables"),
    params:
        datasets=task_datasets,
        measures=task_measures("significance"),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        code=code("significance_summary"),
    script:
        "../../scripts/significance_summary.py"


rule significance_curves:
    input:
        pvalues=gathered(rules.significance_pvalues.output.pvalues, task_datasets),
        arrays=gathered(rules.significance_pvalues.output.arrays, task_datasets),
        measures=gathered(rules.score_runs.output.measures, task_datasets),
        provenance=gathered(rules.prepare_data.output.provenance, task_datasets),
    output:
        pdf=f"{RESULTS}/figures/dp_curves/all{{task_suffix}}.pdf",
        png=shown(
            f"{RESULTS}/figures/dp_curves/all{{task_suffix}}.png",
            "significance/curves_all",
            "power",
            task_title,
        ),
    log:
        f"{RESULTS}/logs/significance_curves/curves{{task_suffix}}.log",
    priority: 1
    conda:
        ENV
    threads: threads("figures")
    resources:
        mem_mb=mem_mb("figures"),
        runtime=runtime("figures"),
    params:
        datasets=task_datasets,
        task=lambda wildcards: PLAN.suffix_task(wildcards.task_suffix),
        measures=task_measures("significance"),
        alpha=SIGNIFICANCE["alpha"],
        hsd_trials=SIGNIFICANCE["hsd_trials"],
        code=code("significance_curves"),
    script:
        "../../scripts/significance_curves.py"


rule significance:
    input:
        made(rules.significance_pvalues, dataset=DATASETS),
        made(rules.significance_overlap, dataset=DATASETS),
        made(rules.significance_summary, task_suffix=SUFFIXES),
        made(rules.significance_curves, task_suffix=SUFFIXES),
