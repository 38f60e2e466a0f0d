# Stage: published versus reproduced (ordeval.results.replication; docs/methods.md, section 7). Every number the
# replicated publications print for a configured data set, beside the one this configuration reproduces,
# with the difference and a verdict; then the counts per verdict. Only with `replication: {compare: true}`.
REPLICATED = PLAN.replicated_datasets


if REPLICATED:

    rule replication_dataset:
        input:
            **{
                f"consistency_{c}": path("consistency/summary", "csv", condition=c)
                for c in CONDITIONS
            },
            # the discriminative power table of the data set's task (tables/discriminative_power<suffix>.csv)
            agreement=path("agreement/dataset", "csv"),
            power=lambda wildcards: path(
                "significance/power", "csv", suffix=task_suffix(wildcards)
            ),
            means=path("scores/means"),
            # the official protocol's scores, where the task has one (classification: pooled.tsv)
            pooled=lambda wildcards: PLAN.paths(
                "scores/pooled", dataset=wildcards.dataset
            ),
            # CIKM 2021 LQ, Table 7 (the dialogues on which each measure prefers either baseline), where made
            popularity=lambda wildcards: (
                PLAN.paths("popularity/table", ("csv",))
                if wildcards.dataset in POPULARITY
                else []
            ),
            provenance=path("data/provenance"),
        output:
            csv=reported(path("replication/dataset", "csv")),
            tex=path("replication/dataset", "tex"),
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
            tables=expand(path("replication/dataset", "csv"), dataset=REPLICATED),
            power=PLAN.paths("significance/power", ("csv",)),
            provenance=expand(path("data/provenance"), dataset=DATASETS),
        output:
            csv=reported(path("replication/summary", "csv")),
            tex=path("replication/summary", "tex"),
            pooled_csv=reported(path("replication/pooled", "csv")),
            pooled_tex=path("replication/pooled", "tex"),
            # the page a replicator reads first (linked from the HTML report's first page)
            page=reported(path("replication/page", "html")),
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
