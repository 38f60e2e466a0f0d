"""Rule report_tex: thin adapter; the job is ordeval.jobs.report_tex."""

from ordeval.jobs import execute
from ordeval.jobs.report_tex import run

execute(snakemake, run)
