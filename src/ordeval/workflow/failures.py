"""A failed job's message on the terminal, whatever the quietness of Snakemake's output.

The workflow profile (profiles/default) sets Snakemake's ``quiet: [rules]``, for a line per job instead of
each job's inputs and outputs; Snakemake files its "Error in rule" message under the same heading, so a job
that fails would go unnamed: on a cluster, where a job's own error goes to the scheduler's log, the run would
end with "At least one job did not complete successfully" and nothing else. :class:`FailedJobMessage`, a
logging handler that ``workflow/rules/common.smk`` adds to Snakemake's logger when its rules are quiet, writes
that message in Snakemake's words (``ordeval run`` counts the failed jobs from it): the rule, what the executor
said, the job id and its logs (the rule's ``log:``, and on a cluster the scheduler's log of the job). It reads
the attributes of Snakemake's log record; nothing here imports Snakemake."""

from __future__ import annotations

import logging
import sys

#: The name of the handler, so that a second reading of the Snakefile in one process adds no second one.
NAME = "ordeval_failed_job"


def job_error_message(record: logging.LogRecord) -> str | None:
    """Snakemake's "Error in rule" message of a failed job's log record (its ``event`` ``job_error``), as
    Snakemake's own formatter writes it (its first lines); None for any other record."""
    if str(getattr(record, "event", "")) != "job_error":
        return None
    lines = [f"Error in rule {getattr(record, 'rule_name', '?')}:"]
    if getattr(record, "rule_msg", None):
        lines.append(f"    message: {record.rule_msg}")
    lines.append(f"    jobid: {getattr(record, 'jobid', '?')}")
    logs = ", ".join(str(path) for path in getattr(record, "log", None) or [])
    if logs:
        lines.append(f"    log: {logs} (check log file(s) for error details)")
    return "\n".join(lines)


class FailedJobMessage(logging.Handler):
    """Writes :func:`job_error_message` of each failed job to standard error."""

    def __init__(self, stream=None):
        super().__init__()
        self.name = NAME
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        message = job_error_message(record)
        if message is not None:
            print(message, file=self.stream or sys.stderr, flush=True)


def install(logger: logging.Logger) -> None:
    """Add a :class:`FailedJobMessage` to ``logger`` (Snakemake's), unless it has one."""
    if not any(handler.name == NAME for handler in logger.handlers):
        logger.addHandler(FailedJobMessage())
