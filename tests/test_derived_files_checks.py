"""Every cache or derived file is checked against its source before it is trusted: the score stack
(stack.npz) against the score tables, arrays.npz beside the canonical tables, p-value arrays, a provenance beside a
scores folder, a score record, and a plugin file changed after it was loaded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import one_error_line
from conftest import REPO, built, tiny_config

from ordeval.cli import main
from ordeval.io.errors import ConfigError, InputError
from ordeval.tasks.stack import ScoreStack, load_stack, read_stack, score_files, write_scores


def scores_folder(folder: Path) -> Path:
    """A scores folder as 'ordeval score --out' and the pipeline write it: 3 measures, 6 topics, 4 runs."""
    rng = np.random.default_rng(1)
    stack = ScoreStack(
        ["NMD", "RNOD", "JSD"],
        [f"t{i}" for i in range(6)],
        ["A", "B", "C", "D"],
        rng.random((3, 6, 4)),
        [True, True, True],
    )
    write_scores(stack, score_files(stack, folder))
    return folder


def topics_output(capsys, folder: Path, *more: str) -> tuple[int, str, str]:
    status = main(["topics", str(folder), "--json", *more])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_topics_reads_the_stack_only_while_it_mirrors_the_tables(tmp_path, capsys):
    """The issue's cases: NMD.tsv multiplied by 10 (the new answer, not the old one), a NaN cell, a duplicate
    topic, binary junk, a deleted NMD.tsv (one line naming the table)."""
    folder = scores_folder(tmp_path / "scores")
    status, before, _ = topics_output(capsys, folder, "--measure", "NMD")
    assert status == 0
    table = folder / "NMD.tsv"
    original = table.read_text()
    lines = original.splitlines()
    scaled = [lines[0]] + [
        "\t".join([line.split("\t")[0]] + [repr(10 * float(v)) for v in line.split("\t")[1:]]) for line in lines[1:]
    ]
    table.write_text("\n".join(scaled) + "\n")
    status, after, _ = topics_output(capsys, folder, "--measure", "NMD")
    assert status == 0
    variance = [json.loads(text)[0]["residual_variance"] for text in (before, after)]
    assert variance[1] == pytest.approx(100 * variance[0])
    for text, problem in [
        (original.replace(lines[2].split("\t")[1], "NaN", 1), f"{table}:3: score of run 'A' 'NaN' is not a number"),
        (original + lines[2] + "\n", f"{table}:8: duplicate topic 't1' (first at line 3)"),
        (None, f"{table}:1: not UTF-8: byte 0x"),
    ]:
        if text is None:
            table.write_bytes(b"\x89\xfe\x00junk" * 50)
        else:
            table.write_text(text)
        status, _, err = topics_output(capsys, folder)
        assert status == 2 and one_error_line(err).startswith(f"ordeval: error: {problem}"), err
    table.unlink()
    status, _, err = topics_output(capsys, folder)
    assert status == 2
    assert one_error_line(err) == (
        f"ordeval: error: {table}: no such file, though stack.npz beside it was written with it (deleted since?)"
    )


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "empty"),
        (b"random bytes" * 400, "not an .npz archive: it starts with b'rand'"),
        (b"\x93NUMPY\x01\x00{'descr': '|O'}", "not an .npz archive: it starts with b'\\x93NUM'"),
        (None, "array 'values' holds Python objects (never loaded)"),
        ("no values", "no array 'values'"),
        ("truncated", ""),
    ],
)
def test_a_corrupt_stack_is_one_line_naming_it_in_topics_and_in_every_job(tmp_path, capsys, content, problem):
    folder = scores_folder(tmp_path / "scores")
    stack = folder / "stack.npz"
    if content is None:  # a pickled object array (numpy's message named no file)
        with open(stack, "wb") as handle:
            np.savez(handle, values=np.array([object()], dtype=object))
    elif content == "no values":
        with np.load(stack) as data:
            arrays = {name: data[name] for name in data.files if name != "values"}
        np.savez(stack, **arrays)
    elif content == "truncated":
        stack.write_bytes(stack.read_bytes()[:300])
    else:
        stack.write_bytes(content)
    status, _, err = topics_output(capsys, folder)
    assert status == 2
    assert one_error_line(err).startswith(f"ordeval: error: {stack}: not a score stack as ordeval writes it ({problem}")
    with pytest.raises(InputError, match=f"^{stack}: not a score stack"):
        read_stack(stack)  # what every job that reads the stack calls


def test_a_job_reads_the_tables_of_a_stale_stack_and_only_the_tables_it_needs(tmp_path):
    folder = scores_folder(tmp_path / "scores")
    stack, recorded = load_stack(folder / "stack.npz")
    assert sorted(recorded) == ["JSD.tsv", "NMD.tsv", "RNOD.tsv", "measures.tsv"]
    (folder / "RNOD.tsv").write_text(
        (folder / "RNOD.tsv").read_text().replace("topic", "topic", 1) + "t9\t1\t1\t1\t1\n"
    )
    assert read_stack(folder / "stack.npz", ["NMD", "JSD"]).topics == stack.topics  # RNOD not needed: the stack
    with pytest.raises(InputError, match=r"RNOD.tsv, line 1: its topics or runs differ from those of .*NMD.tsv"):
        read_stack(folder / "stack.npz")
    measures = folder / "measures.tsv"
    measures.write_text(measures.read_text().replace("True", "False", 1))  # NMD now higher is better
    assert read_stack(folder / "stack.npz", ["NMD"]).lower_is_better == [False]


def test_the_stack_is_made_from_the_tables_and_the_rules_read_that_stack():
    """A data set's stack.npz is made from its score tables and measures.tsv (rule score_stack takes them as inputs),
    so that an edited table re-runs the stack and every job that reads it; every rule that reads a stack takes that
    one (``rules.score_stack.output.stack``)."""
    rules = "\n".join(path.read_text() for path in (REPO / "workflow" / "rules").glob("*.smk"))
    blocks = {block.split(":", 1)[0]: block for block in rules.split("\nrule ")[1:]}
    assert "rules.score_table.output.table" in blocks["score_stack"] and "measures=" in blocks["score_stack"]
    readers = [
        name for name, block in blocks.items() if "stack=" in block.split("output:")[0] and name != "score_stack"
    ]
    assert len(readers) == 12
    for name in readers:
        assert "rules.score_stack.output.stack" in blocks[name], name


def test_corrupt_arrays_beside_the_canonical_tables_are_one_line_stale_ones_are_left_for_the_tables(tmp_path):
    from conftest import canonical_files

    from ordeval.tasks.quantification import TASK
    from ordeval.tasks.quantification.data import read_arrays

    spec = tiny_config()["datasets"]["TinyDQ"]
    files = canonical_files(tmp_path)
    TASK.write_canonical(built(TASK, "TinyDQ", spec, tmp_path, 1), files)
    arrays, gold, runs = (Path(files[key]) for key in ("arrays", "gold", "runs"))
    good = arrays.read_bytes()
    with np.load(arrays) as data:
        stored = {name: data[name] for name in data.files}
    for change, problem in [
        (lambda: arrays.write_bytes(b""), "empty"),
        (lambda: arrays.write_bytes(b"\x93NUMPY random bytes" * 9), "not an .npz archive"),
        (
            lambda: np.savez(arrays, **{**stored, "runs": np.array([object()], dtype=object)}),
            "array 'runs' holds Python",
        ),
        (lambda: np.savez(arrays, **{**stored, "runs": stored["runs"][0]}), "array 'runs' is 2-D float64, not 3-D"),
        (lambda: np.savez(arrays, **{**stored, "gold": stored["gold"][:-1]}), "gold (13, 5) and runs"),
        (lambda: np.savez(arrays, **{**stored, "gold": stored["gold"] * np.nan}), "probabilities that are negative"),
        (lambda: np.savez(arrays, **{**stored, "gold": stored["gold"] * 2}), "distributions that do not sum to 1"),
    ]:
        change()
        with pytest.raises(
            InputError,
            match=rf"^{arrays}: not the arrays of a data set as ordeval writes (it|them) "
            rf"\({re.escape(problem)}",
        ):
            TASK.read_canonical("TinyDQ", spec, files)
        arrays.write_bytes(good)
    gold.write_text(gold.read_text() + "\n")  # another SHA-256: stale, the tables are read
    assert read_arrays(arrays, spec["classes"], gold, runs) is None
    assert TASK.read_canonical("TinyDQ", spec, files).topics == list(stored["topics"])


def test_corrupt_p_value_arrays_and_bad_p_values_are_one_line(tmp_path):
    from ordeval.analysis.significance import pairwise_significance, read_pvalue_table, write_pvalues

    rng = np.random.default_rng(2)
    stack = ScoreStack(["NMD"], [f"t{i}" for i in range(8)], ["A", "B", "C"], rng.random((1, 8, 3)))
    table, arrays = tmp_path / "pvalues.tsv", tmp_path / "pvalues.npz"
    write_pvalues(pairwise_significance(stack, 50, np.random.default_rng(0)), table, arrays)
    assert read_pvalue_table(table, arrays=arrays).runs == ["A", "B", "C"]
    arrays.write_bytes(b"")
    with pytest.raises(InputError, match=rf"^{arrays}: not the p-values as ordeval writes it \(empty\)$"):
        read_pvalue_table(table, arrays=arrays)
    arrays.unlink()
    lines = table.read_text().splitlines()
    lines[2] = "\t".join([*lines[2].split("\t")[:-1], "NaN"])
    table.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=rf"^{table}, line 3: a mean that is not a finite number or a p-value"):
        read_pvalue_table(table, arrays=arrays)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[]", "not a provenance record: a JSON object, not list"),
        ("", "file is empty"),
        ('{"origin": 5}', "key 'origin': 5 is not a data origin (real, partly synthetic, synthetic)"),
        ('{"dataset": "X"}', "no key 'origin'"),
        ('{"origin": "real", "origin": "synthetic"}', "top-level object: duplicate key 'origin'"),
    ],
)
def test_a_provenance_beside_a_scores_folder_is_checked(tmp_path, capsys, content, problem):
    """``ordeval leaderboard`` reads provenance.json beside the scores (was: a TypeError traceback for '[]',
    messages without the file for the others)."""
    folder = scores_folder(tmp_path / "scores")
    (folder / "provenance.json").write_text(content)
    assert main(["leaderboard", str(folder), "--out", str(tmp_path / "board"), "--trials", "20"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(f"ordeval: error: {folder / 'provenance.json'}") and problem in line, line
    assert not (tmp_path / "board").exists()


def test_a_score_record_that_is_not_a_list_of_names_is_refused_in_one_line(tmp_path, capsys):
    from ordeval.cli.checks import RECORD

    out = tmp_path / "out"
    out.mkdir()
    (out / "NMD.tsv").write_text("x")
    with open(out / RECORD, "wb") as handle:
        handle.write(b"NMD.tsv\n")
        handle.truncate(1 << 30)  # a 1 GB hole after it
    gold = tmp_path / "gold.txt"
    gold.write_text(THREE_TOPICS)
    arguments = ["score", *FORMAT, "--baseline", "uniform", "--gold", str(gold), "--out", str(out)]
    assert main(arguments) == 2
    problem = "line 2: NUL byte at line 2 (byte offset 8): not a text file"
    assert (
        one_error_line(capsys.readouterr().err)
        == f"ordeval: error: {out / RECORD}: not a list of file names ({problem})"
    )


def test_a_plugin_file_changed_after_it_was_loaded_is_not_run_from_memory(tmp_path):
    from ordeval.tasks import plugins

    plugin = tmp_path / "mine_r4.py"
    plugin.write_text("X = 1\n")
    try:
        plugins.load_plugins([str(plugin)])
        plugins.load_plugins([str(plugin)])  # the same file again: loaded once
        plugin.write_text("X = 22\n")
        with pytest.raises(ConfigError, match=r"plugin file .*mine_r4.py' changed since this process loaded it"):
            plugins.load_plugins([str(plugin)])
    finally:
        plugins._loaded.pop(str(plugin.resolve()), None)


THREE_TOPICS = "".join(f"t{i}\t0.1\t0.2\t0.3\t0.2\t0.2\n" for i in range(3))


FORMAT = ["--task", "quantification", "--format", "semeval_dist"]
