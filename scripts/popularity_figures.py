"""Rule popularity_figures: thin adapter; the job is ordeval.jobs.popularity_figures."""

from ordeval.jobs import execute
from ordeval.jobs.popularity_figures import run

execute(snakemake, run)
