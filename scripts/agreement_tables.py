"""Rule agreement_tables: thin adapter; the job is ordeval.jobs.agreement_tables."""

from ordeval.jobs import execute
from ordeval.jobs.agreement_tables import run

execute(snakemake, run)
