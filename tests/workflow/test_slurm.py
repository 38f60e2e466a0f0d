"""The Slurm profile (profiles/slurm) on a real Slurm cluster: a single node started by .ci/start-slurm (CI does),
or any cluster whose controller answers here. The small configuration (two synthetic data sets) goes
through ``--profile profiles/slurm``, and every submission is read back from Slurm (``scontrol show job``):

* in the first run Slurm cancels (``scancel``) a data set's randomised Tukey HSD job while it runs: it is
  submitted again (the profile's ``retries: 1``) with twice its memory and time, cancelled again, and the run
  fails naming the job's Slurm log, leaving none of its outputs; the next run submits only the jobs left and
  completes;
* over the two runs every job but those of the local rules (the target rule ``all``; the score tables and the
  stack, run: blocks in the Snakemake process) is its own sbatch submission (a data set's jobs separate from the
  other's), each with the CPUs, memory and time limit that its rule computes for its data set
  (ordeval.workflow.resources.job_resources through the rules' ``threads()``, ``mem_mb()``, ``runtime()``), and
  the results equal a local run's
  (``ordeval diff``: EQUAL);
* a job given less memory than it uses (the configuration's ``resources: {memory: 0.25}``, a feature: factors
  on what jobs ask for) is killed by Slurm and submitted again with twice its memory and time, and the run
  completes.

Without a cluster these tests are skipped, saying what is missing; with ORDEVAL_REQUIRE_SLURM=1 (.ci/run) they
fail instead. The plugin asks for the jobs' states a second after each change
(``--slurm-init-seconds-before-status-checks``) instead of its 40 s, as the jobs here last seconds."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import REPO, job_counts, run_workflow, tiny_config

from ordeval.io.files import TEMPORARY
from ordeval.workflow.plan import plan as make_plan
from ordeval.workflow.resources import job_resources as cost

PROFILE = REPO / "profiles" / "slurm"
REQUIRE = "ORDEVAL_REQUIRE_SLURM"
#: The plugin's first status query after a submission (and after a job ends) comes this many seconds later (its
#: default, 40, suits jobs of minutes; each query that finds no job ended waits 10 s more, up to 180).
STATUS = ["--slurm-init-seconds-before-status-checks", "1"]
#: A Snakemake run through the cluster that takes longer fails the test (seconds); the jobs are read back from
#: Slurm right after each run (.ci/start-slurm's controller keeps finished jobs for 30 minutes).
TIMEOUT = 900


def slurm_problem() -> str | None:
    """What this machine lacks to run the Slurm profile: Slurm's commands, the executor plugin, or a
    controller that answers with a node that takes jobs; None when nothing."""
    missing = [name for name in ("sbatch", "squeue", "scontrol", "scancel", "sinfo") if shutil.which(name) is None]
    if missing:
        return f"Slurm's commands {', '.join(missing)} are not installed"
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return 'snakemake-executor-plugin-slurm is not installed (pip install -e ".[slurm]")'
    try:
        done = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "no Slurm controller answers (sinfo timed out)"
    states = set(done.stdout.split())
    if done.returncode != 0:
        return f"no Slurm controller answers (sinfo: {done.stderr.strip()[:200]})"
    if not states & {"idle", "mixed", "allocated", "completing"}:
        return f"no Slurm node takes jobs (sinfo: {', '.join(sorted(states)) or 'no node'})"
    return None


@pytest.fixture(scope="module")
def cluster():
    problem = slurm_problem()
    if problem:
        message = f"no Slurm cluster for the Slurm profile's tests: {problem}; bash .ci/start-slurm starts one here"
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{message} ({REQUIRE}=1)")
        pytest.skip(message)


# --------------------------------------------------------------------------- what Slurm says of each job


@dataclass(frozen=True)
class SlurmJob:
    """A job as ``scontrol show job`` describes it."""

    id: str
    rule: str
    wildcards: str  #: its wildcards' values (a data set, a measure), "" for none
    state: str
    mem_mb: int
    runtime: int  #: minutes
    cpus: int
    log: str  #: its Slurm log (StdOut)
    workdir: str


def _megabytes(text: str) -> int:
    number, unit = re.fullmatch(r"([\d.]+)([KMGT]?)", text).groups()
    return round(float(number) * {"K": 1 / 1024, "M": 1, "": 1, "G": 1024, "T": 1024**2}[unit])


def _minutes(text: str) -> int:
    days, _, clock = text.rpartition("-")
    parts = [int(part) for part in clock.split(":")]
    hours, minutes, seconds = [0] * (3 - len(parts)) + parts
    return (int(days or 0) * 24 + hours) * 60 + minutes + (seconds > 0)


def slurm_job(job_id: str) -> SlurmJob:
    """Job ``job_id`` read back from the Slurm controller (it keeps finished jobs for MinJobAge)."""
    done = subprocess.run(["scontrol", "-o", "show", "job", job_id], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, f"scontrol show job {job_id}: {done.stderr.strip()}"
    fields = dict(re.findall(r"(\S+?)=(\S*)", done.stdout))
    rule, wildcards = re.fullmatch(r"rule_(.+?)(?:_wildcards_(.+))?", fields["Comment"]).group(1, 2)
    return SlurmJob(
        id=job_id,
        rule=rule,
        wildcards=wildcards or "",
        state=fields["JobState"],
        mem_mb=_megabytes(fields["MinMemoryNode"]),
        runtime=_minutes(fields["TimeLimit"]),
        cpus=int(fields["CPUs/Task"]),
        log=fields["StdOut"],
        workdir=fields["WorkDir"],
    )


SUBMITTED = re.compile(r"Job (\d+) has been submitted with SLURM jobid (\d+) \(log: (\S+?)\)\.?$", re.M)
FINISHED = re.compile(r"Finished jobid: (\d+) \(Rule: (\w+)\)")


def submissions(log: str) -> list[SlurmJob]:
    """The sbatch submissions a Snakemake run reported, as Slurm describes them, in order."""
    jobs = []
    for _, job_id, slurm_log in SUBMITTED.findall(log):
        job = slurm_job(job_id)
        assert job.log == slurm_log, (job, slurm_log)
        jobs.append(job)
    return jobs


def rule_kinds() -> dict[str, str]:
    """{rule name: its kind of work (ordeval.workflow.resources.KINDS)}, as the rule files declare it
    (``threads: threads("<kind>")`` beside ``mem_mb("<kind>")`` and ``runtime("<kind>")``)."""
    kinds = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"\nrule (?=\w+:)", path.read_text(encoding="utf-8"))[1:]:
            kind = re.search(r'threads: threads\("(\w+)"\)', block)
            if kind is None:
                continue
            kinds[re.match(r"\s*(\w+):", block).group(1)] = kind.group(1)
    return kinds


def kind_of(rule: str) -> str:
    kinds = rule_kinds()
    assert rule in kinds, f"rule {rule}: no kind of work declared in workflow/rules"
    return kinds[rule]


def expected(plan, job: SlurmJob, attempt: int = 1) -> tuple[int, int, int]:
    """(CPUs, mem_mb, runtime) that the rule of ``job`` computes for its data set at ``attempt`` (the rules'
    threads(), mem_mb(), runtime(): a job over a data set costs what that data set's size needs, any other what
    every data set's does)."""
    dataset = job.wildcards if job.wildcards in plan.datasets else None
    found = cost(plan, kind_of(job.rule), dataset)
    return found.threads, found.mem_mb * attempt, found.runtime * attempt


def local_rules() -> set[str]:
    block = (REPO / "Snakefile").read_text(encoding="utf-8").split("localrules:", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"\w+", block))


def job_stats(log: str) -> dict[str, int]:
    """{rule: jobs} of the table Snakemake prints as a run starts."""
    counts = job_counts(log)
    assert counts, log[-3000:]
    return counts


def ordeval_diff(old: Path, new: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ordeval", "diff", str(old), str(new)], capture_output=True, text=True, timeout=300
    )


# --------------------------------------------------------------------------- the small configuration, locally


def small_config(name: str = "slurm") -> dict:
    """Two synthetic data sets (12 and 14 topics), few trials, no compiled PDF: every job but those of the local
    rules submitted to Slurm."""
    config = tiny_config(name)
    config["report"] = {"pdf": False}
    return config


@pytest.fixture(scope="module")
def local_run(cluster, tmp_path_factory) -> Path:
    """The small configuration run on this machine, without Slurm: the results to compare with."""
    workdir = tmp_path_factory.mktemp("slurm_local")
    config = small_config()
    run_workflow(workdir, config, timeout=TIMEOUT)
    return workdir / "results" / config["name"]


# --------------------------------------------------------------------------- through Slurm, a job cancelled


#: The job that Slurm cancels (its comment: ``rule_<rule>_wildcards_<data set>``), and twice: its retry too.
CANCELLED = "rule_significance_pvalues_wildcards_TinySem"


def cancel_when_running(process: subprocess.Popen, workdir: Path, comment: str, done: set[str]) -> str:
    """Cancel (scancel) the job of ``workdir`` whose comment is ``comment`` as soon as it runs, one not in
    ``done``; its id."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the run ended before a job {comment} could be cancelled"
        listed = subprocess.run(["squeue", "-h", "-t", "RUNNING", "-o", "%i|%k|%Z"], capture_output=True, text=True)
        for line in listed.stdout.splitlines():
            job_id, job_comment, job_workdir = line.split("|", 2)
            if job_comment == comment and Path(job_workdir) == workdir and job_id not in done:
                subprocess.run(["scancel", job_id], check=True, timeout=30)
                return job_id
        time.sleep(0.2)
    raise AssertionError(f"no job {comment} ran within {TIMEOUT} s")


@dataclass
class SlurmRuns:
    """The small configuration through the Slurm profile: a first run in which Slurm cancels a job (and its
    retry), what it left, and the next run."""

    workdir: Path
    config: dict
    first_log: str
    first_returncode: int
    first_jobs: list[SlurmJob]  #: its submissions, as Slurm describes them when it ended
    cancelled: list[str]  #: Slurm job ids
    left: dict[str, list[str]]  #: what the first run left: the cancelled job's outputs, temporary files
    second_jobs: list[SlurmJob]
    seconds: list[float]  #: of each run

    @property
    def results(self) -> Path:
        return self.workdir / "results" / self.config["name"]


@pytest.fixture(scope="module")
def slurm_runs(cluster, tmp_path_factory) -> SlurmRuns:
    workdir = tmp_path_factory.mktemp("slurm_profile")
    config = small_config()
    (workdir / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    command = [
        *(sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir)),
        *("--configfile", str(workdir / "config.yaml"), "--cores", "2", *slurm_arguments()),
    ]
    output = workdir / "first_run.txt"
    started = time.monotonic()
    with output.open("w") as stream:
        process = subprocess.Popen(command, stdout=stream, stderr=subprocess.STDOUT)
        try:
            first = cancel_when_running(process, workdir, CANCELLED, set())
            second = cancel_when_running(process, workdir, CANCELLED, {first})  # the profile's retry
            returncode = process.wait(timeout=TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    seconds = [time.monotonic() - started]
    first_log = output.read_text()
    first_jobs = submissions(first_log)
    results = workdir / "results" / config["name"]
    outputs = [results / "significance" / "TinySem" / name for name in ("pvalues.tsv", "pvalues.npz")]
    left = {
        "outputs": [str(path) for path in outputs if path.exists()],
        "temporaries": [str(path) for path in results.rglob("*") if TEMPORARY.match(path.name)],
        "manifest": [str(path) for path in [results / "manifest.json"] if path.exists()],
    }
    started = time.monotonic()
    done = run_workflow(workdir, config, *slurm_arguments(), timeout=TIMEOUT)
    seconds.append(time.monotonic() - started)
    second_jobs = submissions(done.stdout + done.stderr)
    asked = Counter(f"{job.cpus} CPU {job.mem_mb} MB {job.runtime} min" for job in first_jobs + second_jobs)
    print(
        f"\nSlurm runs of the small configuration: {seconds[0]:.0f} s, {len(first_jobs)} sbatch jobs (a job"
        f" cancelled twice); {seconds[1]:.0f} s, {len(second_jobs)} sbatch jobs; asked for: {sorted(asked.items())}"
    )
    return SlurmRuns(workdir, config, first_log, returncode, first_jobs, [first, second], left, second_jobs, seconds)


def slurm_arguments(*arguments: str) -> list[str]:
    return ["--profile", str(PROFILE), *STATUS, *arguments]


def test_a_job_cancelled_by_slurm_is_retried_then_fails_the_slurm_run_naming_its_log(slurm_runs):
    log = slurm_runs.first_log
    assert slurm_runs.first_returncode != 0, log[-3000:]
    jobs = {job.id: job for job in slurm_runs.first_jobs}
    first, second = (jobs[job_id] for job_id in slurm_runs.cancelled)
    assert (first.state, second.state) == ("CANCELLED", "CANCELLED")
    # the profile's retries: 1 submitted it again, with twice the memory and time (attempt 2)
    plan = make_plan(slurm_runs.config, workdir=slurm_runs.workdir)
    assert (second.cpus, second.mem_mb, second.runtime) == expected(plan, second, attempt=2), second
    # the run's summary names the failed job, its log and its Slurm log, which says that Slurm cancelled it
    failed = [line for line in log.splitlines() if "failed: rule significance_pvalues, log " in line]
    assert len(failed) == 1 and "results/slurm/logs/significance_pvalues/TinySem.log" in failed[0], log[-3000:]
    named = [job for job in (first, second) if os.path.relpath(job.log, slurm_runs.workdir) in failed[0]]
    assert named, (failed, first.log, second.log)
    for job in (first, second):
        assert job.log in log  # each submission with its Slurm log
        assert "CANCELLED AT" in Path(job.log).read_text()
    assert "Exiting because a job execution failed" in log


def test_a_failed_slurm_run_leaves_nothing_of_the_cancelled_job(slurm_runs):
    assert slurm_runs.left == {"outputs": [], "temporaries": [], "manifest": []}


def test_the_next_slurm_run_submits_only_the_jobs_left_and_completes(slurm_runs):
    done_before = {(job.rule, job.wildcards) for job in slurm_runs.first_jobs if job.state == "COMPLETED"}
    again = slurm_runs.second_jobs
    assert again and all(job.state == "COMPLETED" for job in again), again
    assert ("significance_pvalues", "TinySem") in {(job.rule, job.wildcards) for job in again}
    assert not done_before & {(job.rule, job.wildcards) for job in again}  # nothing done twice
    assert (slurm_runs.results / "manifest.json").is_file()


def test_every_job_but_the_local_rules_is_its_own_slurm_submission(slurm_runs):
    """Over both runs: each job of the run (Snakemake's job stats) once an sbatch job that completed, the local
    rules' (the target ``all``, the score tables and stacks) none; the per-data-set jobs are separate submissions;
    all of them in the project's folder."""
    stats = job_stats(slurm_runs.first_log)
    local = {rule for rule in stats if rule in local_rules()}
    assert local == {"all", "score_table", "score_stack"}, stats
    submitted = {rule: n for rule, n in stats.items() if rule not in local}
    jobs = slurm_runs.first_jobs + slurm_runs.second_jobs
    completed = [job for job in jobs if job.state == "COMPLETED"]
    assert len({(job.rule, job.wildcards) for job in completed}) == len(completed) == sum(submitted.values())
    assert Counter(job.rule for job in completed) == Counter(submitted)
    assert len({job.id for job in jobs}) == len(jobs) == len(completed) + 2  # and the two cancelled
    assert all(Path(job.workdir) == slurm_runs.workdir for job in jobs), jobs
    datasets = sorted(slurm_runs.config["datasets"])
    for rule in ("prepare_data", "score_runs", "significance_pvalues"):
        assert sorted(job.wildcards for job in completed if job.rule == rule) == datasets, rule


def test_each_slurm_job_asks_for_what_its_rule_computes_for_its_data_set(slurm_runs):
    plan = make_plan(slurm_runs.config, workdir=slurm_runs.workdir)
    asked = {}
    for job in slurm_runs.first_jobs + slurm_runs.second_jobs:
        attempt = 2 if job.id == slurm_runs.cancelled[1] else 1
        assert (job.cpus, job.mem_mb, job.runtime) == expected(plan, job, attempt), job
        asked[job.rule] = (job.mem_mb, job.runtime)
    # the kinds of work ask for different amounts (HSD 800 MB, data 500 MB, ...): the check tells them apart
    assert len(set(asked.values())) >= 3, asked


def test_the_slurm_results_equal_a_local_run(slurm_runs, local_run):
    done = ordeval_diff(local_run, slurm_runs.results)
    assert done.returncode == 0 and "\nEQUAL:" in done.stdout, done.stdout + done.stderr


# --------------------------------------------------------------------------- jobs out of memory


def test_a_slurm_job_killed_for_memory_is_retried_with_twice_its_memory(cluster, tmp_path):
    """The data sets first, then the table that describes them (rule datasets_table, one job over both) with the
    configuration's resources.memory at 0.25: 100 MB instead of 400, less than the job's own Snakemake process
    holds (about 115 MB, measured here as Slurm counts it, proportional set sizes); Slurm kills the job, and
    --retries 1 submits it again with 200 MB (the rules' attempt multiplier), which it does not reach (about 140).
    The memory factor changes no output: the data are not made again."""
    config = small_config("slurm_memory")
    data = [f"results/slurm_memory/data/{name}/provenance.json" for name in config["datasets"]]
    run_workflow(tmp_path, config, *slurm_arguments(*data), timeout=TIMEOUT)
    config["resources"] = {"memory": 0.25}
    table = "results/slurm_memory/tables/datasets.csv"
    done = run_workflow(tmp_path, config, *slurm_arguments("--retries", "1", table), timeout=TIMEOUT)
    first, second = submissions(done.stdout + done.stderr)
    assert first.rule == second.rule == "datasets_table", (first, second)
    # killed for its memory on the first attempt, then asked for twice the memory and time, and done
    assert first.state != "COMPLETED" and "exceeded memory limit" in Path(first.log).read_text(), first
    plan = make_plan(config, workdir=tmp_path)
    assert (first.cpus, first.mem_mb, first.runtime) == expected(plan, first, attempt=1) == (1, 100, 5), first
    assert (second.cpus, second.mem_mb, second.runtime) == expected(plan, second, attempt=2) == (1, 200, 10), second
    assert second.state == "COMPLETED" and (tmp_path / table).is_file(), second
