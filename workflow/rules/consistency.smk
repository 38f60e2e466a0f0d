# Stage: system ranking consistency (Sakai, CIKM 2021): per data set and condition (topic halves; two
# subsets of `subset_size` topics), the taus between the run rankings on random topic splits and the
# measures compared by the randomised Tukey HSD; the mean tau per measure over each task's data sets. (The
# figures of a data set: rule dataset_figures.)
CONSISTENCY = PLAN.config["consistency"]


rule consistency_taus:
    input:
        stack=path("scores/stack"),
        tables=score_tables,
        provenance=path("data/provenance"),
    output:
        **{f"taus_{c}": path("consistency/taus", condition=c) for c in CONDITIONS},
        **reported(
            {
                f"summary_{c}": path("consistency/summary", "csv", condition=c)
                for c in CONDITIONS
            }
        ),
        **{
            f"summary_tex_{c}": path("consistency/summary", "tex", condition=c)
            for c in CONDITIONS
        },
        **reported(
            {
                f"pairs_{c}": path("consistency/pairs", "csv", condition=c)
                for c in CONDITIONS
            }
        ),
        **{
            f"pairs_tex_{c}": path("consistency/pairs", "tex", condition=c)
            for c in CONDITIONS
        },
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
        **{
            f"summary_{c}": lambda wildcards, c=c: expand(
                path("consistency/summary", "csv", condition=c),
                dataset=suffix_datasets(wildcards),
            )
            for c in CONDITIONS
        },
        measures=lambda wildcards: path(
            "scores/measures", dataset=suffix_datasets(wildcards)[0]
        ),
        provenance=lambda wildcards: expand(
            path("data/provenance"), dataset=suffix_datasets(wildcards)
        ),
    output:
        **reported(
            {
                f"mean_{c}": path(
                    "consistency/mean", "csv", condition=c, suffix="{suffix}"
                )
                for c in CONDITIONS
            }
        ),
        **{
            f"mean_tex_{c}": path(
                "consistency/mean", "tex", condition=c, suffix="{suffix}"
            )
            for c in CONDITIONS
        },
    log:
        f"{RESULTS}/logs/consistency_summary/summary{{suffix}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        conditions=list(CONDITIONS),
        datasets=suffix_datasets,
    script:
        "../../scripts/consistency_summary.py"


rule consistency:
    input:
        PLAN.targets("consistency"),
