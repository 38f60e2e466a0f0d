# ordeval: meta-evaluation of ordinal quantification measures.
# Run `snakemake --cores all` (default synthetic data) or add `--configfile config/replication.yaml`.
from snakemake.utils import min_version, validate

min_version("9.0")


# The default configuration, unless a whole configuration is given with --configfile
# (Snakemake would otherwise merge the two and mix their data sets).
if "datasets" not in config:

    configfile: "config/config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"


wildcard_constraints:
    dataset="|".join(re.escape(name) for name in DATASETS),


include: "workflow/rules/data.smk"
include: "workflow/rules/scoring.smk"
include: "workflow/rules/agreement.smk"
include: "workflow/rules/consistency.smk"
include: "workflow/rules/significance.smk"
include: "workflow/rules/popularity.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        all_targets(),
