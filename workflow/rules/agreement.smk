# Stage 3a: ranking agreement between measures (SPEC 4.1): Kendall's tau with CIs per data set,
# averaged over the data sets, average similarity, the DNKT_M tables and a heatmap.


wildcard_constraints:
    combination="|".join(re.escape(name) for name in DNKT_COMBINATIONS),


rule agreement:
    input:
        agreement_targets(),


rule agreement_dataset:
    input:
        scores=lambda wildcards: score_paths(
            wildcards.dataset, AGREEMENT_MEASURES
        ).values(),
        provenance=provenance_path("{dataset}"),
        library=library("agreement", "scoring"),
    output:
        csv=reported(
            f"{RESULTS}/tables/agreement/{{dataset}}.csv", "agreement", "{dataset}"
        ),
        tex=f"{RESULTS}/tables/agreement/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/agreement_dataset/{{dataset}}.log",
    conda:
        "../../environment.yml"
    params:
        measures=AGREEMENT_MEASURES,
        ci_level=config["agreement"]["ci_level"],
    script:
        "../../scripts/agreement_dataset.py"


rule agreement_mean:
    input:
        tables=expand(f"{RESULTS}/tables/agreement/{{dataset}}.csv", dataset=DATASETS),
        provenance=provenance_paths(DATASETS),
        library=library("agreement"),
    output:
        mean_csv=reported(f"{RESULTS}/tables/agreement/mean.csv", "agreement", "mean"),
        mean_tex=f"{RESULTS}/tables/agreement/mean.tex",
        similarity_csv=reported(
            f"{RESULTS}/tables/agreement/similarity.csv", "agreement", "mean"
        ),
        similarity_tex=f"{RESULTS}/tables/agreement/similarity.tex",
    log:
        f"{RESULTS}/logs/agreement_mean.log",
    conda:
        "../../environment.yml"
    params:
        measures=AGREEMENT_MEASURES,
        datasets=DATASETS,
    script:
        "../../scripts/agreement_mean.py"


rule agreement_heatmap:
    input:
        mean=f"{RESULTS}/tables/agreement/mean.csv",
        provenance=provenance_paths(DATASETS),
        library=library("agreement"),
    output:
        pdf=f"{RESULTS}/figures/agreement/mean_heatmap.pdf",
        png=reported(
            f"{RESULTS}/figures/agreement/mean_heatmap.png", "agreement", "mean"
        ),
    log:
        f"{RESULTS}/logs/agreement_heatmap.log",
    conda:
        "../../environment.yml"
    params:
        measures=AGREEMENT_MEASURES,
        datasets=DATASETS,
    script:
        "../../scripts/agreement_heatmap.py"


rule agreement_dnkt:
    input:
        scores=combination_score_paths,
        provenance=provenance_paths(DATASETS),
        library=library("agreement", "scoring"),
    output:
        csv=reported(
            f"{RESULTS}/tables/agreement/dnkt_{{combination}}.csv",
            "agreement",
            "DNKT_{combination}",
        ),
        tex=f"{RESULTS}/tables/agreement/dnkt_{{combination}}.tex",
    log:
        f"{RESULTS}/logs/agreement_dnkt/{{combination}}.log",
    conda:
        "../../environment.yml"
    params:
        ci_level=config["agreement"]["ci_level"],
        datasets=DATASETS,
    script:
        "../../scripts/agreement_dnkt.py"
