"""Values the schema let through (issue 54, item 3).

Classes: integers written as floats (JSON Schema counts 6.0 as an integer; the code that counts systems,
topics or trials cannot), names the policy refuses or files cannot take (``+`` refused with a raw regular
expression; Windows device names and a trailing dot accepted; braces that Snakemake reads as wildcards), and
numbers at the edge of what the statistics can take (a minimum difference of 1e300, alpha 1e-250, scores of
1e200). Each is refused in one line naming the key, the file or the value, before any job, or works."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from conftest import tiny_config

from ordeval.io.errors import ConfigError, InputError
from ordeval.workflow.config import schema_with_formats, validate
from ordeval.workflow.plan import plan


def _integer_keys(schema: dict) -> set[str]:
    """The names of every property the schema (with the tasks' sections) types as an integer."""
    found = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for name, child in (node.get("properties") or {}).items():
                if isinstance(child, dict) and child.get("type") == "integer":
                    found.add(name)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


# (where in the tiny configuration, the key): every integer key of the schema a tiny configuration can hold
CASES = {
    "seed": lambda c: c,
    "threads": lambda c: c,
    "trials": lambda c: c["consistency"],
    "subset_size": lambda c: c["consistency"],
    "hsd_trials": lambda c: c["significance"],
    "topics": lambda c: c["datasets"]["TinySem"]["gold"],
    "tweets_min": lambda c: c["datasets"]["TinySem"]["gold"],
    "tweets_max": lambda c: c["datasets"]["TinySem"]["gold"],
    "annotators": lambda c: c["datasets"]["TinyDQ"]["gold"],
    "systems": lambda c: c["datasets"]["TinySem"]["runs"][1],
    "english_variants": lambda c: c["datasets"]["TinyDQ"]["runs"][2],
    "items_min": lambda c: c["datasets"]["TinyOC"]["gold"],
    "items_max": lambda c: c["datasets"]["TinyOC"]["gold"],
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_an_integer_written_as_a_float_is_refused_naming_the_key(key):
    config = tiny_config(classification=True)
    place = CASES[key](config)
    place[key] = float(place.get(key, {"tweets_min": 20, "tweets_max": 40, "items_max": 60}.get(key, 4)))
    with pytest.raises(ConfigError, match=rf"^config key (\S+\.)?{key}: [\d.]+ is not of type 'integer'$"):
        plan(config, workdir=".", check_files=False)


def test_every_integer_of_the_schema_refuses_a_float():
    """Not only the keys above: the validator's integer is strict for every key the schema types so."""
    from ordeval.workflow.config import _validator_class

    schema = schema_with_formats()
    assert {"systems", "topics", "annotators", "trials", "hsd_trials", "seed", "dp_significant"} <= _integer_keys(
        schema
    )
    checker = _validator_class()(schema).TYPE_CHECKER
    assert (
        checker.is_type(6, "integer") and not checker.is_type(6.0, "integer") and not checker.is_type(True, "integer")
    )
    assert checker.is_type(6.0, "number")


def test_integers_stay_integers_and_floats_floats():
    config = validate(tiny_config())
    assert isinstance(config["consistency"]["trials"], int) and isinstance(config["popularity"]["tie_tolerance"], float)


# --------------------------------------------------------------------------- names


def _renamed(config: dict, old: str, new: str) -> dict:
    config["datasets"] = {(new if name == old else name): spec for name, spec in config["datasets"].items()}
    return config


def test_plus_is_allowed_in_the_configuration_and_data_set_names():
    config = _renamed(tiny_config(name="ti+ny"), "TinySem", "Tiny+Sem")
    planned = plan(config, workdir=".", check_files=False)
    assert planned.config["name"] == "ti+ny" and "Tiny+Sem" in planned.datasets


@pytest.mark.parametrize("name", ["COM1", "lpt9", "con.x", "Nul", "aux.tsv", "PRN"])
def test_windows_device_names_are_refused_wherever_a_name_is_given(name):
    device = "is a device name on Windows"
    for change, key in [
        (lambda c: c.update(name=name), "config key name"),
        (lambda c: _renamed(c, "TinySem", name), f"config key datasets.{name}"),
        (lambda c: c["datasets"]["TinySem"]["runs"][0].update(name=name), "datasets.TinySem.runs"),
    ]:
        config = tiny_config()
        change(config)
        with pytest.raises(ConfigError, match=rf"^{key}: .*{name!r} {device}"):
            plan(config, workdir=".", check_files=False)


def test_a_name_ending_with_a_dot_is_refused():
    with pytest.raises(ConfigError, match=r"^config key datasets.TinySem.: data set 'TinySem.' ends with '.'"):
        plan(_renamed(tiny_config(), "TinySem", "TinySem."), workdir=".", check_files=False)


def test_a_plugin_measure_follows_the_name_policy():
    from ordeval.tasks import get_task

    registry = get_task("quantification").registry
    for name, problem in [("COM3", "device name on Windows"), ("topic", "reserved word")]:
        with pytest.raises(ValueError, match=problem):
            registry.register(name)(lambda estimate, gold: estimate.sum(axis=-1))
    assert "COM3" not in registry.names()


def test_braces_in_an_input_path_or_the_project_folder_are_refused_when_planned(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "gold{1}.tsv").write_text("topic\tclass\tprob\nt1\t-2\t1\n")
    (data / "runs.tsv").write_text("topic\trun\tclass\tprob\nt1\tA\t-2\t1\n")
    config = tiny_config(data_root=str(data))
    config["datasets"] = {
        "F": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "tsv", "path": "gold{1}.tsv"},
            "runs": [{"type": "tsv", "path": "runs.tsv"}, {"type": "simulate", "systems": 5}],
        }
    }
    with pytest.raises(
        ConfigError, match=r"^config key datasets.F.gold.path: .*gold\{1\}.tsv: '\{' or '\}' in the path"
    ):
        plan(copy.deepcopy(config), workdir=tmp_path)
    project = tmp_path / "a{b}"
    project.mkdir()
    with pytest.raises(ConfigError, match=r"^the project folder .*a\{b\} has '\{' or '\}' in its path"):
        plan(tiny_config(), workdir=project, check_files=False)


# --------------------------------------------------------------------------- numbers at the edges


def _scores_folder(folder, values):
    from ordeval.tasks.stack import ScoreStack, score_files, write_scores

    stack = ScoreStack(["NMD"], [f"t{i}" for i in range(len(values))], ["A", "B", "C"], np.array([values]))
    write_scores(stack, score_files(stack, folder))
    return folder


def test_topic_set_size_at_extreme_differences_and_levels(tmp_path, capsys):
    from ordeval.cli import main

    folder = _scores_folder(tmp_path / "s", [[0.1, 0.2, 0.4], [0.3, 0.2, 0.5], [0.2, 0.25, 0.3], [0.6, 0.5, 0.7]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy RuntimeWarning leaks
        assert main(["topics", str(folder), "--mdd", "1e300", "--json"]) == 0
        huge = __import__("json").loads(capsys.readouterr().out)
        assert main(["topics", str(folder), "--alpha", "1e-250", "--design", "paired_t", "--json"]) == 0
        tiny = __import__("json").loads(capsys.readouterr().out)
    assert {row["topics"] for row in huge} == {2}
    assert all(1000 < row["topics"] < 10**8 for row in tiny)


def test_the_quantiles_below_1e_6_agree_with_scipy_where_scipy_is_exact():
    from scipy import special

    from ordeval.stats.topic_set_size import _f_isf, _t_isf

    for df in (3, 10, 99):
        assert _t_isf(1e-7, df) == pytest.approx(-special.stdtrit(df, 1e-7), rel=1e-9)
        assert _f_isf(1e-7, 2, df) == pytest.approx(special.fdtri(2, df, 1 - 1e-7), rel=1e-6)
    assert np.isfinite(_t_isf(5e-251, 3)) and _t_isf(5e-251, 3) > 1e80


@pytest.mark.parametrize("command", ["leaderboard", "topics"])
def test_scores_beyond_what_the_statistics_can_square_are_refused_at_their_line(tmp_path, capsys, command):
    from ordeval.cli import main

    folder = _scores_folder(tmp_path / "s", [[0.1, 0.2, 0.3], [0.2, 0.1, 0.3]])
    table = folder / "NMD.tsv"
    table.write_text(table.read_text().replace("0.1\t", "1e200\t", 1))
    arguments = ["--out", str(tmp_path / "out"), "--trials", "20"] if command == "leaderboard" else []
    assert main([command, str(folder), *arguments]) == 2
    err = capsys.readouterr().err
    assert f"{table}:2: score of run 'A' '1e200' is out of range (at most 1e+100)" in err


def test_the_library_refuses_scores_it_cannot_square():
    from ordeval.analysis.leaderboard import check_means
    from ordeval.stats.topic_set_size import residual_variance

    scores = np.array([[1e200, 0.1], [-1e200, 0.2]])
    with pytest.raises(ValueError, match="run 'A' has a score beyond 1e\\+100"):
        check_means(scores, ["A", "B"], "M")
    with pytest.raises(ValueError, match="beyond 1e\\+100 in magnitude"):
        residual_variance(scores)


def test_a_measure_giving_scores_beyond_the_limit_is_named(tmp_path):
    from ordeval.tasks.quantification.measures import REGISTRY
    from ordeval.tasks.registry import checked_scores

    with pytest.raises(InputError, match=r"gave 1e\+200 for run 'A' on topic 't1' of data set 'X', beyond 1e\+100"):
        checked_scores(REGISTRY["NMD"], np.array([[1e200]]), ["A"], ["t1"], "X")
