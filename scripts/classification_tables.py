"""Rule classification_tables: the ordinal classification results laid out as in the ACL 2021 paper -- its Table 2
(Kendall's τ between the OC measures per data set, shaded), Table 3 (consistency, halves and 10 vs 10, with VE2
and marks), Table 4 (the measures' properties) -- and the constant baselines' kappa, the official SemEval protocol
(one confusion matrix per run) and the 0/0 conventions; each as CSV, its page and LaTeX."""

from ordeval.reports.jobs import classification
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs, output = snakemake.params, snakemake.input, snakemake.output
    datasets, measures = params.datasets, params.measures
    agreement = keyed(inputs.agreement, datasets)
    consistency = {c: keyed(inputs[f"consistency_{c}"], datasets) for c in params.conditions}
    shared = (inputs.measures, inputs.provenance, output)
    classification.write_oc_agreement(agreement, *shared, measures=measures)
    classification.write_oc_consistency(consistency, *shared, topics=params.topics, subset_size=params.subset_size)
    classification.write_properties(
        agreement, consistency, inputs.power, *shared, measures=measures, plugins=params.plugins
    )
    kappa = classification.write_constant_kappa(
        keyed(inputs.stack, datasets),
        keyed(inputs.gold, datasets),
        inputs.provenance,
        output,
        constant_runs=params.constant_runs,
    )
    classification.write_oc_pooled(keyed(inputs.pooled, datasets), *shared, measures=measures)
    classification.write_conventions(keyed(inputs.conventions, datasets), *shared)
    log.info("%d OC data sets, %d measures, %d constant runs", len(datasets), len(measures), len(kappa))
