"""A measure's own report (ordeval.reports.measure_report, rule measure_report) from the pipeline's tables, the
configuration 'ordeval evaluate-measure' derives, and the 'properties' and 'topics' commands."""

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, tiny_config

from ordeval.cli import main
from ordeval.cli.evaluate import derived_config
from ordeval.io.table import Table, write_csv
from ordeval.properties import check_measure
from ordeval.reports.measure_report import build_report, html, latex, markdown
from ordeval.tasks.classification.measures import REGISTRY as OC
from ordeval.tasks.stack import ScoreStack, score_files, write_scores

MEASURES = ["alpha_ORD", "kappa", "MAE_M"]


@pytest.fixture(autouse=True)
def registries_as_they_were():
    """The registries are module state shared by every test: measures registered here are removed."""
    from ordeval.tasks import get_task

    registries = [get_task(task).registry for task in ("quantification", "classification")]
    before = [dict(registry._measures) for registry in registries]
    yield
    for registry, saved in zip(registries, before, strict=True):
        registry._measures.clear()
        registry._measures.update(saved)


def _tables(folder: Path) -> dict:
    """Tables as the analysis stages write them, for one data set D1 and three measures."""
    origins = {"D1": "synthetic"}
    agreement = Table(
        {
            "measure_a": ["alpha_ORD", "alpha_ORD", "kappa"],
            "measure_b": ["kappa", "MAE_M", "MAE_M"],
            "tau": [0.9, 0.5, 0.6],
            "ci_low": [0.8, 0.2, 0.3],
            "ci_high": [0.95, 0.7, 0.8],
        }
    )
    similarity = Table({"measure": MEASURES, "D1": [0.7, 0.75, 0.55], "mean": [0.7, 0.75, 0.55]})
    consistency = Table(
        {
            "measure": ["kappa", "alpha_ORD", "MAE_M"],
            "mean_tau": [0.9, 0.85, 0.8],
            "outperforms": ["alpha_ORD MAE_M", "MAE_M", ""],
            "ve2": [0.001] * 3,
            "trials": [100] * 3,
        }
    )
    power = Table(
        {
            "dataset": ["D1"] * 3 + ["POOLED"] * 3,
            "measure": MEASURES * 2,
            "significant": [5, 3, 4] * 2,
            "pairs": [10] * 6,
            "percent": [50.0, 30.0, 40.0] * 2,
        }
    )
    sizes = Table(
        {
            "measure": [m for m in MEASURES for _ in range(2)],
            "design": ["paired_t"] * 6,
            "alpha": [0.05] * 6,
            "power": [0.8] * 6,
            "mdd": [0.1, 0.2, 0.1, 0.2, 0.3, 0.6],
            "residual_variance": [0.01, 0.01, 0.02, 0.02, 0.1, 0.1],
            "topics": [30, 9, 50, 14, 40, 12],
            "runs": [2] * 6,
        }
    )
    files = {
        "agreement": {"D1": folder / "agreement.csv"},
        "similarity": folder / "similarity.csv",
        "consistency": {("D1", "half"): folder / "half.csv"},
        "power": folder / "power.csv",
        "topic_set_size": {"D1": folder / "tss.csv"},
    }
    write_csv(agreement, files["agreement"]["D1"], origins)
    write_csv(similarity, files["similarity"], origins)
    write_csv(consistency, files["consistency"][("D1", "half")], origins)
    write_csv(power, files["power"], {"D1": "synthetic", "POOLED": "synthetic"})
    write_csv(sizes, files["topic_set_size"]["D1"], origins)
    return files


def test_the_report_picks_the_measures_rows_and_ranks_from_the_tables(tmp_path):
    report = build_report(OC["kappa"], _tables(tmp_path), check_measure(OC["kappa"], trials=200))
    sections = {section.title: section for section in report.sections}
    assert report.direction == "higher is better" and "kappa" in report.formula
    agreement = sections["Ranking agreement"].rows
    assert [row[1] for row in agreement] == ["alpha_ORD", "MAE_M"]  # every other measure, once
    assert agreement[0][2:4] == ["0.900", "[0.800, 0.950]"] and agreement[0][-1] == "synthetic"
    assert sections["Average similarity"].rows[0][:3] == ["D1", "0.750", "1/3"]
    consistency = sections["System ranking consistency"].rows[0]
    assert consistency[3:6] == ["1/3", "2", "none"]  # the most consistent, beats two, beaten by none
    power = sections["Discriminative power"].rows
    assert power[0][:4] == ["D1", "30.0", "3/10", "3/3"] and power[1][0] == "POOLED"
    sizes = sections["Topic set size"].rows
    assert [row[2:4] for row in sizes] == [["50", "3/3"], ["14", "3/3"]]  # ranked at the same fraction
    verdicts = {row[0]: row[1] for row in sections["Properties (computed)"].rows}
    assert verdicts["handles_constant"] == "violated"  # kappa: the paper's Table 4, column (II)


def test_the_layouts_escape_what_they_show(tmp_path):
    report = build_report(OC["MAE_M"], _tables(tmp_path), check_measure(OC["MAE_M"], trials=200))
    report.sections[1].rows[0][1] = "<b>|x&"
    assert "<b>" not in html(report) and "&lt;b&gt;|x&amp;" in html(report)
    assert "\\|x&" in markdown(report)
    source = latex(report)
    assert source.count(r"\begin{longtable}") == len(report.sections) and r"\&" in source


def test_the_derived_configuration_adds_the_plugin_and_keeps_the_base_results_apart():
    base = tiny_config(classification=True)
    config = derived_config(base, Path("/p/my_measure.py"), {"MSE_M": "classification"})
    assert config["name"] == "tiny-my_measure" and config["plugins"] == ["/p/my_measure.py"]
    assert config["measure_reports"] == ["MSE_M"] and config["measures"][-1] == "MSE_M"
    assert list(config["datasets"]) == ["TinyOC"]  # the data sets of the measure's task only
    assert base["name"] == "tiny" and "MSE_M" not in base["measures"]  # the base is not changed


def test_properties_command_reproduces_table_4_and_catches_a_wrong_declaration(tmp_path, capsys):
    assert main(["properties", "--measure", "kappa", "--measure", "MAE_mu", "--trials", "300", "--format", "json"]) == 0
    rows = {(row["measure"], row["property"]): row["holds"] for row in json.loads(capsys.readouterr().out)}
    assert rows[("kappa", "handles_constant")] is False and rows[("kappa", "ordinal")] is True
    assert rows[("MAE_mu", "handles_imbalance")] is False
    plugin = tmp_path / "wrong.py"
    plugin.write_text(
        "from ordeval.tasks.classification import register\n"
        "from ordeval.tasks.classification.measures import REGISTRY\n"
        "@register('ACC_WRONG', display='AccW', description='accuracy, declared ordinal', lower_is_better=False,\n"
        "          ordinal=True, handles_constant=True, handles_imbalance=False)\n"
        "def accuracy_wrong(confusion):\n"
        "    return REGISTRY['Accuracy'](confusion)\n"
    )
    status = main(["properties", "--measure", "ACC_WRONG", "--trials", "300", "--plugins", str(plugin)])
    captured = capsys.readouterr()
    assert status == 1 and "declared flag contradicted" in captured.err and "ordinal" in captured.err


def test_topics_command_on_a_scores_folder(tmp_path, capsys):
    rng = np.random.default_rng(3)
    values = rng.normal(0.5, 0.1, size=(2, 40, 6)) + np.linspace(0, 0.2, 6)
    stack = ScoreStack(["NMD", "JSD"], [f"t{i}" for i in range(40)], [f"R{i}" for i in range(6)], values, [True, True])
    write_scores(stack, score_files(stack, tmp_path))
    assert main(["topics", str(tmp_path), "--mdd", "0.05", "--design", "paired_t", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["measure"] for row in rows] == ["NMD", "JSD"] and all(row["topics"] > 2 for row in rows)
    assert main(["topics", str(tmp_path), "--alpha", "nan"]) == 2


@pytest.mark.parametrize("name", ["my_measure.py"])
def test_the_example_plugin_registers_one_measure_per_task(name):
    import runpy

    namespace = runpy.run_path(str(REPO / "examples" / name))
    estimate, gold = np.array([0.2] * 5), np.array([0.1, 0.2, 0.3, 0.2, 0.2])
    assert namespace["root_normalised_cumulative_squared_difference"](estimate, gold) == pytest.approx(
        np.sqrt((0.01 + 0.01 + 0.0 + 0.0) / 4)
    )
    confusion = np.zeros((5, 5))
    confusion[0, 2] = 2  # two items of gold class 2 put in class 0: squared distance 4
    confusion[2, 2] = 2
    assert namespace["macro_mean_squared_error"](confusion) == pytest.approx(2.0)
