"""Every registered measure of every scoring task is finite on every valid input (issue 35): OQ measures on
distributions with zeros, tiny and subnormal probabilities, one-hot and uniform ones; OC measures on
every non-empty confusion matrix (an empty topic is NaN, the documented convention). The registries are
iterated when the tests run, so a measure added to a registry (or by a plugin) is covered with no change
here; a new scoring task needs its own generator below, and the first test says so."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordeval.tasks import get_task, scoring_tasks

#: Probabilities that break naive formulas: the smallest subnormal float, a tiny normal one, rounding noise.
TINY = (0.0, 5e-324, 1e-310, 1e-300, 1e-150, 1e-16)
COVERED = {"quantification", "classification"}


def test_every_scoring_task_is_covered():
    assert set(scoring_tasks()) == COVERED, "add a generator of valid inputs for the new task here"


def _registry(task: str):
    return get_task(task).registry


def extreme_distributions(num_classes: int) -> np.ndarray:
    """One-hot at every class, uniform, one-hot with a tiny or subnormal probability beside it (on the
    neighbour, or everywhere else), two classes sharing the mass, and Dirichlet draws of small shape."""
    rows = [np.full(num_classes, 1 / num_classes)]
    for hot in range(num_classes):
        rows.append(np.eye(num_classes)[hot])
        for tiny in TINY[1:]:
            near = np.zeros(num_classes)
            near[hot], near[(hot + 1) % num_classes] = 1 - tiny, tiny
            rows.append(near)
            spread = np.full(num_classes, tiny)
            spread[hot] = 1 - tiny * (num_classes - 1)
            rows.append(spread)
    pair = np.zeros(num_classes)
    pair[[0, -1]] = 0.5
    rows.append(pair)
    rows.extend(np.random.default_rng(num_classes).dirichlet(np.full(num_classes, 0.05), size=20))
    return np.array(rows)


@pytest.mark.parametrize("num_classes", [2, 3, 5])
def test_oq_measures_are_finite_on_every_pair_of_extreme_distributions(num_classes):
    rows = extreme_distributions(num_classes)
    estimate, gold = rows[:, None, :], rows[None, :, :]  # every estimate against every gold
    for name, measure in _registry("quantification").items():
        values = np.asarray(measure(estimate, gold), dtype=float)
        assert values.shape == (len(rows), len(rows)), name
        bad = np.argwhere(~np.isfinite(values))
        assert not bad.size, f"{name} is {values[tuple(bad[0])]} for {rows[bad[0][0]]} against {rows[bad[0][1]]}"


def test_jsd_is_bounded_by_one_bit_and_zero_where_a_subnormal_meets_a_zero():
    jsd = _registry("quantification")["JSD"]
    rows = extreme_distributions(5)
    values = jsd(rows[:, None, :], rows[None, :, :])
    assert ((values >= 0) & (values <= 1)).all()
    assert jsd(np.eye(5)[0], np.eye(5)[4]) == 1.0  # disjoint supports: one bit
    # the case: the estimate puts 5e-324 where the gold has 0 (the midpoint underflows to 0)
    estimate, gold = np.array([1 - 1e-16, 5e-324, 0, 0, 1e-16]), np.array([1.0, 0, 0, 0, 0])
    assert 0 <= jsd(estimate, gold) < 1e-15
    assert _registry("quantification")["DNKT_JSD"](estimate, gold) < 1e-15


def _with_tiny_entries(draw, num_classes: int) -> np.ndarray:
    """A distribution whose entries are either one of TINY or a share of the rest of the mass."""
    tiny = draw(st.lists(st.one_of(st.none(), st.sampled_from(TINY)), min_size=num_classes, max_size=num_classes))
    weights = np.array([draw(st.floats(0.01, 1.0)) if t is None else 0.0 for t in tiny])
    values = np.array([0.0 if t is None else t for t in tiny])
    rest = 1.0 - values.sum()
    if weights.sum() == 0:
        weights[draw(st.integers(0, num_classes - 1))] = 1.0
        values[weights > 0] = 0.0
        rest = 1.0 - values.sum()
    return values + rest * weights / weights.sum()


@st.composite
def distribution_pairs(draw):
    num_classes = draw(st.integers(2, 7))
    count = draw(st.integers(1, 6))
    estimate = np.stack([_with_tiny_entries(draw, num_classes) for _ in range(count)])
    gold = np.stack([_with_tiny_entries(draw, num_classes) for _ in range(count)])
    return estimate, gold


@settings(max_examples=150, deadline=None)
@given(distribution_pairs())
def test_oq_measures_are_finite_on_random_distributions_with_tiny_entries(pair):
    estimate, gold = pair
    for name, measure in _registry("quantification").items():
        values = np.asarray(measure(estimate, gold), dtype=float)
        assert np.isfinite(values).all(), f"{name}: {values} for {estimate.tolist()} against {gold.tolist()}"


def extreme_confusions(num_classes: int) -> np.ndarray:
    """Non-empty confusion matrices (system rows x gold columns): one item, every item in one cell, a
    constant run (one row), one gold class (one column), a perfect run, an always-wrong run, huge counts,
    and random counts with many zeros."""
    k = num_classes
    matrices = []
    for i, j in itertools.product(range(k), repeat=2):
        cell = np.zeros((k, k))
        cell[i, j] = 1
        matrices += [cell, cell * 10**9]
    for i in range(k):
        row, column = np.zeros((k, k)), np.zeros((k, k))
        row[i] = np.arange(1, k + 1)
        column[:, i] = np.arange(1, k + 1)
        matrices += [row, column]
    matrices.append(np.diag(np.arange(1, k + 1)).astype(float))
    matrices.append(np.fliplr(np.eye(k)) * 3)
    matrices.append(np.full((k, k), 10.0**12))
    rng = np.random.default_rng(k)
    random = rng.poisson(0.7, size=(40, k, k)).astype(float)
    random[random.sum(axis=(1, 2)) == 0, 0, 0] = 1
    matrices.extend(random)
    return np.array(matrices)


@pytest.mark.parametrize("num_classes", [2, 3, 5])
def test_oc_measures_are_finite_on_every_non_empty_confusion_matrix_and_nan_on_an_empty_one(num_classes):
    confusions = extreme_confusions(num_classes)
    empty = np.zeros((1, num_classes, num_classes))
    for name, measure in _registry("classification").items():
        values = np.asarray(measure(confusions), dtype=float)
        bad = np.argwhere(~np.isfinite(values))
        assert not bad.size, f"{name} is {values[bad[0][0]]} for {confusions[bad[0][0]].tolist()}"
        assert np.isnan(measure(empty)).all(), f"{name}: an empty topic is NaN (the documented convention)"


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 7).flatmap(lambda k: st.lists(st.integers(0, 50), min_size=k * k, max_size=k * k)))
def test_oc_measures_are_finite_on_random_confusion_matrices(counts):
    k = int(round(len(counts) ** 0.5))
    confusion = np.array(counts, dtype=np.int64).reshape(k, k)
    if confusion.sum() == 0:
        confusion[0, 0] = 1
    for name, measure in _registry("classification").items():
        assert np.isfinite(measure(confusion)), f"{name} on {confusion.tolist()}"
