# Stage 3 (SPEC 4.3-4.5): randomised Tukey HSD p-values of every run pair per data set (one job per
# data set), then discriminative power, significance overlap (SSO), contradictions and DP curves.


rule significance_pvalues:
    input:
        scores=list(score_paths("{dataset}", MEASURE_NAMES).values()),
        provenance=provenance_path("{dataset}"),
        library=library("significance", "seeding"),
    output:
        pvalues=significance_path("{dataset}", "pvalues"),
        groups=significance_path("{dataset}", "run_groups"),
    log:
        f"{RESULTS}/logs/significance_pvalues/{{dataset}}.log",
    conda:
        "../../environment.yml"
    threads: config["threads"]
    params:
        measures=MEASURE_NAMES,
        seed=config["seed"],
        trials=config["significance"]["hsd_trials"],
    script:
        "../../scripts/significance_pvalues.py"


rule significance_tables:
    input:
        pvalues=[significance_path(dataset, "pvalues") for dataset in DATASETS],
        groups=[significance_path(dataset, "run_groups") for dataset in DATASETS],
        provenance=[provenance_path(dataset) for dataset in DATASETS],
        library=library("significance", "outputs"),
    output:
        power_csv=reported(
            f"{RESULTS}/tables/discriminative_power.csv", "discriminative_power"
        ),
        power_tex=f"{RESULTS}/tables/discriminative_power.tex",
        sso_csv=[
            reported(f"{RESULTS}/tables/sso/{dataset}.csv", "sso", dataset)
            for dataset in DATASETS
        ],
        sso_tex=expand(f"{RESULTS}/tables/sso/{{dataset}}.tex", dataset=DATASETS),
        counts_csv=reported(
            f"{RESULTS}/tables/contradiction_counts.csv", "contradictions"
        ),
        counts_tex=f"{RESULTS}/tables/contradiction_counts.tex",
        contradictions_csv=reported(
            f"{RESULTS}/tables/contradictions.csv", "contradictions"
        ),
        contradictions_tex=f"{RESULTS}/tables/contradictions.tex",
        grouped_csv=reported(
            f"{RESULTS}/tables/contradictions_grouped.csv", "contradictions"
        ),
        grouped_tex=f"{RESULTS}/tables/contradictions_grouped.tex",
    log:
        f"{RESULTS}/logs/significance_tables.log",
    conda:
        "../../environment.yml"
    params:
        datasets=DATASETS,
        measures=SIGNIFICANCE_MEASURES,
        alpha=config["significance"]["alpha"],
        trials=config["significance"]["hsd_trials"],
    script:
        "../../scripts/significance_tables.py"


rule dp_curves:
    input:
        pvalues=[significance_path(dataset, "pvalues") for dataset in DATASETS],
        provenance=[provenance_path(dataset) for dataset in DATASETS],
        library=library("significance", "outputs"),
    output:
        pdf=expand(f"{RESULTS}/figures/dp_curves/{{dataset}}.pdf", dataset=DATASETS),
        png=[
            reported(
                f"{RESULTS}/figures/dp_curves/{dataset}.png", "dp_curves", dataset
            )
            for dataset in DATASETS
        ],
        all_pdf=f"{RESULTS}/figures/dp_curves/all.pdf",
        all_png=reported(f"{RESULTS}/figures/dp_curves/all.png", "dp_curves", "all"),
    log:
        f"{RESULTS}/logs/dp_curves.log",
    conda:
        "../../environment.yml"
    params:
        datasets=DATASETS,
        measures=SIGNIFICANCE_MEASURES,
        alpha=config["significance"]["alpha"],
        trials=config["significance"]["hsd_trials"],
    script:
        "../../scripts/dp_curves.py"
