"""Rule classification_tables: thin adapter; the job is ordeval.jobs.classification_tables."""

from ordeval.jobs import execute
from ordeval.jobs.classification_tables import run

execute(snakemake, run)
