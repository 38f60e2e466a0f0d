# The plan of this configuration (ordeval.plan: the validated configuration, its data sets, measures
# and output paths) and the helpers every rule file uses. Each rule file writes out the path templates
# of what its rules read and write; `params` hold settings only.
import os
import re
import sys

from ordeval import workflow as wf
from ordeval.config import check_config_file
from ordeval.files import remove_stale_temporaries
from ordeval.manifest import git_commit, report_configuration_problem
from ordeval.plan import CONDITIONS, caption_name, plan as make_plan
from ordeval.resources import priority

# Each configuration file is checked for what Snakemake's loading lets through (duplicate keys, aliases,
# sizes), then the configuration is validated and planned. A ConfigError or InputError (both ValueError)
# is one line naming the key, or the file and line.
try:
    for path in workflow.configfiles:
        check_config_file(path)
    PLAN = make_plan(config, workdir=os.getcwd())
except ValueError as error:
    sys.exit(f"ordeval: configuration error: {error}")
# `snakemake --report` must describe the results of the run: refuse another configuration.
if any(
    argument == "--report" or argument.startswith("--report=") for argument in sys.argv
):
    problem = report_configuration_problem(PLAN.config, PLAN.path("report/manifest"))
    if problem:
        sys.exit(f"ordeval: report: {problem}")

RESULTS = PLAN.results
# Temporary files of jobs killed mid-write (the atomic writer's names, older than a few minutes).
remove_stale_temporaries(RESULTS)
ENV = "../../environment.yml"
SEED = PLAN.config["seed"]
KENDALL = PLAN.config["kendall"]

# The data sets (configuration order; every expand() over them keeps that order, which the jobs rely on).
DATASETS = list(PLAN.datasets)
OQ = PLAN.task_datasets("quantification")  # ordinal quantification
OC = PLAN.task_datasets("classification")  # ordinal classification
GIVEN = PLAN.task_datasets("scores")  # precomputed score matrices
BUILT = [name for name in DATASETS if name not in GIVEN]  # gold and runs as tables
# Those with both the Popularity and the Uniform run.
POPULARITY = PLAN.popularity_datasets
# Each task's summaries over its data sets carry its suffix ("" OQ, "_oc" OC, "_scores").
TASKS = PLAN.tasks
SUFFIXES = [PLAN.suffix(task) for task in TASKS]
# Every (data set, measure) score matrix, for expand(..., zip, dataset=..., measure=...).
MATRIX_DATASETS, MATRIX_MEASURES = PLAN.matrices()
REPORT_MARKS = wf.report_marks(PLAN)


def measures(analysis):
    """{data set: the measures of ``analysis`` on it, in table order} (a setting)."""
    return {name: PLAN.dataset_measures(analysis, name) for name in DATASETS}


def task_summaries(analysis):
    """Per task: its summaries' suffix, data sets and measures of ``analysis`` (a setting)."""
    return [
        {
            "task": task,
            "suffix": suffix,
            "datasets": PLAN.task_datasets(task),
            "measures": PLAN.measures(analysis, task),
        }
        for task, suffix in zip(TASKS, SUFFIXES)
    ]


def library(job):
    """The ordeval source files the job's script imports: an edit to one re-runs the jobs that use it."""
    return PLAN.library(job, os.path.join(workflow.basedir, "scripts", f"{job}.py"))


def task_suffix(wildcards):
    """The suffix of the summaries of the data set's task ("" OQ, "_oc" OC)."""
    return PLAN.suffix(PLAN.datasets[wildcards.dataset].task)


def reported(paths):
    """``paths`` (a list or one), those shown in the HTML report wrapped in report() with their caption
    (written by rule report_captions), category and subcategory."""

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

    return mark(paths) if isinstance(paths, str) else [mark(path) for path in paths]


def job_log(job):
    return wf.log_path(PLAN, job)


def dataset_logs(job, datasets=None):
    """One log per data set (``logs/<job>/<dataset>.log``), after the job's own."""
    return [
        wf.log_path(PLAN, job, name)
        for name in (DATASETS if datasets is None else datasets)
    ]


def job_threads(job):
    """The job's threads (ordeval.resources: the configured threads where the work is large enough)."""
    return wf.resources(PLAN, job)["threads"]


def job_resources(job):
    """mem_mb and runtime (minutes) of the job from the size of its data (ordeval.resources),
    multiplied by the attempt (``--retries``)."""
    found = wf.resources(PLAN, job)
    return {
        "mem_mb": lambda wildcards, attempt: found["mem_mb"] * attempt,
        "runtime": lambda wildcards, attempt: found["runtime"] * attempt,
    }
