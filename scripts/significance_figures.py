"""Rule significance_figures: thin adapter; the job is ordeval.jobs.significance_figures."""

from ordeval.jobs import execute
from ordeval.jobs.significance_figures import run

execute(snakemake, run)
