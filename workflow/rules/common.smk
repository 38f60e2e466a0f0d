# The plan of this configuration (ordeval.plan: validated configuration, data sets, measures, outputs)
# and the job specs of every rule (ordeval.workflow). Everything below only turns them into rules.
import functools
import os
import sys

from ordeval.catalogue import CATEGORIES, ENTRIES
from ordeval.jobs import JobParams, params_digest
from ordeval.manifest import git_commit, report_configuration_problem
from ordeval.plan import plan as make_plan
from ordeval.resources import priority
from ordeval.workflow import Specs, log_path

try:
    PLAN = make_plan(config, workdir=os.getcwd())
except (
    ValueError
) as error:  # ConfigError, InputError: one line naming the key or the file and line
    sys.exit(f"ordeval: configuration error: {error}")
SPECS = Specs(PLAN)
# `snakemake --report` must describe the results of the run: refuse another configuration.
if any(
    argument == "--report" or argument.startswith("--report=") for argument in sys.argv
):
    problem = report_configuration_problem(PLAN.config, PLAN.path("report/manifest"))
    if problem:
        sys.exit(f"ordeval: report: {problem}")
RESULTS = PLAN.results
ENV = "../../environment.yml"


def reported(spec):
    """The spec's named outputs; those shown in the HTML report wrapped in report(), with their
    caption (written by rule report_captions from the catalogue) and category."""

    def flag(path):
        if path not in spec.reports:
            return path
        key, subcategory = spec.reports[path]
        return report(
            path,
            caption=os.path.abspath(PLAN.caption_of(path, key)),
            category=CATEGORIES[ENTRIES[key].category],
            subcategory=subcategory or None,
        )

    return {
        name: flag(paths) if isinstance(paths, str) else [flag(p) for p in paths]
        for name, paths in spec.outputs.items()
    }


def job_params(params, wildcard=False):
    """A rule's params: ``job``, what its script runs with, passed but not recorded by Snakemake, and
    ``digest``, their SHA-256, recorded, so that any change re-runs the job (ordeval.jobs.JobParams).
    With ``wildcard``, ``params`` is a function of the job's data set."""
    if wildcard:
        of_dataset = functools.cache(params)  # built once per data set for both
        return {
            "job": lambda wildcards: JobParams(of_dataset(wildcards.dataset)),
            "digest": lambda wildcards: params_digest(of_dataset(wildcards.dataset)),
        }
    return {"job": JobParams(params), "digest": params_digest(params)}


def log(job, wildcard=False):
    return log_path(PLAN, job, wildcard)


def job_threads(job, wildcard=False, group=None):
    """The threads of ``job`` (ordeval.resources: the configured threads for the numba kernels and
    scoring when their data set is large enough, else 1), of the data set of the job's wildcard, of
    ``group`` (the JobSpec of a rule's one job for its small data sets, ordeval.workflow.Specs.group)
    or of every data set."""
    if wildcard:
        return lambda wildcards: SPECS.resources(job, wildcards.dataset)["threads"]
    if group is not None:
        return group.resources["threads"]
    return SPECS.resources(job)["threads"]


def job_resources(job, wildcard=False, group=None):
    """mem_mb and runtime (minutes) of ``job`` from the size of its data (ordeval.resources), of the
    data set of the job's wildcard, of ``group`` (the JobSpec of a rule's one job for its small data
    sets) or of every data set; multiplied by the attempt (``--retries``).
    """

    def get(key):
        if wildcard:
            return (
                lambda wildcards, attempt: SPECS.resources(job, wildcards.dataset)[key]
                * attempt
            )
        value = (group.resources if group is not None else SPECS.resources(job))[key]
        return lambda wildcards, attempt: value * attempt

    return {"mem_mb": get("mem_mb"), "runtime": get("runtime")}
