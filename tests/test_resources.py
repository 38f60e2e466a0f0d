"""Every job declares threads and resources (mem_mb, runtime in minutes) for a scheduler, computed from the
kind of work of its rule and the size of its data set (or of every data set, for a job that gathers them) by
ordeval.workflow.resources, and they grow with that size; every rule of the Snakefile uses them."""

import copy
import re

import pytest
from conftest import REPO, tiny_config

from ordeval.workflow.config import load
from ordeval.workflow.plan import plan as make_plan
from ordeval.workflow.resources import KINDS, DataSize, estimate, job_resources

KEYS = {"threads", "mem_mb", "runtime"}


def _jobs(config) -> dict[tuple[str, str], dict[str, int]]:
    """{(kind, data set): its threads, mem_mb and runtime} of a job of every kind on every data set, and over
    every data set (data set "")."""
    plan = make_plan(config, workdir=REPO)
    found = {}
    for kind in KINDS:
        for name in [*plan.datasets, ""]:
            found[(kind, name)] = job_resources(plan, kind, name or None).as_dict()
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
    for key, found in small.items():
        assert set(found) == KEYS, key
        assert all(isinstance(value, int) and value >= 1 for value in found.values()), key
        assert found["mem_mb"] >= 400 and found["runtime"] >= 5, key


def test_only_the_kernels_and_scoring_use_the_configured_threads_and_only_on_large_data():
    config = tiny_config(classification=True)
    config["threads"] = 4
    assert all(found["threads"] == 1 for found in _jobs(config).values())  # tiny: start-up dominates
    grown = _jobs(_grown(config, topics=3000, runs=40))
    threaded = {kind for (kind, _), found in grown.items() if found["threads"] == 4}
    assert threaded == {"taus", "hsd", "score"}
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
        if any(after[name] > before[name] for name in KEYS):  # more memory, time or threads
            grew.append(key)
    heavy = {
        "topics": {"score", "taus", "hsd", "popularity"},
        "runs": {"score", "taus", "hsd"},
        "trials": {"taus", "hsd"},
    }[next(iter(growth))]
    assert heavy <= {kind for kind, name in grew if name == "STC3-DQ-A"}  # per data set (the largest)
    assert heavy | ({"figures"} if "topics" in growth else set()) <= {kind for kind, name in grew if not name}


def test_the_cost_model_at_scale():
    """1,000 runs x 300 topics x 13 measures x 1,000 trials: chunked taus stay bounded in memory; 30,000
    topics x 20 runs scoring asks for more than the default data sets but well under a node."""
    settings = {"consistency_trials": 1000, "consistency_hsd_trials": 5000, "conditions": 2}
    taus = estimate("taus", [DataSize(300, 1000, 13, 5)], settings, threads=8)
    assert taus.threads == 8 and taus.mem_mb <= 4000
    small = estimate("taus", [DataSize(300, 20, 13, 5)], settings, threads=8)
    assert taus.runtime > small.runtime
    scoring = estimate("score", [DataSize(30000, 20, 13, 5)])
    assert 1000 <= scoring.mem_mb <= 8000 and scoring.threads == 1  # one configured thread
    assert estimate("score", [DataSize(30000, 20, 13, 5)], threads=2).threads == 2
    assert estimate("score", [DataSize(300, 20, 13, 5)], threads=2).threads == 1
    with pytest.raises(ValueError, match="unknown kind of work 'score_runs'"):
        estimate("score_runs", [DataSize(300, 20, 13, 5)])


def test_every_rule_declares_its_kind_of_work_and_only_the_targets_are_local():
    """The .smk files: every rule that runs a script declares ``threads: threads("<kind>")``,
    ``mem_mb=mem_mb("<kind>")`` and ``runtime=runtime("<kind>")`` of one kind of ordeval.workflow.resources.KINDS,
    and a log; the target rules (and rule score_table, a few milliseconds in the Snakemake process) are local
    rules."""
    local = _local_rules()
    kinds = set()
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text()
        for block in re.split(r"\nrule (?=\w+:)", text)[1:]:
            if "script:" in block:
                kind = re.search(r'threads: threads\("(\w+)"\)', block).group(1)
                assert f'mem_mb=mem_mb("{kind}")' in block and kind in KINDS, (path.name, block[:60])
                assert f'runtime=runtime("{kind}")' in block, (path.name, block[:60])
                assert "log:" in block, (path.name, block[:60])
                kinds.add(kind)
            else:
                name = re.match(r"\s*(\w+):", block).group(1)
                assert name in local, (path.name, name)
    assert kinds == set(KINDS)


def _local_rules() -> set[str]:
    block = (REPO / "Snakefile").read_text().split("localrules:", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"\w+", block))


def test_the_longest_chains_come_first():
    """Priorities, declared by the rules themselves: the data and scores of every data set first (Snakemake
    ranks only the ready jobs), then the significance tests and the leaderboards they gate, the consistency
    taus and the topic set size tables, then the figures; every other rule 0."""
    declared = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"\nrule (?=\w+:)", path.read_text())[1:]:
            found = re.search(r"priority: (\d+)", block)
            if found:
                declared[re.search(r'scripts/(\w+)\.py"', block).group(1)] = int(found.group(1))
    assert declared["prepare_data"] == declared["score_runs"] == 4
    assert declared["significance_pvalues"] == declared["leaderboard_tables"] == 3
    assert declared["significance_pvalues"] > declared["consistency_taus"] > declared["dataset_figures"] > 0
