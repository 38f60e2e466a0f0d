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
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        csv=reported(f"{RESULTS}/tables/agreement/{{dataset}}.csv"),
        tex=f"{RESULTS}/tables/agreement/{{dataset}}.tex",
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
            f"{RESULTS}/tables/agreement/{{dataset}}.csv",
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
        mean_csv=reported(f"{RESULTS}/tables/agreement/mean{{task_suffix}}.csv"),
        mean_tex=f"{RESULTS}/tables/agreement/mean{{task_suffix}}.tex",
        similarity_csv=reported(
            f"{RESULTS}/tables/agreement/similarity{{task_suffix}}.csv"
        ),
        similarity_tex=f"{RESULTS}/tables/agreement/similarity{{task_suffix}}.tex",
    log:
        f"{RESULTS}/logs/agreement_summary/summary{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        **cost("light"),
    params:
        kendall=KENDALL,
        measures=lambda wildcards: PLAN.suffix_measures(
            "agreement", wildcards.task_suffix
        ),
        datasets=task_datasets,
    script:
        "../../scripts/agreement_summary.py"


rule agreement_dnkt:
    input:
        stack=expand(
            f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=PLAN.dnkt_datasets
        ),
        tables=PLAN.score_tables(*PLAN.dnkt_datasets),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=PLAN.dnkt_datasets
        ),
    output:
        csv=reported(f"{RESULTS}/tables/agreement/dnkt_{{measure}}.csv"),
        tex=f"{RESULTS}/tables/agreement/dnkt_{{measure}}.tex",
    log:
        f"{RESULTS}/logs/agreement_dnkt/{{measure}}.log",
    wildcard_constraints:
        measure=alternatives(PLAN.dnkt_combinations),
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        **AGREEMENT,
        datasets=PLAN.dnkt_datasets,
    script:
        "../../scripts/agreement_dnkt.py"


rule agreement_heatmap:
    input:
        mean=f"{RESULTS}/tables/agreement/mean{{task_suffix}}.csv",
        measures=lambda wildcards: expand(
            f"{RESULTS}/scores/{{dataset}}/measures.tsv",
            dataset=task_datasets(wildcards),
        ),
        provenance=lambda wildcards: expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json",
            dataset=task_datasets(wildcards),
        ),
    output:
        pdf=f"{RESULTS}/figures/agreement/mean_heatmap{{task_suffix}}.pdf",
        png=reported(f"{RESULTS}/figures/agreement/mean_heatmap{{task_suffix}}.png"),
    log:
        f"{RESULTS}/logs/agreement_heatmap/heatmap{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("figures")
    resources:
        **cost("figures"),
    params:
        kendall=KENDALL,
        measures=lambda wildcards: PLAN.suffix_measures(
            "agreement", wildcards.task_suffix
        ),
    script:
        "../../scripts/agreement_heatmap.py"


rule agreement:
    input:
        PLAN.targets("agreement"),
