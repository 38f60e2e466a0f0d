"""Rule manifest: thin adapter; the job is ordeval.jobs.manifest."""

from ordeval.jobs import execute
from ordeval.jobs.manifest import run

execute(snakemake, run)
