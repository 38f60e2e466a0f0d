# ordeval: meta-evaluation of ordinal classification and quantification measures.
# Run `snakemake --cores all` (default synthetic data) or add `--configfile config/replication.yaml`.
# The library (`pip install -e .`) plans the configuration (data sets, tasks, measures); each rule file in
# workflow/rules/ names the files its rules read and write (most rules run one job per data set) and ends with its
# stage's target rule, which lists what the stage makes; each rule runs scripts/<rule>.py, which reads
# snakemake.input, calls the library and writes snakemake.output.
from snakemake.utils import min_version

min_version("9.0")


# The default configuration, unless a whole configuration is given with --configfile
# (Snakemake would otherwise merge the two and mix their data sets).
if "datasets" not in config:

    configfile: "config/config.yaml"


include: "workflow/rules/common.smk"


# The HTML report's first page (snakemake --report): written by rule report_intro for this configuration.
report: os.path.abspath(f"{RESULTS}/report/intro.rst")


include: "workflow/rules/data.smk"
include: "workflow/rules/scoring.smk"
include: "workflow/rules/agreement.smk"
include: "workflow/rules/consistency.smk"
include: "workflow/rules/significance.smk"
include: "workflow/rules/popularity.smk"
include: "workflow/rules/leaderboard.smk"
include: "workflow/rules/topic_set_size.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/classification.smk"
include: "workflow/rules/replication.smk"
include: "workflow/rules/measure_reports.smk"
include: "workflow/rules/report.smk"


# The target rules only gather outputs, and a score table is a few milliseconds of work in the Snakemake
# process: they run there, never on a cluster node. Every other rule declares threads and resources (mem_mb,
# runtime) from the size of its data.
localrules:
    all,
    data,
    scores,
    score_table,
    score_stack,
    agreement,
    consistency,
    significance,
    popularity,
    leaderboard,
    topic_set_size,
    figures,
    classification,
    replication,
    measure_reports,
    report,


# The run's last words (Snakemake's log has them too): where the PDF, the HTML report's command and the tables
# are, a replication's verdict counts; on failure each failed job's rule and log (ordeval.workflow.summary).
onsuccess:
    logger.info("\n".join(run_summary(log, failed=False)))


onerror:
    logger.error("\n".join(run_summary(log, failed=True)))


# Everything: the manifest records the SHA-256 of every other output (rule manifest takes them all as input),
# the reports are made from it.
rule all:
    default_target: True
    input:
        rules.report.input,
