# Stage: topic set size design (Sakai, Information Retrieval Journal 19(3), 2016): per data set and measure,
# the topics a test collection needs to detect a given difference between runs. (A data set's figure: rule
# dataset_figures.)
TOPIC_SET_SIZE = PLAN.config["topic_set_size"]


rule topic_set_size_table:
    input:
        stack=f"{RESULTS}/scores/{{dataset}}/stack.npz",
        tables=score_tables,
        provenance=f"{RESULTS}/data/{{dataset}}/provenance.json",
    output:
        csv=reported(f"{RESULTS}/tables/topic_set_size/{{dataset}}.csv"),
        tex=f"{RESULTS}/tables/topic_set_size/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/topic_set_size_table/{{dataset}}.log",
    priority: 2
    conda:
        ENV
    threads: threads("tables")
    resources:
        **cost("tables"),
    params:
        measures=lambda wildcards: PLAN.dataset_measures(
            "topic_set_size", wildcards.dataset
        ),
        alpha=TOPIC_SET_SIZE["alpha"],
        power=TOPIC_SET_SIZE["power"],
        mdd_fractions=TOPIC_SET_SIZE["mdd_fractions"],
    script:
        "../../scripts/topic_set_size_table.py"


rule topic_set_size:
    input:
        PLAN.targets("topic_set_size"),
