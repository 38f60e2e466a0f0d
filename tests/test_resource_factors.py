"""The configuration's ``resources`` factors: every job's mem_mb and runtime (ordeval.workflow.resources' estimate
from the sizes of its data) times ``resources.memory`` and ``resources.runtime``, rounded up, threads unchanged;
bad factors are refused naming the key. (On a Slurm cluster: tests/workflow/test_slurm.py lowers the memory
factor so that jobs are killed for memory and retried with twice their request.)"""

import copy

import pytest
from conftest import REPO, tiny_config

from ordeval.io.errors import ConfigError
from ordeval.workflow.plan import plan as make_plan
from ordeval.workflow.resources import KINDS, Resources
from ordeval.workflow.resources import job_resources as cost


def _jobs(config) -> dict[tuple[str, str], Resources]:
    plan = make_plan(config, workdir=REPO)
    return {(kind, name): cost(plan, kind, name or None) for kind in KINDS for name in [*plan.datasets, ""]}


def test_the_factors_default_to_one_and_scale_every_job():
    config = tiny_config(classification=True)
    plain = _jobs(config)
    assert make_plan(config, workdir=REPO).config["resources"] == {"memory": 1, "runtime": 1}
    scaled = _jobs({**copy.deepcopy(config), "resources": {"memory": 0.25, "runtime": 3}})
    for key, base in plain.items():
        found = scaled[key]
        assert found.threads == base.threads, key
        assert found.mem_mb == -(-base.mem_mb // 4), key  # a quarter, rounded up to a whole MB
        assert found.runtime == 3 * base.runtime, key
    only_memory = _jobs({**copy.deepcopy(config), "resources": {"memory": 2}})
    assert all(only_memory[key].runtime == base.runtime for key, base in plain.items())


def test_scaling_rounds_up_to_whole_units_and_never_to_zero():
    assert Resources(2, 800, 5).scaled(0.1, 0.1) == Resources(2, 80, 1)  # 80, not 81 from 80.00000000000001
    assert Resources(1, 500, 5).scaled(0.001, 0.001) == Resources(1, 1, 1)
    assert Resources(1, 401, 7).scaled(0.5, 1.5) == Resources(1, 201, 11)


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ({"memory": 0}, "resources.memory"),
        ({"runtime": -1}, "resources.runtime"),
        ({"memory": "half"}, "resources.memory"),
        ({"memory": 1000}, "resources.memory"),
        ({"mem_mb": 2}, "resources"),
    ],
)
def test_bad_factors_are_refused_naming_the_key(section, key):
    config = {**tiny_config(), "resources": section}
    with pytest.raises(ConfigError) as error:
        make_plan(config, workdir=REPO, check_files=False)
    assert key in str(error.value)
