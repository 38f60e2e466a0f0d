"""Rule classification_figures: thin adapter; the job is ordeval.jobs.classification_figures."""

from ordeval.jobs import execute
from ordeval.jobs.classification_figures import run

execute(snakemake, run)
