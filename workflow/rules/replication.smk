# Stage: published versus reproduced (ordeval.replication; docs/methods.md, section 7). Every number the
# replicated publications print for a configured data set, beside the one this configuration reproduces,
# with the difference and a verdict; then the counts per verdict. Only with `replication: {compare: true}`.
REPLICATED = PLAN.replicated_datasets


if REPLICATED:

    rule replication_dataset:
        input:
            **{
                f"consistency_{condition}": f"{RESULTS}/tables/consistency/{{dataset}}_{condition}.csv"
                for condition in CONDITIONS
            },
            # the discriminative power table of the data set's task (tables/discriminative_power<suffix>.csv)
            agreement=f"{RESULTS}/tables/agreement/{{dataset}}.csv",
            power=lambda w: PLAN.paths(
                "significance/power", ("csv",), suffix=task_suffix(w)
            ),
            means=f"{RESULTS}/scores/{{dataset}}/means.tsv",
            # the official protocol's scores, where the task has one (classification: pooled.tsv)
            pooled=lambda w: PLAN.paths("scores/pooled", dataset=w.dataset),
            provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
            library=library("replication_dataset"),
        output:
            csv=reported(f"{RESULTS}/tables/replication/{{dataset}}.csv"),
            tex=f"{RESULTS}/tables/replication/{{dataset}}.tex",
        log:
            f"{RESULTS}/logs/replication_dataset/{{dataset}}.log",
        wildcard_constraints:
            dataset="|".join(map(re.escape, REPLICATED)),
        conda:
            ENV
        threads: job_threads("replication_dataset")
        resources:
            **job_resources("replication_dataset"),
        params:
            tolerance=PLAN.config["replication"]["tolerance"],
            classes=lambda w: len(PLAN.datasets[w.dataset].classes),
        script:
            "../../scripts/replication_dataset.py"

    rule replication_summary:
        input:
            tables=expand(
                f"{RESULTS}/tables/replication/{{dataset}}.csv", dataset=REPLICATED
            ),
            power=PLAN.paths("significance/power", ("csv",)),
            provenance=expand(
                f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
            ),
            library=library("replication_summary"),
        output:
            csv=reported(f"{RESULTS}/tables/replication/summary.csv"),
            tex=f"{RESULTS}/tables/replication/summary.tex",
            pooled_csv=reported(f"{RESULTS}/tables/replication/pooled.csv"),
            pooled_tex=f"{RESULTS}/tables/replication/pooled.tex",
        log:
            f"{RESULTS}/logs/replication_summary.log",
        conda:
            ENV
        threads: job_threads("replication_summary")
        resources:
            **job_resources("replication_summary"),
        params:
            tolerance=PLAN.config["replication"]["tolerance"],
        script:
            "../../scripts/replication_summary.py"


rule replication:
    input:
        PLAN.targets("replication"),
