"""Rule measure_report: thin adapter; the job is ordeval.jobs.measure_report."""

from ordeval.jobs import execute
from ordeval.jobs.measure_report import run

execute(snakemake, run)
