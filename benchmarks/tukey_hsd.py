"""Benchmark: ordeval's randomised Tukey HSD against a plain per-trial Python implementation.

    python benchmarks/tukey_hsd.py [--trials 5000] [--threads 2]

On a 300 topics x 22 systems x 13 measures stack (the shape of a DialEval-1 data set), it times
``ordeval.stats.randomised_tukey_hsd`` (numba, after a warm-up that compiles or loads the cached code;
the median of ``--repeats`` calls)
and a reference that loops over the trials in Python, permuting each topic's row with
``rng.permutation`` and applying the permutation to all measures. It checks that the two give
p-values within Monte Carlo error of each other (exit status 1 otherwise) and prints, as its last line,
``reference_s=<seconds> ordeval_s=<seconds> speedup=<ratio>``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from ordeval.stats import randomised_tukey_hsd  # noqa: E402

TOPICS, SYSTEMS, MEASURES = 300, 22, 13
#: Allowed |p_ordeval - p_reference| in standard errors of the difference of two independent estimates;
#: with ~3000 p-values compared, 5 standard errors make a false alarm very unlikely.
TOLERANCE_SE = 5.0


def benchmark_stack(seed: int = 0) -> np.ndarray:
    """measures x topics x systems scores: graded system effects plus topic and noise effects, so that
    the p-values spread over (0, 1)."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.0, 0.06, SYSTEMS)
    topic_effect = rng.random((1, TOPICS, 1)) * 0.3
    measure_scale = rng.uniform(0.5, 1.5, (MEASURES, 1, 1))
    noise = rng.random((MEASURES, TOPICS, SYSTEMS)) * 0.4
    return measure_scale * (quality[None, None, :] + topic_effect + noise)


def reference_hsd(stack: np.ndarray, trials: int, rng: np.random.Generator) -> np.ndarray:
    """p-values (measures x systems x systems) by the textbook loop: for each trial, permute every
    topic's row with rng.permutation (the same permutation for all measures) and record max - min of
    the permuted system means; p = fraction of trials whose range >= |mean_s - mean_t|."""
    measures, topics, systems = stack.shape
    rows = np.arange(topics)[:, None]
    ranges = np.empty((trials, measures))
    for trial in range(trials):
        order = np.stack([rng.permutation(systems) for _ in range(topics)])
        means = stack[:, rows, order].mean(axis=1)
        ranges[trial] = means.max(axis=1) - means.min(axis=1)
    means = stack.mean(axis=1)
    differences = np.abs(means[:, :, None] - means[:, None, :])
    slack = 1e-12 * np.maximum(1.0, np.abs(means).max())
    return (ranges.T[:, None, None, :] >= differences[..., None] - slack).mean(axis=-1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20211101)
    parser.add_argument("--repeats", type=int, default=5, help="calls of the fast version; the median is reported")
    arguments = parser.parse_args(argv)
    stack = benchmark_stack()
    print(f"stack: {TOPICS} topics x {SYSTEMS} systems x {MEASURES} measures, B = {arguments.trials}")

    randomised_tukey_hsd(stack[:, :10], 10, np.random.default_rng(0), threads=arguments.threads)  # warm-up
    # The fast call takes a tenth of a second, where a busy machine's jitter shows: take the median of
    # several calls (each with the same seed, so each gives the same p-values).
    seconds = []
    for _ in range(arguments.repeats):
        start = time.perf_counter()
        fast = randomised_tukey_hsd(stack, arguments.trials, np.random.default_rng(arguments.seed), arguments.threads)
        seconds.append(time.perf_counter() - start)
    ordeval_seconds = float(np.median(seconds))
    print(
        f"ordeval randomised_tukey_hsd ({arguments.threads} threads): median {ordeval_seconds:.3f} s "
        f"of {arguments.repeats} calls ({min(seconds):.3f}-{max(seconds):.3f})"
    )

    start = time.perf_counter()
    slow = reference_hsd(stack, arguments.trials, np.random.default_rng(arguments.seed + 1))
    reference_seconds = time.perf_counter() - start
    print(f"reference (per-trial Python loop): {reference_seconds:.3f} s")

    average = (fast.p_values + slow) / 2
    standard_error = np.sqrt(2 * average * (1 - average) / arguments.trials)
    excess = np.abs(fast.p_values - slow) - (TOLERANCE_SE * standard_error + 1 / arguments.trials)
    off_diagonal = ~np.eye(SYSTEMS, dtype=bool)[None].repeat(MEASURES, axis=0)
    spread = fast.p_values[off_diagonal]
    print(
        f"p-values: {off_diagonal.sum()} pairs, {np.mean((spread > 0.01) & (spread < 0.99)):.0%} strictly between "
        f"0.01 and 0.99; largest |difference| {np.abs(fast.p_values - slow).max():.4f}"
    )
    if (excess > 0).any():
        where = np.unravel_index(np.argmax(excess), excess.shape)
        print(
            f"FAIL: p-values differ beyond Monte Carlo error at (measure, system, system) {where}: "
            f"ordeval {fast.p_values[where]:.4f}, reference {slow[where]:.4f}",
            file=sys.stderr,
        )
        return 1
    print(f"p-values agree within {TOLERANCE_SE:g} Monte Carlo standard errors")
    print(
        f"reference_s={reference_seconds:.3f} ordeval_s={ordeval_seconds:.3f} "
        f"speedup={reference_seconds / ordeval_seconds:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
