"""Rule replication_dataset: one data set's published numbers beside the ones reproduced here, with the
difference and a verdict (ordeval.results.replication; docs/methods.md, section 7)."""

from ordeval.reports.jobs.replication import write_replication
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    table = write_replication(
        inputs.provenance,
        snakemake.output,
        dataset=dataset,
        tolerance=params.tolerance,
        classes=params.classes,
        agreement=inputs.agreement,
        # consistency_<condition>: each condition's summary
        consistency={name[12:]: path for name, path in inputs.items() if name.startswith("consistency_")},
        means=inputs.means,
        power=one_file(inputs.power),
        pooled=one_file(inputs.pooled),
        popularity=one_file(inputs.popularity),
    )
    log.info("%s: %d published numbers, verdicts %s", dataset, len(table), sorted(set(table["verdict"])))
