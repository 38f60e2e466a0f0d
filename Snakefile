# ordeval: meta-evaluation of ordinal classification and quantification measures.
# Run `snakemake --cores all` (default synthetic data) or add `--configfile config/replication.yaml`.
# The library (`pip install -e .`) plans everything; the rule files only turn the plan into rules.
from snakemake.utils import min_version

min_version("9.0")


# The default configuration, unless a whole configuration is given with --configfile
# (Snakemake would otherwise merge the two and mix their data sets).
if "datasets" not in config:

    configfile: "config/config.yaml"


include: "workflow/rules/common.smk"


report: "workflow/report/workflow.rst"


wildcard_constraints:
    dataset=PLAN.dataset_regex(),


include: "workflow/rules/data.smk"
include: "workflow/rules/scoring.smk"
include: "workflow/rules/agreement.smk"
include: "workflow/rules/consistency.smk"
include: "workflow/rules/significance.smk"
include: "workflow/rules/popularity.smk"
include: "workflow/rules/leaderboard.smk"
include: "workflow/rules/classification.smk"
include: "workflow/rules/report.smk"


# The target rules only gather outputs: they run in the Snakemake process, never on a cluster node.
# Every other rule declares threads and resources (mem_mb, runtime) from the size of its data.
localrules:
    all,
    data,
    scores,
    agreement,
    consistency,
    significance,
    popularity,
    leaderboard,
    classification,
    report,


rule all:
    default_target: True
    input:
        PLAN.targets(),
