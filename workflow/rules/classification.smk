# Stage: the data sets of a task with its own stage (classification: the OC measures) laid out as in Sakai's
# ACL-IJCNLP 2021 paper: Table 2 (agreement), Table 3 (consistency), Table 4 (properties), Figure 1
# (discriminative power curves), the constant baselines' kappa, the official SemEval protocol (pooled) and the
# 0/0 conventions. (Only where the configuration has such data sets.)
OC = PLAN.stage_datasets("classification")


if OC:
    OC_SUFFIX = PLAN.suffix(PLAN.datasets[OC[0]].task)
    OC_MEASURES = PLAN.dataset_measures("agreement", OC[0])

    rule classification_tables:
        input:
            **{
                f"consistency_{c}": expand(
                    path("consistency/summary", "csv", condition=c), dataset=OC
                )
                for c in CONDITIONS
            },
            agreement=expand(path("agreement/dataset", "csv"), dataset=OC),
            power=path("significance/power", "csv", suffix=OC_SUFFIX),
            stack=expand(path("scores/stack"), dataset=OC),
            tables=PLAN.score_tables(*OC),
            measures=expand(path("scores/measures"), dataset=OC),
            provenance=expand(path("data/provenance"), dataset=OC),
            gold=expand(path("data/gold"), dataset=OC),
            pooled=expand(path("scores/pooled"), dataset=OC),
            conventions=expand(path("scores/conventions"), dataset=OC),
            plugins=PLAN.plugin_files,
        output:
            agreement_csv=reported(path("classification/agreement", "csv")),
            agreement_tex=path("classification/agreement", "tex"),
            consistency_csv=reported(path("classification/consistency", "csv")),
            consistency_tex=path("classification/consistency", "tex"),
            properties_csv=reported(path("classification/properties", "csv")),
            properties_tex=path("classification/properties", "tex"),
            kappa_csv=reported(path("classification/kappa", "csv")),
            kappa_tex=path("classification/kappa", "tex"),
            pooled_csv=reported(path("classification/pooled", "csv")),
            pooled_tex=path("classification/pooled", "tex"),
            conventions_csv=reported(path("classification/conventions", "csv")),
            conventions_tex=path("classification/conventions", "tex"),
        log:
            f"{RESULTS}/logs/classification_tables.log",
        conda:
            ENV
        threads: threads("tables")
        resources:
            **cost("tables"),
        params:
            datasets=OC,
            measures=OC_MEASURES,
            conditions=list(CONDITIONS),
            topics={name: PLAN.datasets[name].topics for name in OC},
            constant_runs=PLAN.constant_runs(OC),  # {data set: {run: class}}
            plugins=PLAN.plugin_files,
            kendall=KENDALL,
            subset_size=PLAN.config["consistency"]["subset_size"],
            splits=PLAN.config["consistency"]["trials"],
            hsd_trials=PLAN.config["consistency"]["hsd_trials"],
            alpha=PLAN.config["consistency"]["alpha"],
        script:
            "../../scripts/classification_tables.py"

    rule classification_figures:
        input:
            pvalues=expand(path("significance/pvalues"), dataset=OC),
            arrays=expand(path("significance/arrays"), dataset=OC),
            measures=expand(path("scores/measures"), dataset=OC),
            provenance=expand(path("data/provenance"), dataset=OC),
        output:
            pdf=path("classification/figure1", "pdf"),
            png=reported(path("classification/figure1", "png")),
        log:
            f"{RESULTS}/logs/classification_figures.log",
        conda:
            ENV
        threads: threads("figures")
        resources:
            **cost("figures"),
        params:
            datasets=OC,
            measures=PLAN.dataset_measures("significance", OC[0]),
            alpha=PLAN.config["significance"]["alpha"],
            hsd_trials=PLAN.config["significance"]["hsd_trials"],
        script:
            "../../scripts/classification_figures.py"


rule classification:
    input:
        PLAN.targets("classification"),
