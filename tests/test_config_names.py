"""Names in the configuration: a run name carrying LaTeX, paths that escape the results folder, names that
collide with outputs, and random names, which give a plan or a one-line configuration error (a property test)."""

from __future__ import annotations

import copy

import pytest
from conftest import tiny_config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from input_helpers import attempt

from ordeval.io.errors import ConfigError
from ordeval.io.names import name_problem
from ordeval.workflow.plan import plan as make_plan

INJECTION = "R1\n\\input{/etc/passwd}"


def rename_dataset(config: dict, old: str, new: str) -> None:
    config["datasets"] = {new if name == old else name: spec for name, spec in config["datasets"].items()}


def rename_run(config: dict, new: str) -> None:
    config["datasets"]["TinySem"]["runs"][0]["name"] = new


def test_a_run_name_carrying_latex_is_rejected_when_the_configuration_is_loaded():
    message = attempt(lambda c: rename_run(c, INJECTION))
    assert "datasets.TinySem.runs[0].name: 'R1\\n" in message and "control character" in message


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: c.update(name=".."), "name"),
        (lambda c: c.update(name="."), "name"),
        (lambda c: c.update(name="tiny\n"), "name"),
        (lambda c: c.update(name="a/b"), "name"),
        (lambda c: c.update(name="../x"), "name"),
        (lambda c: rename_dataset(c, "TinySem", ".."), "datasets"),
        (lambda c: rename_dataset(c, "TinySem", "."), "datasets"),
        (lambda c: rename_dataset(c, "TinySem", "TinySem\n"), "datasets"),
        (lambda c: rename_dataset(c, "TinySem", "a\\b"), "datasets"),
        (lambda c: rename_run(c, ".."), "datasets.TinySem.runs"),
        (lambda c: rename_run(c, "BL/positive"), "datasets.TinySem.runs"),
        (lambda c: rename_run(c, "BL-positive\n"), "datasets.TinySem.runs"),
    ],
)
def test_path_escapes_are_rejected_naming_the_key(change, key):
    message = attempt(change)
    assert key in message


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: rename_dataset(c, "TinySem", "all"), "datasets.all: data set 'all' is a reserved word"),
        (lambda c: rename_dataset(c, "TinySem", "ALL"), "reserved word"),
        (lambda c: rename_dataset(c, "TinySem", "mean"), "datasets.mean: data set 'mean' is a reserved word"),
        (lambda c: rename_dataset(c, "TinySem", "all_oc"), "starts like a summary output"),
        (lambda c: rename_run(c, "topic"), "datasets.TinySem.runs: run 'topic' is a reserved word"),
        (lambda c: rename_run(c, "mean"), "run 'mean' is a reserved word"),
        (lambda c: rename_run(c, "$x$"), "datasets.TinySem.runs: run '$x$' is not allowed"),
        (lambda c: c.update(name="all"), "name: configuration name 'all' is a reserved word"),
    ],
)
def test_names_that_collide_with_outputs_are_rejected(change, expected):
    assert expected in attempt(change)


NAME_CHARACTERS = st.characters(codec="utf-8", exclude_categories=("Cs",))


NAMES = st.one_of(
    st.text(NAME_CHARACTERS, max_size=12),
    st.sampled_from(["..", ".", "all", "ALL", "mean", "topic", "TOTAL", "a/b", "a\\b", "$x$", "x\n", "-a", "a" * 65]),
    st.builds(lambda a, b: a + b, st.text("abc.", min_size=1, max_size=3), st.sampled_from(["\n", "\x00", "/", " "])),
)


def _one_line_config_error(change) -> None:
    config = copy.deepcopy(tiny_config())
    change(config)
    try:
        make_plan(config, check_files=False)
    except ConfigError as error:
        message = str(error)
        assert message and "\n" not in message and "\r" not in message
        assert message.split(":")[0], message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, where=st.sampled_from(["name", "dataset", "run"]))
def test_random_names_give_a_plan_or_a_one_line_config_error(name, where):
    def change(config):
        if where == "name":
            config["name"] = name
        elif where == "dataset":
            rename_dataset(config, "TinySem", name)
        else:
            rename_run(config, name)

    _one_line_config_error(change)
    if name_problem(name, kind="run") is None and where != "dataset":
        assert all(character.isprintable() and not character.isspace() for character in name)
        assert name not in {".", ".."} and "/" not in name and "$" not in name
