"""ordeval.workflow.scripting: a job whose log cannot be written whole (a full disk) fails in one line naming the log,
instead of succeeding with the log cut short."""

import logging
import os

import pytest

from ordeval.workflow.scripting import job, logged, mock_snakemake

FULL = "/dev/full"  # every write fails with ENOSPC, as on a full disk


@pytest.fixture
def restored_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


@pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full")
def test_a_log_cut_short_is_an_error_naming_it(restored_logging):
    with pytest.raises(OSError) as raised:
        with logged(FULL, "rule_x") as log:
            log.info("a line that cannot be written")
    assert raised.value.filename == FULL and "No space left on device" in str(raised.value)


@pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full")
def test_a_job_whose_log_is_cut_short_fails_in_one_line(restored_logging, capsys):
    snakemake = mock_snakemake("rule_x", log=[FULL], wildcards={"dataset": "D1"})
    with pytest.raises(SystemExit) as ended:
        with job(snakemake) as log:
            log.info("work done")
    assert ended.value.code == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"rule_x[D1] failed: {FULL}: cannot write the log (No space left on device)"]


def test_a_job_that_writes_its_log_succeeds(restored_logging, tmp_path):
    log_path = tmp_path / "logs" / "rule_x" / "D1.log"
    with job(mock_snakemake("rule_x", log=[str(log_path)], wildcards={"dataset": "D1"})) as log:
        log.info("work done")
    text = log_path.read_text()
    assert "work done" in text and "rule_x[D1] done in" in text
