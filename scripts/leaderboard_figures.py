"""Rule leaderboard_figures: thin adapter; the job is ordeval.jobs.leaderboard_figures."""

from ordeval.jobs import execute
from ordeval.jobs.leaderboard_figures import run

execute(snakemake, run)
