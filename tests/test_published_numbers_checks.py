"""The papers' published numbers (the shipped transcription) are checked row by row, an empty or
malformed file is one line, a bad one stops the plan (and ``ordeval run``) before any job, the replication jobs
declare the file, and it is read anew when it changes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import one_error_line
from conftest import REPO, tiny_config

from ordeval.cli import main
from ordeval.io.errors import InputError
from ordeval.results.published import read_published, shipped_path
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
