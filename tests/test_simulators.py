"""The calibrated simulators (issue 28): deterministic, teams of near copies, shared topic difficulty, and
the OC latent classifier whose majority bias trades the macro measures for Accuracy; and the conventions
the papers use (tau-a in the shipped configurations, the property table's row order)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ordeval.analysis.classification import PROPERTY_ORDER, properties_table
from ordeval.io.errors import ConfigError
from ordeval.stats.seeding import stream
from ordeval.tasks.classification import simulate as oc
from ordeval.tasks.quantification import readers
from ordeval.tasks.quantification import simulate as oq
from ordeval.workflow import config as configuration

ROOT = Path(__file__).resolve().parent.parent


def oq_gold(topics=80):
    return oq.simulate_tweet_gold(stream(7, "gold"), topics=topics, num_classes=5)


# --------------------------------------------------------------------------- OQ


def test_oq_runs_are_deterministic_with_teams_and_topic_difficulty():
    gold = oq_gold()
    keywords = {"systems": 6, "team_size": 2, "topic_difficulty_max": 0.3}
    first = oq.simulate_runs(stream(1, "s"), stream(1, "n"), gold, **keywords)
    again = oq.simulate_runs(stream(1, "s"), stream(1, "n"), gold, **keywords)
    other = oq.simulate_runs(stream(1, "s"), stream(2, "n"), gold, **keywords)
    assert first.shape == (6, 80, 5) and np.array_equal(first, again)
    assert not np.array_equal(first, other)
    np.testing.assert_allclose(first.sum(axis=-1), 1.0)


def test_oq_team_members_are_near_copies():
    gold = oq_gold()
    runs = oq.simulate_runs(stream(3, "s"), stream(3, "n"), gold, systems=6, team_size=2)
    within = [np.abs(runs[i] - runs[i + 1]).sum(axis=-1).mean() for i in (0, 2, 4)]
    between = [np.abs(runs[i] - runs[j]).sum(axis=-1).mean() for i in (0, 2, 4) for j in (0, 2, 4) if i < j]
    assert max(within) < min(between) / 2


def test_oq_team_size_one_and_no_difficulty_keep_the_former_runs():
    """The new options are off by default: the same streams give the same runs as before them."""
    gold = oq_gold()
    plain = oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=5)
    explicit = oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=5, team_size=1, topic_difficulty_max=0)
    assert np.array_equal(plain, explicit)


def test_oq_shared_topic_difficulty_makes_runs_err_alike():
    gold = oq_gold(200)

    def topic_error_correlation(difficulty):
        runs = oq.simulate_runs(stream(5, "s"), stream(5, "n"), gold, systems=8, topic_difficulty_max=difficulty)
        errors = np.abs(np.cumsum(runs - gold, axis=-1)).sum(axis=-1)  # runs x topics
        return np.corrcoef(errors)[np.triu_indices(8, k=1)].mean()

    assert topic_error_correlation(0.6) > topic_error_correlation(0.0) + 0.1


def test_oq_weak_teams_fall_far_behind_and_are_off_by_default():
    gold = oq_gold(100)
    common = {"systems": 6, "skill_min": 0.8, "bias_min": 0.0, "bias_max": 0.0}
    plain = oq.simulate_runs(stream(6, "s"), stream(6, "n"), gold, **common)
    explicit = oq.simulate_runs(stream(6, "s"), stream(6, "n"), gold, **common, weak_teams=0)
    assert np.array_equal(plain, explicit)
    weak = oq.simulate_runs(stream(6, "s"), stream(6, "n"), gold, **common, weak_teams=1, weak_skill_max=0.0)
    emd = lambda runs: np.abs(np.cumsum(runs - gold, axis=-1)[..., :-1]).sum(axis=-1).mean(axis=-1)  # noqa: E731
    ordered = np.sort(emd(weak))
    assert ordered[-1] > 2 * ordered[-2]  # one run (skill 0) far behind the close ones
    assert np.sort(emd(plain))[-1] < 2 * np.sort(emd(plain))[0]
    with pytest.raises(ValueError, match="weak_teams"):
        oq.simulate_runs(stream(6, "s"), stream(6, "n"), gold, systems=4, team_size=2, weak_teams=3)


def test_oq_simulated_distributions_are_what_the_readers_accept_unchanged():
    """No NaN row where every gamma variate underflows, no subnormal probability (issue 35: a draw of 5e-324
    where the gold is 0 made JSD infinite on seeds 107 and 166); the readers accept them (and only renormalise)."""
    weights = np.array([[0.0, 0.0, 0.0], [1.0, 1e-320, 0.0], [2.0, 1.0, 1.0]])
    fallback = np.array([[1.0, 3.0, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    rows = oq.valid_distributions(weights, fallback)
    np.testing.assert_array_equal(rows, [[0.25, 0.75, 0.0], [1.0, 0.0, 0.0], [0.5, 0.25, 0.25]])
    alpha = np.full((4000, 5), 0.01)  # small shapes: variates below 1e-308 are common
    assert (np.random.default_rng(0).standard_gamma(alpha) < np.finfo(float).tiny).any()
    draws = oq._dirichlet_rows(np.random.default_rng(0), alpha)
    assert np.isfinite(draws).all() and not ((draws > 0) & (draws < np.finfo(float).tiny)).any()
    np.testing.assert_allclose(readers.checked_distributions(draws, "runs.tsv", str), draws, rtol=1e-14, atol=0)
    runs = oq.simulate_runs(stream(107, "s"), stream(107, "n"), oq_gold(), systems=6, noise_concentration_min=0.5)
    assert not ((runs > 0) & (runs < np.finfo(float).tiny)).any()


# --------------------------------------------------------------------------- OC


@pytest.fixture(scope="module")
def oc_gold():
    return oc.simulate_gold(stream(9, "gold"), topics=60, num_classes=5)


def test_oc_latent_runs_are_deterministic(oc_gold):
    item_topic, gold = oc_gold
    parameters = oc.run_parameters({"systems": 6, "model": "latent", "team_size": 2, "team_shared": 0.8}, 5)
    first = oc.simulate_runs(stream(1, "s"), stream(1, "n"), gold, item_topic, 5, **parameters)
    again = oc.simulate_runs(stream(1, "s"), stream(1, "n"), gold, item_topic, 5, **parameters)
    assert first.shape == (6, gold.size) and np.array_equal(first, again)
    assert first.min() >= 0 and first.max() <= 4
    # team members share most of their noise: they agree far more with each other than with other teams
    agree = lambda a, b: (first[a] == first[b]).mean()  # noqa: E731
    assert min(agree(0, 1), agree(2, 3), agree(4, 5)) > max(agree(0, 2), agree(0, 4), agree(2, 4))


def test_oc_majority_bias_trades_macro_measures_for_accuracy(oc_gold):
    item_topic, gold = oc_gold
    majority = int(np.bincount(gold).argmax())
    rng = np.random.default_rng(0)
    latent = gold + 1.2 * rng.standard_normal(gold.size)

    def scores(kind, strength):
        predicted = np.searchsorted(oc.bin_edges(5, kind, strength, majority), latent)
        accuracy = (predicted == gold).mean()
        macro_mae = np.mean([np.abs(predicted[gold == c] - c).mean() for c in np.unique(gold)])
        return accuracy, macro_mae

    plain, biased = scores("none", 0.0), scores("majority", 1.0)
    assert biased[0] > plain[0] + 0.03 and biased[1] > plain[1] + 0.05  # better Accuracy, worse MAE^M


def macro_mae(predicted, gold):
    return np.mean([np.abs(predicted[gold == c] - c).mean() for c in np.unique(gold)])


def test_oc_weak_team_guesses_and_is_off_by_default(oc_gold):
    item_topic, gold = oc_gold
    common = {"systems": 5, "model": "latent", "skill_min": 0.6, "skill_max": 0.7}
    plain = oc.simulate_runs(stream(2, "s"), stream(2, "n"), gold, item_topic, 5, **oc.run_parameters(common, 5))
    explicit = oc.run_parameters({**common, "weak_teams": 0, "weak_guess_min": 0.2}, 5)
    assert np.array_equal(plain, oc.simulate_runs(stream(2, "s"), stream(2, "n"), gold, item_topic, 5, **explicit))
    weak = oc.run_parameters({**common, "weak_teams": 1, "weak_guess_min": 1.0}, 5)
    runs = oc.simulate_runs(stream(2, "s"), stream(2, "n"), gold, item_topic, 5, **weak)
    scores = sorted(macro_mae(run, gold) for run in runs)
    assert scores[-1] == pytest.approx(1.6, abs=0.1)  # a uniform guess: (2 + 1.4 + 1.2 + 1.4 + 2) / 5
    assert scores[-2] < 1.0
    counts = np.bincount(runs[np.argmax([macro_mae(run, gold) for run in runs])], minlength=5)
    assert counts.min() > 0.15 * gold.size  # its labels are spread over every class


def test_oc_guess_rates_are_evenly_spaced_with_the_weakest_guessing_most():
    parameters = oc.system_parameters(
        stream(3, "s"),
        6,
        skill_min=0.5,
        skill_max=0.6,
        spread_min=0.1,
        spread_max=0.2,
        biases=["none"],
        bias_min=0.0,
        bias_max=0.0,
        weak_teams=2,
        weak_skill_min=0.0,
        weak_skill_max=0.2,
        weak_guess_min=0.5,
        weak_guess_max=0.9,
    )
    by_skill = sorted(zip(parameters["skill"], parameters["guess"], strict=True))
    assert by_skill[:2] == [(0.0, 0.9), (0.2, 0.5)]
    assert all(guess == 0 for _, guess in by_skill[2:])


def test_bin_edges():
    np.testing.assert_allclose(oc.bin_edges(5, "none", 0.7, 2), [0.5, 1.5, 2.5, 3.5])
    np.testing.assert_allclose(oc.bin_edges(5, "majority", 0.3, 2), [0.5, 1.2, 2.8, 3.5])
    np.testing.assert_allclose(oc.bin_edges(5, "majority", 1.2, 3), [0.5, 1.3, 1.3, 4.7])  # class 1 vanishes
    np.testing.assert_allclose(oc.bin_edges(5, "neutral", 0.2, 0), [0.5, 1.3, 2.7, 3.5])
    np.testing.assert_allclose(oc.bin_edges(5, "extremes", 1.0, 2), [0.5, 2.0, 2.0, 3.5])  # middle bin closed
    assert np.all(np.diff(oc.bin_edges(5, "majority", 1.0, 0)) >= 0)


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ({"systems": 3, "model": "neural"}, "model"),
        ({"systems": 3, "team_size": 0}, "team_size"),
        ({"systems": 3, "team_shared": 1.5}, "team_shared"),
        ({"systems": 4, "team_size": 2, "weak_teams": 3}, "weak_teams"),
        ({"systems": 3, "weak_guess_min": 0.8, "weak_guess_max": 0.5}, "weak_guess_max"),
        ({"systems": 3, "weak_skill_max": 1.5}, "weak_skill_max"),
    ],
)
def test_impossible_new_run_settings(source, key):
    with pytest.raises(ConfigError, match=rf"datasets\.D\.runs\[1\]\.{key}: "):
        oc.run_parameters({"type": "simulate", **source}, 5, "datasets.D.runs[1]")


# --------------------------------------------------------------------------- conventions


@pytest.mark.parametrize("name", ["config.yaml", "replication.yaml"])
def test_shipped_configurations_use_tau_a(name):
    assert configuration.load(ROOT / "config" / name)["kendall"] == "a"


def test_tau_b_stays_an_option():
    assert configuration.schema()["properties"]["kendall"]["enum"] == ["a", "b"]


def test_property_table_rows_follow_the_paper():
    measures = ["alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu", "NEW"]
    taus = np.full((10, 10), 0.5) + 0.5 * np.eye(10)
    table = properties_table(
        measures,
        {m: {} for m in measures},
        taus,
        {m: i / 10 for i, m in enumerate(measures)},
        {m: float(i) for i, m in enumerate(measures)},
    )
    assert list(table["measure"]) == [*PROPERTY_ORDER, "NEW"]
    # the numbers stay with their measures
    assert dict(zip(table["measure"], table["pooled_dp_percent"], strict=True))["kappa"] == 5.0


def one_class_data(option: str):
    """Topic t1: every gold and run label in class 0 for both runs (kappa, alphas 0/0); topic t2: ordinary."""
    from ordeval.tasks.classification import ClassificationData

    gold = np.array([0, 0, 0, 0, 1, 2])
    runs = np.array([[0, 0, 0, 0, 1, 1], [0, 0, 0, 1, 2, 2]])
    return ClassificationData(
        "D",
        ["-1", "0", "1"],
        ["t1", "t2"],
        ["A", "B"],
        {},
        [f"i{i}" for i in range(6)],
        np.array([0, 0, 0, 1, 1, 1]),
        gold,
        runs,
        option,
    )


def test_one_class_convention_is_one_by_default():
    from ordeval.tasks import get_task

    scored = get_task("classification").score(one_class_data("one"), ["kappa", "alpha_ORD", "alpha_INT", "MAE_M"])
    assert scored.stack.topics == ["t1", "t2"]
    for measure in ("kappa", "alpha_ORD", "alpha_INT"):
        assert scored.stack.matrix(measure)[0, 0] == 1.0  # run A on t1: all labels in class 0
    table = scored.extras["conventions"]
    kappa = [row for row in table.records() if row["measure"] == "kappa" and row["cells"]]
    assert kappa[0]["value"] == 1.0 and kappa[0]["cells"] == 2


def test_one_class_option_nan_leaves_the_topic_undefined_and_keeps_the_counts():
    from ordeval.tasks import get_task

    scored = get_task("classification").score(one_class_data("nan"), ["kappa", "alpha_ORD", "alpha_INT", "MAE_M"])
    assert scored.stack.topics == ["t2"]  # t1 has an undefined score: left out of the analyses
    assert np.isfinite(scored.stack.values).all()
    table = scored.extras["conventions"]
    kappa = [row for row in table.records() if row["measure"] == "kappa" and row["cells"]]
    assert np.isnan(kappa[0]["value"]) and kappa[0]["cells"] == 2


def test_one_class_option_only_for_classification():
    spec = configuration.load(ROOT / "config" / "config.yaml")
    spec["datasets"]["Sem16T4C"]["one_class_agreement"] = "nan"
    assert configuration.validate(spec)["datasets"]["Sem16T4C"]["one_class_agreement"] == "nan"
    spec["datasets"]["Sem16T4E"]["one_class_agreement"] = "nan"
    with pytest.raises(ConfigError, match="Sem16T4E"):
        configuration.validate(spec)
