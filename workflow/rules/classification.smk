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
            consistency_half=expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_half.csv", dataset=OC
            ),
            consistency_10v10=expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_10v10.csv", dataset=OC
            ),
            agreement=expand(f"{RESULTS}/tables/agreement/{{dataset}}.csv", dataset=OC),
            power=f"{RESULTS}/tables/discriminative_power{OC_SUFFIX}.csv",
            stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=OC),
            tables=PLAN.score_tables(*OC),
            measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=OC),
            provenance=expand(f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=OC),
            gold=expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=OC),
            pooled=expand(f"{RESULTS}/scores/{{dataset}}/pooled.tsv", dataset=OC),
            conventions=expand(
                f"{RESULTS}/scores/{{dataset}}/conventions.tsv", dataset=OC
            ),
            plugins=PLAN.plugin_files,
        output:
            agreement_csv=reported(f"{RESULTS}/tables/oc/agreement.csv"),
            agreement_tex=f"{RESULTS}/tables/oc/agreement.tex",
            consistency_csv=reported(f"{RESULTS}/tables/oc/consistency.csv"),
            consistency_tex=f"{RESULTS}/tables/oc/consistency.tex",
            properties_csv=reported(f"{RESULTS}/tables/oc/properties.csv"),
            properties_tex=f"{RESULTS}/tables/oc/properties.tex",
            kappa_csv=reported(f"{RESULTS}/tables/oc/kappa_constant.csv"),
            kappa_tex=f"{RESULTS}/tables/oc/kappa_constant.tex",
            pooled_csv=reported(f"{RESULTS}/tables/oc/pooled.csv"),
            pooled_tex=f"{RESULTS}/tables/oc/pooled.tex",
            conventions_csv=reported(f"{RESULTS}/tables/oc/conventions.csv"),
            conventions_tex=f"{RESULTS}/tables/oc/conventions.tex",
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
            pvalues=expand(
                f"{RESULTS}/significance/{{dataset}}/pvalues.tsv", dataset=OC
            ),
            arrays=expand(f"{RESULTS}/significance/{{dataset}}/pvalues.npz", dataset=OC),
            measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=OC),
            provenance=expand(f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=OC),
        output:
            pdf=f"{RESULTS}/figures/oc/dp_curves.pdf",
            png=reported(f"{RESULTS}/figures/oc/dp_curves.png"),
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
