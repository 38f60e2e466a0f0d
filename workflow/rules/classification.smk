# Stage: the ordinal classification data sets laid out as in Sakai's ACL-IJCNLP 2021 paper: Table 2 (agreement),
# Table 3 (consistency), Table 4 (properties), Figure 1 (discriminative power curves), the constant baselines'
# kappa, the official SemEval protocol (pooled) and the 0/0 conventions. (Made where the configuration has
# ordinal classification data sets: OC, scoring.smk.)
OC_MEASURES = PLAN.dataset_measures("agreement", OC[0]) if OC else []
OC_SUFFIX = PLAN.suffix("classification")


rule classification_tables:
    input:
        consistency_half=expand(rules.consistency_taus.output.summary_half, dataset=OC),
        consistency_10v10=expand(
            rules.consistency_taus.output.summary_10v10, dataset=OC
        ),
        agreement=expand(rules.agreement_dataset.output.csv, dataset=OC),
        power=expand(
            rules.significance_summary.output.power_csv, task_suffix=OC_SUFFIX
        )[0],
        stack=expand(rules.score_stack.output.stack, dataset=OC),
        measures=expand(rules.score_runs.output.measures, dataset=OC),
        provenance=expand(rules.prepare_data.output.provenance, dataset=OC),
        gold=expand(rules.prepare_data.output.gold, dataset=OC),
        pooled=expand(rules.official_scores.output.pooled, dataset=OC),
        conventions=expand(rules.official_scores.output.conventions, dataset=OC),
        plugins=PLUGINS,
    output:
        agreement_csv=f"{RESULTS}/tables/oc/agreement.csv",
        agreement_html=shown(
            f"{RESULTS}/tables/oc/agreement.html",
            "classification/agreement",
            "classification",
        ),
        agreement_tex=f"{RESULTS}/tables/oc/agreement.tex",
        consistency_csv=f"{RESULTS}/tables/oc/consistency.csv",
        consistency_html=shown(
            f"{RESULTS}/tables/oc/consistency.html",
            "classification/consistency",
            "classification",
        ),
        consistency_tex=f"{RESULTS}/tables/oc/consistency.tex",
        properties_csv=f"{RESULTS}/tables/oc/properties.csv",
        properties_html=shown(
            f"{RESULTS}/tables/oc/properties.html",
            "classification/properties",
            "classification",
        ),
        properties_tex=f"{RESULTS}/tables/oc/properties.tex",
        kappa_csv=f"{RESULTS}/tables/oc/kappa_constant.csv",
        kappa_html=shown(
            f"{RESULTS}/tables/oc/kappa_constant.html",
            "classification/kappa",
            "classification",
        ),
        kappa_tex=f"{RESULTS}/tables/oc/kappa_constant.tex",
        pooled_csv=f"{RESULTS}/tables/oc/pooled.csv",
        pooled_html=shown(
            f"{RESULTS}/tables/oc/pooled.html",
            "classification/pooled",
            "classification",
        ),
        pooled_tex=f"{RESULTS}/tables/oc/pooled.tex",
        conventions_csv=f"{RESULTS}/tables/oc/conventions.csv",
        conventions_html=shown(
            f"{RESULTS}/tables/oc/conventions.html",
            "classification/conventions",
            "classification",
        ),
        conventions_tex=f"{RESULTS}/tables/oc/conventions.tex",
    log:
        f"{RESULTS}/logs/classification_tables.log",
    conda:
        ENV
    threads: threads("tables")
    resources:
        mem_mb=mem_mb("tables"),
        runtime=runtime("tables"),
    params:
        datasets=OC,
        measures=OC_MEASURES,
        conditions=list(CONDITIONS),
        topics={name: PLAN.datasets[name].topics for name in OC},
        constant_runs=PLAN.constant_runs(OC),  # {data set: {run: class}}
        plugins=PLUGINS,
        kendall=KENDALL,
        subset_size=PLAN.config["consistency"]["subset_size"],
        splits=PLAN.config["consistency"]["trials"],
        hsd_trials=PLAN.config["consistency"]["hsd_trials"],
        alpha=PLAN.config["consistency"]["alpha"],
        code=code("classification_tables"),
    script:
        "../../scripts/classification_tables.py"


rule classification_figures:
    input:
        pvalues=expand(rules.significance_pvalues.output.pvalues, dataset=OC),
        arrays=expand(rules.significance_pvalues.output.arrays, dataset=OC),
        measures=expand(rules.score_runs.output.measures, dataset=OC),
        provenance=expand(rules.prepare_data.output.provenance, dataset=OC),
    output:
        pdf=f"{RESULTS}/figures/oc/dp_curves.pdf",
        png=shown(
            f"{RESULTS}/figures/oc/dp_curves.png",
            "classification/figure1",
            "classification",
        ),
    log:
        f"{RESULTS}/logs/classification_figures.log",
    conda:
        ENV
    threads: threads("figures")
    resources:
        mem_mb=mem_mb("figures"),
        runtime=runtime("figures"),
    params:
        datasets=OC,
        measures=PLAN.dataset_measures("significance", OC[0]) if OC else [],
        alpha=PLAN.config["significance"]["alpha"],
        hsd_trials=PLAN.config["significance"]["hsd_trials"],
        code=code("classification_figures"),
    script:
        "../../scripts/classification_figures.py"


rule classification:
    input:
        made(rules.classification_tables) if OC else [],
        made(rules.classification_figures) if OC else [],
