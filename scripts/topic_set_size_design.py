"""Rule topic_set_size_design: thin adapter; the job is ordeval.jobs.topic_set_size_design."""

from ordeval.jobs import execute
from ordeval.jobs.topic_set_size_design import run

execute(snakemake, run)
