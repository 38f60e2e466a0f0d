"""Rule report_captions: thin adapter; the job is ordeval.jobs.report_captions."""

from ordeval.jobs import execute
from ordeval.jobs.report_captions import run

execute(snakemake, run)
