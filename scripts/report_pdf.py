"""Rule report_pdf: thin adapter; the job is ordeval.jobs.report_pdf."""

from ordeval.jobs import execute
from ordeval.jobs.report_pdf import run

execute(snakemake, run)
