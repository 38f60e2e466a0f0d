"""Rule prepare_data: thin adapter; the job is ordeval.jobs.prepare_data."""

from ordeval.jobs import execute
from ordeval.jobs.prepare_data import run

execute(snakemake, run)
