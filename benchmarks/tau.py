"""Benchmark: ordeval's batched O(n log n) Kendall's tau against the numpy pairwise version and a scipy loop.

    python benchmarks/tau.py [--threads 2] [--repeats 3] [--sizes 1000x13_n22,...] [--pairs N]

Run from the repository root with ``ordeval`` installed (``pip install -e .``) or on the path
(``PYTHONPATH=$PWD/src python benchmarks/tau.py``).

Batches of pairs of rankings shaped like the consistency analysis' split taus (trials x 13 measures pairs
of rankings of n runs) at a few sizes:

* ordeval: :func:`ordeval.stats.kendall.kendall_tau` (numba, parallel over the batch on ``--threads``);
* numpy: ``baselines.numpy_pairwise_tau`` (all n(n-1)/2 pair signs at once, memory batch x n^2: timed
  on as many pairs as fit in ``--numpy-limit-gb`` and scaled to the batch);
* scipy: :func:`scipy.stats.kendalltau` called once per pair of rankings (timed on at most
  ``--scipy-pairs`` pairs and scaled to the batch).

Checks that the three agree (1e-12) and prints, as its last line, ``key=value`` pairs: seconds of each and
the ratios ``<size>_numpy_over_ordeval`` and ``<size>_scipy_over_ordeval``. Writes ``results/tau.json``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import key_values, machine, median_seconds, write_results
from baselines import numpy_pairwise_tau, scipy_loop_tau

from ordeval.stats.kendall import kendall_tau

#: (name, pairs of rankings, runs)
SIZES = [
    ("1000x13_n22", 13_000, 22),
    ("1000x13_n100", 13_000, 100),
    ("1000x13_n300", 13_000, 300),
    ("1000x13_n1000", 13_000, 1000),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--numpy-limit-gb", type=float, default=2.0)
    parser.add_argument("--scipy-pairs", type=int, default=1000)
    parser.add_argument("--sizes", default=",".join(name for name, _, _ in SIZES), help="comma-separated size names")
    parser.add_argument("--pairs", type=int, default=0, help="pairs of rankings per size (default: the size's own)")
    arguments = parser.parse_args(argv)
    chosen = arguments.sizes.split(",")
    unknown = sorted(set(chosen) - {name for name, _, _ in SIZES})
    if unknown:
        parser.error(f"unknown sizes {unknown}; known: {[name for name, _, _ in SIZES]}")
    print(f"Kendall's tau-b: ordeval (numba, O(n log n)) vs numpy pairwise vs scipy loop; {machine()}")
    kendall_tau(np.arange(3.0), np.arange(3.0), threads=arguments.threads)  # compile or load: not timed
    rows, summary, ok = [], {}, True
    for name, pairs, runs in SIZES:
        if name not in chosen:
            continue
        pairs = arguments.pairs or pairs
        rng = np.random.default_rng(runs)
        x = rng.random((pairs, runs))
        y = 0.7 * x + 0.3 * rng.random((pairs, runs))
        x[:, 1] = x[:, 0]  # a tie, as between identical runs
        ordeval_s, _ = median_seconds(lambda: kendall_tau(x, y, threads=arguments.threads), arguments.repeats)  # noqa: B023
        taus = kendall_tau(x, y)
        row = {"size": name, "pairs": pairs, "runs": runs, "threads": arguments.threads, "ordeval_s": ordeval_s}
        # numpy: pair signs of x and y, their product and the counts: ~4 arrays of batch x n(n-1)/2 doubles;
        # timed on as many pairs as fit in --numpy-limit-gb, scaled to the batch
        numpy_pairs = int(min(pairs, max(1, arguments.numpy_limit_gb * 1e9 // (4 * 8 * runs * (runs - 1) / 2))))
        numpy_measured, _ = median_seconds(lambda: numpy_pairwise_tau(x[:numpy_pairs], y[:numpy_pairs]), 1)  # noqa: B023
        ok &= bool(np.allclose(numpy_pairwise_tau(x[:50], y[:50]), taus[:50], atol=1e-12, rtol=0))
        row["numpy_s"] = numpy_measured * pairs / numpy_pairs
        row["numpy_pairs_measured"] = numpy_pairs
        scipy_pairs = min(pairs, arguments.scipy_pairs)
        scipy_measured, _ = median_seconds(lambda: scipy_loop_tau(x[:scipy_pairs], y[:scipy_pairs]), 1)  # noqa: B023
        ok &= bool(np.allclose(scipy_loop_tau(x[:50], y[:50]), taus[:50], atol=1e-12, rtol=0))
        row["scipy_s"] = scipy_measured * pairs / scipy_pairs
        line = f"{name}: {pairs} pairs of rankings of {runs} runs: ordeval {ordeval_s:.3f} s"
        row["numpy_over_ordeval"] = row["numpy_s"] / ordeval_s
        line += f", numpy {row['numpy_s']:.3f} s ({row['numpy_over_ordeval']:.1f}x"
        line += ")" if numpy_pairs == pairs else f", timed on {numpy_pairs} pairs and scaled)"
        row["scipy_over_ordeval"] = row["scipy_s"] / ordeval_s
        line += f", scipy loop {row['scipy_s']:.3f} s ({row['scipy_over_ordeval']:.1f}x)"
        print(line)
        rows.append(row)
        for key in ("ordeval_s", "numpy_s", "scipy_s", "numpy_over_ordeval", "scipy_over_ordeval"):
            summary[f"{name}_{key}"] = row[key]
    print("taus agree" if ok else "TAUS DISAGREE")
    path = write_results("tau", {"benchmark": "tau", "machine": machine(), "rows": rows})
    print(f"wrote {path}")
    summary["threads"] = arguments.threads
    summary["agree"] = int(ok)
    print(key_values(summary))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
