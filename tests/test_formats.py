"""A data format is one reader registered with its task: a toy format from a test folder (a plugin) is
taken by the configuration schema, 'ordeval validate' and 'ordeval score' with no other change."""

import json

import pytest
from conftest import REPO, built

from ordeval.cli import main
from ordeval.io.errors import ConfigError
from ordeval.tasks import get_task
from ordeval.workflow.config import schema_with_formats

PLUGIN = REPO / "tests" / "formats" / "toy_format.py"
GOLD = ["t1,0.2,0.2,0.2,0.2,0.2", "t2,0.1,0.2,0.4,0.2,0.1", "t3,0,0,0.5,0.5,0"]
RUN_A = ["t1,0.2,0.2,0.2,0.2,0.2", "t2,0.1,0.2,0.4,0.2,0.1", "t3,0,0,0.5,0.5,0"]
RUN_B = ["t1,0.5,0.5,0,0,0", "t2,0,0,0,0.5,0.5", "t3,1,0,0,0,0"]


@pytest.fixture(autouse=True)
def formats_as_they_were():
    """The registry is module state: the toy format is removed after each test (it is loaded again)."""
    from ordeval.tasks import plugins

    formats = get_task("quantification").formats
    before = dict(formats)
    yield
    formats.clear()
    formats.update(before)
    plugins._loaded.pop(str(PLUGIN.resolve()), None)


def _files(tmp_path):
    for name, lines in (("gold.csv", GOLD), ("a.csv", RUN_A), ("b.csv", RUN_B)):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return tmp_path / "gold.csv", tmp_path / "a.csv", tmp_path / "b.csv"


def test_the_schema_takes_every_registered_format_with_its_keys():
    definitions = schema_with_formats()["$defs"]
    assert {"semeval_dist", "ntcir_submission", "tsv"} <= set(definitions["run_source"]["properties"]["type"]["enum"])
    assert "ntcir_submission" not in definitions["gold_source"]["properties"]["type"]["enum"]
    clause = next(
        c for c in definitions["run_source"]["allOf"] if c["if"]["properties"]["type"] == {"const": "ntcir_submission"}
    )
    assert clause["then"]["required"] == ["path", "score", "name"]
    oc = next(
        c for c in definitions["oc_run_source"]["allOf"] if c["if"]["properties"]["type"] == {"const": "semeval_labels"}
    )
    assert oc["then"]["properties"]["align"]["default"] == "id"


def test_a_plugin_format_is_validated_and_scored_from_the_command_line(tmp_path, capsys):
    gold, run_a, run_b = _files(tmp_path)
    common = ["--plugins", str(PLUGIN), "--task", "quantification", "--format", "toy_csv"]
    assert main(["validate", *common, "--gold", str(gold), str(run_a), str(run_b), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 0 and [entry["role"] for entry in report["files"]] == ["gold", "run", "run"]
    assert all(entry["ok"] and entry["format"] == "toy_csv" for entry in report["files"])
    out = tmp_path / "out"
    status = main(
        [
            "score",
            *common,
            "--gold",
            str(gold),
            "--run",
            f"A={run_a}",
            "--run",
            f"B={run_b}",
            "--out",
            str(out),
            "--measures",
            "NMD,JSD",
            "--trials",
            "50",
        ]
    )
    assert status == 0, capsys.readouterr().err
    nmd = (out / "NMD.tsv").read_text().splitlines()
    assert nmd[0].split("\t") == ["topic", "A", "B"] and nmd[1].split("\t")[1] == "0.0"  # A equals the gold
    bad = tmp_path / "bad.csv"
    bad.write_text("t1,0.2,0.2\n")
    assert main(["validate", *common, str(bad)]) == 1
    assert "bad.csv:1: expected 6 fields, found 3" in capsys.readouterr().out


def test_a_plugin_format_in_a_configuration(tmp_path):
    from conftest import tiny_config

    from ordeval.workflow.plan import plan as make_plan

    gold, run_a, _ = _files(tmp_path)
    config = tiny_config(data_root=str(tmp_path), plugins=[str(PLUGIN)])
    config["datasets"] = {
        "Toy": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "toy_csv", "path": "gold.csv"},
            "runs": [{"type": "toy_csv", "path": "a.csv", "name": "A"}, {"type": "simulate", "systems": 4}],
        }
    }
    planned = make_plan(config, workdir=tmp_path)
    assert planned.datasets["Toy"].runs[0] == "A"
    data = built(get_task("quantification"), "Toy", planned.datasets["Toy"].spec, tmp_path, 7)
    assert data.run_names[0] == "A" and data.topics == ["t1", "t2", "t3"]
    config["datasets"]["Toy"]["runs"][0]["nonsense"] = 1  # a key the format does not take: one line
    with pytest.raises(Exception, match="nonsense"):
        make_plan(config, workdir=tmp_path)


def test_a_plugin_format_of_several_runs_is_planned_without_run_names(tmp_path):
    """A format registered with ``several_runs`` needs no ``name``: the planner takes the names from ``runs``
    where given, else from the data once read (as for a canonical table not written yet)."""
    from conftest import tiny_config

    from ordeval.tasks.quantification import register_format
    from ordeval.workflow.plan import plan as make_plan

    @register_format("toy_many", roles=("run",), several_runs=True, description="several runs")
    def read_many(path, classes, source):  # read only when the files' contents are checked (or built)
        raise AssertionError("not needed for the run names")

    gold, run_a, _ = _files(tmp_path)
    config = tiny_config(data_root=str(tmp_path), plugins=[str(PLUGIN)])
    config["datasets"] = {
        "Toy": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "toy_csv", "path": "gold.csv"},
            "runs": [{"type": "toy_many", "path": "a.csv"}, {"type": "simulate", "systems": 6}],
        }
    }
    planned = make_plan(config, workdir=tmp_path, check_files=False)
    assert "SIM01" in planned.datasets["Toy"].runs and len(planned.datasets["Toy"].runs) == 6
    config["datasets"]["Toy"]["runs"][0]["runs"] = ["X", "Y"]
    assert make_plan(config, workdir=tmp_path, check_files=False).datasets["Toy"].runs[:2] == ["X", "Y"]
    # the files' contents are read before any job (ordeval.workflow.source_check): a plugin reader's failure is one line
    with pytest.raises(ConfigError, match=r"datasets\.Toy: reading its files failed: AssertionError: not needed"):
        make_plan(config, workdir=tmp_path)
