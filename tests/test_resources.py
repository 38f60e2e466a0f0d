"""Every job declares threads and resources (mem_mb, runtime in minutes) for a scheduler, computed from the
size of its data by ordeval.resources, and they grow with that size; every rule of the Snakefile uses them."""

import copy
import re

import pytest
from conftest import REPO, tiny_config

from ordeval.config import load
from ordeval.plan import JOB_MODULES
from ordeval.plan import plan as make_plan
from ordeval.resources import DataSize, estimate
from ordeval.workflow import resources

KEYS = {"threads", "mem_mb", "runtime"}


def _jobs(config) -> dict[str, dict[str, int]]:
    """{rule: its threads, mem_mb and runtime} of every rule that runs a job (one job over its data sets)."""
    plan = make_plan(config, workdir=REPO)
    return {job: resources(plan, job) for job in JOB_MODULES}


def _grown(config, topics=1, runs=1, trials=1):
    config = copy.deepcopy(config)
    for spec in config["datasets"].values():
        if "topics" in spec["gold"]:
            spec["gold"]["topics"] = spec["gold"]["topics"] * topics
        for source in spec["runs"]:
            if source["type"] == "simulate":
                source["systems"] = source["systems"] * runs
    config["consistency"]["trials"] *= trials
    config["consistency"]["hsd_trials"] *= trials
    config["significance"]["hsd_trials"] *= trials
    return config


@pytest.fixture(scope="module")
def small():
    return _jobs(tiny_config(classification=True))


def test_every_job_has_threads_and_resources(small):
    for key, found in small.items():
        assert set(found) == KEYS, key
        assert all(isinstance(value, int) and value >= 1 for value in found.values()), key
        assert found["mem_mb"] >= 400 and found["runtime"] >= 5, key


def test_only_the_kernels_and_scoring_use_the_configured_threads_and_only_on_large_data():
    config = tiny_config(classification=True)
    config["threads"] = 4
    assert all(found["threads"] == 1 for found in _jobs(config).values())  # tiny: start-up dominates
    grown = _jobs(_grown(config, topics=3000, runs=40))
    threaded = {rule for rule, found in grown.items() if found["threads"] == 4}
    assert threaded == {"consistency_taus", "significance_pvalues", "score_runs"}
    assert all(found["threads"] in (1, 4) for found in grown.values())


@pytest.fixture(scope="module")
def default():
    config = load(REPO / "config" / "config.yaml")
    return config, _jobs(config)


@pytest.mark.parametrize("growth", [{"topics": 30}, {"runs": 3}, {"trials": 10}], ids=lambda g: next(iter(g)))
def test_resources_grow_with_the_data(default, growth):
    """The default data sets grown: no job asks for less, the heavy ones ask for more."""
    config, _ = default
    jobs, big = _jobs(config), _jobs(_grown(config, **growth))
    grew = []
    for key, before in jobs.items():
        after = big[key]
        assert after["mem_mb"] >= before["mem_mb"] and after["runtime"] >= before["runtime"], key
        if after["mem_mb"] > before["mem_mb"] or after["runtime"] > before["runtime"]:
            grew.append(key)
    heavy = {"topics": {"score_runs", "consistency_taus", "significance_pvalues",
                        "leaderboard_figures", "popularity_figures"},
             "runs": {"score_runs", "consistency_taus", "significance_pvalues"},
             "trials": {"consistency_taus", "significance_pvalues"}}[next(iter(growth))]  # fmt: skip
    assert heavy <= set(grew)


def test_the_cost_model_at_scale():
    """1,000 runs x 300 topics x 13 measures x 1,000 trials: chunked taus stay bounded in memory; 30,000
    topics x 20 runs scoring asks for more than the default data sets but well under a node."""
    settings = {"consistency_trials": 1000, "consistency_hsd_trials": 5000, "conditions": 2}
    taus = estimate("consistency_taus", [DataSize(300, 1000, 13, 5)], settings, threads=8)
    assert taus.threads == 8 and taus.mem_mb <= 4000
    small = estimate("consistency_taus", [DataSize(300, 20, 13, 5)], settings, threads=8)
    assert taus.runtime > small.runtime
    scoring = estimate("score_runs", [DataSize(30000, 20, 13, 5)])
    assert 1000 <= scoring.mem_mb <= 8000 and scoring.threads == 1  # one configured thread
    assert estimate("score_runs", [DataSize(30000, 20, 13, 5)], threads=2).threads == 2
    assert estimate("score_runs", [DataSize(300, 20, 13, 5)], threads=2).threads == 1


def test_every_rule_declares_threads_and_resources():
    """The .smk files: every rule that runs a job script declares both, from ordeval (job_threads and
    job_resources of common.smk); the target rules are local rules."""
    local = _local_rules()
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text()
        for block in re.split(r"\n\s*rule\b", text)[1:]:
            if "script:" in block:
                job = re.search(r'scripts/(\w+)\.py"', block).group(1)
                declared = rf'threads: job_threads\("{job}"\)'
                assert re.search(declared, block), (path.name, job)
                assert f'**job_resources("{job}"' in block, (path.name, job)
            else:
                name = re.match(r"\s*(\w+):", block).group(1)
                assert name in local, (path.name, name)


def _local_rules() -> set[str]:
    block = (REPO / "Snakefile").read_text().split("localrules:", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"\w+", block))


def test_the_rules_take_their_priorities_from_ordeval():
    """The longest chains first (significance -> leaderboards, consistency -> its figures): each rule of
    ordeval.resources.PRIORITY declares ``priority: priority("<job>")`` (common.smk), and no other rule
    sets a priority."""
    from ordeval.resources import PRIORITY, priority

    declared = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"\n\s*rule\b", path.read_text())[1:]:
            found = re.search(r'priority: priority\("(\w+)"\)', block)
            if found:
                declared[re.search(r'scripts/(\w+)\.py"', block).group(1)] = found.group(1)
    assert declared == {job: job for job in PRIORITY}
    assert priority("significance_pvalues") > priority("consistency_taus") > priority("consistency_figures")
    assert priority("leaderboard_tables") == priority("leaderboard_figures") == priority("significance_pvalues")
    assert priority("popularity_figures") > priority("agreement_figures") == 0
