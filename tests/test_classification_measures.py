"""The OC measures (SPEC section 3b): hand-computed values, slow textbook references, the properties
behind the registry flags (ordinal; ordeval's constant_no_better_than_chance and majority_run_far_from_perfect,
which tests/test_properties.py checks with the paper's handles_constant and handles_imbalance) and the 0/0
conventions.

Confusion matrices are c[i, j]: rows = SYSTEM class i, columns = GOLD class j.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ordeval.tasks.classification.measures import (
    MEASURES,
    REGISTRY,
    cem_proximity,
    confusion_matrices,
    convention_masks,
    get_measure,
    pooled_confusion,
)

ALL = list(MEASURES)
LOWER_IS_BETTER = {"MAE_M", "MAE_mu"}
TOLERANCE = 1e-12


def score(name: str, confusion) -> float:
    return float(get_measure(name)(np.asarray(confusion)))


def scores(confusion) -> dict[str, float]:
    return {name: score(name, confusion) for name in ALL}


def flagged(flag: str, value: bool = True) -> set[str]:
    return {name for name in ALL if MEASURES[name].properties[flag] is value}


def better(name: str, first: float, second: float, tolerance: float = TOLERANCE) -> bool:
    """``first`` is a strictly better score than ``second`` (by more than ``tolerance``)."""
    if name in LOWER_IS_BETTER:
        return first < second - tolerance
    return first > second + tolerance


def perfect_score(name: str) -> float:
    return 0.0 if name in LOWER_IS_BETTER else 1.0


def confusion_of(gold, system, num_classes: int) -> np.ndarray:
    """One topic's confusion matrix (K, K) from label lists, by a plain loop."""
    c = np.zeros((num_classes, num_classes), dtype=np.int64)
    for g, s in zip(gold, system, strict=True):
        c[s, g] += 1
    return c


def constant_run(gold_counts, k: int) -> np.ndarray:
    """Every item put in class k: row k holds the gold counts."""
    c = np.zeros((len(gold_counts),) * 2)
    c[k] = gold_counts
    return c


def chance_run(gold_counts) -> np.ndarray:
    """Expected confusion matrix of labelling at random with the gold's class distribution."""
    g = np.asarray(gold_counts, dtype=float)
    return np.outer(g, g) / g.sum()


# --------------------------------------------------------------------------- strategies


@st.composite
def label_pairs(draw, min_classes=2, max_classes=6, min_items=1, max_items=30):
    """(K, gold labels, system labels) of one topic."""
    k = draw(st.integers(min_classes, max_classes))
    n = draw(st.integers(min_items, max_items))
    labels = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    return k, draw(labels), draw(labels)


@st.composite
def gold_count_vectors(draw, min_classes=2, max_classes=6, max_count=60):
    """Gold counts per class with at least two non-empty classes."""
    k = draw(st.integers(min_classes, max_classes))
    counts = draw(st.lists(st.integers(0, max_count), min_size=k, max_size=k))
    nonempty = draw(st.lists(st.integers(0, k - 1), min_size=2, max_size=2, unique=True))
    for j in nonempty:
        counts[j] = max(counts[j], 1)
    return np.array(counts)


# --------------------------------------------------------------------------- registry


def test_registry_names_order_directions_and_labels():
    assert ALL == ["alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu"]
    assert REGISTRY.task == "classification"
    assert {name for name in ALL if MEASURES[name].lower_is_better} == LOWER_IS_BETTER
    display = {name: MEASURES[name].display for name in ALL}
    assert display == {
        "alpha_ORD": "α_ORD",
        "alpha_INT": "α_INT",
        "HMPR": "HMPR",
        "F1_M": "F1^M",
        "MAE_M": "MAE^M",
        "kappa": "κ",
        "CEM_ORD": "CEM_ORD",
        "Accuracy": "Accuracy",
        "MAE_mu": "MAE^µ",
    }
    latex = {name: MEASURES[name].properties["latex"] for name in ALL}
    assert latex == {
        "alpha_ORD": r"$\alpha_{ORD}$",
        "alpha_INT": r"$\alpha_{INT}$",
        "HMPR": "HMPR",
        "F1_M": r"F1$^{M}$",
        "MAE_M": r"MAE$^{M}$",
        "kappa": r"$\kappa$",
        "CEM_ORD": r"CEM$_{ORD}$",
        "Accuracy": "Accuracy",
        "MAE_mu": r"MAE$^{\mu}$",
    }
    equations = {
        "MAE_M": "Eq. 1",
        "MAE_mu": "Eq. 2",
        "CEM_ORD": "Eq. 3-4",
        "kappa": "Eq. 5",
        "alpha_ORD": "Eq. 6-8",
        "alpha_INT": "Eq. 6-8",
        "F1_M": "Eq. 9",
        "HMPR": "Eq. 10",
    }
    for name, equation in equations.items():
        assert MEASURES[name].reference == f"Sakai, ACL-IJCNLP 2021, {equation}"
    for name in ALL:
        measure = MEASURES[name]
        assert measure.description and "\n" not in measure.description
        assert "\\" not in measure.display and "$" not in measure.display
        assert {"ordinal", "handles_constant", "handles_imbalance"} <= set(measure.properties)
        assert all(
            isinstance(measure.properties[flag], bool) for flag in ("ordinal", "handles_constant", "handles_imbalance")
        )
        assert "=" in measure.formula  # the docstring states the formula
    assert get_measure("kappa") is MEASURES["kappa"]
    with pytest.raises(KeyError, match="registered"):
        get_measure("nDCG")


def test_flags_are_the_ones_the_module_documents():
    expected = {  # the paper's Table 4: (I) ordinal, (II) handles_constant, (III) handles_imbalance
        "alpha_ORD": (True, True, True),
        "alpha_INT": (True, True, True),
        "kappa": (True, False, True),
        "HMPR": (False, True, True),
        "F1_M": (False, True, True),
        "MAE_M": (True, True, True),
        "CEM_ORD": (True, True, True),
        "MAE_mu": (True, True, False),
        "Accuracy": (False, True, False),
    }
    ours = {  # constant_no_better_than_chance, majority_run_far_from_perfect
        "alpha_ORD": (True, True),
        "alpha_INT": (True, True),
        "kappa": (True, True),
        "HMPR": (True, True),
        "F1_M": (True, True),
        "MAE_M": (False, True),
        "CEM_ORD": (False, False),
        "MAE_mu": (False, False),
        "Accuracy": (False, False),
    }
    for name, flags in expected.items():
        properties = MEASURES[name].properties
        assert (properties["ordinal"], properties["handles_constant"], properties["handles_imbalance"]) == flags
        assert (properties["constant_no_better_than_chance"], properties["majority_run_far_from_perfect"]) == ours[name]


# --------------------------------------------------------------------------- hand-computed values

# A: K = 3, N = 10. System totals (rows) 4, 3, 3; gold totals (columns) 3, 5, 2; diagonal 2, 3, 1.
MATRIX_A = [[2, 1, 1], [0, 3, 0], [1, 1, 1]]
# B: K = 4, N = 5, gold classes 1 and 2 empty (C+ = {0, 3}), system never says 2.
# System totals 3, 1, 0, 1; gold totals 2, 0, 0, 3; diagonal 1, 0, 0, 1.
MATRIX_B = [[1, 0, 0, 2], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
# C: Krippendorff (2011), "Computing Krippendorff's alpha-reliability", binary data, two observers:
# gold = Mary 0 1 0 0 0 0 0 0 1 0, system = Dave 1 1 1 0 0 1 0 0 0 0 -> c00 = 5, c10 = 3, c01 = 1, c11 = 1.
# System totals 6, 4; gold totals 8, 2; N = 10.
MATRIX_C = [[5, 1], [3, 1]]


def f1(p, r):
    return 2 * p * r / (p + r) if p + r else F(0)


def log2(x):
    return math.log2(x)


EXPECTED = {
    "Accuracy": (F(6, 10), F(2, 5), F(6, 10)),
    # MAE_mu: A: c01*1 + c02*2 + c20*2 + c21*1 = 1 + 2 + 2 + 1 = 6 -> 6/10; B: c03*3 + c10*1 = 6 + 1 = 7 -> 7/5;
    # C: 1 + 3 = 4 errors of distance 1 -> 4/10.
    "MAE_mu": (F(6, 10), F(7, 5), F(4, 10)),
    # MAE_M: A: gold 0: (c10*1 + c20*2)/3 = 2/3, gold 1: (c01 + c21)/5 = 2/5, gold 2: (c02*2 + c12)/2 = 1;
    # B: gold 0: c10/2 = 1/2, gold 3: c03*3/3 = 2 (classes 1, 2 empty: left out); C: gold 0: 3/8, gold 1: 1/2.
    "MAE_M": ((F(2, 3) + F(2, 5) + 1) / 3, (F(1, 2) + 2) / 2, (F(3, 8) + F(1, 2)) / 2),
    # F1_M: A: Prec = 2/4, 3/3, 1/3; Rec = 2/3, 3/5, 1/2. B (C+ = {0, 3}): Prec 1/3, 1/1; Rec 1/2, 1/3.
    # C: Prec 5/6, 1/4; Rec 5/8, 1/2.
    "F1_M": (
        (f1(F(1, 2), F(2, 3)) + f1(F(1), F(3, 5)) + f1(F(1, 3), F(1, 2))) / 3,  # (4/7 + 3/4 + 2/5) / 3
        (f1(F(1, 3), F(1, 2)) + f1(F(1), F(1, 3))) / 2,  # (2/5 + 1/2) / 2 = 9/20
        (f1(F(5, 6), F(5, 8)) + f1(F(1, 4), F(1, 2))) / 2,  # (5/7 + 1/3) / 2 = 11/21
    ),
    "HMPR": (
        f1((F(1, 2) + 1 + F(1, 3)) / 3, (F(2, 3) + F(3, 5) + F(1, 2)) / 3),  # f1(11/18, 53/90)
        f1((F(1, 3) + 1) / 2, (F(1, 2) + F(1, 3)) / 2),  # f1(2/3, 5/12) = 20/39
        f1((F(5, 6) + F(1, 4)) / 2, (F(5, 8) + F(1, 2)) / 2),  # f1(13/24, 9/16) = 117/212
    ),
    # kappa: 1 - Do / De, Do = sum |i-j| c_ij, De = sum |i-j| c_i. c_.j / N.
    # A: Do = 6; De = (4*5*1 + 4*2*2 + 3*3*1 + 3*2*1 + 3*3*2 + 3*5*1) / 10 = 84/10 -> 1 - 60/84 = 2/7.
    # B: Do = 7; De = (3*3*3 + 1*2*1 + 1*3*2 + 1*2*3) / 5 = 41/5 -> 1 - 35/41 = 6/41.
    # C: Do = 4; De = (6*2 + 4*8) / 10 = 44/10 -> 1 - 40/44 = 1/11.
    "kappa": (F(2, 7), F(6, 41), F(1, 11)),
    # alpha_INT: n = system + gold totals; 1 - (2N-1) sum_ij c_ij (i-j)^2 / sum_{i<j} n_i n_j (i-j)^2.
    # A: n = 7, 8, 5; Do = 1 + 4 + 4 + 1 = 10; sum = 7*8*1 + 7*5*4 + 8*5*1 = 236 -> 1 - 19*10/236 = 23/118.
    # B: n = 5, 1, 0, 4; Do = 2*9 + 1*1 = 19; sum = 5*1*1 + 5*4*9 + 1*4*4 = 201 -> 1 - 9*19/201 = 10/67.
    # C: n = 14, 6; Do = 4; sum = 84 -> 1 - 19*4/84 = 2/21 (Krippendorff's published 0.095).
    "alpha_INT": (F(23, 118), F(10, 67), F(2, 21)),
    # alpha_ORD: d2_ij = (sum_{k=i..j} n_k - (n_i + n_j)/2)^2.
    # A: d2_01 = (15/2)^2, d2_12 = (13/2)^2, d2_02 = (20 - 6)^2 = 196;
    #    Do = c01 d2_01 + (c02 + c20) d2_02 + c21 d2_12 = 225/4 + 392 + 169/4 = 981/2;
    #    sum = 7*8*225/4 + 7*5*196 + 8*5*169/4 = 3150 + 6860 + 1690 = 11700 -> 1 - 19 * (981/2) / 11700.
    # B: d2_01 = 3^2, d2_03 = (10 - 9/2)^2 = 121/4, d2_13 = (5 - 5/2)^2 = 25/4;
    #    Do = 2 * 121/4 + 9 = 139/2; sum = 5*1*9 + 5*4*121/4 + 1*4*25/4 = 675 -> 1 - 9 * (139/2) / 675 = 11/150.
    # C: K = 2, d2_01 is a constant factor: same as alpha_INT.
    "alpha_ORD": (1 - 19 * F(981, 2) / 11700, F(11, 150), F(2, 21)),
}

# CEM_ORD: prox_ij = log2(N / K_ij), K_ij = (gold mass from class i to class j) - c_.i/2.
# A: gold 3, 5, 2, N = 10: K_00 = 1.5, K_11 = 2.5, K_22 = 1, K_01 = 8 - 1.5, K_02 = 10 - 1.5, K_20 = 10 - 1,
#    K_21 = 7 - 1. Numerator: 2 prox00 + prox01 + prox02 + 3 prox11 + prox20 + prox21 + prox22;
#    denominator: 3 prox00 + 5 prox11 + 2 prox22.
CEM_A = (
    2 * log2(10 / 1.5)
    + log2(10 / 6.5)
    + log2(10 / 8.5)
    + 3 * log2(10 / 2.5)
    + log2(10 / 9)
    + log2(10 / 6)
    + log2(10 / 1)
) / (3 * log2(10 / 1.5) + 5 * log2(10 / 2.5) + 2 * log2(10 / 1))
# B: gold 2, 0, 0, 3, N = 5: K_00 = 1, K_33 = 1.5, K_03 = 5 - 1 = 4, K_10 = 2 - 0 = 2.
CEM_B = (log2(5 / 1) + 2 * log2(5 / 4) + log2(5 / 2) + log2(5 / 1.5)) / (2 * log2(5 / 1) + 3 * log2(5 / 1.5))
# C: gold 8, 2, N = 10: K_00 = 4, K_11 = 1, K_01 = 10 - 4 = 6, K_10 = 10 - 1 = 9.
CEM_C = (5 * log2(10 / 4) + log2(10 / 6) + 3 * log2(10 / 9) + log2(10 / 1)) / (8 * log2(10 / 4) + 2 * log2(10))


@pytest.mark.parametrize("name", ALL)
def test_hand_computed_values(name):
    expected = (CEM_A, CEM_B, CEM_C) if name == "CEM_ORD" else EXPECTED[name]
    for matrix, value in zip((MATRIX_A, MATRIX_B, MATRIX_C), expected, strict=True):
        assert score(name, matrix) == pytest.approx(float(value), rel=1e-12, abs=1e-12)


def test_hand_computed_fractions_are_the_simplified_ones():
    # The chains of fractions above, simplified by hand, as a check on the arithmetic in the comments.
    assert EXPECTED["MAE_M"][0] == F(31, 45)
    assert EXPECTED["F1_M"][1:] == (F(9, 20), F(11, 21))
    assert EXPECTED["HMPR"][1:] == (F(20, 39), F(117, 212))
    assert EXPECTED["alpha_ORD"][0] == F(4761, 23400)


def test_published_two_observer_alpha():
    # Krippendorff (2011): alpha = 1 - (20 - 1) * 4 / (14 * 6) = 0.095 for Mary and Dave's binary data.
    assert round(score("alpha_INT", MATRIX_C), 3) == 0.095
    assert round(score("alpha_ORD", MATRIX_C), 3) == 0.095


def test_integer_and_float_counts_give_the_same_scores():
    for name in ALL:
        assert score(name, np.array(MATRIX_A, dtype=np.int32)) == score(name, np.array(MATRIX_A, dtype=float))


# --------------------------------------------------------------------------- CEM_ORD proximity


def test_cem_worked_examples_of_the_spec():
    # System says class 3, gold says class 1: K = c_.3/2 + c_.2 + c_.1.
    left = cem_proximity([7, 105, 193, 90, 7])
    assert round(float(left[3, 1]), 2) == 0.23
    assert left[3, 1] == pytest.approx(-math.log2((90 / 2 + 193 + 105) / 402))
    right = cem_proximity([180, 10, 3, 10, 173])
    assert round(float(right[3, 1]), 2) == 4.38
    assert right[3, 1] == pytest.approx(-math.log2((10 / 2 + 3 + 10) / 376))
    # The same pair of classes is far apart when few items lie between them and close when many do.
    assert right[3, 1] > left[3, 1]


def spec_k(gold, i: int, j: int) -> float:
    """K_ij exactly as SPEC 3b writes it (gold counts only)."""
    if i <= j:
        return gold[i] / 2 + sum(gold[i + 1 : j + 1])
    return gold[i] / 2 + sum(gold[j:i])


@settings(max_examples=50)
@given(gold_count_vectors(max_classes=7))
def test_cem_proximity_structure(gold):
    prox = cem_proximity(gold)
    n, k = int(gold.sum()), len(gold)
    assert prox.shape == (k, k)
    for i in range(k):
        for j in range(k):
            assert prox[i, j] == pytest.approx(-math.log2(max(0.5, spec_k(gold, i, j)) / n), rel=1e-12, abs=1e-12)
            if gold[i] == gold[j]:
                assert prox[i, j] == pytest.approx(prox[j, i], rel=1e-12, abs=1e-12)
    assert (prox >= 0).all()
    # Diagonal: K_jj = c_.j/2, so prox_jj = log2(2N / c_.j) for a non-empty class.
    present = gold > 0
    np.testing.assert_allclose(np.diag(prox)[present], np.log2(2 * n / gold[present]), rtol=1e-12)
    # For a fixed gold class j, the proximity does not grow as the system class moves away from j,
    # and the gold class itself is the closest: CEM_ORD <= 1.
    for j in range(k):
        assert (np.diff(prox[: j + 1, j]) >= -1e-12).all()
        assert (np.diff(prox[j:, j]) <= 1e-12).all()


def test_cem_proximity_symmetries():
    # prox_ij = prox_ji exactly when c_.i = c_.j: uniform gold counts give a symmetric matrix ...
    uniform = cem_proximity([4, 4, 4, 4])
    np.testing.assert_allclose(uniform, uniform.T, rtol=1e-12)
    skewed = cem_proximity([7, 105, 193, 90, 7])
    assert not np.allclose(skewed, skewed.T)
    assert skewed[0, 4] == pytest.approx(skewed[4, 0])  # c_.0 = c_.4 = 7
    # ... and reversing the order of the classes reverses the matrix.
    np.testing.assert_allclose(cem_proximity([7, 90, 193, 105, 7]), skewed[::-1, ::-1], rtol=1e-12)
    # Hand values for gold 1, 0, 3 (N = 4): K_00 = 0.5, K_11 = max(0.5, 0) = 0.5, K_22 = 1.5, K_01 = 0 + 0.5,
    # K_02 = 1/2 + 0 + 3, K_10 = 0/2 + 1, K_12 = 0/2 + 3, K_20 = 3/2 + 1 + 0, K_21 = 3/2 + 0.
    expected_k = np.array([[0.5, 0.5, 3.5], [1, 0.5, 3], [2.5, 1.5, 1.5]])
    np.testing.assert_allclose(cem_proximity([1, 0, 3]), -np.log2(expected_k / 4), rtol=1e-12)
    assert np.isnan(cem_proximity([0, 0, 0])).all()


@settings(max_examples=50)
@given(label_pairs())
def test_cem_denominator_and_bounds(case):
    # Proof in CEM_ORD's docstring: for j in C+, prox_jj = log2(2N / c_.j) >= 1, so the denominator is >= N.
    k, gold, system = case
    c = confusion_of(gold, system, k)
    g = c.sum(axis=0)
    denominator = (np.diag(cem_proximity(g)) * g).sum()
    assert denominator >= g.sum() - 1e-9
    assert 0 <= score("CEM_ORD", c) <= 1 + 1e-12


# --------------------------------------------------------------------------- kappa


@settings(max_examples=60)
@given(gold_count_vectors(max_classes=7, max_count=200), st.data())
def test_kappa_is_zero_for_a_constant_run(gold, data):
    k = data.draw(st.integers(0, len(gold) - 1))
    assert abs(score("kappa", constant_run(gold, k))) <= 1e-12


def slow_kappa(c) -> F:
    """Linear weighted kappa cell by cell in exact arithmetic."""
    k = len(c)
    rows = [sum(c[i][j] for j in range(k)) for i in range(k)]
    columns = [sum(c[i][j] for i in range(k)) for j in range(k)]
    n = sum(rows)
    observed = expected = F(0)
    for i in range(k):
        for j in range(k):
            observed += abs(i - j) * c[i][j]
            expected += abs(i - j) * F(rows[i] * columns[j], n)
    return 1 - observed / expected


@settings(max_examples=60)
@given(label_pairs(min_items=2))
def test_kappa_against_a_slow_reference(case):
    k, gold, system = case
    c = confusion_of(gold, system, k).tolist()
    if len(set(gold) | set(system)) < 2:
        return  # expected disagreement 0: the convention, tested below
    assert score("kappa", c) == pytest.approx(float(slow_kappa(c)), abs=1e-12)


# --------------------------------------------------------------------------- Krippendorff's alpha


def textbook_alpha(units, values, metric: str) -> float:
    """Krippendorff's alpha from the coincidence matrix: any number of coders per unit, None = missing.

    o_ck = sum_u (number of ordered c-k pairs of values in unit u) / (m_u - 1), over units with m_u >= 2;
    n_c = sum_k o_ck, n = sum_c n_c; alpha = 1 - (n - 1) sum_c sum_k o_ck delta2_ck / sum_c sum_k n_c n_k delta2_ck.
    """
    index = {value: position for position, value in enumerate(values)}
    size = len(values)
    o = [[0.0] * size for _ in range(size)]
    for unit in units:
        coded = [index[value] for value in unit if value is not None]
        m = len(coded)
        if m < 2:
            continue
        for a in range(m):
            for b in range(m):
                if a != b:
                    o[coded[a]][coded[b]] += 1 / (m - 1)
    n_c = [sum(row) for row in o]
    n = sum(n_c)

    def delta2(c, k):
        if metric == "nominal":
            return float(c != k)
        if metric == "interval":
            return float(values[c] - values[k]) ** 2
        low, high = min(c, k), max(c, k)
        return (sum(n_c[low : high + 1]) - (n_c[c] + n_c[k]) / 2) ** 2  # ordinal

    observed = sum(o[c][k] * delta2(c, k) for c in range(size) for k in range(size))
    expected = sum(n_c[c] * n_c[k] * delta2(c, k) for c in range(size) for k in range(size))
    return 1 - (n - 1) * observed / expected


def test_textbook_reference_reproduces_krippendorffs_published_values():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", 4 observers, 12 units, missing data:
    # nominal 0.743, ordinal 0.815, interval 0.849. This checks the reference used below.
    observers = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = list(zip(*observers, strict=True))
    values = [1, 2, 3, 4, 5]
    assert round(textbook_alpha(units, values, "nominal"), 3) == 0.743
    assert round(textbook_alpha(units, values, "ordinal"), 3) == 0.815
    assert round(textbook_alpha(units, values, "interval"), 3) == 0.849
    mary = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    dave = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]
    assert textbook_alpha(list(zip(mary, dave, strict=True)), [0, 1], "nominal") == pytest.approx(2 / 21)


@settings(max_examples=60)
@given(label_pairs(min_items=2))
def test_alpha_against_the_textbook_coincidence_matrix(case):
    k, gold, system = case
    if len(set(gold) | set(system)) < 2:
        return  # no variation: the convention, tested below
    c = confusion_of(gold, system, k)
    units = list(zip(gold, system, strict=True))
    assert score("alpha_INT", c) == pytest.approx(textbook_alpha(units, list(range(k)), "interval"), abs=1e-10)
    assert score("alpha_ORD", c) == pytest.approx(textbook_alpha(units, list(range(k)), "ordinal"), abs=1e-10)


def test_alpha_ordinal_and_interval_differ_where_the_marginals_are_uneven():
    assert score("alpha_ORD", MATRIX_A) != pytest.approx(score("alpha_INT", MATRIX_A), abs=1e-6)


# --------------------------------------------------------------------------- MAE_M and MAE_mu


def test_mae_macro_differs_from_micro_under_imbalance():
    # Gold: 8 items of class 0, 2 of class 2. The run gets class 0 right and says 0 for both class-2 items.
    c = [[8, 0, 2], [0, 0, 0], [0, 0, 0]]
    assert score("MAE_mu", c) == pytest.approx(4 / 10)  # (2 items * distance 2) / 10
    assert score("MAE_M", c) == pytest.approx((0 + 2) / 2)  # class 0: 0, class 2: 2*2/2 = 2
    # Swapping the roles (all errors in the big class) flips which one is larger.
    c = [[0, 0, 0], [0, 0, 0], [8, 0, 2]]
    assert score("MAE_mu", c) == pytest.approx(16 / 10)
    assert score("MAE_M", c) == pytest.approx((2 + 0) / 2)


@settings(max_examples=60)
@given(st.integers(2, 6), st.integers(1, 8), st.data())
def test_mae_macro_equals_micro_when_the_nonempty_gold_classes_are_equally_big(k, size, data):
    # MAE_mu = sum_j (c_.j / N) MAE_j and MAE_M = mean_{j in C+} MAE_j (MAE_j: mean error on gold class j):
    # they agree whatever the run does when every non-empty gold class has the same count.
    classes = data.draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=k, unique=True))
    gold = [j for j in classes for _ in range(size)]
    system = data.draw(st.lists(st.integers(0, k - 1), min_size=len(gold), max_size=len(gold)))
    c = confusion_of(gold, system, k)
    assert score("MAE_M", c) == pytest.approx(score("MAE_mu", c), abs=1e-12)


# --------------------------------------------------------------------------- confusion matrices


@st.composite
def labelled_items(draw):
    k = draw(st.integers(2, 5))
    topics = draw(st.integers(1, 4))
    runs = draw(st.integers(1, 3))
    items = draw(st.integers(0, 25))
    label = st.integers(0, k - 1)
    gold = draw(st.lists(label, min_size=items, max_size=items))
    run_labels = [draw(st.lists(label, min_size=items, max_size=items)) for _ in range(runs)]
    topic_index = draw(st.lists(st.integers(0, topics - 1), min_size=items, max_size=items))
    return (
        k,
        topics,
        np.array(gold, dtype=int),
        np.array(run_labels, dtype=int).reshape(runs, items),
        np.array(topic_index, dtype=int),
    )


@settings(max_examples=50)
@given(labelled_items())
def test_confusion_matrices_against_a_loop(case):
    k, topics, gold, runs, topic_index = case
    counts = confusion_matrices(gold, runs, topic_index, topics, k)
    assert counts.shape == (runs.shape[0], topics, k, k)
    assert counts.dtype == np.int64
    expected = np.zeros_like(counts)
    for r in range(runs.shape[0]):
        for u in range(len(gold)):
            expected[r, topic_index[u], runs[r, u], gold[u]] += 1
    np.testing.assert_array_equal(counts, expected)
    pooled = pooled_confusion(counts)
    assert pooled.shape == (runs.shape[0], 1, k, k)
    for r in range(runs.shape[0]):
        np.testing.assert_array_equal(pooled[r, 0], confusion_of(gold, runs[r], k))


def test_confusion_matrices_validate_their_input():
    gold = np.array([0, 1, 2])
    runs = np.array([[0, 1, 1]])
    topics = np.array([0, 0, 1])
    assert confusion_matrices(gold, runs, topics, 2, 3)[0, 1, 1, 2] == 1
    with pytest.raises(ValueError, match="runs label 2 items, gold has 3"):
        confusion_matrices(gold, runs[:, :2], topics, 2, 3)
    with pytest.raises(ValueError, match="topic_index has 2 items"):
        confusion_matrices(gold, runs, topics[:2], 2, 3)
    with pytest.raises(ValueError, match="gold holds 3, outside 0..2"):
        confusion_matrices(np.array([0, 1, 3]), runs, topics, 2, 3)
    with pytest.raises(ValueError, match="runs holds -1"):
        confusion_matrices(gold, np.array([[0, -1, 1]]), topics, 2, 3)
    with pytest.raises(ValueError, match="topic_index holds 2, outside 0..1"):
        confusion_matrices(gold, runs, np.array([0, 2, 1]), 2, 3)
    with pytest.raises(ValueError, match="runs must have 2 dimension"):
        confusion_matrices(gold, runs[0], topics, 2, 3)
    with pytest.raises(ValueError, match="integers"):
        confusion_matrices(gold.astype(float), runs, topics, 2, 3)
    with pytest.raises(ValueError, match="at least 2 classes"):
        confusion_matrices(gold * 0, runs * 0, topics, 2, 1)
    with pytest.raises(ValueError, match="shape"):
        pooled_confusion(np.zeros((2, 3, 3)))


def test_every_measure_broadcasts_over_leading_axes():
    rng = np.random.default_rng(5)
    confusion = rng.integers(0, 4, size=(3, 4, 5, 5)) * (rng.random((3, 4, 5, 5)) < 0.6)
    confusion[0, 0] = 0  # an empty topic
    confusion[1, 2] = np.diag([3, 0, 0, 0, 0])  # all labels in one class
    for name in ALL:
        values = get_measure(name)(confusion)
        assert values.shape == (3, 4) and values.dtype == np.float64
        expected = [[score(name, confusion[r, t]) for t in range(4)] for r in range(3)]
        np.testing.assert_allclose(values, np.array(expected), rtol=1e-13, atol=1e-13, equal_nan=True)
        assert np.asarray(get_measure(name)(confusion[0, 1])).shape == ()


def test_measures_reject_malformed_matrices():
    for name in ALL:
        with pytest.raises(ValueError):
            get_measure(name)(np.zeros((2, 3)))
        with pytest.raises(ValueError):
            get_measure(name)(np.array([[1, -1], [0, 2]]))


# --------------------------------------------------------------------------- perfect runs, bounds


@given(gold_count_vectors(max_classes=6, max_count=20))
def test_perfect_run(gold):
    c = np.diag(gold)
    values = scores(c)
    for name in ALL:
        assert values[name] == pytest.approx(perfect_score(name), abs=1e-12), name


@settings(max_examples=50)
@given(label_pairs())
def test_scores_are_finite_and_within_their_ranges(case):
    k, gold, system = case
    values = scores(confusion_of(gold, system, k))
    assert all(np.isfinite(value) for value in values.values())
    for name in ("Accuracy", "F1_M", "HMPR", "CEM_ORD"):
        assert -1e-12 <= values[name] <= 1 + 1e-12
    for name in ("kappa", "alpha_ORD", "alpha_INT"):
        assert values[name] <= 1 + 1e-12
    for name in ("MAE_M", "MAE_mu"):
        assert 0 <= values[name] <= k - 1


# --------------------------------------------------------------------------- (I) ordinal


@st.composite
def exchange_cases(draw, every_gold_class_present=True):
    """A topic and two misclassified items with gold/system classes g_a < s_a < s_b < g_b (K >= 4)."""
    k = draw(st.integers(4, 6))
    g_a, s_a, s_b, g_b = sorted(draw(st.lists(st.integers(0, k - 1), min_size=4, max_size=4, unique=True)))
    extra = draw(st.integers(0, 15))
    label = st.integers(0, k - 1)
    gold = draw(st.lists(label, min_size=extra, max_size=extra))
    system = draw(st.lists(label, min_size=extra, max_size=extra))
    if every_gold_class_present:
        gold, system = gold + list(range(k)), system + draw(st.lists(label, min_size=k, max_size=k))
    before = confusion_of(gold + [g_a, g_b], system + [s_a, s_b], k)
    after = confusion_of(gold + [g_a, g_b], system + [s_b, s_a], k)
    return before, after


@settings(max_examples=50)
@given(exchange_cases())
def test_ordinal_flag_exchanging_two_wrong_labels_farther_apart(case):
    before, after = case
    # The exchange keeps the margins and the diagonal ...
    np.testing.assert_array_equal(before.sum(0), after.sum(0))
    np.testing.assert_array_equal(before.sum(1), after.sum(1))
    np.testing.assert_array_equal(np.diag(before), np.diag(after))
    # ... so nominal measures do not move, and ordinal ones get strictly worse.
    old, new = scores(before), scores(after)
    for name in ALL:
        if MEASURES[name].properties["ordinal"]:
            assert better(name, old[name], new[name]), name
        else:
            assert new[name] == pytest.approx(old[name], abs=TOLERANCE), name


@settings(max_examples=50)
@given(exchange_cases(every_gold_class_present=False))
def test_ordinal_measures_never_improve_with_the_exchange_on_any_topic(case):
    before, after = case
    old, new = scores(before), scores(after)
    for name in flagged("ordinal"):
        assert not better(name, new[name], old[name]), name


def test_cem_cannot_tell_distances_across_classes_without_gold_items():
    # Why criterion (I) asks for every gold class to be non-empty: CEM_ORD measures distances by gold
    # mass, so with gold classes 0 and 4 only, system labels 1 vs 3 are equally far from both.
    before = confusion_of([0, 4], [1, 3], 5)
    after = confusion_of([0, 4], [3, 1], 5)
    assert score("CEM_ORD", after) == score("CEM_ORD", before)
    assert better("MAE_M", score("MAE_M", before), score("MAE_M", after))


def test_moving_a_single_label_farther_can_improve_chance_corrected_measures():
    # Why criterion (I) exchanges two labels: one move changes the system's margin. Gold 1, 2;
    # system 2, 1 -> 2, 0: kappa goes from 1 - 2/1 = -1 to 1 - 3/2 = -1/2 (expected disagreement doubles).
    before = confusion_of([1, 2], [2, 1], 3)
    after = confusion_of([1, 2], [2, 0], 3)
    assert score("kappa", before) == pytest.approx(-1)
    assert score("kappa", after) == pytest.approx(-0.5)
    assert score("alpha_INT", after) > score("alpha_INT", before)
    assert score("MAE_M", after) > score("MAE_M", before)  # ... MAE never improves


# --------------------------------------------------------------------------- constant_no_better_than_chance


@settings(max_examples=100)
@given(gold_count_vectors(max_classes=7), st.data())
def test_constant_flag_constant_runs_are_no_better_than_chance(gold, data):
    k = data.draw(st.integers(0, len(gold) - 1))
    chance = scores(chance_run(gold))
    constant = scores(constant_run(gold, k))
    for name in flagged("constant_no_better_than_chance"):
        assert not better(name, constant[name], chance[name], tolerance=1e-12), (name, constant[name], chance[name])


def test_constant_counterexample_matches_the_flags():
    # Gold 3, 4, 3: the run that always says the middle class beats random guessing for exactly the
    # measures flagged constant_no_better_than_chance=False.
    gold = [3, 4, 3]
    chance = scores(chance_run(gold))
    beaten = {
        name
        for name in ALL
        for k in range(3)
        if better(name, score(name, constant_run(gold, k)), chance[name], tolerance=1e-6)
    }
    assert beaten == flagged("constant_no_better_than_chance", False)
    # Hand values: the middle-class run has MAE_M = (1 + 0 + 1)/3 = 2/3; chance has MAE_M = 2.6/3 (gold class 0:
    # 0.4*1 + 0.3*2 = 1.0, class 1: 0.3*1 + 0.3*1 = 0.6, class 2: 1.0) and Accuracy 0.3^2 + 0.4^2 + 0.3^2 < 0.4.
    assert score("MAE_M", constant_run(gold, 1)) == pytest.approx(2 / 3)
    assert chance["MAE_M"] == pytest.approx(2.6 / 3)
    assert chance["Accuracy"] == pytest.approx(0.09 + 0.16 + 0.09)
    # kappa gives both exactly its chance level 0; alpha gives the chance run 1/(2N).
    assert chance["kappa"] == pytest.approx(0, abs=1e-12)
    assert chance["alpha_INT"] == pytest.approx(1 / 20) and chance["alpha_ORD"] == pytest.approx(1 / 20)


# --------------------------------------------------------------------------- majority_run_far_from_perfect


@settings(max_examples=100)
@given(gold_count_vectors(max_classes=7, max_count=10**6))
def test_majority_flag_majority_run_stays_half_a_unit_from_perfect(gold):
    majority = constant_run(gold, int(np.argmax(gold)))
    for name in flagged("majority_run_far_from_perfect"):
        assert abs(score(name, majority) - perfect_score(name)) >= 0.5, name


@pytest.mark.parametrize("majority_class", [0, 2])
def test_majority_counterexample_matches_the_flags(majority_class):
    # One class with n items, one item in each other class: the majority run's gap to the perfect score
    # tends to 0 as n grows for exactly the measures flagged majority_run_far_from_perfect=False.
    gaps = {}
    for n in (10**3, 10**6):
        gold = np.ones(5, dtype=int)
        gold[majority_class] = n
        majority = constant_run(gold, majority_class)
        gaps[n] = {name: abs(score(name, majority) - perfect_score(name)) for name in ALL}
    vanishing = {name for name in ALL if gaps[10**6][name] < 0.001}
    assert vanishing == flagged("majority_run_far_from_perfect", False)
    for name in vanishing:
        assert gaps[10**6][name] < gaps[10**3][name] / 10
    # Accuracy = n / (n + 4): gap 4 / (n + 4).
    assert gaps[10**6]["Accuracy"] == pytest.approx(4 / (10**6 + 4))


# --------------------------------------------------------------------------- conventions


CONVENTION_TOPICS = np.array(
    [
        [[3, 0, 0], [0, 0, 0], [0, 0, 0]],  # 0: all labels in class 0 -> kappa, alphas: 1.0
        [[0, 0, 0], [0, 0, 0], [0, 0, 2]],  # 1: all labels in class 2 -> kappa, alphas: 1.0
        [[2, 1, 0], [0, 0, 0], [0, 0, 0]],  # 2: gold class 1 never predicted -> Prec_1 = 0, f1_1 = 0/0
        [[0, 1, 0], [1, 0, 0], [0, 0, 0]],  # 3: nothing right -> HMPR f1 0/0; every f1_j 0/0 (Prec_j = 0/1)
        [[0, 0, 0], [0, 0, 0], [0, 0, 0]],  # 4: empty topic -> NaN everywhere
        [[1, 0, 0], [0, 2, 0], [0, 0, 1]],  # 5: perfect, no convention
        [[0, 0, 0], [3, 0, 0], [0, 0, 0]],  # 6: gold all class 0, run all class 1 -> kappa defined (0)
    ]
)


def test_convention_masks_flag_exactly_the_cells():
    expected = {
        ("alpha_ORD", "expected disagreement"): [1, 1, 0, 0, 0, 0, 0],
        ("alpha_INT", "expected disagreement"): [1, 1, 0, 0, 0, 0, 0],
        ("kappa", "expected disagreement"): [1, 1, 0, 0, 0, 0, 0],
        ("HMPR", "precision 0/0"): [0, 0, 1, 0, 0, 0, 1],
        ("F1_M", "precision 0/0"): [0, 0, 1, 0, 0, 0, 1],
        ("HMPR", "f1 0/0"): [0, 0, 0, 1, 0, 0, 1],
        ("F1_M", "f1 0/0"): [0, 0, 1, 1, 0, 0, 1],
    }
    expected.update({(name, "empty topic"): [0, 0, 0, 0, 1, 0, 0] for name in ALL})
    entries = convention_masks(CONVENTION_TOPICS)
    found = {}
    for name, case, value, mask in entries:
        assert name in MEASURES and mask.shape == (7,) and mask.dtype == bool
        key = next(key for key in expected if key[0] == name and case.startswith(key[1]))
        found[key] = mask.tolist()
        assert value == (None if key[1] == "empty topic" else 1.0 if key[1] == "expected disagreement" else 0.0)
    assert found == {key: [bool(flag) for flag in flags] for key, flags in expected.items()}


def test_convention_values():
    values = {name: get_measure(name)(CONVENTION_TOPICS) for name in ALL}
    for name in ("kappa", "alpha_ORD", "alpha_INT"):
        assert values[name][[0, 1]].tolist() == [1.0, 1.0]  # no disagreement possible: perfect agreement
        assert values[name][5] == pytest.approx(1.0)
    assert values["kappa"][6] == pytest.approx(0.0)  # a constant run, with the gold in another single class
    # Topic 2: C+ = {0, 1}; Prec = 2/3, 0 (convention); Rec = 1, 0.
    assert values["HMPR"][2] == pytest.approx(float(f1((F(2, 3) + 0) / 2, (F(1) + 0) / 2)))  # 2/5
    assert values["F1_M"][2] == pytest.approx(float((f1(F(2, 3), F(1)) + 0) / 2))  # 2/5
    assert values["HMPR"][3] == 0.0 and values["F1_M"][3] == 0.0
    assert np.isnan([values[name][4] for name in ALL]).all()
    # The precision convention matters to HMPR: leaving class 1 out of the mean precision would give
    # f1(2/3, 1/2) = 4/7 instead.
    assert values["HMPR"][2] != pytest.approx(4 / 7)


@settings(max_examples=50)
@given(labelled_items())
def test_convention_masks_against_their_definitions(case):
    k, topics, gold, runs, topic_index = case
    c = confusion_matrices(gold, runs, topic_index, topics, k)
    masks = {(name, case.split(":")[0]): mask for name, case, _, mask in convention_masks(c)}
    system, golden, total = c.sum(-1), c.sum(-2), c.sum((-2, -1))
    labels_in_use = ((system + golden) > 0).sum(-1)
    for name in ("kappa", "alpha_ORD", "alpha_INT"):
        np.testing.assert_array_equal(masks[name, "expected disagreement 0"], labels_in_use == 1)
        np.testing.assert_array_equal(get_measure(name)(c)[labels_in_use == 1], 1.0)
    unpredicted = [
        [any(golden[r, t, j] > 0 and system[r, t, j] == 0 for j in range(k)) for t in range(topics)]
        for r in range(runs.shape[0])
    ]
    np.testing.assert_array_equal(masks["F1_M", "precision 0/0"], unpredicted)
    no_hit = [
        [any(golden[r, t, j] > 0 and c[r, t, j, j] == 0 for j in range(k)) for t in range(topics)]
        for r in range(runs.shape[0])
    ]
    np.testing.assert_array_equal(masks["F1_M", "f1 0/0"], no_hit)
    nothing_right = (np.trace(c, axis1=-2, axis2=-1) == 0) & (total > 0)
    np.testing.assert_array_equal(masks["HMPR", "f1 0/0"], nothing_right)
    np.testing.assert_array_equal(get_measure("HMPR")(c)[nothing_right], 0.0)
    for name in ALL:
        np.testing.assert_array_equal(masks[name, "empty topic (N = 0)"], total == 0)
        assert np.isnan(get_measure(name)(c)[total == 0]).all()
        assert np.isfinite(get_measure(name)(c)[total > 0]).all()
