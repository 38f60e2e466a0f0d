# Stage: topic set size design (Sakai, Information Retrieval Journal 19(3), 2016): per data set and measure,
# the topics a test collection needs to detect a given difference between runs. (A data set's figure: rule
# dataset_figures.)
TOPIC_SET_SIZE = PLAN.config["topic_set_size"]


rule topic_set_size_table:
    input:
        stack=rules.score_stack.output.stack,
        provenance=rules.prepare_data.output.provenance,
    output:
        csv=f"{RESULTS}/tables/topic_set_size/{{dataset}}.csv",
        html=shown(
            f"{RESULTS}/tables/topic_set_size/{{dataset}}.html",
            "topic_set_size/table",
            "topic_set_size",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/topic_set_size/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/topic_set_size_table/{{dataset}}.log",
    priority: 2
    conda:
        ENV
    threads: threads("tables")
    resources:
        mem_mb=mem_mb("tables"),
        runtime=runtime("tables"),
    params:
        measures=dataset_measures("topic_set_size"),
        alpha=TOPIC_SET_SIZE["alpha"],
        power=TOPIC_SET_SIZE["power"],
        mdd_fractions=TOPIC_SET_SIZE["mdd_fractions"],
        code=code("topic_set_size_table"),
    script:
        "../../scripts/topic_set_size_table.py"


rule topic_set_size:
    input:
        made(rules.topic_set_size_table, dataset=DATASETS),
