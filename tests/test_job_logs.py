"""Job logs: a job's own lines, third-party loggers only from WARNING up; bad input ends a job with one line."""

from __future__ import annotations

import logging

import pytest

from ordeval.io.errors import InputError
from ordeval.workflow.offline import mock_snakemake
from ordeval.workflow.scripting import job, logged


def _reset_logging():
    logging.getLogger().handlers.clear()  # logged() sets up logging for a whole job process
    logging.captureWarnings(False)


def test_third_party_info_lines_stay_out_of_job_logs(tmp_path):
    path = tmp_path / "logs" / "probe.log"
    try:
        with logged(path, "probe") as log:
            log.info("probe wrote 3 tables")
            logging.getLogger("fontTools.subset").info("Glyph names: ['a', 'b']")
            logging.getLogger("matplotlib.font_manager").debug("findfont: matching")
            logging.getLogger("fontTools.ttLib").warning("a real problem")
    finally:
        _reset_logging()
    text = path.read_text()
    assert "probe wrote 3 tables" in text and "probe done in" in text
    assert "a real problem" in text
    assert "Glyph names" not in text and "findfont" not in text


def test_bad_input_ends_a_job_with_its_one_logged_line_and_status_1(tmp_path, monkeypatch):
    """The job is named by its rule and wildcards; an InputError is logged as one line (no traceback) and
    the job exits with status 1; ORDEVAL_DEBUG=1 lets the error through."""
    path = tmp_path / "logs" / "probe" / "X.log"
    snakemake = mock_snakemake("probe", wildcards={"dataset": "X"}, log=str(path))
    monkeypatch.delenv("ORDEVAL_DEBUG", raising=False)
    try:
        with pytest.raises(SystemExit) as stopped, job(snakemake) as log:
            log.info("reading")
            raise InputError("in.tsv", "line 3", "not a number: 'x'")
    finally:
        _reset_logging()
    assert stopped.value.code == 1
    lines = path.read_text().splitlines()
    assert "probe[X] INFO reading" in lines[0]
    assert lines[-1].endswith("probe[X] ERROR probe[X] failed: in.tsv, line 3: not a number: 'x'")
    assert len(lines) == 2 and "Traceback" not in path.read_text()
    monkeypatch.setenv("ORDEVAL_DEBUG", "1")
    try:
        with pytest.raises(InputError, match="line 3"), job(snakemake):
            raise InputError("in.tsv", "line 3", "not a number: 'x'")
    finally:
        _reset_logging()
