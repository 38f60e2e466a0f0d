"""The pooled protocol of ordinal classification and its paired randomisation test (ordeval.analysis.pooled)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ordeval.analysis.pooled import paired_randomisation_test, pooled_confusion, pooled_scores, pooled_significance
from ordeval.tasks.classification import measures as oc

MAE = oc.REGISTRY["MAE_M"]
ACC = oc.REGISTRY["accuracy"] if "accuracy" in oc.REGISTRY else oc.accuracy


def _labels(seed: int, items: int = 300, classes: int = 5, error: float = 0.3):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, classes, items)
    noise = rng.random(items) < error
    run = np.where(noise, rng.integers(0, classes, items), gold)
    return gold, run


def test_pooled_scores_are_the_measures_on_the_task_confusion_summed_over_topics():
    gold, run = _labels(1)
    other = np.roll(run, 7)
    topics = np.arange(gold.size) % 6
    per_topic = oc.confusion_matrices(gold, np.stack([run, other]), topics, 6, 5)
    expected = MAE(oc.pooled_confusion(per_topic))[:, 0]
    assert np.array_equal(pooled_confusion(gold, np.stack([run, other]), 5), oc.pooled_confusion(per_topic)[:, 0])
    assert np.allclose(pooled_scores(gold, np.stack([run, other]), 5, [MAE])[0], expected)


def test_identical_runs_give_p_one():
    gold, run = _labels(2)
    p = paired_randomisation_test(gold, run, run.copy(), 5, [MAE, ACC], 200, np.random.default_rng(0))
    assert np.array_equal(p, [1.0, 1.0])


def test_a_much_better_run_is_significant_and_one_of_the_same_quality_is_not():
    gold, good = _labels(3, error=0.05)
    _, bad = _labels(4, error=0.9)
    p = paired_randomisation_test(gold, good, bad, 5, [MAE, ACC], 500, np.random.default_rng(1))
    assert (p < 0.05).all()
    rng = np.random.default_rng(11)  # two runs of the same quality: errors on different items
    noisy = [np.where(rng.random(gold.size) < 0.2, rng.integers(0, 5, gold.size), gold) for _ in range(2)]
    p_close = paired_randomisation_test(gold, *noisy, 5, [MAE], 500, np.random.default_rng(1))
    assert p_close[0] > 0.05


def _exact(gold, first, second, measure) -> float:
    """p of the exact randomisation test: every one of the 2^n swaps of the differing items."""
    differ = np.flatnonzero(first != second)
    observed = abs(measure(pooled_confusion(gold, first, 5))[0] - measure(pooled_confusion(gold, second, 5))[0])
    extreme = 0
    for bits in itertools.product([False, True], repeat=differ.size):
        a, b = first.copy(), second.copy()
        swap = differ[np.array(bits, dtype=bool)]
        a[swap], b[swap] = second[swap], first[swap]
        value = abs(measure(pooled_confusion(gold, a, 5))[0] - measure(pooled_confusion(gold, b, 5))[0])
        extreme += value >= observed - 1e-12 * max(1.0, observed)
    return extreme / 2**differ.size


@pytest.mark.parametrize("seed", [5, 6])
def test_monte_carlo_p_is_within_its_error_of_the_exact_enumeration(seed):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 5, 30)
    first = gold.copy()
    second = gold.copy()
    flip = rng.choice(30, 12, replace=False)
    first[flip[:6]] = (first[flip[:6]] + 1) % 5
    second[flip[6:]] = (second[flip[6:]] + 2) % 5
    second[flip[:2]] = (second[flip[:2]] + 3) % 5
    exact = _exact(gold, first, second, MAE)
    trials = 20000
    estimate = paired_randomisation_test(
        gold, first, second, 5, [MAE], trials, np.random.default_rng(2), block_cells=1000
    )[0]
    error = np.sqrt(exact * (1 - exact) / trials)
    assert 0 < exact < 1
    assert abs(estimate - exact) <= 4 * error + 1e-9


def test_the_same_seed_gives_the_same_p_values():
    gold, good = _labels(7, error=0.2)
    _, other = _labels(8, error=0.25)
    one = paired_randomisation_test(gold, good, other, 5, [MAE], 400, np.random.default_rng(3))
    again = paired_randomisation_test(gold, good, other, 5, [MAE], 400, np.random.default_rng(3))
    assert np.array_equal(one, again)


def test_pooled_significance_of_every_pair():
    gold, a = _labels(9, error=0.05)
    _, b = _labels(10, error=0.8)
    result = pooled_significance(
        gold, np.stack([a, b, a]), 5, [MAE], ["MAE_M"], ["A", "B", "C"], [True], 300, np.random.default_rng(4)
    )
    matrix = result.matrix("MAE_M")
    assert matrix[0, 2] == 1.0 and matrix[0, 1] < 0.05 and matrix[1, 2] < 0.05
    assert result.means.shape == (1, 3) and result.means[0, 0] < result.means[0, 1]
    with pytest.raises(ValueError, match="trials"):
        paired_randomisation_test(gold, a, b, 5, [MAE], 0, np.random.default_rng(0))
