"""The one job of a per-data-set rule for its small data sets (ordeval.resources.GROUPED): each data set gets the
same files, bytes and log as from a job of its own."""

import logging
from pathlib import Path

import pytest
from conftest import tiny_config

from ordeval.jobs import Job, run_job
from ordeval.plan import plan as make_plan
from ordeval.resources import GROUPED
from ordeval.workflow import Specs, _expanded, all_jobs


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("groups")
    plan = make_plan(tiny_config("groups"), workdir=folder)
    specs = Specs(plan)
    jobs = all_jobs(specs)
    for (rule, _), spec in jobs.items():
        if rule.startswith(("prepare_data", "score_runs")):
            spec.run()
    return specs, jobs


def _contents(paths) -> dict[str, bytes]:
    return {path: Path(path).read_bytes() for path in paths}


@pytest.mark.parametrize("job", GROUPED)
def test_a_group_writes_what_each_data_set_s_own_job_writes(scored, job):
    specs, jobs = scored
    [(rule, pattern, _)] = specs.units(job)  # one task, one measure list: one rule
    group = jobs[(f"{rule}_group", None)]
    members = group.params["members"]
    assert [m["params"]["dataset"] for m in members] == ["TinySem", "TinyDQ"]
    logging.getLogger().setLevel(logging.INFO)  # as ordeval.jobs.logged sets it in a Snakemake job
    group.run()
    outputs = [path for value in group.outputs.values() for path in value]
    together = _contents(outputs)
    for member in members:
        log = Path(member["log"]).read_text()
        assert member["params"]["dataset"] in log and f"{rule} done in" in log
        other = next(m for m in members if m is not member)["params"]["dataset"]
        assert f"{other}:" not in log  # a data set's log has its own lines only
    for member in members:  # now each data set alone, as the per-data-set rule runs it
        spec = _expanded(pattern, member["params"]["dataset"])
        spec.params = member["params"]
        assert spec.outputs == member["output"]
        spec.run()
    assert _contents(outputs) == together


def test_run_job_passes_a_plain_job_through_and_each_member_its_own(tmp_path):
    seen = []

    def run(job):
        logging.getLogger("probe").info("running %s", job.params["name"])
        seen.append((job.rule, job.input, job.output, job.params))
        return job.params["name"]

    logging.getLogger().setLevel(logging.INFO)
    assert run_job(run, Job("probe", params={"name": "plain"})) == "plain"
    members = [{"input": {"a": f"in{i}"}, "output": {"b": f"out{i}"}, "params": {"name": f"m{i}"},
                "log": str(tmp_path / "logs" / f"m{i}.log")} for i in range(2)]  # fmt: skip
    assert run_job(run, Job("probe_group", params={"members": members})) == ["m0", "m1"]
    assert seen[1:] == [("probe", {"a": "in0"}, {"b": "out0"}, {"name": "m0"}),
                        ("probe", {"a": "in1"}, {"b": "out1"}, {"name": "m1"})]  # fmt: skip
    assert "running m0" in (tmp_path / "logs" / "m0.log").read_text()
    assert "running m1" not in (tmp_path / "logs" / "m0.log").read_text()
