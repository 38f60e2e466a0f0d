# Stage: published versus reproduced (ordeval.results.replication; docs/methods.md, section 7). Every number the
# replicated publications print for a configured data set, beside the one this configuration reproduces,
# with the difference and a verdict; then the counts per verdict. Only with `replication: {compare: true}`.
REPLICATED = PLAN.replicated_datasets


if REPLICATED:

    rule replication_dataset:
        input:
            consistency_half=f"{RESULTS}/tables/consistency/{{dataset}}_half.csv",
            consistency_10v10=f"{RESULTS}/tables/consistency/{{dataset}}_10v10.csv",
            # the discriminative power table of the data set's task (tables/discriminative_power<suffix>.csv)
            agreement=f"{RESULTS}/tables/agreement/{{dataset}}.csv",
            power=lambda wildcards: f"{RESULTS}/tables/discriminative_power{dataset_task_suffix(wildcards)}.csv",
            means=f"{RESULTS}/scores/{{dataset}}/means.tsv",
            # the official protocol's scores, where the task has one (classification: pooled.tsv)
            pooled=lambda wildcards: (
                f"{RESULTS}/scores/{wildcards.dataset}/pooled.tsv"
                if PLAN.provides(wildcards.dataset, "scores/pooled")
                else []
            ),
            # CIKM 2021 LQ, Table 7 (the dialogues on which each measure prefers either baseline), where made
            popularity=lambda wildcards: (
                f"{RESULTS}/tables/popularity_vs_uniform.csv"
                if wildcards.dataset in POPULARITY
                else []
            ),
            provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
        output:
            csv=reported(f"{RESULTS}/tables/replication/{{dataset}}.csv"),
            tex=f"{RESULTS}/tables/replication/{{dataset}}.tex",
        log:
            f"{RESULTS}/logs/replication_dataset/{{dataset}}.log",
        wildcard_constraints:
            dataset=alternatives(REPLICATED),
        conda:
            ENV
        threads: threads("light")
        resources:
            **cost("light"),
        params:
            tolerance=PLAN.config["replication"]["tolerance"],
            classes=lambda wildcards: len(PLAN.datasets[wildcards.dataset].classes),
        script:
            "../../scripts/replication_dataset.py"

    rule replication_summary:
        input:
            tables=expand(
                f"{RESULTS}/tables/replication/{{dataset}}.csv", dataset=REPLICATED
            ),
            power=expand(
                f"{RESULTS}/tables/discriminative_power{{task_suffix}}.csv",
                task_suffix=SUFFIXES,
            ),
            provenance=expand(
                f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
            ),
        output:
            csv=reported(f"{RESULTS}/tables/replication/summary.csv"),
            tex=f"{RESULTS}/tables/replication/summary.tex",
            pooled_csv=reported(f"{RESULTS}/tables/replication/pooled.csv"),
            pooled_tex=f"{RESULTS}/tables/replication/pooled.tex",
            # the page a replicator reads first (linked from the HTML report's first page)
            page=reported(f"{RESULTS}/tables/replication/published_vs_reproduced.html"),
        log:
            f"{RESULTS}/logs/replication_summary.log",
        conda:
            ENV
        threads: threads("light")
        resources:
            **cost("light"),
        params:
            tolerance=PLAN.config["replication"]["tolerance"],
            name=PLAN.name,
        script:
            "../../scripts/replication_summary.py"


rule replication:
    input:
        PLAN.targets("replication"),
