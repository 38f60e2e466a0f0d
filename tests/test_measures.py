"""The OQ measures: SPEC reference values, properties (hypothesis) and the registry."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from ordeval.tasks.quantification import measures
from ordeval.tasks.quantification.measures import REGISTRY, get_measure, register, score_runs

MEASURES = REGISTRY
ALL = list(MEASURES)
BOUNDED = ["NMD", "NVD", "RNSS", "JSD", "DNKT", "DNKT_JSD", "DNKT_NMD", "DNKT_RNOD"]
UNIFORM4 = np.full(4, 0.25)
SYSTEM_A = np.array([0.25, 0.35, 0.15, 0.25])
SYSTEM_B = np.array([0.25, 0.25, 0.35, 0.15])


def distributions(num_classes: int, count: int | None = None):
    """Probability vectors (some with zeros), as arrays of shape (count, K) or (K,)."""
    shape = (num_classes,) if count is None else (count, num_classes)
    weights = arrays(float, shape, elements=st.one_of(st.just(0.0), st.floats(0.001, 1.0)))
    return weights.filter(lambda w: (w.sum(axis=-1) > 0).all()).map(lambda w: w / w.sum(axis=-1, keepdims=True))


def test_registry_has_the_thirteen_measures_of_the_spec_in_order():
    assert MEASURES.default_names() == [
        "NMD",
        "RSNOD",
        "RNOD",
        "RNADW",
        "RNOD2",
        "RNADW2",
        "NVD",
        "RNSS",
        "JSD",
        "DNKT",
        "DNKT_JSD",
        "DNKT_NMD",
        "DNKT_RNOD",
    ]
    assert ALL == ["NMD", "EMD", *MEASURES.default_names()[1:]]
    assert all(measure.lower_is_better for measure in MEASURES.values())
    assert all(measure.description for measure in MEASURES.values())


@given(distributions(5, 7), distributions(5, 7))
def test_emd_is_the_official_semeval_measure_k_minus_1_times_nmd(estimate, gold):
    """SemEval-2016 Task 4 subtask E's EMD is NMD without the 1/(K-1) normalisation; it is scored only where
    named, never in the analyses' defaults (it would repeat NMD)."""
    np.testing.assert_allclose(get_measure("EMD")(estimate, gold), 4 * get_measure("NMD")(estimate, gold), atol=1e-12)
    assert not MEASURES["EMD"].meta_evaluated and "EMD" not in MEASURES.default_names()


def test_spec_reference_distance_weighted_and_order_aware_divergence():
    delta = measures.absolute_distance(4)
    np.testing.assert_allclose(measures.distance_weighted(SYSTEM_A, UNIFORM4, delta), [0.03, 0.01, 0.01, 0.03])
    np.testing.assert_allclose(measures.distance_weighted(SYSTEM_B, UNIFORM4, delta), [0.05, 0.03, 0.01, 0.01])
    assert measures.order_aware_divergence(SYSTEM_A, UNIFORM4) == pytest.approx(0.020)
    assert measures.order_aware_divergence(SYSTEM_B, UNIFORM4) == pytest.approx(0.025)
    assert get_measure("RNOD")(SYSTEM_A, UNIFORM4) == pytest.approx(np.sqrt(0.020 / 3))
    assert get_measure("RNOD")(SYSTEM_B, UNIFORM4) == pytest.approx(np.sqrt(0.025 / 3))
    # NMD cannot tell A from B; RNOD can.
    assert get_measure("NMD")(SYSTEM_A, UNIFORM4) == pytest.approx(get_measure("NMD")(SYSTEM_B, UNIFORM4))


def test_nmd_is_semeval_emd_over_k_minus_1():
    gold = np.array([0.1, 0.2, 0.3, 0.2, 0.2])
    estimate = np.array([0.3, 0.3, 0.2, 0.1, 0.1])
    emd = np.abs(np.cumsum(estimate) - np.cumsum(gold)).sum()
    assert get_measure("NMD")(estimate, gold) == pytest.approx(emd / 4)


def test_dnkt_reference_values():
    gold = np.array([0.4, 0.3, 0.2, 0.1])
    assert get_measure("DNKT")(np.array([0.31, 0.30, 0.20, 0.19]), gold) == 0
    assert get_measure("DNKT")(UNIFORM4, gold) == 0.5
    assert get_measure("DNKT")(gold, UNIFORM4) == 0.5
    assert get_measure("DNKT")(gold[::-1], gold) == 1
    # Differences below 1e-9 are ties: a "nearly uniform" estimate is uniform.
    assert get_measure("DNKT")(UNIFORM4 + [1e-10, 0, 0, -1e-10], gold) == 0.5


def test_hand_computed_values_of_the_other_measures():
    gold = np.array([0.5, 0.5, 0.0])
    estimate = np.array([0.0, 0.5, 0.5])
    assert get_measure("NVD")(estimate, gold) == pytest.approx(0.5)
    assert get_measure("RNSS")(estimate, gold) == pytest.approx(np.sqrt(0.5 / 2))
    # JSD: m = (0.25, 0.5, 0.25); each KLD = 0.5 log2(2) = 0.5
    assert get_measure("JSD")(estimate, gold) == pytest.approx(0.5)
    # DW = (0 + 1*0 + 2*0.25, 1*0.25 + 0 + 1*0.25, 2*0.25 + 0 + 0) = (0.5, 0.5, 0.5)
    assert get_measure("RNADW")(estimate, gold) == pytest.approx(np.sqrt(0.5 / 2))
    # C* = {0, 1}: OD = 0.5; {i: p_i > 0} = {1, 2}: OD(p* || p) = 0.5
    assert get_measure("RNOD")(estimate, gold) == pytest.approx(np.sqrt(0.5 / 2))
    assert get_measure("RSNOD")(estimate, gold) == pytest.approx(np.sqrt(0.5 / 2))


def test_rnod2_uses_the_gold_mass_between_classes():
    gold = np.array([0.2, 0.6, 0.2])
    delta = measures.gold_mass_distance(gold)
    # delta_02 = (0.2 + 0.6 + 0.2) - (0.2 + 0.2)/2 = 0.8; delta_01 = 0.8 - 0.4 = 0.4
    np.testing.assert_allclose(delta, [[0, 0.4, 0.8], [0.4, 0, 0.4], [0.8, 0.4, 0]])
    estimate = np.array([0.4, 0.4, 0.2])
    squared = (estimate - gold) ** 2
    expected_dw = delta @ squared
    assert get_measure("RNOD2")(estimate, gold) == pytest.approx(np.sqrt(expected_dw.mean() / 2))
    assert get_measure("RNADW2")(estimate, gold) == pytest.approx(np.sqrt(expected_dw.mean() / 2))


def test_harmonic_combinations():
    gold = np.array([0.4, 0.3, 0.2, 0.1])
    estimate = np.array([0.1, 0.2, 0.3, 0.4])
    dnkt = get_measure("DNKT")(estimate, gold)
    for other in ("JSD", "NMD", "RNOD"):
        value = get_measure(other)(estimate, gold)
        assert get_measure(f"DNKT_{other}")(estimate, gold) == pytest.approx(2 * dnkt * value / (dnkt + value))
        assert get_measure(f"DNKT_{other}")(gold, gold) == 0


def test_score_runs_computes_a_combination_s_components_once_and_gives_the_same_values(monkeypatch):
    """score_runs reuses DNKT and JSD, NMD, RNOD for the DNKT_M combinations: the same bits as scoring each
    measure alone; each component is computed once; the memo ends with the call; a measure that scores
    temporary arrays inside the call gets their own values (ids are never reused within the call)."""
    rng = np.random.default_rng(11)
    gold = rng.dirichlet(np.ones(5), size=40)
    runs = rng.dirichlet(np.ones(5), size=(6, 40))
    names = MEASURES.names()
    alone = {name: MEASURES[name](runs, gold) for name in names}
    calls = []
    original = MEASURES["DNKT"].function
    monkeypatch.setitem(
        MEASURES._measures,
        "DNKT",
        MEASURES["DNKT"].__class__(
            **{**MEASURES["DNKT"].__dict__, "function": lambda e, g: calls.append(1) or original(e, g)}
        ),
    )
    together = score_runs(names, runs, gold)
    assert sum(calls) == 1
    assert all(np.array_equal(together[name], alone[name]) for name in names)
    assert measures._SCORED.get() is None

    def halves(estimate, gold_):  # scores fresh temporaries twice within one score_runs call
        first = MEASURES["DNKT_JSD"](estimate[..., :20, :].copy(), gold_[:20].copy())
        second = MEASURES["DNKT_JSD"](estimate[..., 20:, :].copy(), gold_[20:].copy())
        return np.concatenate([first, second], axis=-1)

    monkeypatch.setitem(
        MEASURES._measures,
        "HALVES",
        MEASURES["DNKT"].__class__(**{**MEASURES["DNKT"].__dict__, "name": "HALVES", "function": halves}),
    )
    assert np.array_equal(score_runs(["HALVES"], runs, gold)["HALVES"], alone["DNKT_JSD"])


def test_vectorised_over_runs_and_topics_equals_one_at_a_time():
    rng = np.random.default_rng(3)
    gold = rng.dirichlet(np.ones(5), size=7)
    runs = rng.dirichlet(np.ones(5), size=(3, 7))
    runs[0, 0] = [0, 0, 1, 0, 0]
    for name, measure in MEASURES.items():
        together = measure(runs, gold)
        assert together.shape == (3, 7), name
        for r in range(3):
            for t in range(7):
                assert together[r, t] == pytest.approx(measure(runs[r, t], gold[t]), abs=1e-15), name


def test_class_count_mismatch_is_an_error():
    # Scoring checks the shapes (a registry's measures are plain functions of the task's arrays).
    with pytest.raises(ValueError, match="estimates have 4 classes, gold has 5"):
        score_runs(["NMD"], np.ones((1, 3, 4)) / 4, np.ones((3, 5)) / 5)
    with pytest.raises(ValueError, match="at least 2 classes"):
        score_runs(["NMD"], np.ones((1, 3, 1)), np.ones((3, 1)))


def test_score_runs_gives_runs_x_topics_per_measure():
    rng = np.random.default_rng(0)
    gold = rng.dirichlet(np.ones(5), size=4)
    runs = rng.dirichlet(np.ones(5), size=(3, 4))
    scores = score_runs(["NMD", "JSD"], runs, gold)
    assert list(scores) == ["NMD", "JSD"]
    np.testing.assert_array_equal(scores["NMD"], get_measure("NMD")(runs, gold))
    assert scores["JSD"].shape == (3, 4)


def test_registering_a_new_measure_is_one_function_and_one_entry():
    try:

        @register("MAXDIFF", description="largest absolute difference")
        def max_difference(estimate, gold):
            return np.abs(estimate - gold).max(axis=-1)

        assert get_measure("MAXDIFF")(SYSTEM_A, UNIFORM4) == pytest.approx(0.1)
        assert get_measure("MAXDIFF").description == "largest absolute difference"
        assert get_measure("MAXDIFF").lower_is_better and ALL == list(MEASURES)[:-1]
        with pytest.raises(ValueError, match="twice"):
            register("MAXDIFF")(max_difference)
    finally:
        MEASURES._measures.pop("MAXDIFF", None)
    with pytest.raises(KeyError, match="unknown quantification measure 'MAXDIFF'"):
        get_measure("MAXDIFF")


@pytest.mark.parametrize("name", ["", "1ABC", "A B", "A/B", "A" * 65, "a\nb"])
def test_a_measure_name_that_cannot_be_a_file_or_label_is_refused(name):
    with pytest.raises(ValueError, match="measure name"):
        register(name)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7).flatmap(lambda k: st.tuples(distributions(k, 6), distributions(k, 6))))
def test_bounds_and_non_negativity(pair):
    estimate, gold = pair
    for name, measure in MEASURES.items():
        values = measure(estimate, gold)
        assert np.isfinite(values).all(), name
        assert (values >= 0).all(), name
        if name in BOUNDED:
            assert (values <= 1 + 1e-12).all(), name


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7).flatmap(lambda k: distributions(k, 5)))
def test_a_perfect_estimate_scores_zero_for_every_measure_but_dnkt(gold):
    for name, measure in MEASURES.items():
        if name != "DNKT":
            np.testing.assert_allclose(measure(gold, gold), 0, atol=1e-12, err_msg=name)
    # DNKT of p* with itself is 0 unless p* is all ties (then 0.5).
    assert (get_measure("DNKT")(gold, gold) <= 0.5).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7).flatmap(lambda k: st.tuples(distributions(k, 5), distributions(k, 5))))
def test_adw_is_symmetric_and_od_is_symmetric_when_the_gold_has_no_zero(pair):
    estimate, gold = pair
    rnadw = get_measure("RNADW")
    np.testing.assert_allclose(rnadw(estimate, gold), rnadw(gold, estimate), atol=1e-15)
    full = (estimate > 0).all(axis=-1) & (gold > 0).all(axis=-1)
    forward = measures.order_aware_divergence(estimate, gold)
    backward = measures.order_aware_divergence(gold, estimate)
    np.testing.assert_allclose(forward[full], backward[full], atol=1e-15)
    np.testing.assert_allclose(get_measure("RSNOD")(estimate, gold), get_measure("RSNOD")(gold, estimate), atol=1e-15)


@settings(max_examples=60, deadline=None)
@given(distributions(2, 8), distributions(2, 8))
def test_two_classes_nmd_equals_rnod_both_ways(estimate, gold):
    expected = np.abs(estimate[:, 1] - gold[:, 1])
    np.testing.assert_allclose(get_measure("NMD")(estimate, gold), expected, atol=1e-12)
    np.testing.assert_allclose(get_measure("RNOD")(estimate, gold), expected, atol=1e-12)
    np.testing.assert_allclose(get_measure("RNOD")(gold, estimate), expected, atol=1e-12)


def test_dnkt_keeps_nan_and_scalars():
    """A distribution with NaN gets NaN (not a tau of its other bins); one distribution gives a scalar."""
    gold = np.array([0.3, 0.3, 0.4])
    scores = MEASURES["DNKT"](np.array([[0.2, np.nan, 0.8], [0.2, 0.3, 0.5]]), gold)
    assert np.isnan(scores[0]) and scores[1] == pytest.approx(MEASURES["DNKT"](np.array([0.2, 0.3, 0.5]), gold))
    assert np.ndim(MEASURES["DNKT"](np.array([0.2, 0.3, 0.5]), gold)) == 0
