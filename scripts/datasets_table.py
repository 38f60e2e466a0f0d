"""Rule datasets_table: thin adapter; the job is ordeval.jobs.datasets_table."""

from ordeval.jobs import execute
from ordeval.jobs.datasets_table import run

execute(snakemake, run)
