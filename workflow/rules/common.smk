# The plan of this configuration (ordeval.workflow.plan: the validated configuration, its data sets, measures
# and outputs), the wildcards and the helpers every rule file uses. Each rule writes out the paths it reads and
# writes under RESULTS (results/<name>), its wildcards ({dataset}, {task_suffix}, {measure}) left for Snakemake;
# each such path template is also an entry of the catalogue of outputs (ordeval.reports.catalogue: caption,
# report section; tests/workflow/test_rules.py keeps the two in step). `params` hold settings only.
import glob
import os
import re
import sys

from snakemake.logging import logger as snakemake_logger
from snakemake.settings.enums import Quietness

from ordeval.workflow import failures, pipeline
from ordeval.workflow.config import check_config_file
from ordeval.workflow.modules import date_scripts
from ordeval.io.errors import InputError
from ordeval.io.files import remove_stale_temporaries
from ordeval.results.manifest import git_commit, report_configuration_problem
from ordeval.workflow.plan import CONDITIONS, caption_name, plan as make_plan

# Each configuration file is checked for what Snakemake's loading lets through (duplicate keys, aliases,
# sizes), then the configuration is validated and planned. A ConfigError or InputError (both ValueError)
# is one line naming the key, or the file and line.
try:
    for configfile in workflow.configfiles:
        check_config_file(configfile)
    PLAN = make_plan(config, workdir=os.getcwd())
except ValueError as error:  # an input file's problem names the file
    kind = "input" if isinstance(error, InputError) else "configuration"
    sys.exit(f"ordeval: {kind} error: {error}")
# `snakemake --report` must describe the results of the run: refuse another configuration.
if any(
    argument == "--report" or argument.startswith("--report=") for argument in sys.argv
):
    problem = report_configuration_problem(PLAN.config, f"{PLAN.results}/manifest.json")
    if problem:
        sys.exit(f"ordeval: report: {problem}")

RESULTS = PLAN.results
# Code tracking: each script is dated after the newest ordeval file its code uses (ordeval.workflow.modules), so
# that Snakemake's code trigger re-runs exactly the jobs whose code changed.
date_scripts(sorted(glob.glob(os.path.join(workflow.basedir, "scripts", "*.py"))))
# Temporary files of jobs killed mid-write (the atomic writer's names, older than a few minutes).
remove_stale_temporaries(RESULTS)
ENV = "../../environment.yml"
SEED = PLAN.config["seed"]
KENDALL = PLAN.config["kendall"]

DATASETS = list(PLAN.datasets)  # configuration order
TASKS = PLAN.tasks
# Each task's summaries over its data sets carry its suffix ("" OQ, "_oc" OC, "_scores").
SUFFIXES = [PLAN.suffix(task) for task in TASKS]
REPORT_MARKS = pipeline.report_marks(PLAN)


def alternatives(names):
    """A wildcard's regular expression matching exactly ``names`` (no other file name)."""
    return (
        "(?:" + "|".join(re.escape(name) for name in names) + ")" if names else "(?!)"
    )


# The wildcards: {dataset} a configured data set only (not "mean" in tables/agreement/mean.csv); {task_suffix}
# what the outputs that combine a task's data sets add to their names ("" quantification, "_oc" classification,
# "_scores" precomputed scores); {measure} a measure (the DNKT_M tables, the measure reports: each rule says which).
wildcard_constraints:
    dataset=alternatives(DATASETS),
    task_suffix=alternatives(SUFFIXES),


def score_tables(wildcards):
    """The score tables that the data set's stack.npz mirrors: it is read only while they are unchanged."""
    return PLAN.score_tables(wildcards.dataset)


def task_datasets(wildcards):
    """The data sets of the task whose summaries carry ``wildcards.task_suffix``."""
    return PLAN.suffix_datasets(wildcards.task_suffix)


def dataset_task_suffix(wildcards):
    """The suffix of the summaries of the data set's task ("" OQ, "_oc" OC)."""
    return PLAN.suffix(PLAN.datasets[wildcards.dataset].task)


def measure_datasets(wildcards):
    """The data sets of the reported measure (rule measure_report)'s task."""
    return PLAN.task_datasets(PLAN.measure_reports[wildcards.measure])


def measure_task_suffix(wildcards):
    """The suffix of the summaries of the reported measure's task."""
    return PLAN.suffix(PLAN.measure_reports[wildcards.measure])


def reported(paths):
    """``paths`` (one, a list, or a dict of named ones), those shown in the HTML report wrapped in report()
    with their caption (written by rule report_captions), category and subcategory."""

    def mark(path):
        found = REPORT_MARKS.get(path)
        if found is None:
            return path
        return report(
            path,
            caption=os.path.abspath(found.caption),
            category=found.category,
            subcategory=found.subcategory or None,
        )

    if isinstance(paths, dict):
        return {name: mark(path) for name, path in paths.items()}
    return mark(paths) if isinstance(paths, str) else [mark(path) for path in paths]


def _cost(kind, wildcards):
    return pipeline.cost(PLAN, kind, wildcards.get("dataset"))


def threads(kind):
    """The threads of a job of ``kind`` (ordeval.workflow.resources.KINDS) on its data set (or on every data set):
    the configured threads where the work is large enough, else one."""
    return lambda wildcards: _cost(kind, wildcards).threads


def cost(kind):
    """mem_mb and runtime (minutes) of a job of ``kind`` on its data set (or on every data set), from its
    size (ordeval.workflow.resources), multiplied by the attempt (``--retries``)."""
    return {
        "mem_mb": lambda wildcards, attempt: _cost(kind, wildcards).mem_mb * attempt,
        "runtime": lambda wildcards, attempt: _cost(kind, wildcards).runtime * attempt,
    }


# A failed job's message, which the workflow profile's `quiet: [rules]` hides along with every job's details:
# written by a handler of Snakemake's logger (ordeval.workflow.failures).
if workflow.output_settings and Quietness.RULES in (workflow.output_settings.quiet or ()):
    failures.install(snakemake_logger)


# Snakemake's job rate limiter (--max-jobs-per-timespan, 100/1s by default) wakes the scheduler once a second
# per job finished so far, each time sizing every input of every ready job: for the default configuration
# ~3,000 scheduler rounds and 2 million stat calls, 17 s of the Snakemake process's 22 s of CPU on a cold
# run, taken from the jobs (benchmarks/pipeline.py). It guards a cluster's submission queue; running on this
# machine there is nothing to guard, and no setting turns it off, so it is dropped here. Cluster executors keep it.
onstart:
    if workflow.local_exec and hasattr(workflow, "scheduler"):
        workflow.scheduler.job_rate_limiter = None
