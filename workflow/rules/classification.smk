# Stage: the ordinal classification data sets laid out as in Sakai's ACL-IJCNLP 2021 paper: Table 2
# (agreement), Table 3 (consistency), Table 4 (properties), Figure 1 (discriminative power curves), the
# constant baselines' kappa, the official SemEval protocol (pooled) and the 0/0 conventions.

# (Only when the configuration has OC data sets.)
if OC:
    OC_SUFFIX = PLAN.suffix("classification")

    rule classification_tables:
        input:
            agreement=expand(f"{RESULTS}/tables/agreement/{{dataset}}.csv", dataset=OC),
            consistency=expand(
                f"{RESULTS}/tables/consistency/{{dataset}}_{{condition}}.csv",
                dataset=OC,
                condition=CONDITIONS,
            ),
            power=f"{RESULTS}/tables/discriminative_power{OC_SUFFIX}.csv",
            stack=expand(f"{RESULTS}/scores/{{dataset}}/stack.npz", dataset=OC),
            measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=OC),
            provenance=expand(f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=OC),
            gold=expand(f"{RESULTS}/data/{{dataset}}/gold.tsv", dataset=OC),
            pooled=expand(f"{RESULTS}/scores/{{dataset}}/pooled.tsv", dataset=OC),
            conventions=expand(
                f"{RESULTS}/scores/{{dataset}}/conventions.tsv", dataset=OC
            ),
            plugins=PLAN.plugin_files,
            library=library("classification_tables"),
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
            job_log("classification_tables"),
        conda:
            ENV
        threads: job_threads("classification_tables")
        resources:
            **job_resources("classification_tables"),
        params:
            datasets=OC,
            measures=PLAN.measures("agreement", "classification"),
            conditions=list(CONDITIONS),
            topics={name: PLAN.datasets[name].topics for name in OC},
            constant_runs=PLAN.constant_runs(OC),  # {data set: {run: class}}
            plugins=PLAN.plugin_files,
            kendall=KENDALL,
            subset_size=PLAN.config["consistency"]["subset_size"],
            trials=PLAN.config["consistency"]["trials"],
            hsd_trials=PLAN.config["consistency"]["hsd_trials"],
            alpha=PLAN.config["consistency"]["alpha"],
        script:
            "../../scripts/classification_tables.py"

    rule classification_figures:
        input:
            pvalues=expand(
                f"{RESULTS}/significance/{{dataset}}/pvalues.tsv", dataset=OC
            ),
            measures=expand(f"{RESULTS}/scores/{{dataset}}/measures.tsv", dataset=OC),
            provenance=expand(f"{RESULTS}/data/{{dataset}}/provenance.json", dataset=OC),
            library=library("classification_figures"),
        output:
            pdf=f"{RESULTS}/figures/oc/dp_curves.pdf",
            png=reported(f"{RESULTS}/figures/oc/dp_curves.png"),
        log:
            job_log("classification_figures"),
        conda:
            ENV
        threads: job_threads("classification_figures")
        resources:
            **job_resources("classification_figures"),
        params:
            datasets=OC,
            measures=PLAN.measures("significance", "classification"),
            alpha=PLAN.config["significance"]["alpha"],
            trials=PLAN.config["significance"]["hsd_trials"],
        script:
            "../../scripts/classification_figures.py"


rule classification:
    input:
        PLAN.targets("classification"),
