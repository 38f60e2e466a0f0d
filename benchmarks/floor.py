"""The one-process floor of a pipeline run: the library calls of every job, in dependency order, in one Python
process, writing the same files (what the pipeline would cost with no process start-up, no imports paid twice
and no scheduler).

    PYTHONPATH=FOLDER/src python benchmarks/floor.py FOLDER [--configfile FILE] [--json OUT]

``FOLDER`` is a project folder (a copy of the repository, as ``benchmarks/pipeline.py`` makes) with no
results yet, whose library the ``PYTHONPATH`` makes importable. Snakemake's API builds the DAG of the
default target there (nothing is run by Snakemake); then every job's script runs in this process
(:func:`ordeval.workflow.offline.run_script`) with the input, output, params, wildcards, log and threads Snakemake
would give it, and every ``run:`` block's job through its rule's run function (as Snakemake's local executor calls
it), one after the other in a topological order. Prints one line per rule (jobs, seconds) and
writes, with ``--json``, ``{"seconds": total, "planning_seconds": ..., "jobs": n, "rules": {rule: {"jobs",
"seconds"}}, "job_seconds": {job: seconds}}``.
The one-time imports (numpy, numba, scipy, matplotlib) are paid once, by the first job that needs them,
and counted in the total.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


def jobs_of(folder: Path, configfiles: list[Path]) -> list:
    """The jobs of the default target of the workflow in ``folder``, in a topological order."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import ConfigSettings, DAGSettings, OutputSettings, ResourceSettings

    with SnakemakeApi(OutputSettings()) as api:
        workflow_api = api.workflow(
            resource_settings=ResourceSettings(cores=2),
            config_settings=ConfigSettings(configfiles=configfiles),
            snakefile=folder / "Snakefile",
            workdir=folder,
        )
        dag_api = workflow_api.dag(dag_settings=DAGSettings())
        workflow = dag_api.workflow_api._workflow  # the DAG itself: Snakemake's API stops at printing it
        workflow.dag_settings = dag_api.dag_settings
        workflow._prepare_dag(forceall=False, ignore_incomplete=True, lock_warn_only=True, nolock=True)
        workflow._build_dag()
        ordered = [job for level in workflow.dag.toposorted() for job in level]
        return [_description(job, folder) for job in ordered if job.rule.script or job.rule.is_run]


def _description(job, folder: Path) -> dict:
    rule = job.rule
    script = (Path(rule.basedir.get_path_or_uri(secret_free=True)) / rule.script).resolve() if rule.script else None
    return {
        "run": _run_block(job) if script is None else None,
        "rule": rule.name,
        "name": f"{rule.name}[{','.join(f'{k}={v}' for k, v in job.wildcards.items())}]",
        "script": script,
        "input": {name: _paths(value) for name, value in job.input._allitems()},
        "output": {name: _paths(value) for name, value in job.output._allitems()},
        "params": dict(job.params.items()),
        "wildcards": dict(job.wildcards.items()),
        "log": [str(path) for path in job.log],
        "threads": job.threads,
    }


def _run_block(job):
    """A ``run:`` block's job (rules score_table, score_stack) as Snakemake's local executor calls it: the rule's
    run function with the job's input, output, params, wildcards, threads, resources, log and rule name (the
    other arguments, for shell commands, containers and benchmarks, unused by ordeval's blocks)."""
    import inspect

    function = job.rule.run_func
    given = (job.input, job.output, job.params, job.wildcards, job.threads, job.resources, job.log, job.rule.name)
    rest = [None] * (len(inspect.signature(function).parameters) - len(given))
    return lambda: function(*given, *rest)


def _paths(value):
    return [str(item) for item in value] if isinstance(value, list) else str(value)


def run(folder: Path, configfiles: list[Path]) -> dict:
    os.chdir(folder)
    start = time.perf_counter()
    jobs = jobs_of(folder, configfiles)
    planned = time.perf_counter() - start
    from ordeval.workflow.offline import mock_snakemake, run_script

    seconds: dict[str, float] = {}
    rules: dict[str, dict] = {}
    begin = time.perf_counter()
    for job in jobs:
        for path in job["output"].values():
            for item in path if isinstance(path, list) else [path]:
                Path(item).parent.mkdir(parents=True, exist_ok=True)
        for item in job["log"]:
            Path(item).parent.mkdir(parents=True, exist_ok=True)
        named = {key: value for key, value in job["input"].items() if key is not None}
        outputs = {key: value for key, value in job["output"].items() if key is not None}
        snakemake = mock_snakemake(
            job["rule"],
            input=named,
            output=outputs,
            params=job["params"],
            wildcards=job["wildcards"],
            log=job["log"],
            threads=job["threads"],
        )
        clock = time.perf_counter()
        try:
            job["run"]() if job["run"] else run_script(job["script"], snakemake)
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise RuntimeError(f"{job['name']} failed ({stop.code}); its log: {job['log']}") from None
        seconds[job["name"]] = time.perf_counter() - clock
        entry = rules.setdefault(job["rule"], {"jobs": 0, "seconds": 0.0})
        entry["jobs"] += 1
        entry["seconds"] += seconds[job["name"]]
    total = time.perf_counter() - begin
    return {
        "seconds": total,
        "planning_seconds": planned,
        "jobs": len(jobs),
        "rules": {rule: {"jobs": e["jobs"], "seconds": round(e["seconds"], 3)} for rule, e in rules.items()},
        "job_seconds": {name: round(value, 4) for name, value in seconds.items()},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--configfile", type=Path, action="append", default=[])
    parser.add_argument("--json", type=Path, help="write the timings here")
    arguments = parser.parse_args(argv)
    folder = arguments.folder.resolve()
    result = run(folder, [path.resolve() for path in arguments.configfile])
    print(
        f"one-process floor: {result['seconds']:.1f} s for {result['jobs']} jobs "
        f"(planning {result['planning_seconds']:.1f} s)"
    )
    for rule, entry in sorted(result["rules"].items(), key=lambda item: -item[1]["seconds"]):
        print(f"  {rule:<32} {entry['jobs']:>3} jobs {entry['seconds']:>7.2f} s")
    if arguments.json:
        arguments.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
