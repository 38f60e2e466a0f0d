"""Rule score_runs: thin adapter; the job is ordeval.jobs.score_runs."""

from ordeval.jobs import execute
from ordeval.jobs.score_runs import run

execute(snakemake, run)
