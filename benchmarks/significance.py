"""Time the randomised Tukey HSD of one data set as the significance_pvalues rule runs it.

    python benchmarks/significance.py [--topics 300] [--runs 22] [--measures 13] [--trials 5000]

Default shape: DialEval1-DQ (the largest default data set: 300 topics x 22 runs) with all 13 measures
and B = 5000. Prints the wall time per thread count (after one warm-up call that compiles or loads the
numba kernel) and the peak resident memory of this process.
"""

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from ordeval import seeding  # noqa: E402
from ordeval.scoring import ScoreStack  # noqa: E402
from ordeval.significance import pairwise_significance  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=300)
    parser.add_argument("--runs", type=int, default=22)
    parser.add_argument("--measures", type=int, default=13)
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    arguments = parser.parse_args()

    rng = np.random.default_rng(0)
    values = rng.uniform(size=(arguments.measures, arguments.topics, arguments.runs))
    stack = ScoreStack(
        [f"M{i}" for i in range(arguments.measures)],
        [f"t{i}" for i in range(arguments.topics)],
        [f"r{i}" for i in range(arguments.runs)],
        values,
    )
    started = time.perf_counter()
    pairwise_significance(stack, 10, seeding.stream(0, "warm-up"), 1)
    print(f"warm-up (numba compile or cache load): {time.perf_counter() - started:.2f} s")
    for threads in arguments.threads:
        started = time.perf_counter()
        pairwise_significance(stack, arguments.trials, seeding.stream(0, "benchmark", "significance"), threads)
        elapsed = time.perf_counter() - started
        print(
            f"{arguments.measures} measures x {arguments.topics} topics x {arguments.runs} runs, "
            f"B = {arguments.trials}, {threads} thread(s): {elapsed:.2f} s"
        )
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
