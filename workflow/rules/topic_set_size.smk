# Stage: topic set size design (Sakai, Information Retrieval Journal 19(3), 2016): per data set and
# measure, the topics a test collection needs to detect a given difference between runs.


rule topic_set_size_design:
    input:
        stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=DATASETS),
        provenance=expand(
            f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=DATASETS
        ),
        library=library("topic_set_size_design"),
    output:
        csv=reported(
            expand(
                f"{RESULTS}/tables/topic_set_size/{{dataset}}.csv", dataset=DATASETS
            )
        ),
        tex=expand(f"{RESULTS}/tables/topic_set_size/{{dataset}}.tex", dataset=DATASETS),
        pdf=expand(
            f"{RESULTS}/figures/topic_set_size/{{dataset}}.pdf", dataset=DATASETS
        ),
        png=reported(
            expand(
                f"{RESULTS}/figures/topic_set_size/{{dataset}}.png", dataset=DATASETS
            )
        ),
    log:
        job_log("topic_set_size_design"),
        dataset_logs("topic_set_size_design"),
    priority: priority("topic_set_size_design")
    conda:
        ENV
    threads: job_threads("topic_set_size_design")
    resources:
        **job_resources("topic_set_size_design"),
    params:
        datasets=DATASETS,
        measures=measures("topic_set_size"),
        alpha=PLAN.config["topic_set_size"]["alpha"],
        power=PLAN.config["topic_set_size"]["power"],
        mdd_fractions=PLAN.config["topic_set_size"]["mdd_fractions"],
    script:
        "../../scripts/topic_set_size_design.py"


rule topic_set_size:
    input:
        PLAN.targets("topic_set_size"),
