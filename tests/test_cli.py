"""The ``ordeval`` command (ordeval.cli.main) on small files: every subcommand, exit statuses, one-line errors;
the generated docs/measures.md; the paper presets."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from cli_helpers import one_error_line
from conftest import REPO, SHARED_RAW, no_shared_data

import ordeval
from ordeval.cli import main, parse_classes
from ordeval.reports import docs
from ordeval.workflow.config import load as load_config
from ordeval.workflow.plan import plan as make_plan

TOPICS = [f"t{i}" for i in range(8)]


def _distribution(rng, skew: float) -> list[float]:
    weights = rng.random(5) + skew * np.arange(5)
    return list(np.round(weights / weights.sum(), 6))


def _write_dist(path, rows):
    lines = []
    for topic, values in rows:
        values = list(values)
        values[-1] = round(1 - sum(values[:-1]), 6)
        lines.append("\t".join([topic, *(repr(float(v)) for v in values)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    """A semeval_dist gold over 8 topics and 4 runs of graded quality."""
    rng = np.random.default_rng(3)
    gold_rows = [(topic, _distribution(rng, 0.5)) for topic in TOPICS]
    gold = _write_dist(tmp_path / "gold.txt", gold_rows)
    runs = {}
    for index, noise in enumerate([0.05, 0.2, 0.6, 1.5]):
        rows = []
        for topic, values in gold_rows:
            mixed = np.asarray(values) + noise * rng.random(5)
            rows.append((topic, np.round(mixed / mixed.sum(), 6)))
        runs[f"R{index}"] = _write_dist(tmp_path / f"R{index}.txt", rows)
    return gold, runs


def _score_args(gold, runs, out, *extra):
    args = ["score", "--task", "quantification", "--format", "semeval_dist", "--gold", str(gold), "--out", str(out)]
    for name, path in runs.items():
        args += ["--run", f"{name}={path}"]
    return args + ["--trials", "200", "--seed", "3", "--threads", "1", *extra]


# --------------------------------------------------------------------------- help, version, usage errors


def test_help_and_version_of_every_command(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ordeval {ordeval.__version__}"
    assert main([]) == 0
    assert "measures" in capsys.readouterr().out
    for command in ("measures", "validate", "score", "leaderboard", "run"):
        assert main([command, "--help"]) == 0
        assert f"usage: ordeval {command}" in capsys.readouterr().out


def test_usage_errors_are_one_line_with_status_2(capsys):
    assert main(["score", "--task", "nonsense"]) == 2
    assert "invalid choice" in one_error_line(capsys.readouterr().err)
    assert main(["frobnicate"]) == 2
    one_error_line(capsys.readouterr().err)
    assert main(["measures", "--", "x"]) == 2
    one_error_line(capsys.readouterr().err)


def test_classes_option():
    assert parse_classes(None) == [-2, -1, 0, 1, 2]
    assert parse_classes("5") == [-2, -1, 0, 1, 2]
    assert parse_classes("4") == [0, 1, 2, 3]
    assert parse_classes("1,2,3") == [1, 2, 3]


# --------------------------------------------------------------------------- measures and docs/measures.md


def test_measures_in_every_format(capsys):
    assert main(["measures"]) == 0
    text = capsys.readouterr().out
    assert "NMD" in text and "alpha_ORD" in text and "lower is better" in text
    assert main(["measures", "--task", "classification", "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records == docs.measure_records("classification")
    assert {record["task"] for record in records} == {"classification"}
    assert all(record["formula"] and record["direction"] for record in records)
    assert main(["measures", "--format", "markdown", "--task", "quantification"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| Measure | Task | Direction")
    assert len(lines) == 2 + len(docs.measure_records("quantification"))


def test_committed_measures_document_is_the_generator_output():
    committed = (REPO / "docs" / "measures.md").read_text(encoding="utf-8")
    assert committed == docs.markdown(), "regenerate it: python -m ordeval.reports.docs > docs/measures.md"


# --------------------------------------------------------------------------- validate


def test_validate_ok_files(files, capsys):
    gold, runs = files
    assert main(["validate", str(gold), "--task", "quantification", "--format", "semeval_dist"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "OK" in out[0] and "8 topics" in out[0]
    args = ["validate", *map(str, runs.values()), "--task", "quantification", "--format", "semeval_dist"]
    assert main([*args, "--gold", str(gold)]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 1 + len(runs)


def test_validate_lists_every_problem_with_file_and_line(files, tmp_path, capsys):
    gold, _ = files
    bad = tmp_path / "bad.txt"
    bad.write_text(
        "t0\t0.2\t0.2\t0.2\t0.2\t0.2\nt1\t0.2\tx\t0.2\t0.2\t0.2\nt2\t0.9\t0.9\t0.2\t0.2\t0.2\n"
        "t3\t0.2\t0.2\t0.2\t0.2\t0.2\n",
        encoding="utf-8",
    )
    args = ["validate", str(bad), "--task", "quantification", "--format", "semeval_dist", "--gold", str(gold)]
    assert main(args) == 1
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert any(line.startswith(f"{bad}:2: ") and "not a number" in line for line in lines)
    assert any(line.startswith(f"{bad}:3: ") and "sum" in line for line in lines)
    missing = [line for line in lines if "misses topic" in line]
    assert len(missing) == 4  # t4..t7 (t1 and t2 are reported by their lines)
    assert "problems found" in captured.err


def test_validate_user_errors(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope.txt"), "--task", "quantification", "--format", "semeval_dist"]) == 2
    assert "nope.txt: no such file" in one_error_line(capsys.readouterr().err)
    (tmp_path / "f.txt").write_text("x\n")
    assert main(["validate", str(tmp_path / "f.txt"), "--task", "classification", "--format", "semeval_dist"]) == 2
    one_error_line(capsys.readouterr().err)


# --------------------------------------------------------------------------- score and leaderboard


def test_score_writes_scores_means_and_leaderboard(files, tmp_path, capsys):
    gold, runs = files
    out = tmp_path / "out"
    assert main(_score_args(gold, runs, out, "--measures", "NMD,RNOD,JSD")) == 0
    capsys.readouterr()
    paths = {name: str(path) for name, path in runs.items()}
    formats = {"gold_format": "semeval_dist", "run_format": "semeval_dist"}
    expected = ordeval.score(str(gold), paths, task="quantification", measures=["NMD", "RNOD", "JSD"], **formats)
    for measure in ("NMD", "RNOD", "JSD"):
        with open(out / f"{measure}.tsv", encoding="utf-8") as handle:
            rows = list(csv.reader(handle, delimiter="\t"))
        assert rows[0] == ["topic", *runs]
        assert [row[0] for row in rows[1:]] == TOPICS
        matrix = np.array([[float(value) for value in row[1:]] for row in rows[1:]])
        wanted = expected[expected.measure == measure].pivot(index="topic", columns="run", values="score")
        np.testing.assert_allclose(matrix, wanted.loc[TOPICS, list(runs)].to_numpy())
    for name in ("means.tsv", "measures.tsv", "leaderboard.csv", "leaderboard.md", "leaderboard.tex"):
        assert (out / name).is_file(), name
    # the leaderboard's means are the scores' means; every measure ranks all runs, best first
    with open(out / "leaderboard.csv", encoding="utf-8") as handle:
        board = list(csv.DictReader(handle))
    means = ordeval.as_stack(expected).means()
    for row in board:
        index = ["NMD", "RNOD", "JSD"].index(row["measure"])
        assert float(row["mean"]) == pytest.approx(means[index, list(runs).index(row["run"])])
    nmd = [row for row in board if row["measure"] == "NMD"]
    assert [row["rank"] for row in nmd] == ["1", "2", "3", "4"] and all(row["group"] for row in nmd)
    assert "\\toprule" in (out / "leaderboard.tex").read_text()


def test_score_progress_and_run_by_run_scoring_give_the_same_scores(files, tmp_path, capsys):
    gold, runs = files
    assert main(_score_args(gold, runs, tmp_path / "a", "--no-leaderboard", "--measures", "NMD,RSNOD")) == 0
    assert main(_score_args(gold, runs, tmp_path / "b", "--progress", "--measures", "NMD,RSNOD")) == 0
    err = capsys.readouterr().err
    assert "scoring runs: 4/4" in err and "randomised Tukey HSD" in err and "200/200" in err
    for name in ("NMD.tsv", "RSNOD.tsv", "means.tsv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert not (tmp_path / "a" / "leaderboard.csv").exists()


def test_score_user_errors_are_one_line(files, tmp_path, capsys):
    gold, runs = files
    broken = tmp_path / "broken.txt"
    broken.write_text("t0\t0.2\t0.2\t0.2\t0.2\t0.2\nt1\t0.2\t0.2\n", encoding="utf-8")
    assert main(_score_args(gold, {"B": broken}, tmp_path / "o")) == 2
    assert one_error_line(capsys.readouterr().err).startswith(f"ordeval: error: {broken}:2: ")
    assert main(_score_args(gold, runs, tmp_path / "o", "--measures", "NMD,NOPE")) == 2
    assert "unknown quantification measure(s) NOPE" in one_error_line(capsys.readouterr().err)
    assert main(_score_args(tmp_path / "nogold.txt", runs, tmp_path / "o")) == 2
    assert "nogold.txt: no such file" in one_error_line(capsys.readouterr().err)
    assert main(_score_args(gold, {"A": runs["R0"], **{"A=": runs["R1"]}}, tmp_path / "o")) == 2
    one_error_line(capsys.readouterr().err)


def test_score_of_one_run_gives_a_leaderboard_without_groups_and_a_note(files, tmp_path, capsys):
    gold, runs = files
    out = tmp_path / "one"
    assert main(_score_args(gold, {"R0": runs["R0"]}, out)) == 0
    captured = capsys.readouterr()
    assert "no significance groups (a single run (R0)" in captured.out
    assert "| 1 | R0 |" in captured.out and captured.out.strip() == (out / "leaderboard.md").read_text().strip()
    board = list(csv.DictReader((out / "leaderboard.csv").read_text(encoding="utf-8").splitlines()))
    assert {row["group"] for row in board} == {""} and {row["run"] for row in board} == {"R0"}
    scores_only = tmp_path / "scores-only"
    assert main(_score_args(gold, {"R0": runs["R0"]}, scores_only, "--no-leaderboard")) == 0
    assert (scores_only / "NMD.tsv").is_file() and not (scores_only / "leaderboard.csv").exists()
    assert capsys.readouterr().out.startswith("run\t")  # the means on stdout


def test_leaderboard_from_a_scores_folder(files, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the leaderboard goes without --out
    gold, runs = files
    out = tmp_path / "scores"
    assert main(_score_args(gold, runs, out, "--measures", "NMD,RNOD", "--name", "tiny")) == 0
    written = (out / "leaderboard.csv").read_text()
    capsys.readouterr()
    again = tmp_path / "again"
    args = ["leaderboard", str(out), "--out", str(again), "--trials", "200", "--seed", "3", "--threads", "1"]
    assert main([*args, "--name", "tiny"]) == 0
    captured = capsys.readouterr()
    assert (again / "leaderboard.csv").read_text() == written  # same HSD stream as 'ordeval score'
    assert captured.out.startswith("# Leaderboard: tiny")
    assert captured.out.strip() == (again / "leaderboard.md").read_text().strip()
    # without measures.tsv: every score table, directions from the registry
    (out / "measures.tsv").unlink()
    assert main(["leaderboard", str(out), "--trials", "50", "--threads", "1"]) == 0
    assert "## NMD (lower is better)" in capsys.readouterr().out


def test_leaderboard_user_errors(tmp_path, capsys):
    assert main(["leaderboard", str(tmp_path / "none")]) == 2
    assert "no such folder" in one_error_line(capsys.readouterr().err)
    assert main(["leaderboard", str(tmp_path)]) == 2
    assert "no score tables" in one_error_line(capsys.readouterr().err)
    (tmp_path / "NMD.tsv").write_text("topic\tA\tB\nt1\t0.1\t0.2\nt2\t0.3\toops\n")
    assert main(["leaderboard", str(tmp_path)]) == 2
    expected = f"ordeval: error: {tmp_path / 'NMD.tsv'}:3: score of run 'B' 'oops' is not a number"
    assert one_error_line(capsys.readouterr().err) == expected


# --------------------------------------------------------------------------- paper presets


@pytest.mark.parametrize(
    "preset, datasets, analysis_measures",
    [
        ("acl2021", 10, ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]),
        ("cikm2021", 6, ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]),
        ("rnod_variants", 8, ["NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD"]),
    ],
)
def test_paper_presets_load_and_plan(preset, datasets, analysis_measures):
    if not SHARED_RAW.is_dir():
        pytest.skip(no_shared_data())
    config = load_config(REPO / "config" / "papers" / f"{preset}.yaml")
    assert config["kendall"] == "a" and config["name"] == preset
    assert config["consistency"]["trials"] == 1000 and config["consistency"]["hsd_trials"] == 5000
    assert config["significance"]["hsd_trials"] == 5000 and config["seed"] == 20211101
    plan = make_plan({**config, "data_root": str(SHARED_RAW)}, workdir=REPO)
    assert len(plan.datasets) == datasets
    assert plan.measures("agreement", "quantification") == analysis_measures
    if preset == "acl2021":
        assert plan.measures("agreement", "classification")[0] == "alpha_ORD"
        assert set(plan.task_datasets("classification")) == {"Sem16T4C", "Sem17T4C"}
    if preset == "rnod_variants":
        assert plan.dnkt_combinations == ["JSD", "NMD", "RNOD"]
    if preset == "cikm2021":
        assert len(plan.popularity_datasets) == 6


def test_position_pairing_with_a_duplicated_line_reports_the_line_not_a_wrong_count(tmp_path, capsys):
    items = [(f"i{i}", f"t{i // 3}", str(i % 5 - 2)) for i in range(9)]
    gold = tmp_path / "gold.txt"
    gold.write_text("".join("\t".join(item) + "\n" for item in items))
    shifted = [*items[:3], items[2], *items[3:8]]  # line 3 duplicated, the last line lost: 9 lines as the gold
    run = tmp_path / "run.txt"
    run.write_text("".join("\t".join(item) + "\n" for item in shifted))
    args = ["validate", str(run), "--gold", str(gold), "--task", "classification", "--format", "semeval_labels"]
    assert main([*args, "--align", "position"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == f"{gold}: OK (gold: 3 topics, 9 items)"
    assert out[1:] == [
        f"{run}:4: topic 't0' but the gold's item 4 (line 4 of {gold}) has topic 't1'; with align: "
        "position the topics must agree line by line"
    ]
