"""Issue 34 (round 3 of careless and hostile use): no silent direction, no infinite mean ranked, no zero-width
interval from one topic; ``ordeval score --out`` after a full disk; help and output text that is what it says.
(``ordeval run``'s cases are in tests/test_cli_run.py, the plugin measures' in tests/test_plugin_measures.py.)"""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import one_error_line

from ordeval.analysis.leaderboard import UndefinedMean, leaderboard
from ordeval.cli import main


def score_table(folder, name: str, rows: list[list[str]], runs=("A", "B")) -> None:
    folder.mkdir(exist_ok=True)
    lines = ["\t".join(["topic", *runs])] + ["\t".join(row) for row in rows]
    (folder / f"{name}.tsv").write_text("\n".join(lines) + "\n")


TWO_TOPICS = [["t1", "0.9", "0.5"], ["t2", "0.8", "0.4"]]


# --------------------------------------------------------------------------- point 3: no silent direction


def test_a_measure_neither_registered_nor_in_measures_tsv_needs_a_stated_direction(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "accuracy", TWO_TOPICS)  # not 'Accuracy': unregistered, no measures.tsv
    out = tmp_path / "board"
    assert main(["leaderboard", str(scores), "--out", str(out), "--trials", "50"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert f"{scores / 'accuracy.tsv'}: measure 'accuracy' is not registered" in line
    assert "--lower-is-better accuracy or --higher-is-better accuracy" in line
    assert "the registered measure 'Accuracy', spelt differently, is higher is better" in line
    assert not out.exists()
    for option, best in (("--higher-is-better", "A"), ("--lower-is-better", "B")):
        assert (
            main(["leaderboard", str(scores), "--out", str(out), "--trials", "50", "--json", option, "accuracy"]) == 0
        )
        board = json.loads(capsys.readouterr().out)["leaderboard"]["measures"][0]
        assert board["lower_is_better"] is (option == "--lower-is-better")
        assert board["rows"][0]["run"] == best and board["rows"][0]["rank"] == 1


@pytest.mark.parametrize(
    "arguments, expected",
    [
        (["--higher-is-better", "NMD"], "--higher-is-better NMD: the measure registry says lower is better"),
        (["--lower-is-better", "RNOD"], "--lower-is-better RNOD: "),  # a measure the folder does not have
        (["--lower-is-better", "NMD", "--higher-is-better", "NMD"], "both name NMD"),
    ],
)
def test_a_stated_direction_contradicting_the_registry_or_naming_no_scores_is_refused(
    tmp_path, capsys, arguments, expected
):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", TWO_TOPICS)
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), *arguments]) == 2
    assert expected in one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "b").exists()


def test_a_stated_direction_that_contradicts_measures_tsv_is_refused(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "mine", TWO_TOPICS)
    (scores / "measures.tsv").write_text("measure\tdisplay\tlower_is_better\ttask\tlatex\nmine\tMine\tFalse\t\t\n")
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--lower-is-better", "mine"]) == 2
    assert f"{scores / 'measures.tsv'} says higher is better" in one_error_line(capsys.readouterr().err)
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--trials", "50"]) == 0


# --------------------------------------------------------------------------- point 3: infinite means, one topic


def test_means_that_overflow_are_refused_in_one_line_naming_measure_run_and_file(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", [["t1", "1e308", "1e308"], ["t2", "1e308", "1.5e308"]])
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--trials", "50"]) == 2
    err = capsys.readouterr().err
    line = one_error_line(err)
    # refused where the scores are read (they are beyond what the statistics can square, ordeval.stats.MAX_SCORE)
    assert f"{scores / 'NMD.tsv'}:2: score of run 'A' '1e308' is out of range (at most 1e+100)" in line
    assert "RuntimeWarning" not in err and not (tmp_path / "b").exists()


def test_the_library_never_ranks_a_mean_that_is_not_finite():
    with pytest.raises(UndefinedMean, match=r"run 'B' over 2 topics is nan \(its scores include NaN"):
        leaderboard(np.array([[0.1, np.nan], [0.2, 0.3]]), ["A", "B"], "M", True, np.ones((2, 2)))


def test_one_topic_gives_no_interval_not_a_zero_width_one(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", [["t1", "0.3", "0.2"]])
    out = tmp_path / "b"
    assert main(["leaderboard", str(scores), "--out", str(out), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)["leaderboard"]
    rows = document["measures"][0]["rows"]
    assert [(row["run"], row["ci_low"], row["ci_high"]) for row in rows] == [("B", None, None), ("A", None, None)]
    assert "mean over 1 topic (no interval: a t interval needs 2 topics or more)" in document["note"]
    markdown = (out / "leaderboard.md").read_text()
    assert "CI" not in markdown.split("## NMD")[1] and "[0.200, 0.200]" not in markdown
    assert (out / "leaderboard.csv").read_text().splitlines()[1] == "NMD,1,B,0.2,,,,True"
    board = leaderboard(np.array([[0.3, 0.2]]), ["A", "B"], "NMD", True, np.ones((2, 2)))
    assert np.isnan(board.ci_low).all() and np.isnan(board.ci_high).all()


# --------------------------------------------------------------------------- point 1: score --out on a full disk


def quantification_files(folder, topics: int = 150, runs: int = 3) -> list[str]:
    """A gold and ``runs`` runs (semeval_dist) of ``topics`` topics; the arguments of 'ordeval score' on them."""
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    arguments = ["score", "--task", "quantification", "--format", "semeval_dist", "--trials", "50"]
    for name in ["gold", *(f"r{index}" for index in range(runs))]:
        rows = rng.dirichlet(np.ones(5), size=topics)
        path = folder / f"{name}.txt"
        path.write_text("".join(f"t{t}\t" + "\t".join(map(repr, row.tolist())) + "\n" for t, row in enumerate(rows)))
        arguments += ["--gold", str(path)] if name == "gold" else ["--run", f"{name}={path}"]
    return arguments


def complete(out) -> bool:
    listed = set((out / ".ordeval-files").read_text().split())
    present = {path.name for path in out.iterdir()} - {".ordeval-files"}
    return present == listed and {"NMD.tsv", "means.tsv", "stack.npz", "leaderboard.html"} <= listed


def test_score_stopped_by_a_full_disk_leaves_a_folder_the_next_call_writes(tmp_path, monkeypatch, capsys):
    """ENOSPC on the fifth file (as on a full disk): one line naming the file, and the folder holds the record
    of what the call was writing, so the same command once there is room writes the complete output."""
    import errno
    import os

    arguments = [*quantification_files(tmp_path / "in"), "--out", str(tmp_path / "out")]
    replace, calls = os.replace, []

    def full(source, target):
        calls.append(target)
        if len(calls) == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        return replace(source, target)

    monkeypatch.setattr(os, "replace", full)
    assert main(arguments) == 2
    monkeypatch.setattr(os, "replace", replace)
    line = one_error_line(capsys.readouterr().err)
    assert line == f"ordeval: error: {calls[4]}: No space left on device"
    out = tmp_path / "out"
    assert (out / ".ordeval-files").is_file() and not complete(out)
    assert not [path for path in out.iterdir() if path.name.startswith(".") and path.name != ".ordeval-files"]
    assert main(arguments) == 0, capsys.readouterr().err
    assert complete(out)


def test_score_on_a_filesystem_that_fills_up(tmp_path, capsys):
    """The same on a real small filesystem (a tmpfs, where the tests may mount one): the first call fails on
    a full disk naming the file, the same call once there is room writes everything."""
    import subprocess

    from conftest import small_filesystem

    arguments = quantification_files(tmp_path / "in", topics=400)
    with small_filesystem(tmp_path / "disk", "48k") as disk:
        out = disk / "scores"
        assert main([*arguments, "--out", str(out)]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert line.startswith(f"ordeval: error: {out}/") and line.endswith(": No space left on device")
        subprocess.run(["mount", "-o", "remount,size=16m", str(disk)], check=True)
        assert main([*arguments, "--out", str(out)]) == 0, capsys.readouterr().err
        assert complete(out)


def test_the_temporary_file_of_a_killed_call_does_not_block_the_next_one(tmp_path, capsys):
    arguments = [*quantification_files(tmp_path / "in", topics=20), "--out", str(tmp_path / "out")]
    assert main(arguments) == 0
    (tmp_path / "out" / ".NMD.tsv.k1ll3d00").write_text("half a matrix")  # write_atomically's name
    capsys.readouterr()
    assert main(arguments) == 0, capsys.readouterr().err
    assert complete(tmp_path / "out") and not (tmp_path / "out" / ".NMD.tsv.k1ll3d00").exists()


# --------------------------------------------------------------------------- point 5: what is printed is what it says


def test_per_topic_scores_print_their_decimal_not_the_rounding_of_a_mean():
    from ordeval.cli.score import per_topic_lines
    from ordeval.tasks.stack import ScoreStack

    values = np.array([[[0.4, 0.1], [0.44, 1 / 3]]])  # the mean of 0.4 and 0.44 is 0.42000000000000004
    assert float(values[0, :, 0].mean()) == 0.42000000000000004
    lines = per_topic_lines(ScoreStack(["NMD"], ["t1", "t2"], ["A", "B"], values))
    assert lines[:3] == ["A\tNMD\tt1\t0.4", "A\tNMD\tt2\t0.44", "A\tNMD\tall\t0.42"]
    assert lines[4] == "B\tNMD\tt2\t0.333333333333333"


def test_topics_help_says_percent_once(capsys):
    assert main(["topics", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "5%, 10% and 20% of each measure's score range" in text and "%%" not in text


def test_dir_of_the_package_lists_its_public_api():
    import ordeval

    listed = dir(ordeval)
    assert set(ordeval.__all__) <= set(listed)
    assert {"score", "agreement", "leaderboard", "measures", "load_config", "__version__"} <= set(listed)


def test_tests_without_the_real_data_say_how_to_point_them_at_it(tmp_path):
    import os
    import subprocess
    import sys

    from conftest import REPO

    environment = {**os.environ, "ORDEVAL_SHARED_DATA": str(tmp_path / "nowhere")}
    command = [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", "tests/test_readers.py", "-k", "real"]
    done = subprocess.run(command, cwd=REPO, env=environment, capture_output=True, text=True, timeout=300)
    header = f"real data: none, the tests that read it are skipped: real data not available: {tmp_path / 'nowhere'}"
    assert header in done.stdout
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("set ORDEVAL_SHARED_DATA to the folder of the public files" in line for line in skipped)
