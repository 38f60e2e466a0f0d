"""ordeval.workflow.scripting.in_process: the run: blocks' work (rules score_table and score_stack) in the Snakemake
process, logged without touching logging: what it did and how long, or its error as the log's last line and one
line on the terminal naming the file, raised again for Snakemake."""

from __future__ import annotations

import logging

import pytest

from ordeval.workflow.scripting import in_process


def write(path, text):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return len(text)


def test_the_log_says_what_was_done_and_the_result_is_returned(tmp_path):
    handlers = list(logging.getLogger().handlers)
    log = tmp_path / "logs" / "score_table" / "D1" / "NMD.log"
    out = tmp_path / "NMD.tsv"
    assert in_process([str(log)], "score_table", {"dataset": "D1", "measure": "NMD"}, write, out, "abc") == 3
    lines = log.read_text().splitlines()
    assert lines[0] == f"score_table[D1][NMD]: {__name__}.write({out}, abc)"
    assert lines[1].startswith("score_table[D1][NMD] done in ") and len(lines) == 2
    assert logging.getLogger().handlers == handlers  # Snakemake's logging untouched


def test_an_error_is_the_log_s_last_line_and_one_terminal_line_naming_the_file(tmp_path, capsys):
    log = tmp_path / "stack.log"
    missing = tmp_path / "no" / "such" / "folder"
    missing.parent.parent.mkdir()
    with pytest.raises(FileNotFoundError):
        in_process([str(log)], "score_stack", {"dataset": "D1"}, write, missing / "stack.npz", "x")
    last = log.read_text().splitlines()[-1]
    assert last.startswith("score_stack[D1] failed: [Errno 2] No such file or directory:") and str(missing) in last
    assert capsys.readouterr().err.strip() == last


def test_a_log_that_cannot_be_written_leaves_the_terminal_line(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(ZeroDivisionError):
        in_process([str(blocked / "x.log")], "score_table", {"dataset": "D1"}, lambda: 1 / 0)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "score_table[D1] failed: division by zero"
    assert err[1].startswith(f"score_table[D1]: {blocked / 'x.log'}: cannot write the log")
