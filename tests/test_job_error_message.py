"""ordeval.workflow.failures: a failed job's "Error in rule" message, written from Snakemake's log record in
Snakemake's words, once per failed job, whatever else is logged (no Snakemake here: records made by hand)."""

import io
import logging

from ordeval.workflow.failures import FailedJobMessage, install, job_error_message


def record(**attributes) -> logging.LogRecord:
    made = logging.LogRecord("snakemake", logging.ERROR, __file__, 1, "Error in rule x", None, None)
    made.__dict__.update(attributes)
    return made


def test_a_failed_jobs_record_gives_snakemakes_message():
    failed = record(
        event="job_error",
        rule_name="significance_pvalues",
        rule_msg="SLURM-job '66' failed, SLURM status is: 'CANCELLED'.",
        jobid=8,
        log=["results/x/logs/significance_pvalues/A.log", ".snakemake/slurm_logs/rule_significance_pvalues/A/66.log"],
    )
    assert job_error_message(failed) == (
        "Error in rule significance_pvalues:\n"
        "    message: SLURM-job '66' failed, SLURM status is: 'CANCELLED'.\n"
        "    jobid: 8\n"
        "    log: results/x/logs/significance_pvalues/A.log, .snakemake/slurm_logs/rule_significance_pvalues/A/66.log"
        " (check log file(s) for error details)"
    )
    local = record(event="job_error", rule_name="score_runs", rule_msg=None, jobid=1, log=[])
    assert job_error_message(local) == "Error in rule score_runs:\n    jobid: 1"


def test_other_records_are_not_written():
    assert job_error_message(record()) is None
    assert job_error_message(record(event="job_info", rule_name="x", jobid=1)) is None
    stream = io.StringIO()
    handler = FailedJobMessage(stream)
    handler.emit(record(event="progress"))
    handler.emit(record(event="job_error", rule_name="r", jobid=3, log=["a.log"]))
    assert stream.getvalue() == "Error in rule r:\n    jobid: 3\n    log: a.log (check log file(s) for error details)\n"


def test_the_handler_is_installed_once():
    logger = logging.getLogger("ordeval-test-failures")
    try:
        install(logger)
        install(logger)  # the Snakefile read twice in one process
        assert [type(handler) for handler in logger.handlers] == [FailedJobMessage]
    finally:
        logger.handlers.clear()
