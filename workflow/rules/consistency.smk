# Stage: system ranking consistency (Sakai, CIKM 2021): per data set and condition (topic halves; two
# subsets of `subset_size` topics), the taus between the run rankings on random topic splits and the
# measures compared by the randomised Tukey HSD; the mean tau per measure over each task's data sets. (The
# figures of a data set: rule dataset_figures.) The conditions (ordeval.stats.splits.CONDITIONS) are written out.
CONSISTENCY = PLAN.config["consistency"]


rule consistency_taus:
    input:
        stack=rules.score_stack.output.stack,
        provenance=rules.prepare_data.output.provenance,
    output:
        taus_half=f"{RESULTS}/consistency/{{dataset}}/half.tsv",
        taus_10v10=f"{RESULTS}/consistency/{{dataset}}/10v10.tsv",
        summary_half=f"{RESULTS}/tables/consistency/{{dataset}}_half.csv",
        summary_html_half=shown(
            f"{RESULTS}/tables/consistency/{{dataset}}_half.html",
            "consistency/summary_half",
            "consistency",
            "{dataset}",
        ),
        summary_tex_half=f"{RESULTS}/tables/consistency/{{dataset}}_half.tex",
        summary_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10.csv",
        summary_html_10v10=shown(
            f"{RESULTS}/tables/consistency/{{dataset}}_10v10.html",
            "consistency/summary_10v10",
            "consistency",
            "{dataset}",
        ),
        summary_tex_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10.tex",
        pairs_half=f"{RESULTS}/tables/consistency/{{dataset}}_half_pairs.csv",
        pairs_html_half=shown(
            f"{RESULTS}/tables/consistency/{{dataset}}_half_pairs.html",
            "consistency/pairs_half",
            "consistency",
            "{dataset}",
        ),
        pairs_tex_half=f"{RESULTS}/tables/consistency/{{dataset}}_half_pairs.tex",
        pairs_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10_pairs.csv",
        pairs_html_10v10=shown(
            f"{RESULTS}/tables/consistency/{{dataset}}_10v10_pairs.html",
            "consistency/pairs_10v10",
            "consistency",
            "{dataset}",
        ),
        pairs_tex_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10_pairs.tex",
    log:
        f"{RESULTS}/logs/consistency_taus/{{dataset}}.log",
    priority: 2
    conda:
        ENV
    threads: threads("taus")
    resources:
        mem_mb=mem_mb("taus"),
        runtime=runtime("taus"),
    params:
        measures=dataset_measures("consistency"),
        conditions=list(CONDITIONS),
        splits=CONSISTENCY["trials"],
        subset_size=CONSISTENCY["subset_size"],
        hsd_trials=CONSISTENCY["hsd_trials"],
        alpha=CONSISTENCY["alpha"],
        seed=SEED,
        kendall=KENDALL,
        code=code("consistency_taus"),
    script:
        "../../scripts/consistency_taus.py"


rule consistency_summary:
    input:
        summary_half=gathered(rules.consistency_taus.output.summary_half, task_datasets),
        summary_10v10=gathered(
            rules.consistency_taus.output.summary_10v10, task_datasets
        ),
        measures=gathered(rules.score_runs.output.measures, task_datasets),
        provenance=gathered(rules.prepare_data.output.provenance, task_datasets),
    output:
        mean_half=f"{RESULTS}/tables/consistency/mean_half{{task_suffix}}.csv",
        mean_html_half=shown(
            f"{RESULTS}/tables/consistency/mean_half{{task_suffix}}.html",
            "consistency/mean_half",
            "consistency",
            task_title,
        ),
        mean_tex_half=f"{RESULTS}/tables/consistency/mean_half{{task_suffix}}.tex",
        mean_10v10=f"{RESULTS}/tables/consistency/mean_10v10{{task_suffix}}.csv",
        mean_html_10v10=shown(
            f"{RESULTS}/tables/consistency/mean_10v10{{task_suffix}}.html",
            "consistency/mean_10v10",
            "consistency",
            task_title,
        ),
        mean_tex_10v10=f"{RESULTS}/tables/consistency/mean_10v10{{task_suffix}}.tex",
    log:
        f"{RESULTS}/logs/consistency_summary/summary{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        datasets=task_datasets,
        conditions=list(CONDITIONS),
        code=code("consistency_summary"),
    script:
        "../../scripts/consistency_summary.py"


# The figures of the distributions of the split taus are made by rule dataset_figures (figures.smk).
rule consistency:
    input:
        made(rules.consistency_taus, dataset=DATASETS),
        made(rules.consistency_summary, task_suffix=SUFFIXES),
