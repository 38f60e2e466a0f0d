"""Benchmark: ordeval's randomised Tukey HSD against a bare numba kernel and a vectorised numpy version.

    python benchmarks/hsd.py [--threads 2] [--trials 5000] [--repeats 5] [--large-repeats 3]
                             [--numpy-large-trials 500] [--sizes default,large]

Run from the repository root with ``ordeval`` installed (``pip install -e .``) or on the path
(``PYTHONPATH=$PWD/src python benchmarks/hsd.py``).

Sizes: ``default`` = 300 topics x 22 runs x 13 measures (a DialEval-1 data set with every measure),
``large`` = 2,000 topics x 100 runs x 13 measures; B = ``--trials`` (5000). All three implementations
use the same number of threads (``--threads``):

* ordeval: :func:`ordeval.stats.hsd.randomised_tukey_hsd`, the whole call (input checks, layout copy, seeds,
  kernel, p-values);
* bare: :func:`baselines.bare_null_ranges`, only permute, average and take the range (same layout and
  same random-number generation as ordeval's kernel), no p-values;
* numpy: :func:`baselines.numpy_null_ranges` plus the p-values. At the large size it takes minutes, so
  it runs ``--numpy-large-trials`` trials and its time is scaled linearly to B (its cost is linear in B:
  independent blocks of trials), which the output says.
* C: :func:`baselines.c_null_ranges` (``hsd_floor.c``, compiled with ``-O3 -march=native -fopenmp``
  where a C compiler is found; skipped otherwise), ordeval's algorithm in native code, no p-values. With
  ordeval's seeds it must give ordeval's null ranges exactly (checked), so ``numpy_over_c`` is what
  straightforward native code of the same algorithm reaches against numpy here (hand-tuned code with
  the sizes fixed at compile time does better: ~0.040 s at the default size on the 2-core machine of
  the results, ~9x numpy).

They run in interleaved rounds (ordeval, bare, numpy, C, then again) after a warm-up that compiles or
loads the numba code; each time is the median over the rounds, each ratio the median of the rounds'
ratios (a shared machine's load drifts: only calls made one after the other compare fairly). The
p-values of the three (independent random streams) must agree within Monte Carlo error (5 standard
errors of the difference + 1/B), and the C kernel's ranges must be ordeval's exactly; otherwise the exit
status is 1. Targets (issue): ordeval within 1.25x of the bare kernel at both sizes, and at least 10x
faster than numpy. Writes ``results/hsd.json`` and
prints, as its last line, ``key=value`` pairs: per size, the seconds of each and the ratios
``<size>_ordeval_over_bare`` and ``<size>_numpy_over_ordeval``.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import numpy as np
from _common import key_values, machine, median_seconds, write_results
from baselines import bare_null_ranges, c_available, c_null_ranges, numpy_null_ranges, p_values_from_ranges

from ordeval.stats.hsd import _padded_layout, randomised_tukey_hsd, trial_seeds

SIZES = {"default": (300, 22, 13), "large": (2000, 100, 13)}
#: Trials per block of the C kernel, its own best: 8 the fastest at the default size (4-32 within ~10%),
#: within 7% of the best (32) at 2,000 x 100. The blocking does not change the ranges, only the speed.
C_BLOCK = 8
TOLERANCE_SE = 5.0


def benchmark_stack(topics: int, systems: int, measures: int, seed: int = 0) -> np.ndarray:
    """measures x topics x systems scores: graded system effects plus topic effects and noise, so that the
    p-values spread over (0, 1); two identical systems (p = 1)."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.0, 0.9, systems) / np.sqrt(topics)
    topic_effect = rng.random((1, topics, 1)) * 0.3
    measure_scale = rng.uniform(0.5, 1.5, (measures, 1, 1))
    noise = rng.random((measures, topics, systems)) * 0.4
    stack = measure_scale * (quality[None, None, :] + topic_effect + noise)
    stack[:, :, 1] = stack[:, :, 0]
    return stack


def agree(first: np.ndarray, first_trials: int, second: np.ndarray, second_trials: int) -> tuple[bool, float]:
    """p-values within Monte Carlo error of each other; and the largest |difference|."""
    average = (first + second) / 2
    error = np.sqrt(average * (1 - average) * (1 / first_trials + 1 / second_trials))
    excess = np.abs(first - second) - (TOLERANCE_SE * error + 1 / min(first_trials, second_trials))
    return bool((excess <= 0).all()), float(np.abs(first - second).max())


def run_size(name: str, arguments: argparse.Namespace) -> tuple[dict, bool]:
    topics, systems, measures = SIZES[name]
    trials, threads = arguments.trials, arguments.threads
    repeats = arguments.repeats if name == "default" else arguments.large_repeats
    stack = benchmark_stack(topics, systems, measures)
    layout = np.ascontiguousarray(stack.transpose(1, 2, 0))
    print(f"\n{name}: {topics} topics x {systems} runs x {measures} measures, B = {trials}, {threads} threads")

    randomised_tukey_hsd(stack[:, :5], 8, np.random.default_rng(0), threads)  # compile or load: not timed
    bare_null_ranges(layout[:5], 8, np.random.default_rng(0), threads)

    result = bare_ranges = numpy_p = None
    numpy_trials = trials if name == "default" else min(trials, arguments.numpy_large_trials)
    with_c = c_available()
    padded = _padded_layout(stack)  # ordeval's own layout for the C kernel
    c_seeds = trial_seeds(np.random.default_rng(4), trials)

    def ordeval_call():
        nonlocal result
        result = randomised_tukey_hsd(stack, trials, np.random.default_rng(1), threads)

    def bare_call():
        nonlocal bare_ranges
        bare_ranges = bare_null_ranges(layout, trials, np.random.default_rng(2), threads)

    def numpy_call():
        nonlocal numpy_p
        ranges = numpy_null_ranges(layout, numpy_trials, np.random.default_rng(3), threads)
        numpy_p = p_values_from_ranges(stack, ranges)

    def c_call():
        c_null_ranges(padded, measures, c_seeds, threads, C_BLOCK)

    # Interleaved rounds (ordeval, bare, numpy, C, then again): on a shared machine the load drifts, and a
    # ratio is only fair between calls made under the same load. Ratios: the median of the per-round ratios.
    ordeval_all, bare_all, numpy_all, c_all = [], [], [], []
    calls = [(ordeval_call, ordeval_all), (bare_call, bare_all), (numpy_call, numpy_all)]
    if with_c:
        c_call()  # warm-up
        calls.append((c_call, c_all))
    for _ in range(repeats):
        for call, times in calls:
            times.append(median_seconds(call, 1)[0])
    scale = trials / numpy_trials
    ordeval_s, bare_s = statistics.median(ordeval_all), statistics.median(bare_all)
    numpy_measured = statistics.median(numpy_all)
    numpy_s = numpy_measured * scale
    over_bare = statistics.median(o / b for o, b in zip(ordeval_all, bare_all, strict=True))
    numpy_over = statistics.median(n * scale / o for n, o in zip(numpy_all, ordeval_all, strict=True))
    print(f"  ordeval: median {ordeval_s:.3f} s of {repeats} ({min(ordeval_all):.3f}-{max(ordeval_all):.3f})")
    print(f"  bare kernel: median {bare_s:.3f} s of {repeats} ({min(bare_all):.3f}-{max(bare_all):.3f})")
    scaled = ""
    if numpy_trials != trials:
        scaled = f" for B = {numpy_trials}, scaled x{scale:g} to B = {trials}"
    print(f"  numpy: median {numpy_measured:.3f} s of {repeats}{scaled} -> {numpy_s:.3f} s")
    c_s = numpy_over_c = ordeval_over_c = c_identical = None
    if with_c:
        c_s = statistics.median(c_all)
        numpy_over_c = statistics.median(n * scale / c for n, c in zip(numpy_all, c_all, strict=True))
        ordeval_over_c = statistics.median(o / c for o, c in zip(ordeval_all, c_all, strict=True))
        ordeval_seeds = trial_seeds(np.random.default_rng(1), trials)  # those ordeval_call's HSD drew
        c_ranges = c_null_ranges(padded, measures, ordeval_seeds, threads, C_BLOCK)
        c_identical = bool(np.array_equal(c_ranges.T, result.null_ranges))
        print(
            f"  C reference (hsd_floor.c): median {c_s:.3f} s of {repeats}; null ranges "
            + ("identical to ordeval's" if c_identical else "DIFFER from ordeval's")
            + f"; numpy / C = {numpy_over_c:.1f} (straightforward native code of the same algorithm)"
        )
    else:
        print("  C reference: skipped (no C compiler with OpenMP)")

    bare_p = p_values_from_ranges(stack, bare_ranges)
    ok_bare, diff_bare = agree(result.p_values, trials, bare_p, trials)
    ok_numpy, diff_numpy = agree(result.p_values, trials, numpy_p, numpy_trials)
    off = result.p_values[:, ~np.eye(systems, dtype=bool)]
    print(
        f"  p-values: {off.size} pairs, {np.mean((off > 0.01) & (off < 0.99)):.0%} strictly between 0.01 and 0.99; "
        f"largest |ordeval - bare| {diff_bare:.4f}, |ordeval - numpy| {diff_numpy:.4f}: "
        + ("agree within Monte Carlo error" if ok_bare and ok_numpy else "DISAGREE beyond Monte Carlo error")
    )
    print(
        f"  ordeval / bare = {over_bare:.2f} (target <= 1.25); "
        f"numpy / ordeval = {numpy_over:.1f} (target >= 10), medians of the per-round ratios"
    )
    row = {
        "size": name,
        "topics": topics,
        "runs": systems,
        "measures": measures,
        "trials": trials,
        "threads": threads,
        "ordeval_s": ordeval_s,
        "bare_s": bare_s,
        "numpy_s": numpy_s,
        "numpy_trials_measured": numpy_trials,
        "ordeval_all_s": ordeval_all,
        "bare_all_s": bare_all,
        "numpy_all_s": numpy_all,
        "ordeval_over_bare": over_bare,  # medians of the per-round ratios (interleaved rounds)
        "numpy_over_ordeval": numpy_over,
        "p_values_agree": ok_bare and ok_numpy,
        "c_s": c_s,
        "c_all_s": c_all,
        "numpy_over_c": numpy_over_c,
        "ordeval_over_c": ordeval_over_c,
        "c_ranges_identical": c_identical,
    }
    return row, ok_bare and ok_numpy and c_identical is not False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5, help="calls per implementation at the default size")
    parser.add_argument("--large-repeats", type=int, default=3, help="calls per implementation at the large size")
    parser.add_argument("--numpy-large-trials", type=int, default=500)
    parser.add_argument("--sizes", default="default,large", help="comma-separated: default, large")
    arguments = parser.parse_args(argv)
    print(f"randomised Tukey HSD: ordeval vs bare numba kernel vs vectorised numpy; {machine()}")
    rows, ok = [], True
    for name in arguments.sizes.split(","):
        row, agreed = run_size(name, arguments)
        rows.append(row)
        ok &= agreed
    path = write_results("hsd", {"benchmark": "hsd", "machine": machine(), "rows": rows})
    print(f"\nwrote {path}")
    summary = {}
    for row in rows:
        for key in ("ordeval_s", "bare_s", "numpy_s", "ordeval_over_bare", "numpy_over_ordeval", "numpy_over_c"):
            if row[key] is not None:
                summary[f"{row['size']}_{key}"] = row[key]
    summary["threads"] = arguments.threads
    summary["p_values_agree"] = int(ok)
    print(key_values(summary))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
