"""ordeval.workflow.scripting: a job whose log cannot be written whole (a full disk) fails in one line naming the log,
instead of succeeding with the log cut short."""

import logging
import os

import pytest

from ordeval.workflow.offline import mock_snakemake
from ordeval.workflow.scripting import job, keyed, logged

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


@pytest.mark.parametrize(
    "expected",
    [
        {"sem16": "r/x/scores/sem16/stack.npz", "sem17": "r/x/scores/sem17/stack.npz"},  # sharing "sem1"
        {"a": "r/x/agreement/a.csv", "a_b": "r/x/agreement/a_b.csv"},  # a name that starts another
        {"synthetic": "r/synthetic/c/synthetic_half.csv", "other": "r/synthetic/c/other_half.csv"},
        {"only": "r/x/anything.csv"},
    ],
)
def test_keyed_finds_each_name_in_its_path_whatever_the_order(expected):
    names = list(expected)
    assert keyed(list(expected.values()), names) == expected
    assert keyed(list(expected.values())[::-1], names) == expected


def test_keyed_refuses_files_that_do_not_name_the_data_sets():
    with pytest.raises(ValueError, match="do not each hold one of the names a, c"):
        keyed(["r/x/a.csv", "r/x/b.csv"], ["a", "c"])
    with pytest.raises(ValueError, match="1 files for the 2 names"):
        keyed(["r/x/a.csv"], ["a", "b"])
