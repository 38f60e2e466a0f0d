# Stage: ranking agreement between measures (Sakai, ACL-IJCNLP 2021): Kendall's tau with CIs between the
# measures' run rankings per data set; averaged over each task's data sets with the measures' average
# similarity and a heatmap; the DNKT_M tables (DNKT vs M vs their harmonic mean DNKT_M).
AGREEMENT = PLAN.config["agreement"]
DNKT = PLAN.dnkt_datasets  # the data sets that score DNKT and its combinations


rule agreement_dataset:
    input:
        stack=rules.score_stack.output.stack,
        provenance=rules.prepare_data.output.provenance,
    output:
        csv=f"{RESULTS}/tables/agreement/{{dataset}}.csv",
        html=shown(
            f"{RESULTS}/tables/agreement/{{dataset}}.html",
            "agreement/dataset",
            "agreement",
            "{dataset}",
        ),
        tex=f"{RESULTS}/tables/agreement/{{dataset}}.tex",
    log:
        f"{RESULTS}/logs/agreement_dataset/{{dataset}}.log",
    conda:
        ENV
    threads: threads("tables")
    resources:
        mem_mb=mem_mb("tables"),
        runtime=runtime("tables"),
    params:
        measures=dataset_measures("agreement"),
        kendall=KENDALL,
        ci_level=AGREEMENT["ci_level"],
        ci_method=AGREEMENT["ci_method"],
        code=code("agreement_dataset"),
    script:
        "../../scripts/agreement_dataset.py"


rule agreement_summary:
    input:
        tables=gathered(rules.agreement_dataset.output.csv, task_datasets),
        measures=gathered(rules.score_runs.output.measures, task_datasets),
        provenance=gathered(rules.prepare_data.output.provenance, task_datasets),
    output:
        mean_csv=f"{RESULTS}/tables/agreement/mean{{task_suffix}}.csv",
        mean_html=shown(
            f"{RESULTS}/tables/agreement/mean{{task_suffix}}.html",
            "agreement/mean",
            "agreement",
            task_title,
        ),
        mean_tex=f"{RESULTS}/tables/agreement/mean{{task_suffix}}.tex",
        similarity_csv=f"{RESULTS}/tables/agreement/similarity{{task_suffix}}.csv",
        similarity_html=shown(
            f"{RESULTS}/tables/agreement/similarity{{task_suffix}}.html",
            "agreement/similarity",
            "agreement",
            task_title,
        ),
        similarity_tex=f"{RESULTS}/tables/agreement/similarity{{task_suffix}}.tex",
    log:
        f"{RESULTS}/logs/agreement_summary/summary{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("light")
    resources:
        mem_mb=mem_mb("light"),
        runtime=runtime("light"),
    params:
        datasets=task_datasets,
        measures=task_measures("agreement"),
        kendall=KENDALL,
        code=code("agreement_summary"),
    script:
        "../../scripts/agreement_summary.py"


rule agreement_dnkt:
    input:
        stack=expand(rules.score_stack.output.stack, dataset=DNKT),
        provenance=expand(rules.prepare_data.output.provenance, dataset=DNKT),
    output:
        csv=f"{RESULTS}/tables/agreement/dnkt_{{measure}}.csv",
        html=shown(
            f"{RESULTS}/tables/agreement/dnkt_{{measure}}.html",
            "agreement/dnkt",
            "agreement",
            "DNKT_{measure}",
        ),
        tex=f"{RESULTS}/tables/agreement/dnkt_{{measure}}.tex",
    log:
        f"{RESULTS}/logs/agreement_dnkt/{{measure}}.log",
    wildcard_constraints:
        measure=alternatives(PLAN.dnkt_combinations),
    conda:
        ENV
    threads: threads("tables")
    resources:
        mem_mb=mem_mb("tables"),
        runtime=runtime("tables"),
    params:
        datasets=DNKT,
        kendall=KENDALL,
        ci_level=AGREEMENT["ci_level"],
        ci_method=AGREEMENT["ci_method"],
        code=code("agreement_dnkt"),
    script:
        "../../scripts/agreement_dnkt.py"


rule agreement_heatmap:
    input:
        mean=rules.agreement_summary.output.mean_csv,
        measures=gathered(rules.score_runs.output.measures, task_datasets),
        provenance=gathered(rules.prepare_data.output.provenance, task_datasets),
    output:
        pdf=f"{RESULTS}/figures/agreement/mean_heatmap{{task_suffix}}.pdf",
        png=shown(
            f"{RESULTS}/figures/agreement/mean_heatmap{{task_suffix}}.png",
            "agreement/heatmap",
            "agreement",
            task_title,
        ),
    log:
        f"{RESULTS}/logs/agreement_heatmap/heatmap{{task_suffix}}.log",
    conda:
        ENV
    threads: threads("figures")
    resources:
        mem_mb=mem_mb("figures"),
        runtime=runtime("figures"),
    params:
        measures=task_measures("agreement"),
        kendall=KENDALL,
        code=code("agreement_heatmap"),
    script:
        "../../scripts/agreement_heatmap.py"


rule agreement:
    input:
        made(rules.agreement_dataset, dataset=DATASETS),
        made(rules.agreement_summary, task_suffix=SUFFIXES),
        made(rules.agreement_dnkt, measure=PLAN.dnkt_combinations),
        made(rules.agreement_heatmap, task_suffix=SUFFIXES),
