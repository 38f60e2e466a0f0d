# Stage: system ranking consistency (Sakai, CIKM 2021): taus between the rankings on random topic
# splits and the measures compared by the randomised Tukey HSD, per data set and condition (topic
# halves, two subsets of `subset_size` topics), then tables and figures.


rule consistency_taus:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("consistency_taus"),
    output:
        taus=expand(
            f"{RESULTS}/consistency/{{dataset}}/{{condition}}.tsv",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        summary=reported(
            expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}.csv",
                dataset=DATASETS,
                condition=CONDITIONS,
            )
        ),
        pairs=reported(
            expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}_pairs.csv",
                dataset=DATASETS,
                condition=CONDITIONS,
            )
        ),
    log:
        job_log("consistency_taus"),
        dataset_logs("consistency_taus"),
    priority: priority("consistency_taus")
    conda:
        ENV
    threads: job_threads("consistency_taus")
    resources:
        **job_resources("consistency_taus"),
    params:
        datasets=DATASETS,
        measures=measures("consistency"),
        conditions=list(CONDITIONS),
        trials=PLAN.config["consistency"]["trials"],
        subset_size=PLAN.config["consistency"]["subset_size"],
        hsd_trials=PLAN.config["consistency"]["hsd_trials"],
        alpha=PLAN.config["consistency"]["alpha"],
        seed=SEED,
        kendall=KENDALL,
    script:
        "../../scripts/consistency_taus.py"


rule consistency_tables:
    input:
        summary=expand(
            f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}.csv",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        pairs=expand(
            f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}_pairs.csv",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("consistency_tables"),
    output:
        tex=expand(
            f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}.tex",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        pairs_tex=expand(
            f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}_pairs.tex",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        mean_csv=reported(
            expand(
                f"{RESULTS}/tables/consistency/mean_{{condition}}{{suffix}}.csv",
                suffix=SUFFIXES,
                condition=CONDITIONS,
            )
        ),
        mean_tex=expand(
            f"{RESULTS}/tables/consistency/mean_{{condition}}{{suffix}}.tex",
            suffix=SUFFIXES,
            condition=CONDITIONS,
        ),
    log:
        job_log("consistency_tables"),
    conda:
        ENV
    threads: job_threads("consistency_tables")
    resources:
        **job_resources("consistency_tables"),
    params:
        datasets=DATASETS,
        measures=measures("consistency"),
        tasks=task_summaries("consistency"),
        conditions=list(CONDITIONS),
        trials=PLAN.config["consistency"]["trials"],
        hsd_trials=PLAN.config["consistency"]["hsd_trials"],
        alpha=PLAN.config["consistency"]["alpha"],
    script:
        "../../scripts/consistency_tables.py"


rule consistency_figures:
    input:
        taus=expand(
            f"{RESULTS}/consistency/{{dataset}}/{{condition}}.tsv",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("consistency_figures"),
    output:
        pdf=expand(
            f"{RESULTS}/figures/consistency/{{dataset}}_{{condition}}.pdf",
            dataset=DATASETS,
            condition=CONDITIONS,
        ),
        png=reported(
            expand(
                f"{RESULTS}/figures/consistency/{{dataset}}_{{condition}}.png",
                dataset=DATASETS,
                condition=CONDITIONS,
            )
        ),
    log:
        job_log("consistency_figures"),
    priority: priority("consistency_figures")
    conda:
        ENV
    threads: job_threads("consistency_figures")
    resources:
        **job_resources("consistency_figures"),
    params:
        datasets=DATASETS,
        conditions=list(CONDITIONS),
    script:
        "../../scripts/consistency_figures.py"


rule consistency:
    input:
        PLAN.targets("consistency"),
