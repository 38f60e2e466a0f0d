"""Issue 45 (round 4 of careless and hostile use), classes 1-3: every file a job or command reads is declared and
validated before any job (the published numbers, the input files' contents, a missing data_root); every cache or
derived file is checked against its source (stack.npz, arrays.npz, pvalues.npz, provenance.json, .ordeval-files,
what a process remembers of a file); readers stream, so that peak memory follows the records read, not the file's
size. Class 4 (verdicts, names, documented rules, advice) is in tests/test_careless_round4_rules.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import one_error_line, peak, sparse
from conftest import REPO, built, shared_file, tiny_config

from ordeval.cli import main
from ordeval.io.errors import ConfigError, InputError
from ordeval.results.published import read_published, shipped_path
from ordeval.tasks.stack import ScoreStack, load_stack, read_stack, score_files, write_scores
from ordeval.workflow.plan import plan as make_plan

SHIPPED = shipped_path().read_text(encoding="utf-8")
HEADER, FIRST = SHIPPED.splitlines()[:2]  # FIRST: Sakai ACL-IJCNLP 2021, Table 2(I), Sem16T4C tau_a alpha_ORD ...


def transcription(tmp_path: Path, *lines: str, text: str | None = None) -> Path:
    path = tmp_path / "published.tsv"
    path.write_text(text if text is not None else "\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
    return path


def row(**changed) -> str:
    fields = dict(zip(HEADER.split("\t"), FIRST.split("\t"), strict=True))
    fields.update(changed)
    return "\t".join(fields.values())


# =========================================================================== 1: the published numbers


@pytest.mark.parametrize(
    ("lines", "where", "problem"),
    [
        ([row(value="abc")], "line 2", "column value: 'abc' is not a number as printed"),
        ([row(value="NaN")], "line 2", "column value: 'NaN' is not a number as printed"),
        ([row(value="inf")], "line 2", "column value: 'inf' is not a number as printed"),
        ([row(value="1.5")], "line 2", "column value: 1.5 is not a tau (within -1 and 1)"),
        ([FIRST, row(value="0.999")], "line 3", "the number of line 2 with another value (0.999 here, 1.000 there)"),
        ([FIRST, FIRST], "line 3", "the number of line 2 again: tau_a of Sem16T4C (alpha_ORD vs alpha_INT)"),
        ([row(a="alpha_ORDINAL")], "line 2", "column a: 'alpha_ORDINAL' is not a classification measure"),
        ([row(b="NMD")], "line 2", "column b: 'NMD' is not a classification measure"),
        ([row(dataset="Sem18T4C")], "line 2", "column dataset: 'Sem18T4C' is not a data set of the replicated papers"),
        ([row(statistic="tau_b")], "line 2", "column statistic: unknown statistic 'tau_b'"),
        (
            [FIRST.rsplit("\t", 1)[0]],
            "line 2",
            "expected 6 tab-separated fields (source, dataset, statistic, a, b, value), found 5",
        ),
        ([FIRST + "\t"], "line 2", "expected 6 tab-separated fields"),
        ([row(b="alpha_ORD")], "line 2", "columns a and b: tau of alpha_ORD with itself"),
        (
            [row(statistic="dp_significant", dataset="Sem16T4E", a="NMD", b="", value="38.5")],
            "line 2",
            "column value: '38.5' is not a count of run pairs",
        ),
        (
            [row(statistic="official_EMD", dataset="Sem16T4E", a="../x", b="", value="0.3")],
            "line 2",
            "column a: run '../x' contains a path separator",
        ),
        (
            [row(statistic="consistency_ve2_half", a="", b="kappa", value="0.002")],
            "line 2",
            "column b: consistency_ve2_half has no b, found 'kappa'",
        ),
        ([row(source=" Sakai")], "line 2", "column source: ' Sakai' has white space around it"),
    ],
)
def test_every_row_of_the_published_numbers_is_checked(tmp_path, lines, where, problem):
    path = transcription(tmp_path, *lines)
    with pytest.raises(InputError) as error:
        read_published(path)
    assert error.value.where == where and error.value.problem.startswith(problem), str(error.value)
    assert str(error.value).startswith(f"{path}, {where}: ") and "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "file is empty"),
        ("\n\n", "file is empty"),
        (HEADER + "\n", "holds a header but no published number"),
        ("source\tdataset\n" + FIRST + "\n", "line 1: header must be 'source\\tdataset\\tstatistic\\ta\\tb\\tvalue'"),
        (HEADER + "\n" + FIRST + "\n\0\0\0", "line 3: NUL byte at line 3"),
    ],
)
def test_a_published_file_that_is_empty_or_not_a_table_is_one_line(tmp_path, text, expected):
    path = transcription(tmp_path, text=text)
    with pytest.raises(InputError, match=expected.replace("\\", "\\\\").replace("(", r"\(")):
        read_published(path)


def test_the_shipped_transcription_reads_and_a_bad_one_stops_the_plan_before_any_job(tmp_path, monkeypatch):
    assert len(read_published()) == 484  # 412, and the 72 of CIKM 2021 LQ, Table 7
    config = tiny_config(replication={"compare": True})
    assert make_plan(config, check_files=False).replicated_datasets == []  # no published data set here: read all
    bad = transcription(tmp_path, FIRST, FIRST.rsplit("\t", 1)[0])
    monkeypatch.setattr("ordeval.results.published.shipped_path", lambda: bad)
    with pytest.raises(InputError, match=r"published.tsv, line 3: expected 6 tab-separated fields"):
        make_plan(config, check_files=False)
    assert make_plan(tiny_config(), check_files=False)  # without the comparison the numbers are not read


def test_ordeval_run_refuses_a_bad_transcription_in_one_line_before_snakemake(tmp_path, monkeypatch, capsys):
    """The case of the issue: a row of 5 fields, under ``ordeval run -n``: one line naming file and line, exit 2
    (was: 'error: InputError in file .../common.smk, line 43:' and nothing more)."""
    import yaml

    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(tiny_config("pub", replication={"compare": True})))
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} -c 'raise SystemExit(9)'")
    bad = transcription(tmp_path, FIRST.rsplit("\t", 1)[0])
    monkeypatch.setattr("ordeval.results.published.shipped_path", lambda: bad)
    assert main(["run", "-n", "--configfile", "c.yaml"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert (
        line == f"ordeval: error: {bad}:2: expected 6 tab-separated fields (source, dataset, statistic, a, b, "
        "value), found 5"
    )


def test_the_replication_jobs_declare_the_published_numbers_and_every_package_data_file_is_accounted_for():
    from ordeval.workflow.modules import DATA_FILES, NOT_READ, PACKAGE_DIR, PLANNING_FILES, script_files

    for script in ("replication_dataset", "replication_summary"):
        assert shipped_path() in script_files(REPO / "scripts" / f"{script}.py"), script
    assert shipped_path() not in script_files(REPO / "scripts" / "agreement_dataset.py")
    listed = subprocess.run(["git", "ls-files", "src/ordeval"], cwd=REPO, capture_output=True, text=True).stdout
    data = {str(Path(path).relative_to("src/ordeval")) for path in listed.split() if not path.endswith(".py")}
    known = {file for files in DATA_FILES.values() for file in files} | set(PLANNING_FILES) | set(NOT_READ)
    assert data and data == known, "a package data file that no list names, or a name of no file"
    assert all((PACKAGE_DIR / file).is_file() for file in known)


def test_the_published_numbers_are_read_anew_when_the_file_changes(tmp_path):
    """The reader keeps no memory of a file: an edited transcription is what the next call reads."""
    from ordeval.results.replication import published_numbers

    path = transcription(tmp_path, FIRST)
    assert [row.value for row in published_numbers(path)] == ["1.000"]
    path.write_text(path.read_text().replace("1.000", "0.999"))
    assert [row.value for row in published_numbers(path)] == ["0.999"]


# =========================================================================== 1: input files before any job


def test_a_missing_data_root_is_one_line_saying_the_folder_is_missing():
    """The replication configuration with a data_root that does not exist: one line (was: the 31 files over 33
    lines)."""
    from ordeval.workflow.config import load_yaml

    config = {**load_yaml(REPO / "config" / "replication.yaml"), "data_root": "/no/such/folder"}
    with pytest.raises(ConfigError) as error:
        make_plan(config, workdir=REPO)
    gold = "Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt"
    message = "config key data_root: '/no/such/folder': no such folder; the configuration reads 31 files below it"
    fetch = "they are public data (docs/data.md): fetch them with `ordeval fetch --to /no/such/folder`"
    assert str(error.value) == f"{message} (e.g. {gold}); {fetch}"


def test_missing_files_are_one_line_with_the_first_three_and_a_count(tmp_path):
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"]["Files"] = {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [{"type": "semeval_dist", "path": f"r{i}.txt", "name": f"R{i}"} for i in range(5)],
    }
    (tmp_path / "r0.txt").mkdir()
    with pytest.raises(ConfigError) as error:
        make_plan(config)
    assert str(error.value) == (
        f"data_root {str(tmp_path)!r} lacks 6 input files: {tmp_path / 'gold.txt'} (asked for by datasets.Files.gold)"
        f"; {tmp_path / 'r0.txt'} (a folder) (asked for by datasets.Files.runs[0]); {tmp_path / 'r1.txt'} (asked for "
        "by datasets.Files.runs[1]); and 3 more"
    )


def sem16e_copy(folder: Path, edit=None) -> dict:
    """The official Sem16T4E gold and runs copied to ``folder`` under ``Sem16T4CE/copy/`` (LYS's run edited by
    ``edit(lines)``; under the registered names, an edited copy would be refused as not the registered file), and
    the replication configuration's Sem16T4E alone, reading them."""
    from ordeval.workflow.config import load_yaml

    gold = shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt")
    official = gold.parents[1]
    for path in [gold, *(official / "runs" / "E").iterdir()]:
        target = folder / "Sem16T4CE" / "copy" / path.relative_to(official)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    if edit:
        lys = folder / "Sem16T4CE/copy/runs/E/LYS-E.output"
        lys.write_text("\n".join(edit(lys.read_text().splitlines())) + "\n")
    config = load_yaml(REPO / "config" / "replication.yaml")
    config["datasets"] = {"Sem16T4E": config["datasets"]["Sem16T4E"]}
    for source in [config["datasets"]["Sem16T4E"]["gold"], *config["datasets"]["Sem16T4E"]["runs"]]:
        source["path"] = source["path"].replace("Sem16T4CE/official/", "Sem16T4CE/copy/")
    config.update(data_root=str(folder), name="sem16e", measure_reports=[])
    return config


def test_a_content_error_in_an_official_file_is_refused_when_planned(tmp_path, monkeypatch, capsys):
    """A bad number in one official run: refused before any job, by the planner and by ``ordeval run`` (exit 2,
    one line naming the file and line), not by the data job (exit 1)."""
    import yaml

    def damage(lines):
        lines[4] = lines[4].replace(lines[4].split("\t")[2], "abc", 1)
        return lines

    config = sem16e_copy(tmp_path / "data", damage)
    lys = tmp_path / "data" / "Sem16T4CE/copy/runs/E/LYS-E.output"
    with pytest.raises(InputError, match=rf"^{lys}, line 5: probability 'abc' is not a number$"):
        make_plan(config, workdir=tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} -c 'raise SystemExit(9)'")
    assert main(["run", "-n", "--configfile", "c.yaml"]) == 2
    assert one_error_line(capsys.readouterr().err) == f"ordeval: error: {lys}:5: probability 'abc' is not a number"


def test_input_files_are_read_when_planned_only_until_a_data_job_has_read_these_bytes(tmp_path, monkeypatch):
    """The files' contents are checked at planning unless the data set's provenance.json records every input
    file with its SHA-256 as it is now (a run that changes nothing hashes the inputs, it does not read them)."""
    from conftest import build_and_score

    from ordeval.tasks import get_task

    config = sem16e_copy(tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    planned = make_plan(config, workdir=tmp_path)
    build_and_score(planned)  # the data job writes results/sem16e/data/Sem16T4E/provenance.json
    task = get_task("quantification")
    calls = []
    monkeypatch.setattr(type(task), "build", lambda self, *arguments: calls.append(arguments[0]))
    make_plan(config, workdir=tmp_path)
    assert calls == []
    lys = tmp_path / "data" / "Sem16T4CE/copy/runs/E/LYS-E.output"
    lys.write_text(lys.read_text().replace("\t\n", "\n"))  # its 100 trailing tabs gone: other bytes
    make_plan(config, workdir=tmp_path)
    assert calls == ["Sem16T4E"]


# =========================================================================== 2: stack.npz and its tables


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


# =========================================================================== 2: the other derived files


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


def test_the_configuration_schema_is_read_again_when_it_changes(tmp_path, monkeypatch):
    from ordeval.workflow import config

    copied = tmp_path / "config.schema.yaml"
    copied.write_text(config.SCHEMA_PATH.read_text())
    monkeypatch.setattr(config, "SCHEMA_PATH", copied)
    assert "datasets" in config.schema()["properties"]
    copied.write_text("type: object\nproperties: {changed: {type: string}}\n")
    assert list(config.schema()["properties"]) == ["changed"]


# =========================================================================== 3: memory of the records, not the file


THREE_TOPICS = "".join(f"t{i}\t0.1\t0.2\t0.3\t0.2\t0.2\n" for i in range(3))
FORMAT = ["--task", "quantification", "--format", "semeval_dist"]


def test_peak_memory_of_validate_and_score_on_a_1_gb_sparse_file_follows_the_records(tmp_path):
    """Three valid lines, then a 1 GB hole: refused at line 4, the hole never held in memory (measured before:
    validate 3.2 GB, score 1.09 GB; now about 45 MB, the interpreter and numpy)."""
    big = sparse(tmp_path / "big.txt", THREE_TOPICS)
    run = tmp_path / "run.txt"
    run.write_text(THREE_TOPICS)
    where = "big.txt:4: NUL byte at line 4 (byte offset 69): not a text file"
    for arguments, status in [
        (["validate", *FORMAT, str(big)], 1),
        (["score", *FORMAT, "--gold", str(big), "--run", f"A={run}"], 2),
        (["score", *FORMAT, "--gold", str(run), "--run", f"A={big}", "--baseline", "uniform"], 2),
    ]:
        code, err, mib = peak(arguments)
        assert code == status and where in err and "Traceback" not in err, err
        assert mib < 150, f"{arguments[0]}: peak {mib} MiB"


def test_peak_memory_of_leaderboard_topics_and_run_on_a_1_gb_sparse_file(tmp_path):
    folder = tmp_path / "scores"
    folder.mkdir()
    sparse(folder / "NMD.tsv", "topic\tA\tB\nt1\t0.1\t0.2\nt2\t0.3\t0.1\n")
    for arguments in (["leaderboard", str(folder), "--out", str(tmp_path / "b")], ["topics", str(folder)]):
        code, err, mib = peak(arguments)
        assert code == 2 and "NMD.tsv:4: NUL byte at line 4" in err and "Traceback" not in err, err
        assert mib < 150, f"{arguments[0]}: peak {mib} MiB"
    import yaml  # the planner, at workflow load: a gold file of three lines and a hole

    sparse(tmp_path / "gold.txt", THREE_TOPICS)
    config = tiny_config("hole", data_root=str(tmp_path))
    config["datasets"]["TinySem"]["gold"] = {"type": "semeval_dist", "path": "gold.txt"}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(config))
    code, err, mib = peak(["run", "-n", "--configfile", str(tmp_path / "c.yaml")], folder=tmp_path)
    assert code == 2 and "gold.txt:4: NUL byte at line 4" in one_error_line(err), err
    assert mib < 250, f"run: peak {mib} MiB"


def test_a_4_gb_sparse_file_under_a_3_gb_address_space_is_refused_not_a_memory_error(tmp_path):
    big = sparse(tmp_path / "big.txt", THREE_TOPICS, 4 << 30)
    code, err, _ = peak(["validate", *FORMAT, str(big)], limit=3_000_000 * 1024)
    assert code == 1 and "big.txt:4: NUL byte at line 4" in err and "MemoryError" not in err, err


def test_out_of_memory_is_one_line_in_a_command_and_in_a_job(tmp_path, monkeypatch, capsys):
    from ordeval.tasks import validation
    from ordeval.workflow.offline import mock_snakemake
    from ordeval.workflow.scripting import job

    def exhausted(*arguments, **options):
        raise MemoryError

    monkeypatch.setattr(validation, "check_file", exhausted)
    (tmp_path / "gold.txt").write_text(THREE_TOPICS)
    assert main(["validate", *FORMAT, str(tmp_path / "gold.txt")]) == 2
    assert one_error_line(capsys.readouterr().err) == (
        "ordeval: error: out of memory: 'ordeval validate' needs more memory than this process may use"
    )
    monkeypatch.delenv("ORDEVAL_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stopped, job(mock_snakemake("score_runs", log=[str(tmp_path / "x.log")])):
        raise MemoryError
    assert stopped.value.code == 1
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(
            "score_runs failed: out of memory (more than this machine or its limits allow; see the rule's mem_mb)"
        )
    )


@pytest.mark.parametrize("size", [1 << 20, 1 << 30])
def test_a_file_of_only_a_hole_is_nul_bytes_at_line_1_not_empty(tmp_path, capsys, size):
    hole = sparse(tmp_path / "hole.txt", "", size)
    assert main(["validate", *FORMAT, str(hole)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{hole}:1: NUL byte at line 1 (byte offset 0): not a text file"]


def test_validate_does_not_report_an_emptiness_that_follows_from_the_lines_it_reported(tmp_path, capsys):
    one = tmp_path / "one.txt"
    one.write_text("t1\t0.5\t0.45\t0\t0\t0\n")
    assert main(["validate", *FORMAT, str(one)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{one}:1: probabilities sum to 0.95, not 1 (tolerance 0.01)"]


def test_the_planner_counts_a_gold_file_line_by_line(tmp_path):
    """topic_count (at every Snakemake start) no longer reads a gold file whole: a hole gives no count and the
    reading stops at its first block."""
    from ordeval.tasks import get_task

    sparse(tmp_path / "gold.txt", THREE_TOPICS)
    spec = {"classes": [-2, -1, 0, 1, 2], "gold": {"type": "semeval_dist", "path": "gold.txt"}}
    assert get_task("quantification").topic_count(spec, tmp_path) is None
    (tmp_path / "gold.txt").write_text(THREE_TOPICS)
    assert get_task("quantification").topic_count(spec, tmp_path) == 3


def test_the_block_reader_reports_utf8_errors_across_blocks_at_their_line(tmp_path, monkeypatch):
    from ordeval.io import parsing

    monkeypatch.setattr(parsing, "READ_BLOCK", 8)
    path = tmp_path / "x.txt"
    path.write_bytes("abcd\ncdé\nfg".encode() + b"\xc3" + b"\nhi\n")  # é across two blocks, then a cut character
    with pytest.raises(InputError, match=r"line 3: not UTF-8: byte 0xc3 at line 3 \(byte offset 12\)"):
        parsing.read_text(path)
    path.write_bytes(b"\xef\xbb\xbfab\ncd\xe9\n")
    with pytest.raises(InputError, match=r"line 2: not UTF-8: byte 0xe9 at line 2 \(byte offset 8\)"):
        parsing.read_text(path)
    path.write_bytes("ab\ncdé\r\nfg".encode())
    assert list(parsing.iter_lines(path)) == [(1, "ab"), (2, "cdé"), (3, "fg")]
    assert parsing.read_text(path) == "ab\ncdé\r\nfg"
