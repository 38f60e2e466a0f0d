"""Systems fitted to real runs (issue 35): the latent ordinal classifier of ordeval.tasks.latent in both
simulators (profiles, jitter, topic shifts tied to the topic's gold, item difficulty), and the checks of
their settings."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from ordeval.io.errors import ConfigError
from ordeval.stats.seeding import stream
from ordeval.tasks import latent, topic_model
from ordeval.tasks.classification import simulate as oc
from ordeval.tasks.quantification import simulate as oq
from ordeval.workflow import config as configuration

#: A system that predicts every class (cut points between the classes) and one that never predicts the
#: extreme classes and puts most items in class 3 (the real INSIGHT-1 / YZU-NLP profile: low MAE^mu,
#: high MAE^M).
CALIBRATED = {"noise_sd": 0.8, "edges": [0.5, 1.5, 2.5, 3.5]}
NO_EXTREMES = {"noise_sd": 0.8, "edges": [-9.0, 1.2, 2.3, 12.0]}


@pytest.fixture(scope="module")
def oc_gold():
    # the middle class common, the extremes rare, as in SemEval
    return oc.simulate_gold(
        stream(11, "gold"),
        topics=40,
        num_classes=5,
        items_min=150,
        items_max=300,
        class_shares=[0.03, 0.12, 0.45, 0.35, 0.05],
    )


def mae(predicted, gold):
    """(MAE^M, MAE^mu) of one run over all items."""
    errors = np.abs(predicted - gold)
    return np.mean([errors[gold == c].mean() for c in np.unique(gold)]), errors.mean()


def test_class_probabilities_are_the_normal_cut_into_bins():
    probabilities = latent.class_probabilities(np.array([0.5, 1.5]), 1e-9, 0.0)
    np.testing.assert_allclose(probabilities, np.eye(3), atol=1e-12)  # no noise: every item in its class
    shifted = latent.class_probabilities(np.array([0.5, 1.5]), 1.0, np.array([0.0, 1.0]))
    assert shifted.shape == (2, 3, 3)
    np.testing.assert_allclose(shifted.sum(axis=-1), 1.0)
    assert shifted[1, 0, 1] > shifted[0, 0, 1]  # a positive shift moves class 0's items up
    latent_values = np.random.default_rng(0).normal(1.0, 1.0, size=200_000)
    counts = np.bincount(latent.cut(latent_values, np.array([0.5, 1.5])), minlength=3) / latent_values.size
    np.testing.assert_allclose(counts, latent.class_probabilities(np.array([0.5, 1.5]), 1.0, 0.0)[1], atol=0.005)


def test_profiles_are_dealt_in_a_drawn_order_and_again_when_there_are_more_systems():
    profiles = [{"noise_sd": sd, "edges": [0.5, 1.5, 2.5, 3.5]} for sd in (1.0, 2.0, 3.0)]
    dealt = latent.assign_profiles(np.random.default_rng(1), profiles, 7, 0.0)
    sd, edges = dealt.sd, dealt.edges
    assert sorted(sd[:3]) == [1.0, 2.0, 3.0] and list(sd[3:6]) == list(sd[:3]) and sd[6] == sd[0]
    assert (edges == [0.5, 1.5, 2.5, 3.5]).all()
    jittered_systems = latent.assign_profiles(np.random.default_rng(1), profiles, 7, 0.2)
    jittered, jittered_edges = jittered_systems.sd, jittered_systems.edges
    assert not np.array_equal(jittered, sd) and np.all(np.diff(jittered_edges, axis=1) >= 0)
    assert np.abs(np.log(jittered / sd)).max() < 1.0


def test_topic_shifts_follow_the_topics_gold_and_need_no_draw_without_an_sd():
    rng = np.random.default_rng(0)
    mean_class = np.array([1.5, 2.0, 2.5])
    np.testing.assert_allclose(latent.topic_shifts(rng, mean_class, 0.8, 0.0), [-0.4, 0.0, 0.4])
    assert rng.random() == np.random.default_rng(0).random()  # nothing drawn
    assert not np.allclose(latent.topic_shifts(rng, mean_class, 0.8, 0.3), [-0.4, 0.0, 0.4])


def test_topic_proportions_tilt_along_the_class_order_and_polarise():
    shares = np.array([0.05, 0.15, 0.4, 0.3, 0.1])
    plain = topic_model.topic_proportions(np.random.default_rng(3), shares, 20.0, 4000)
    np.testing.assert_array_equal(plain, np.random.default_rng(3).dirichlet(20.0 * shares, size=4000))
    tilted = topic_model.topic_proportions(np.random.default_rng(3), shares, 20.0, 4000, tilt_sd=1.0)
    np.testing.assert_allclose(tilted.sum(axis=1), 1.0)
    mean_class = lambda p: p @ np.arange(5)  # noqa: E731
    assert mean_class(tilted).std() > 1.5 * mean_class(plain).std()  # topics differ along the order
    # the negative classes rise and fall together, against the positive ones
    assert (
        np.corrcoef(tilted[:, 0] + tilted[:, 1], tilted[:, 3] + tilted[:, 4])[0, 1]
        < np.corrcoef(plain[:, 0] + plain[:, 1], plain[:, 3] + plain[:, 4])[0, 1]
    )
    polarised = topic_model.topic_proportions(np.random.default_rng(3), shares, 20.0, 4000, polarity_sd=1.0)
    extremes = lambda p: p[:, 0] + p[:, 4]  # noqa: E731
    assert extremes(polarised).std() > 1.5 * extremes(plain).std()  # divisive topics and calm ones
    gold = oc.gold_parameters({"topics": 5, "tilt_sd": 0.5, "polarity_sd": 0.2}, 5)
    assert (gold["tilt_sd"], gold["polarity_sd"]) == (0.5, 0.2)
    with pytest.raises(ConfigError, match=r"gold\.tilt_sd: "):
        oc.gold_parameters({"topics": 5, "tilt_sd": -1}, 5)


def test_logistic_class_probabilities_follow_the_formula():
    cuts = np.array([-3.0, -1.0, 0.5, 2.5])
    location, log_scale = np.array([0.0, 1.2, -0.7]), np.array([0.0, 0.3, -0.2])
    probabilities = topic_model.logistic_class_probabilities(cuts, location, log_scale)
    logistic = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    for t in range(3):
        below = np.concatenate([[0.0], logistic((cuts - location[t]) / np.exp(log_scale[t])), [1.0]])
        np.testing.assert_allclose(probabilities[t], np.diff(below), rtol=1e-12)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    # a more positive topic has less of every class below a cut point, more of every class above it
    assert (np.cumsum(probabilities[1])[:-1] < np.cumsum(probabilities[0])[:-1]).all()


def test_logistic_topic_proportions_are_reproducible_and_keep_rare_extremes_rare():
    cuts = [-5.9, -2.5, 0.5, 4.6]
    first = topic_model.logistic_topic_proportions(np.random.default_rng(4), cuts, 1.0, 0.2, 3000)
    again = topic_model.logistic_topic_proportions(np.random.default_rng(4), cuts, 1.0, 0.2, 3000)
    np.testing.assert_array_equal(first, again)
    rng = np.random.default_rng(4)
    location, log_scale = rng.normal(0, 1.0, 3000), rng.normal(0, 0.2, 3000)
    np.testing.assert_allclose(first, topic_model.logistic_class_probabilities(cuts, location, log_scale))
    # topics differ in how positive they are (mean class) and how divided (both extremes at once)
    mean_class = first @ np.arange(5)
    assert 0.3 < mean_class.std() < 1.0
    assert np.corrcoef(np.log(first[:, 0]) + np.log(first[:, 4]), log_scale)[0, 1] > 0.5
    # the rare extremes stay rare on nearly every topic (no Dirichlet burst of a rare class)
    assert np.percentile(first[:, 0], 99) < 0.1 and np.percentile(first[:, 4], 99) < 0.15
    flat = topic_model.logistic_topic_proportions(np.random.default_rng(4), cuts, 0.0, 0.0, 5)
    np.testing.assert_allclose(flat, np.broadcast_to(flat[0], flat.shape))  # no spread: one distribution
    for bad, problem in (([0, 0, 1, 2], "strictly ascending"), ([0, np.inf, 1, 2], "finite"), ("ab", "must be")):
        with pytest.raises(ValueError, match=f"cut_points .*{problem}"):
            topic_model.logistic_topic_proportions(np.random.default_rng(4), bad, 1.0, 0.2, 3)


def test_both_gold_simulators_take_the_logistic_topic_model():
    settings = {"cut_points": [-5.9, -2.5, 0.5, 4.6], "location_sd": 1.0, "scale_sd": 0.2}
    tweets = oq.simulate_tweet_gold(
        stream(5, "gold"), topics=400, num_classes=5, tweets_min=200, tweets_max=200, **settings
    )
    np.testing.assert_allclose(tweets.sum(axis=1), 1.0)
    np.testing.assert_allclose(tweets * 200, np.rint(tweets * 200), atol=1e-9)  # counts of 200 tweets
    assert 0.3 < (tweets[:, 0] == 0).mean() < 0.75 and (tweets[:, 2] == 0).mean() == 0
    parameters = oc.gold_parameters({"topics": 30, "items_min": 50, "items_max": 60, **settings}, 5)
    item_topic, labels = oc.simulate_gold(stream(5, "gold"), num_classes=5, **parameters)
    assert np.bincount(item_topic).min() >= 50 and set(np.unique(labels)) <= set(range(5))
    assert np.bincount(labels, minlength=5).argmax() in (2, 3)  # the middle classes are the common ones
    with pytest.raises(ConfigError, match=r"gold\.concentration: a setting of the Dirichlet topic model, which"):
        oc.gold_parameters({"topics": 5, "concentration": 3.0, **settings}, 5)
    with pytest.raises(ConfigError, match=r"gold\.scale_sd: -1 must be >= 0"):
        oc.gold_parameters({"topics": 5, **settings, "scale_sd": -1}, 5)


def test_oc_profiles_give_the_real_profile_of_low_micro_and_high_macro_error(oc_gold):
    item_topic, gold = oc_gold
    parameters = oc.run_parameters({"systems": 2, "model": "latent", "profiles": [CALIBRATED, NO_EXTREMES]}, 5)
    runs = oc.simulate_runs(stream(2, "s"), stream(2, "n"), gold, item_topic, 5, **parameters)
    again = oc.simulate_runs(stream(2, "s"), stream(2, "n"), gold, item_topic, 5, **parameters)
    assert np.array_equal(runs, again)
    scores = sorted((mae(run, gold) for run in runs), key=lambda pair: pair[0])
    (calibrated_macro, calibrated_micro), (biased_macro, biased_micro) = scores
    assert biased_macro > calibrated_macro + 0.15  # MAE^M worse
    assert biased_micro < calibrated_micro - 0.1  # MAE^mu better
    biased = runs[np.argmax([mae(run, gold)[0] for run in runs])]
    assert not np.isin(biased, [0, 4]).any()  # the extreme classes never predicted


def test_oc_shared_topic_shift_and_item_difficulty_make_systems_err_alike(oc_gold):
    item_topic, gold = oc_gold
    common = {"systems": 6, "model": "latent", "profiles": [{"noise_sd": 1.2, "edges": [0.5, 1.5, 2.5, 3.5]}]}

    def correlation(**settings):
        parameters = oc.run_parameters({**common, **settings}, 5)
        runs = oc.simulate_runs(stream(3, "s"), stream(3, "n"), gold, item_topic, 5, **parameters)
        return np.corrcoef(runs - gold)[np.triu_indices(6, k=1)].mean()  # signed errors, item by item

    plain = correlation()
    assert correlation(topic_shift_sd=0.5) > plain + 0.05
    assert correlation(item_difficulty_sd=0.6) > plain + 0.02
    # the slope: topics whose gold is more positive read more positive still
    parameters = oc.run_parameters({**common, "topic_shift_slope": 2.0}, 5)
    runs = oc.simulate_runs(stream(3, "s"), stream(3, "n"), gold, item_topic, 5, **parameters)
    topics = int(item_topic.max()) + 1
    mean_gold = np.bincount(item_topic, weights=gold, minlength=topics) / np.bincount(item_topic, minlength=topics)
    mean_error = np.bincount(item_topic, weights=(runs - gold).mean(axis=0), minlength=topics) / np.bincount(item_topic)
    assert np.corrcoef(mean_gold, mean_error)[0, 1] > 0.5


def test_oq_latent_runs_count_the_latent_classifiers_predictions():
    gold = oq.simulate_tweet_gold(stream(4, "gold"), topics=60, num_classes=5)
    sharp = [{**CALIBRATED, "noise_sd": 0.3, "concentration": 5000.0}]
    runs = oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=2, model="latent", profiles=sharp)
    again = oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=2, model="latent", profiles=sharp)
    assert runs.shape == (2, 60, 5) and np.array_equal(runs, again)
    expected = gold @ latent.class_probabilities(np.array(CALIBRATED["edges"]), 0.3, 0.0)
    np.testing.assert_allclose(runs.mean(axis=0), expected, atol=0.03)  # near its expectation
    # a system whose predictions do not depend on the gold estimates the same distribution everywhere
    blind = [{"noise_sd": 50.0, "edges": [-60.0, -20.0, 20.0, 60.0], "concentration": 5000.0}]
    flat = oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=1, model="latent", profiles=blind)
    assert flat[0].std(axis=0).max() < 0.02
    variants = oq.simulate_runs(
        stream(4, "s"), stream(4, "n"), gold, systems=2, english_variants=1, model="latent", profiles=sharp
    )
    assert variants.shape == (3, 60, 5) and np.array_equal(variants[:2], runs)
    with pytest.raises(ValueError, match="profiles"):
        oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=2, model="latent")


def test_topic_interactions_follow_the_profiles_loadings_and_sds():
    profiles = [
        {**CALIBRATED, "loadings": [0.5, 0.0], "interaction_sd": 0.1},
        {**CALIBRATED, "loadings": [0.5, 0.0], "interaction_sd": 0.1},
        {**CALIBRATED, "loadings": [-0.5, 0.0], "interaction_sd": 0.1},
        CALIBRATED,
    ]
    dealt = latent.assign_profiles(np.random.default_rng(2), profiles, 4, 0.0)
    shifts = latent.topic_interactions(np.random.default_rng(3), dealt, 0.3, 4000)
    np.testing.assert_allclose(
        shifts.std(axis=1),
        np.sqrt(
            (dealt.loadings**2).sum(axis=1) + np.where(np.isnan(dealt.interaction_sd), 0.3, dealt.interaction_sd) ** 2
        ),
        rtol=0.05,
    )
    correlation = np.corrcoef(shifts)
    same = [i for i in range(4) if dealt.loadings[i, 0] > 0]
    opposite = [i for i in range(4) if dealt.loadings[i, 0] < 0]
    plain = [i for i in range(4) if not dealt.loadings[i].any()]
    assert correlation[same[0], same[1]] > 0.9 and correlation[same[0], opposite[0]] < -0.9
    assert abs(correlation[same[0], plain[0]]) < 0.1
    # without loadings: one draw per system and topic, as N(0, interaction_sd) always drew
    bare = latent.assign_profiles(np.random.default_rng(2), [CALIBRATED] * 3, 3, 0.0)
    np.testing.assert_array_equal(
        latent.topic_interactions(np.random.default_rng(3), bare, 0.3, 50),
        np.random.default_rng(3).normal(0.0, 0.3, size=(3, 50)),
    )


def test_oc_systems_with_loadings_alike_err_alike_from_topic_to_topic(oc_gold):
    item_topic, gold = oc_gold
    alike = {**CALIBRATED, "loadings": [0.8], "interaction_sd": 0.0}
    parameters = oc.run_parameters({"systems": 2, "model": "latent", "profiles": [alike, alike]}, 5)
    runs = oc.simulate_runs(stream(6, "s"), stream(6, "n"), gold, item_topic, 5, **parameters)
    again = oc.simulate_runs(stream(6, "s"), stream(6, "n"), gold, item_topic, 5, **parameters)
    assert np.array_equal(runs, again)
    topics = int(item_topic.max()) + 1
    error = np.stack(
        [np.bincount(item_topic, weights=run - gold, minlength=topics) / np.bincount(item_topic) for run in runs]
    )
    unrelated = oc.run_parameters({"systems": 2, "model": "latent", "profiles": [CALIBRATED], "interaction_sd": 0.8}, 5)
    apart = oc.simulate_runs(stream(6, "s"), stream(6, "n"), gold, item_topic, 5, **unrelated)
    error_apart = np.stack(
        [np.bincount(item_topic, weights=run - gold, minlength=topics) / np.bincount(item_topic) for run in apart]
    )
    assert np.corrcoef(error)[0, 1] > 0.8 > 0.5 > np.corrcoef(error_apart)[0, 1]
    with pytest.raises(ConfigError, match=r"runs\.profiles: loadings of 1 and 2 numbers"):
        oc.run_parameters(
            {"systems": 2, "model": "latent", "profiles": [alike, {**alike, "loadings": [0.1, 0.2]}]}, 5, "runs"
        )
    with pytest.raises(ConfigError, match=r"profiles\[0\]: interaction_sd -1 is not a number >= 0"):
        oc.run_parameters({"systems": 2, "model": "latent", "profiles": [{**alike, "interaction_sd": -1}]}, 5)


def test_a_profiles_floor_decides_how_often_a_class_it_hardly_predicts_comes_out_empty():
    gold = oq.simulate_tweet_gold(stream(4, "gold"), topics=200, num_classes=5)
    never_extreme = {**NO_EXTREMES, "concentration": 30.0}  # classes -2 and 2 never predicted

    def empty_share(**profile):
        runs = oq.simulate_runs(
            stream(4, "s"), stream(4, "n"), gold, systems=1, model="latent", profiles=[{**never_extreme, **profile}]
        )
        return float((runs[0][:, [0, 4]] < 1e-9).mean())

    default = empty_share()
    assert empty_share(floor=0.01) == default  # the simulator's floor when the profile gives none
    assert empty_share(floor=1e-4) > 0.9 > default > 0.5 > empty_share(floor=0.5)
    # the floor draws nothing: the other systems of a field keep their estimates
    two = [{**CALIBRATED, "concentration": 50.0}, never_extreme]
    plain = oq.simulate_runs(stream(4, "s"), stream(4, "n"), gold, systems=2, model="latent", profiles=two)
    floored = oq.simulate_runs(
        stream(4, "s"),
        stream(4, "n"),
        gold,
        systems=2,
        model="latent",
        profiles=[two[0], {**never_extreme, "floor": 1e-4}],
    )
    calibrated = int(np.argmin([(run < 1e-9).mean() for run in plain]))
    np.testing.assert_array_equal(plain[calibrated], floored[calibrated])


@pytest.mark.parametrize(
    ("profiles", "message"),
    [
        ([{"noise_sd": 1.0, "edges": [0.5, 1.5, 2.5]}], r"profiles\[0\]: edges .* must be 4 numbers"),
        ([CALIBRATED, {"noise_sd": 1.0, "edges": [0.5, 2.5, 1.5, 3.5]}], r"profiles\[1\]: .*ascending"),
        ([{"noise_sd": 0, "edges": [0.5, 1.5, 2.5, 3.5]}], r"profiles\[0\]: noise_sd 0 is not a positive number"),
        ([{"edges": [0.5, 1.5, 2.5, 3.5]}], r"profiles\[0\]: misses noise_sd"),
    ],
)
def test_impossible_profiles_are_named_with_their_key(profiles, message):
    with pytest.raises(ConfigError, match=rf"datasets\.D\.runs\[1\]\.{message}"):
        oc.run_parameters({"systems": 3, "model": "latent", "profiles": profiles}, 5, "datasets.D.runs[1]")
    with pytest.raises(ConfigError, match="model: latent"):
        oc.run_parameters({"systems": 3, "profiles": [CALIBRATED]}, 5, "datasets.D.runs[1]")


def test_the_configuration_checks_profiles_of_both_tasks():
    from conftest import tiny_config

    config = tiny_config(classification=True)
    oq_source = config["datasets"]["TinySem"]["runs"][1]
    oc_source = config["datasets"]["TinyOC"]["runs"][1]
    oq_source.update(
        model="latent", profiles=[{**CALIBRATED, "concentration": 50.0, "floor": 0.001}], topic_shift_slope=0.5
    )
    oc_source.update(model="latent", profiles=[CALIBRATED, NO_EXTREMES], item_difficulty_sd=0.3)
    configuration.validate(copy.deepcopy(config))  # accepted
    for change, message in [
        (lambda c: c["datasets"]["TinySem"]["runs"][1]["profiles"][0].pop("concentration"), "concentration"),
        (lambda c: c["datasets"]["TinySem"]["runs"][1].pop("profiles"), r"TinySem\.runs\[1\]\.profiles: the latent"),
        (lambda c: c["datasets"]["TinyOC"]["runs"][1]["profiles"][1]["edges"].pop(), r"TinyOC\.runs\[1\]\.profiles\[1"),
        (lambda c: c["datasets"]["TinyOC"]["runs"][1].update(topic_shift_slope=9), "topic_shift_slope"),
        (lambda c: c["datasets"]["TinySem"]["runs"][1].update(model="dirichlet"), "model: latent"),
        (lambda c: c["datasets"]["TinySem"]["runs"][1]["profiles"][0].update(floor=0), r"\[0\]\.floor: 0 is less"),
        (lambda c: c["datasets"]["TinyOC"]["runs"][1]["profiles"][0].update(floor=0.1), "floor"),  # OQ only
        (lambda c: c["datasets"]["TinySem"]["runs"][1]["profiles"][0].update(loadings=["a"]), "loadings"),
        (
            lambda c: [
                p.update(loadings=[0.1] * (i + 1)) for i, p in enumerate(c["datasets"]["TinyOC"]["runs"][1]["profiles"])
            ],
            r"TinyOC\.runs\[1\]\.profiles: loadings of 1 and 2 numbers",
        ),
    ]:
        broken = copy.deepcopy(config)
        change(broken)
        with pytest.raises(ConfigError, match=message):
            configuration.validate(broken)


FITTED = {"Sem16T4C": "Sem16T4C", "Sem17T4C": "Sem16T4C", "Sem16T4E": "Sem16T4E", "Sem17T4E": "Sem16T4E"}
FIT_KEYS = (
    "model",
    "profiles",
    "item_difficulty_sd",
    "item_shared",
    "topic_shift_slope",
    "topic_shift_sd",
    "topic_difficulty_sd",
    "interaction_sd",
)


def test_the_default_semeval_data_sets_use_the_settings_fitted_to_the_real_fields():
    """config/config.yaml carries what benchmarks/fit_simulators.py wrote (benchmarks/results/fit_simulators.json):
    the 2016 systems for all four SemEval sets, the 2016 gold for the 2016 sets, the 2017 gold for the 2017 ones."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    fitted = json.loads((root / "benchmarks" / "results" / "fit_simulators.json").read_text())
    datasets = configuration.load(root / "config" / "config.yaml")["datasets"]
    for name, fitted_to in FITTED.items():
        (source,) = [run for run in datasets[name]["runs"] if run["type"] == "simulate"]
        expected = {key: value for key, value in fitted["runs"][fitted_to].items() if key in FIT_KEYS}
        assert {key: source[key] for key in expected} == expected, name
        gold = fitted["gold"][name[:7]]
        size = "items" if datasets[name].get("task") == "classification" else "tweets"
        given = datasets[name]["gold"]
        assert (given[f"{size}_min"], given[f"{size}_max"]) == (gold["items_min"], gold["items_max"]), name
        keys = ("cut_points", "location_sd", "scale_sd")
        assert [given[key] for key in keys] == [gold[key] for key in keys], name
