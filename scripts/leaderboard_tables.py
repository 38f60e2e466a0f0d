"""Rule leaderboard_tables: thin adapter; the job is ordeval.jobs.leaderboard_tables."""

from ordeval.jobs import execute
from ordeval.jobs.leaderboard_tables import run

execute(snakemake, run)
