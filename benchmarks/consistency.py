"""Benchmark: wall time of the whole consistency analysis (SPEC 4.2) of a configuration with Snakemake.

    python benchmarks/consistency.py [--cores 2] [--configfile config/config.yaml] [--workdir DIR]

In a scratch working directory (a temporary one unless --workdir is given), it first builds the data
sets and their score tables (not timed), then times ``snakemake --cores N consistency``, forcing
every consistency job to run: the splits, taus, randomised Tukey HSD tests, tables and figures of all
data sets and both conditions (1000 splits and B = 5000 each with the default configuration). Prints
as its last line ``consistency_s=<seconds> cores=<N>``. The target for the eight default data sets
with 2 cores is under 2 minutes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from conftest import run_workflow  # noqa: E402  (runs the project's Snakefile in a working directory)

CONSISTENCY_RULES = ["consistency_dataset", "consistency_figure", "consistency_mean"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--configfile", type=Path, default=REPO / "config" / "config.yaml")
    parser.add_argument("--workdir", type=Path, help="working directory (default: a temporary one)")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ordeval-consistency-") as scratch:
        workdir = (arguments.workdir or Path(scratch)).resolve()
        config = yaml.safe_load(arguments.configfile.read_text())
        cores = ["--cores", str(arguments.cores)]
        print(f"preparing data and scores in {workdir}")
        run_workflow(workdir, config, "consistency", "--until", "score_runs", *cores)
        start = time.perf_counter()
        run_workflow(workdir, config, "consistency", "--forcerun", *CONSISTENCY_RULES, *cores)
        seconds = time.perf_counter() - start
    print(f"consistency_s={seconds:.1f} cores={arguments.cores}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
