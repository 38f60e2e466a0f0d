"""``ordeval score`` / ``leaderboard`` / ``validate`` as an organiser uses them: the pooled protocol, one run,
organiser baselines, standard input, standard output (leaderboard, per-topic scores, JSON), plugins, where
the leaderboard goes and the data origin it keeps, a wrong --format."""

from __future__ import annotations

import csv
import io
import json
import sys

import numpy as np
import pytest
from cli_helpers import one_error_line
from conftest import PLUGIN_TEMPLATE

import ordeval
from ordeval.analysis.pooled import pooled_scores
from ordeval.cli import main
from ordeval.tasks.classification import measures as oc
from ordeval.tasks.quantification import baselines

CLASSES = [-2, -1, 0, 1, 2]


@pytest.fixture
def labels(tmp_path):
    """A SemEval-style OC data set: gold.txt in a folder named after it, three runs of falling quality."""
    rng = np.random.default_rng(5)
    items = 480
    topics = [f"t{i % 8}" for i in range(items)]
    gold = rng.integers(-2, 3, items)
    folder = tmp_path / "Sem16"
    folder.mkdir()
    (folder / "gold.txt").write_text("".join(f"i{i}\t{topics[i]}\t{gold[i]}\n" for i in range(items)))
    runs = {}
    for index, error in enumerate([0.05, 0.15, 0.9]):
        labels = np.where(rng.random(items) < error, rng.integers(-2, 3, items), gold)
        runs[f"R{index}"] = tmp_path / f"R{index}.txt"
        runs[f"R{index}"].write_text("".join(f"i{i}\t{topics[i]}\t{labels[i]}\n" for i in range(items)))
    return folder / "gold.txt", runs, gold


def _args(gold, runs, out, *extra):
    args = ["score", "--task", "classification", "--format", "semeval_labels", "--gold", str(gold), "--out", str(out)]
    for name, path in runs.items():
        args += ["--run", f"{name}={path}"]
    return [*args, "--trials", "300", "--seed", "1", "--threads", "1", "--measures", "MAE_M,Accuracy", *extra]


def _csv(path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_pooled_protocol_ranks_by_one_confusion_matrix_with_randomisation_test_groups(labels, tmp_path, capsys):
    gold_path, runs, gold = labels
    out = tmp_path / "pooled"
    assert main(_args(gold_path, runs, out, "--protocol", "pooled")) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# Leaderboard: Sem16")  # named after the gold's folder, not "gold"
    assert "pooled protocol: each measure on one confusion matrix over all 480 items" in printed
    assert "paired randomisation test" in printed
    board = _csv(out / "leaderboard.csv")
    predictions = np.stack([np.loadtxt(path, dtype=str)[:, 2].astype(int) + 2 for path in runs.values()])
    expected = pooled_scores(gold + 2, predictions, 5, [oc.REGISTRY["MAE_M"]])[0]
    mae = {row["run"]: row for row in board if row["measure"] == "MAE_M"}
    for index, name in enumerate(runs):
        assert float(mae[name]["mean"]) == pytest.approx(expected[index])
        assert mae[name]["ci_low"] == ""  # no interval under the pooled protocol
    pooled = {row["run"]: float(row["MAE_M"]) for row in _csv_tab(out / "pooled.tsv")}
    assert pooled == pytest.approx(dict(zip(runs, expected, strict=True)))
    assert mae["R0"]["group"] != mae["R2"]["group"] and not set(mae["R0"]["group"]) & set(mae["R2"]["group"])
    per_topic = tmp_path / "per-topic"
    assert main(_args(gold_path, runs, per_topic)) == 0
    assert "per-topic protocol: mean over 8 topics" in capsys.readouterr().out


def _csv_tab(path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")), delimiter="\t"))


def test_pooled_protocol_is_for_classification_only(tmp_path, capsys):
    gold = tmp_path / "gold.txt"
    gold.write_text("t1\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    args = [
        "score",
        "--task",
        "quantification",
        "--format",
        "semeval_dist",
        "--gold",
        str(gold),
        "--run",
        f"A={gold}",
        "--protocol",
        "pooled",
        "--out",
        str(tmp_path / "out"),
    ]
    assert main(args) == 2
    assert "--protocol pooled: quantification has no pooled scores" in one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_one_run_and_classification_baselines(labels, tmp_path, capsys):
    gold_path, runs, gold = labels
    out = tmp_path / "one"
    assert main(_args(gold_path, {"R0": runs["R0"]}, out, "--baseline", "constant:1", "--baseline", "constant:0")) == 0
    printed = capsys.readouterr().out
    assert "| BL-positive |" in printed and "| BL-neutral |" in printed
    board = _csv(out / "leaderboard.csv")
    assert {row["run"] for row in board} == {"R0", "BL-positive", "BL-neutral"}
    accuracy = {row["run"]: float(row["mean"]) for row in board if row["measure"] == "Accuracy"}
    topics = np.loadtxt(gold_path, dtype=str)[:, 1]
    shares = [np.mean(gold[topics == topic] == 1) for topic in sorted(set(topics))]
    assert accuracy["BL-positive"] == pytest.approx(np.mean(shares))
    alone = tmp_path / "alone"
    assert main(_args(gold_path, {"R0": runs["R0"]}, alone)) == 0
    assert "no significance groups (a single run (R0)" in capsys.readouterr().out
    assert {row["group"] for row in _csv(alone / "leaderboard.csv")} == {""}
    assert main(_args(gold_path, {}, tmp_path / "x", "--baseline", "uniform")) == 2
    assert "classification baselines are constant:<class>" in one_error_line(capsys.readouterr().err)
    assert main(_args(gold_path, {}, tmp_path / "x", "--baseline", "constant:7")) == 2
    assert "'7' is not one of the classes" in one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "x").exists()


def test_quantification_baselines_from_the_gold_alone(tmp_path, capsys):
    rng = np.random.default_rng(2)
    gold = rng.dirichlet(np.ones(5), 6)
    path = tmp_path / "gold.txt"
    path.write_text("".join("\t".join([f"t{i}", *map(repr, row.tolist())]) + "\n" for i, row in enumerate(gold)))
    args = [
        "score",
        "--task",
        "quantification",
        "--format",
        "semeval_dist",
        "--gold",
        str(path),
        "--out",
        str(tmp_path / "out"),
        "--measures",
        "NMD",
        "--trials",
        "100",
        "--json",
    ]
    for kind in ("uniform", "popularity", "constant:-2"):
        args += ["--baseline", kind]
    assert main(args) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["runs"] == ["BL-uniform", "BL-popularity", "BL-highly-negative"]
    frame = ordeval.score(
        gold,
        {"u": baselines.uniform(gold), "p": baselines.popularity(gold), "c": baselines.constant_class(gold, 0)},
        measures=["NMD"],
    )
    means = frame.groupby("run", sort=False)["score"].mean()
    assert document["means"]["NMD"] == pytest.approx(dict(zip(document["runs"], means.to_numpy(), strict=True)))
    assert document["leaderboard"]["protocol"] == "per-topic"


def test_standard_input_per_topic_output_and_json(labels, tmp_path, monkeypatch, capsys):
    gold_path, runs, _ = labels
    assert main(_args(gold_path, runs, tmp_path / "files", "--per-topic", "--measures", "MAE_M")) == 0
    from_files = capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(runs["R1"].read_bytes())))
    piped = {**runs, "R1": "-"}
    assert main(_args(gold_path, piped, tmp_path / "stdin", "--per-topic", "--measures", "MAE_M")) == 0
    assert capsys.readouterr().out == from_files
    lines = [line.split("\t") for line in from_files.splitlines()]
    assert len(lines) == 3 * (8 + 1) and lines[0][:3] == ["R0", "MAE_M", "t0"] and lines[8][2] == "all"
    matrix = _csv_tab(tmp_path / "files" / "MAE_M.tsv")
    assert lines[0][3] == f"{float(matrix[0]['R0']):.15g}"  # 15 significant digits; the file has every digit
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"i0\tt0\t9\n")))
    assert main(_args(gold_path, {"R0": runs["R0"], "X": "-"}, tmp_path / "bad")) == 2
    assert one_error_line(capsys.readouterr().err).startswith("ordeval: error: <stdin>:1:")
    assert main(_args(gold_path, runs, tmp_path / "json", "--json")) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["dataset"] == "Sem16" and document["leaderboard"]["protocol"] == "per-topic"
    rows = document["leaderboard"]["measures"][0]["rows"]
    assert [row["run"] for row in rows] == ["R0", "R1", "R2"] and all(row["group"] for row in rows)
    assert (
        main(
            [
                "leaderboard",
                str(tmp_path / "json"),
                "--out",
                str(tmp_path / "board"),
                "--json",
                "--trials",
                "300",
                "--seed",
                "1",
                "--threads",
                "1",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["leaderboard"]["measures"][0]["rows"] == rows


def test_validate_json_and_a_wrong_format_is_one_line_with_a_guess(labels, capsys):
    gold_path, runs, _ = labels
    args = ["validate", str(runs["R0"]), "--task", "classification", "--format", "semeval_labels", "--gold"]
    assert main([*args, str(gold_path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["problems"] == 0 and [entry["role"] for entry in document["files"]] == ["gold", "run"]
    assert main(["validate", str(gold_path), "--task", "quantification", "--format", "semeval_dist"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "not a semeval_dist file" in line and "it looks like semeval_labels (--format semeval_labels)" in line
    args = ["score", "--task", "classification", "--format", "tsv", "--gold", str(gold_path), "--run", str(runs["R0"])]
    assert main(args) == 2
    assert "looks like semeval_labels" in one_error_line(capsys.readouterr().err)


@pytest.fixture
def clean_registry():
    """The quantification registry and the loaded plugins as they were before the test."""
    from ordeval.tasks import get_task, plugins

    registry = get_task("quantification").registry
    measures, loaded = dict(registry._measures), dict(plugins._loaded)
    yield
    registry._measures.clear()
    registry._measures.update(measures)
    plugins._loaded.clear()
    plugins._loaded.update(loaded)


def test_plugins_on_measures_score_and_leaderboard(tmp_path, capsys, clean_registry):
    plugin = tmp_path / "cli_plugin.py"
    plugin.write_text(PLUGIN_TEMPLATE.format(low="CLIMAXDIFF", high="CLIOVERLAP"))
    assert main(["measures", "--task", "quantification", "--plugins", str(plugin)]) == 0
    assert "CLIMAXDIFF" in capsys.readouterr().out
    gold = np.random.default_rng(1).dirichlet(np.ones(5), 4)
    path = tmp_path / "gold.txt"
    path.write_text("".join("\t".join([f"t{i}", *map(repr, row.tolist())]) + "\n" for i, row in enumerate(gold)))
    args = [
        "score",
        "--task",
        "quantification",
        "--format",
        "semeval_dist",
        "--gold",
        str(path),
        "--baseline",
        "uniform",
        "--baseline",
        "popularity",
        "--measures",
        "CLIOVERLAP",
        "--out",
        str(tmp_path / "o"),
        "--plugins",
        str(plugin),
        "--trials",
        "50",
    ]
    assert main(args) == 0
    assert "CLIOVERLAP" in capsys.readouterr().out and (tmp_path / "o" / "CLIOVERLAP.tsv").is_file()
    assert (
        main(
            [
                "leaderboard",
                str(tmp_path / "o"),
                "--plugins",
                str(plugin),
                "--out",
                str(tmp_path / "b"),
                "--trials",
                "50",
            ]
        )
        == 0
    )
    assert "(higher is better)" in capsys.readouterr().out
    assert main(["measures", "--plugins", str(tmp_path / "missing.py")]) == 2
    assert "missing.py" in one_error_line(capsys.readouterr().err)


def test_leaderboard_goes_to_out_or_here_never_into_the_pipeline_results_and_keeps_the_origin(
    labels, tmp_path, monkeypatch, capsys
):
    gold_path, runs, _ = labels
    results = tmp_path / "results" / "demo"
    scores = results / "scores" / "Sem16"
    assert main(_args(gold_path, runs, scores)) == 0
    (results / "data" / "Sem16").mkdir(parents=True)
    (results / "data" / "Sem16" / "provenance.json").write_text(json.dumps({"origin": "real"}))
    capsys.readouterr()
    before = sorted(path.name for path in scores.iterdir())
    for out in (str(scores), str(results / "tables")):
        assert main(["leaderboard", str(scores), "--out", out]) == 2
        assert "write the leaderboard elsewhere" in one_error_line(capsys.readouterr().err)
    monkeypatch.chdir(scores)  # the default (here) is the scores folder: refused
    assert main(["leaderboard", str(scores)]) == 2
    capsys.readouterr()
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main(["leaderboard", str(scores), "--trials", "100"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# Leaderboard: Sem16") and "Real data: official gold" in printed
    assert {row["data_origin"] for row in _csv(here / "leaderboard.csv")} == {"real"}
    assert sorted(path.name for path in scores.iterdir()) == before
    assert main(["leaderboard", str(scores), "--protocol", "pooled", "--out", str(tmp_path / "pooled")]) == 0
    printed = capsys.readouterr().out
    assert "pooled protocol" in printed and "no significance groups (the item labels" in printed


# --------------------------------------------------------------------------- the official SemEval-2016 tables


def _official_runs(subtask: str) -> tuple[list[str], dict[str, str]]:
    """``--run NAME=FILE`` arguments for the official runs of SemEval-2016 Task 4 subtask C or E (team names as in
    the official results; the organisers' ``_baseline`` runs named BL-...), and {our name: the official name}."""
    from conftest import shared_file

    folder = shared_file(f"Sem16T4CE/official/runs/{subtask}/ECNU-{subtask}.output").parent
    names = {
        "_baseline-majority-0": "BL-majority",
        "_baseline-0-0-0-1-0": "BL-positive",
        "_baseline-average-on-train+dev+devtest": "BL-average",
    }
    arguments, official = [], {}
    for path in sorted(folder.glob(f"*-{subtask}.output")):
        stem = path.name.removesuffix(f"-{subtask}.output")
        name = names.get(stem, stem)
        arguments += ["--run", f"{name}={path}"]
        official[name] = "_baseline" if stem.startswith("_") else stem
    return arguments, official


def _official_table(subtask: str) -> list[list[str]]:
    from conftest import shared_file

    text = shared_file(f"Sem16T4CE/official/results/results-{subtask}.txt").read_text(encoding="utf-8")
    return [line.rstrip("\t").split("\t") for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("subtask", "options"),
    [
        (
            "C",
            [
                "--task",
                "classification",
                "--format",
                "semeval_labels",
                "--align",
                "position",
                "--protocol",
                "pooled",
                "--measures",
                "MAE_M,MAE_mu",
            ],
        ),
        ("E", ["--task", "quantification", "--format", "semeval_dist", "--measures", "EMD"]),
    ],
)
def test_score_table_prints_the_official_semeval_2016_results(subtask, options, tmp_path, capsys):
    """``ordeval score --table`` on every official run of SemEval-2016 Task 4 subtask C (pooled MAE^M, MAE^mu)
    and E (EMD, mean over topics) prints the official results table: the same runs in the same order, the same
    numbers at 3 decimals (Nakov et al. 2016; the organisers' results files)."""
    from conftest import shared_file

    runs, official = _official_runs(subtask)
    gold = shared_file(f"Sem16T4CE/official/gold/SemEval2016_task4_subtask{subtask}_test_gold.txt")
    code = main(
        ["score", *options, "--gold", str(gold), *runs, "--table", "--no-leaderboard", "--out", str(tmp_path / "out")]
    )
    assert code == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == ["run", *options[-1].split(",")]
    assert [[official[row[0]], *row[1:]] for row in lines[1:]] == _official_table(subtask)
