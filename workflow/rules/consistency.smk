# Stage: system ranking consistency (Sakai, CIKM 2021): per data set and condition (topic halves; two
# subsets of `subset_size` topics), the taus between the run rankings on random topic splits and the
# measures compared by the randomised Tukey HSD; the mean tau per measure over each task's data sets. (The
# figures of a data set: rule dataset_figures.)
CONSISTENCY = PLAN.config["consistency"]


rule consistency_taus:
    input:
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        # the conditions (ordeval.stats.splits.CONDITIONS): topic halves, and two subsets of subset_size topics
        taus_half=f"{RESULTS}/consistency/{{dataset}}/half.tsv",
        taus_10v10=f"{RESULTS}/consistency/{{dataset}}/10v10.tsv",
        summary_half=reported(f"{RESULTS}/tables/consistency/{{dataset}}_half.csv"),
        summary_10v10=reported(f"{RESULTS}/tables/consistency/{{dataset}}_10v10.csv"),
        summary_tex_half=f"{RESULTS}/tables/consistency/{{dataset}}_half.tex",
        summary_tex_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10.tex",
        pairs_half=reported(f"{RESULTS}/tables/consistency/{{dataset}}_half_pairs.csv"),
        pairs_10v10=reported(
            f"{RESULTS}/tables/consistency/{{dataset}}_10v10_pairs.csv"
        ),
        pairs_tex_half=f"{RESULTS}/tables/consistency/{{dataset}}_half_pairs.tex",
        pairs_tex_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10_pairs.tex",
    log:
        f"{RESULTS}/logs/consistency_taus/{{dataset}}.log",
    priority: 2
    conda:
        ENV
    threads: threads("taus")
    resources:
        **cost("taus"),
    params:
        measures=lambda wildcards: PLAN.dataset_measures(
            "consistency", wildcards.dataset
        ),
        conditions=list(CONDITIONS),
        splits=CONSISTENCY["trials"],
        subset_size=CONSISTENCY["subset_size"],
        hsd_trials=CONSISTENCY["hsd_trials"],
        alpha=CONSISTENCY["alpha"],
        seed=SEED,
        kendall=KENDALL,
    script:
        "../../scripts/consistency_taus.py"


rule consistency_summary:
    input:
        summary_half=lambda wildcards: expand(
            rules.consistency_taus.output.summary_half,
            dataset=task_datasets(wildcards),
        ),
        summary_10v10=lambda wildcards: expand(
            rules.consistency_taus.output.summary_10v10,
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
        mean_half=reported(f"{RESULTS}/tables/consistency/mean_half{{task_suffix}}.csv"),
        mean_10v10=reported(
            f"{RESULTS}/tables/consistency/mean_10v10{{task_suffix}}.csv"
        ),
        mean_tex_half=f"{RESULTS}/tables/consistency/mean_half{{task_suffix}}.tex",
        mean_tex_10v10=f"{RESULTS}/tables/consistency/mean_10v10{{task_suffix}}.tex",
    log:
        f"{RESULTS}/logs/consistency_summary/summary{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        conditions=list(CONDITIONS),
        datasets=task_datasets,
    script:
        "../../scripts/consistency_summary.py"


rule consistency:
    input:
        PLAN.targets("consistency"),
