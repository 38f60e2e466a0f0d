"""Rule consistency_taus: thin adapter; the job is ordeval.jobs.consistency_taus."""

from ordeval.jobs import execute
from ordeval.jobs.consistency_taus import run

execute(snakemake, run)
