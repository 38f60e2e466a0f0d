# Stage: published versus reproduced (ordeval.results.replication; docs/methods.md, section 7). Every number the
# replicated publications print for a configured data set, beside the one this configuration reproduces,
# with the difference and a verdict; then the counts per verdict. Only with `replication: {compare: true}`.
REPLICATED = PLAN.replicated_datasets


rule replication_dataset:
    input:
        consistency_half=rules.consistency_taus.output.summary_half,
        consistency_10v10=rules.consistency_taus.output.summary_10v10,
        agreement=rules.agreement_dataset.output.csv,
        # the discriminative power table of the data set's task
        power=lambda wildcards: expand(
            rules.significance_summary.output.power_csv,
            task_suffix=PLAN.suffix(PLAN.datasets[wildcards.dataset].task),
        )[0],
        means=rules.score_runs.output.means,
        # the official protocol's scores, where the data set has them
        pooled=lambda wildcards: (
            expand(rules.official_scores.output.pooled, dataset=wildcards.dataset)
            if wildcards.dataset in OC
            else []
        ),
        # CIKM 2021 LQ, Table 7 (the dialogues on which each measure prefers either baseline), where made
        popularity=lambda wildcards: (
            rules.popularity_tables.output.csv
            if wildcards.dataset in POPULARITY
            else []
        ),
        provenance=rules.prepare_data.output.provenance,
    output:
        csv=f"{RESULTS}/tables/replication/{{dataset}}.csv",
        html=shown(
            f"{RESULTS}/tables/replication/{{dataset}}.html",
            "replication/dataset",
            "replication",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/replication/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/replication_dataset/{{dataset}}.log",
    wildcard_constraints:
        dataset=alternatives(REPLICATED),
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        tolerance=PLAN.config["replication"]["tolerance"],
        classes=lambda wildcards: len(PLAN.datasets[wildcards.dataset].classes),
        code=code("replication_dataset"),
    script:
        "../../scripts/replication_dataset.py"


rule replication_summary:
    input:
        tables=expand(rules.replication_dataset.output.csv, dataset=REPLICATED),
        power=expand(rules.significance_summary.output.power_csv, task_suffix=SUFFIXES),
        provenance=expand(rules.prepare_data.output.provenance, dataset=DATASETS),
    output:
        csv=f"{RESULTS}/tables/replication/summary.csv",
        html=shown(
            f"{RESULTS}/tables/replication/summary.html",
            "replication/summary",
            "replication",
        ),
        tex=f"{RESULTS}/tables/replication/summary.tex",
        pooled_csv=f"{RESULTS}/tables/replication/pooled.csv",
        pooled_html=shown(
            f"{RESULTS}/tables/replication/pooled.html",
            "replication/pooled",
            "replication",
        ),
        pooled_tex=f"{RESULTS}/tables/replication/pooled.tex",
        # the page a replicator reads first (linked from the HTML report's first page)
        page=shown(
            f"{RESULTS}/tables/replication/published_vs_reproduced.html",
            "replication/page",
            "replication",
        ),
    log:
        f"{RESULTS}/logs/replication_summary.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        tolerance=PLAN.config["replication"]["tolerance"],
        name=PLAN.name,
        code=code("replication_summary"),
    script:
        "../../scripts/replication_summary.py"


rule replication:
    input:
        made(rules.replication_dataset, dataset=REPLICATED),
        made(rules.replication_summary) if PLAN.config["replication"]["compare"] else [],
