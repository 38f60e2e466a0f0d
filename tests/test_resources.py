"""Every job declares threads and resources (mem_mb, runtime in minutes) for a scheduler, computed from the
size of its data by ordeval.resources, and they grow with that size; every rule of the Snakefile uses them."""

import copy
import re

import pytest
from conftest import REPO, tiny_config

from ordeval.config import load
from ordeval.plan import plan as make_plan
from ordeval.resources import GROUPED, THREADED, DataSize, estimate
from ordeval.workflow import Specs, all_jobs

KEYS = {"threads", "mem_mb", "runtime"}


def _jobs(config):
    return all_jobs(Specs(make_plan(config, workdir=REPO)))


def _per_dataset(config):
    """Every job of the plan, the groups of the per-data-set rules replaced by each data set's own estimate
    (what its job would get alone): the cost model data set by data set."""
    specs = Specs(make_plan(config, workdir=REPO))
    found = {key: spec.resources for key, spec in all_jobs(specs).items() if not key[0].endswith("_group")}
    for job in GROUPED:
        for rule, _, datasets in specs.units(job):
            found.update({(rule, name): specs.resources(job, name) for name in datasets})
    return found


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
    for key, spec in small.items():
        assert set(spec.resources) == KEYS, key
        assert all(isinstance(value, int) and value >= 1 for value in spec.resources.values()), key
        assert spec.resources["mem_mb"] >= 400 and spec.resources["runtime"] >= 5, key


def test_only_the_kernels_and_scoring_use_the_configured_threads_and_only_on_large_data():
    config = tiny_config(classification=True)
    config["threads"] = 4
    assert all(spec.resources["threads"] == 1 for spec in _jobs(config).values())  # tiny: start-up dominates
    grown = _jobs(_grown(config, topics=3000, runs=40))
    threaded = {rule for (rule, _), spec in grown.items() if spec.resources["threads"] == 4}
    assert {"consistency_taus", "significance_pvalues", "score_runs_quantification"} <= threaded
    assert all(spec.resources["threads"] in (1, 4) for spec in grown.values())
    assert threaded <= {"consistency_taus", "significance_pvalues", "score_runs_quantification",
                        "score_runs_classification"}  # fmt: skip


@pytest.fixture(scope="module")
def default():
    config = load(REPO / "config" / "config.yaml")
    return config, _jobs(config)


@pytest.mark.parametrize("growth", [{"topics": 30}, {"runs": 3}, {"trials": 10}], ids=lambda g: next(iter(g)))
def test_resources_grow_with_the_data(default, growth):
    """The default data sets grown: no job asks for less, the heavy ones ask for more."""
    config, _ = default
    jobs, big = _per_dataset(config), _per_dataset(_grown(config, **growth))
    grew = []
    for key, before in jobs.items():
        after = big[key]
        assert after["mem_mb"] >= before["mem_mb"] and after["runtime"] >= before["runtime"], key
        if after["mem_mb"] > before["mem_mb"] or after["runtime"] > before["runtime"]:
            grew.append(key[0])
    heavy = {"topics": {"score_runs_quantification", "consistency_taus", "significance_pvalues",
                        "leaderboard_figures", "popularity_figures"},
             "runs": {"score_runs_quantification", "consistency_taus", "significance_pvalues"},
             "trials": {"consistency_taus", "significance_pvalues"}}[next(iter(growth))]  # fmt: skip
    assert heavy <= set(grew)


def test_small_data_sets_share_one_job_per_rule_and_large_ones_get_their_own(default):
    """The default data sets are all small: one job per per-data-set rule (data, scores, kernels) for all of
    them, one thread, at least what the largest member would ask alone; grown, the large ones get a job
    (and threads, for the threaded jobs) each."""
    config, jobs = default
    specs = Specs(make_plan(config, workdir=REPO))
    rules = 0
    for job in GROUPED:
        for rule, _, datasets in specs.units(job):
            rules += 1
            group = jobs[(f"{rule}_group", None)]
            members = [member["params"]["dataset"] for member in group.params["members"]]
            assert members == datasets and not [key for key in jobs if key[0] == rule]
            assert group.resources["threads"] == 1
            for name in members:
                alone = specs.resources(job, name)
                assert group.resources["runtime"] >= alone["runtime"] and group.resources["mem_mb"] >= alone["mem_mb"]
            assert group.outputs == {key: [p for m in group.params["members"] for p in _flat(m["output"][key])]
                                     for key in group.outputs}  # fmt: skip
    assert rules == 6 and sum(key[1] is None for key in jobs) == len(jobs)  # 2 tasks: 2 data and 2 score rules
    grown = copy.deepcopy(config)
    grown["threads"] = 2
    grown["datasets"]["DialEval1-DQ-A"]["gold"]["topics"] *= 100
    jobs = _jobs(grown)
    for job in GROUPED:
        rule = specs.units(job)[0][0]  # quantification first
        assert jobs[(rule, "DialEval1-DQ-A")].resources["threads"] == (2 if job in THREADED else 1)
        members = [member["params"]["dataset"] for member in jobs[(f"{rule}_group", None)].params["members"]]
        assert "DialEval1-DQ-A" not in members and members == [
            name for name in specs.units(job)[0][2] if name != "DialEval1-DQ-A"
        ]


def _flat(value):
    return [value] if isinstance(value, str) else list(value)


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
                declared = rf'threads: job_threads\("{job}"(, wildcard=True|, group=[^)]+)?\)'
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
