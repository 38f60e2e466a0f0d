# Stage 3b: system ranking consistency (SPEC 4.2): taus between the rankings on random topic splits,
# the measures compared by the randomised Tukey HSD test, summaries and figures. One job per data set
# handles both conditions (CONSISTENCY_CONDITIONS): each job is mostly start-up time.


rule consistency:
    input:
        consistency_targets(),


rule consistency_dataset:
    input:
        scores=lambda wildcards: score_paths(
            wildcards.dataset, CONSISTENCY_MEASURES
        ).values(),
        provenance=provenance_path("{dataset}"),
        library=library("consistency", "scoring"),
    output:
        taus=consistency_paths("consistency/{{dataset}}/{condition}.tsv"),
        csv=reported(
            consistency_paths("tables/consistency/{{dataset}}_{condition}.csv"),
            "consistency",
            "{dataset}",
        ),
        tex=consistency_paths("tables/consistency/{{dataset}}_{condition}.tex"),
        pairs_csv=reported(
            consistency_paths("tables/consistency/{{dataset}}_{condition}_pairs.csv"),
            "consistency",
            "{dataset}",
        ),
        pairs_tex=consistency_paths(
            "tables/consistency/{{dataset}}_{condition}_pairs.tex"
        ),
    log:
        f"{RESULTS}/logs/consistency_dataset/{{dataset}}.log",
    conda:
        "../../environment.yml"
    threads: config["threads"]
    params:
        measures=CONSISTENCY_MEASURES,
        conditions=CONSISTENCY_CONDITIONS,
        settings={
            key: config["consistency"][key]
            for key in ["trials", "subset_size", "hsd_trials", "alpha"]
        }
        | {"seed": config["seed"]},
    script:
        "../../scripts/consistency_dataset.py"


rule consistency_figure:
    input:
        taus=consistency_paths("consistency/{{dataset}}/{condition}.tsv"),
        provenance=provenance_path("{dataset}"),
        library=library("consistency"),
    output:
        pdf=consistency_paths("figures/consistency/{{dataset}}_{condition}.pdf"),
        png=reported(
            consistency_paths("figures/consistency/{{dataset}}_{condition}.png"),
            "consistency",
            "{dataset}",
        ),
    log:
        f"{RESULTS}/logs/consistency_figure/{{dataset}}.log",
    conda:
        "../../environment.yml"
    params:
        conditions=CONSISTENCY_CONDITIONS,
    script:
        "../../scripts/consistency_figure.py"


rule consistency_mean:
    input:
        # data sets x conditions, in this order
        tables=expand(
            f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}.csv",
            dataset=DATASETS,
            condition=CONSISTENCY_CONDITIONS,
        ),
        provenance=provenance_paths(DATASETS),
        library=library("consistency"),
    output:
        csv=reported(
            consistency_paths("tables/consistency/mean_{condition}.csv"),
            "consistency",
            "mean",
        ),
        tex=consistency_paths("tables/consistency/mean_{condition}.tex"),
    log:
        f"{RESULTS}/logs/consistency_mean.log",
    conda:
        "../../environment.yml"
    params:
        datasets=DATASETS,
        conditions=CONSISTENCY_CONDITIONS,
    script:
        "../../scripts/consistency_mean.py"
