"""Rule consistency_figures: thin adapter; the job is ordeval.jobs.consistency_figures."""

from ordeval.jobs import execute
from ordeval.jobs.consistency_figures import run

execute(snakemake, run)
