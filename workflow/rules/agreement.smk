# Stage: ranking agreement between measures (Sakai, ACL-IJCNLP 2021): Kendall's tau with CIs between the
# measures' run rankings per data set; averaged over each task's data sets with the measures' average
# similarity and a heatmap; the DNKT_M tables (DNKT vs M vs their harmonic mean DNKT_M).
AGREEMENT = {
    "ci_level": PLAN.config["agreement"]["ci_level"],
    "ci_method": PLAN.config["agreement"]["ci_method"],
    "kendall": KENDALL,
}


rule agreement_dataset:
    input:
        stack=path("scores/stack"),
        tables=score_tables,
        provenance=path("data/provenance"),
    output:
        csv=reported(path("agreement/dataset", "csv")),
        tex=path("agreement/dataset", "tex"),
    log:
        f"{RESULTS}/logs/agreement_dataset/{{dataset}}.log",
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        **AGREEMENT,
        measures=lambda wildcards: PLAN.dataset_measures("agreement", wildcards.dataset),
    script:
        "../../scripts/agreement_dataset.py"


rule agreement_summary:
    input:
        tables=lambda wildcards: expand(
            path("agreement/dataset", "csv"), dataset=suffix_datasets(wildcards)
        ),
        measures=lambda wildcards: expand(
            path("scores/measures"), dataset=suffix_datasets(wildcards)
        ),
        provenance=lambda wildcards: expand(
            path("data/provenance"), dataset=suffix_datasets(wildcards)
        ),
    output:
        mean_csv=reported(path("agreement/mean", "csv", suffix="{suffix}")),
        mean_tex=path("agreement/mean", "tex", suffix="{suffix}"),
        similarity_csv=reported(path("agreement/similarity", "csv", suffix="{suffix}")),
        similarity_tex=path("agreement/similarity", "tex", suffix="{suffix}"),
    log:
        f"{RESULTS}/logs/agreement_summary/summary{{suffix}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        kendall=KENDALL,
        measures=lambda wildcards: PLAN.suffix_measures("agreement", wildcards.suffix),
        datasets=suffix_datasets,
    script:
        "../../scripts/agreement_summary.py"


rule agreement_dnkt:
    input:
        stack=expand(path("scores/stack"), dataset=PLAN.dnkt_datasets),
        tables=PLAN.score_tables(*PLAN.dnkt_datasets),
        provenance=expand(path("data/provenance"), dataset=PLAN.dnkt_datasets),
    output:
        csv=reported(path("agreement/dnkt", "csv")),
        tex=path("agreement/dnkt", "tex"),
    log:
        f"{RESULTS}/logs/agreement_dnkt/{{combination}}.log",
    wildcard_constraints:
        combination=alternatives(PLAN.dnkt_combinations),
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        **AGREEMENT,
    script:
        "../../scripts/agreement_dnkt.py"


rule agreement_heatmap:
    input:
        mean=path("agreement/mean", "csv", suffix="{suffix}"),
        measures=lambda wildcards: path(
            "scores/measures", dataset=suffix_datasets(wildcards)[0]
        ),
        provenance=lambda wildcards: expand(
            path("data/provenance"), dataset=suffix_datasets(wildcards)
        ),
    output:
        pdf=path("agreement/heatmap", "pdf", suffix="{suffix}"),
        png=reported(path("agreement/heatmap", "png", suffix="{suffix}")),
    log:
        f"{RESULTS}/logs/agreement_heatmap/heatmap{{suffix}}.log",
    conda:
        ENV
    threads: threads("figures")
    resources:
        **cost("figures"),
    params:
        kendall=KENDALL,
        measures=lambda wildcards: PLAN.suffix_measures("agreement", wildcards.suffix),
    script:
        "../../scripts/agreement_heatmap.py"


rule agreement:
    input:
        PLAN.targets("agreement"),
