"""Rule agreement_figures: thin adapter; the job is ordeval.jobs.agreement_figures."""

from ordeval.jobs import execute
from ordeval.jobs.agreement_figures import run

execute(snakemake, run)
