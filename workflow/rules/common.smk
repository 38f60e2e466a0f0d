# The plan of this configuration (ordeval.workflow.plan: the validated configuration with its defaults, the data
# sets with their tasks and measures, the measures of each analysis), the wildcards, and the helpers every rule file
# uses. Each rule writes out the paths it reads and writes under RESULTS (results/<name>), its wildcards
# ({dataset}, {task_suffix}, {measure}) left for Snakemake; each stage's target rule lists what the stage makes
# with `made(rules.<rule>, <wildcard>=<values>)`, and `rule all`, the manifest and the reports take it from there.
# `params` hold settings, and `code`: the digest of the code the job runs (below).
import os
import re
import sys

from snakemake.logging import logger
from snakemake.settings.enums import Quietness

from ordeval.io.errors import InputError
from ordeval.io.names import check_paths
from ordeval.reports.captions import caption_label
from ordeval.reports.catalogue import category
from ordeval.results.manifest import git_commit, report_configuration_problem
from ordeval.stats.splits import CONDITIONS
from ordeval.tasks import get_task
from ordeval.workflow.config import check_config_file
from ordeval.workflow import failures, summary
from ordeval.workflow.modules import code_digest
from ordeval.workflow.plan import plan as make_plan
from ordeval.workflow.resources import job_resources

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
# The configuration with its defaults, as the captions of the HTML report read it ({{ snakemake.config }}).
config.update(PLAN.config)

RESULTS = PLAN.results
ENV = "../../environment.yml"
SEED = PLAN.config["seed"]
KENDALL = PLAN.config["kendall"]

DATASETS = list(PLAN.datasets)  # configuration order
# Each task's summaries over its data sets carry its suffix ("" OQ, "_oc" OC, "_scores").
SUFFIXES = [PLAN.suffix(task) for task in PLAN.tasks]
MEASURES = sorted({m for data in PLAN.datasets.values() for m in data.measures})
# The plugin files of the configuration, relative to the project folder: rule inputs and params that stay the same
# when the project moves (as every path the rules name).
PLUGINS = [os.path.relpath(path) for path in PLAN.plugin_files]


def alternatives(names):
    """A wildcard's regular expression matching exactly ``names`` (no other file name)."""
    return (
        "(?:" + "|".join(re.escape(name) for name in names) + ")" if names else "(?!)"
    )


# The wildcards: {dataset} a configured data set only (not "mean" in tables/agreement/mean.csv); {task_suffix}
# what the outputs that combine a task's data sets add to their names ("" quantification, "_oc" classification,
# "_scores" precomputed scores); {measure} a scored measure (a score table, a DNKT_M table, a measure's report:
# each rule narrows it).
wildcard_constraints:
    dataset=alternatives(DATASETS),
    task_suffix=alternatives(SUFFIXES),
    measure=alternatives(MEASURES),


def code(script=None, modules=()):
    """The SHA-256 of the code a job runs (ordeval.workflow.modules.code_digest): scripts/<script>.py and every
    ordeval module it reaches, or the ``modules`` a run: block calls. A params entry: Snakemake re-runs the jobs
    whose code changed (its params trigger), and nothing is written to find out."""
    path = os.path.join(workflow.basedir, "scripts", f"{script}.py") if script else None
    return code_digest(path, modules)


def task_datasets(wildcards):
    """The data sets of the task whose summaries carry ``wildcards.task_suffix``."""
    return PLAN.suffix_datasets(wildcards.task_suffix)


def task_measures(analysis):
    """The measures of ``analysis`` on the data sets of the task whose summaries carry ``wildcards.task_suffix``."""
    return lambda wildcards: PLAN.suffix_measures(analysis, wildcards.task_suffix)


def dataset_measures(analysis):
    """The measures of ``analysis`` on the data set ``wildcards.dataset``."""
    return lambda wildcards: PLAN.dataset_measures(analysis, wildcards.dataset)


def dataset_files(wildcards):
    """The files the data set's configuration reads, named by the entry that reads each (gold, runs_0, scores_1...;
    none for simulated data): rule prepare_data's inputs, which its script gives the task as they are named.
    """
    return PLAN.source_paths(wildcards.dataset)


def measure_datasets(wildcards):
    """The data sets of the reported measure's task."""
    return PLAN.task_datasets(PLAN.measure_reports[wildcards.measure])


def measure_task_suffix(wildcards):
    """The suffix of the summaries of the reported measure's task."""
    return PLAN.suffix(PLAN.measure_reports[wildcards.measure])


def logged(log, line):
    """Write ``line`` as the log of a ``run:`` block's job (its ``log:`` file)."""
    with open(log[0], "w", encoding="utf-8") as handle:
        print(line, file=handle)


def task_title(wildcards):
    """The HTML report's subcategory of an output over a task's data sets: the task's name."""
    return PLAN.suffix_task(wildcards.task_suffix)


def gathered(template, datasets):
    """``template`` (a rule's output, {dataset} in it) over ``datasets``, a function of the wildcards (e.g.
    task_datasets): the input of a rule that gathers a task's data sets."""
    return lambda wildcards: expand(template, dataset=datasets(wildcards))


def run_summary(log, failed):
    """The lines a run ends with (onsuccess, onerror): ordeval.workflow.summary, for this configuration as run."""
    settings = workflow.config_settings
    command = summary.html_report_command(
        RESULTS,
        settings.configfiles,
        summary.config_items(settings.config),
        snakefile=workflow.main_snakefile,
        after_report=not os.path.isfile(f"{RESULTS}/manifest.json"),
    )
    return summary.run_summary(
        PLAN.config, failed=failed, snakemake_logs=log, html_command=command
    )


def threads(kind):
    """The threads of a job of ``kind`` (ordeval.workflow.resources.KINDS) on its data set (or on every data set):
    the configured threads where the work is large enough, else one."""
    return lambda wildcards: job_resources(PLAN, kind, wildcards.get("dataset")).threads


def mem_mb(kind):
    """The memory (MB) of a job of ``kind`` on its data set (or on every data set), from its size
    (ordeval.workflow.resources), times the attempt (``--retries``)."""
    return (
        lambda wildcards, attempt: job_resources(
            PLAN, kind, wildcards.get("dataset")
        ).mem_mb
        * attempt
    )


def runtime(kind):
    """The run time (minutes) of a job of ``kind`` on its data set (or on every data set), times the attempt."""
    return (
        lambda wildcards, attempt: job_resources(
            PLAN, kind, wildcards.get("dataset")
        ).runtime
        * attempt
    )


# What each stage makes (filled by made()), for each rule's name the wildcard values of each of its jobs.
MADE = {}


def made(rule, **values):
    """Every output of ``rule`` (``rules.<name>``) that this configuration makes: its output templates expanded
    over the wildcard values given (lists; one job per combination; none for a rule without wildcards). The stage
    target rules list them; the manifest, `rule all` and the reports take them from there (MADE).
    """
    names = list(values)
    jobs = [dict(zip(names, combination)) for combination in _product(values)]
    MADE.setdefault(rule.rule.name, []).extend(jobs)
    return [path for job in jobs for path in expand(rule.output, **job)]


def _product(values):
    import itertools

    return itertools.product(*values.values()) if values else [()]


def caption_file(key):
    """The caption of output ``key`` (workflow/report/<key>.rst): the HTML report's (report(caption=...)) and the
    PDF's (rule report_tex)."""
    return os.path.relpath(
        os.path.join(workflow.basedir, "workflow", "report", f"{key}.rst")
    )


def shown(path, caption, category_key, subcategory=None):
    """``path``, an output the HTML report shows (Snakemake's report()): with its caption (workflow/report/<caption>.rst,
    the PDF's too), its category (ordeval.reports.catalogue.CATEGORIES) and subcategory, and as its label in the
    report's lists the caption's title: what it shows."""
    return report(
        path,
        caption=f"../report/{caption}.rst",
        category=category(category_key),
        subcategory=subcategory,
        labels={"shows": caption_label(caption_file(caption), PLAN.config)},
    )


def printed_items(printed):
    """The PDF's items from (section, rule, output name, caption key) entries: each rule output over every job of
    the rule that its stage made (MADE), as {section, caption, path, wildcards}, in the order given.
    """
    return [
        {
            "section": section,
            "caption": caption_file(caption),
            "path": expand(getattr(rule.output, output), **job)[0],
            "wildcards": job,
        }
        for section, rule, output, caption in printed
        for job in MADE.get(rule.rule.name, [])
    ]


def check_outputs():
    """Two outputs of this configuration with one path, or with paths that differ only in case (one file on a
    case-insensitive file system), refused before any job, naming the configuration key of the name to change (a
    data set named like another output, "mean"; a measure named "means"): ordeval.io.names.check_paths.
    """
    owners = [
        (path, name, job.get("dataset"), job.get("measure"))
        for name, jobs in MADE.items()
        for job in jobs
        for path in expand(getattr(rules, name).output, **job)
    ]
    try:
        check_paths(owners)
    except ValueError as error:
        sys.exit(f"ordeval: configuration error: {error}")


# A failed job's message, which `--quiet rules` (as `ordeval run` gives it) hides along with every job's details:
# written by a handler of Snakemake's logger (ordeval.workflow.failures).
if workflow.output_settings and Quietness.RULES in (
    workflow.output_settings.quiet or ()
):
    failures.install(logger)
