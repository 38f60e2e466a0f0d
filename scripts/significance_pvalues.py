"""Rule significance_pvalues: thin adapter; the job is ordeval.jobs.significance_pvalues."""

from ordeval.jobs import execute
from ordeval.jobs.significance_pvalues import run

execute(snakemake, run)
