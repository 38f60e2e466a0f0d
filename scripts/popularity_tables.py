"""Rule popularity_tables: thin adapter; the job is ordeval.jobs.popularity_tables."""

from ordeval.jobs import execute
from ordeval.jobs.popularity_tables import run

execute(snakemake, run)
