"""Configuration values are checked before any work, each error one line naming the key: numbers that are
not finite or do not fit, settings that must agree, control characters, names that could escape a folder, carry
LaTeX or collide with outputs, sizes and memory that cannot fit, huge values never echoed, and random names (a
property test)."""

from __future__ import annotations

import copy
import time
from pathlib import Path

import pytest
from conftest import REPO, tiny_config

from ordeval.io.errors import ConfigError
from ordeval.workflow.config import load, load_yaml
from ordeval.workflow.limits import HOURS_VARIABLE, MEMORY_VARIABLE, estimate
from ordeval.workflow.plan import plan as make_plan


@pytest.fixture(autouse=True)
def _no_limit_overrides(monkeypatch):
    monkeypatch.delenv(MEMORY_VARIABLE, raising=False)
    monkeypatch.delenv(HOURS_VARIABLE, raising=False)


def refused(change, *, classification: bool = False) -> str:
    """The one-line ConfigError of planning the tiny configuration after ``change``."""
    config = copy.deepcopy(tiny_config(classification=classification))
    change(config)
    with pytest.raises(ConfigError) as error:
        make_plan(config, check_files=False)
    message = str(error.value)
    assert "\n" not in message and "\r" not in message and "\t" not in message, message
    assert len(message) < 600, message
    return message


def sem(config):
    return config["datasets"]["TinySem"]


def dq(config):
    return config["datasets"]["TinyDQ"]


def oc(config):
    return config["datasets"]["TinyOC"]


def oc_only(config):
    """The classification data set of the tiny configuration, added to it."""
    config["datasets"]["TinyOC"] = tiny_config(classification=True)["datasets"]["TinyOC"]
    config["measures"] = tiny_config(classification=True)["measures"]
    return oc(config)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: c["consistency"].update(alpha=float("nan")), "consistency.alpha: nan is not a finite number"),
        (lambda c: c.update(significance={"alpha": float("nan")}), "significance.alpha: nan"),
        (lambda c: c.update(popularity={"tie_tolerance": float("nan")}), "popularity.tie_tolerance: nan"),
        (lambda c: c.update(popularity={"tie_tolerance": float("inf")}), "popularity.tie_tolerance: inf"),
        (lambda c: c["agreement"].update(ci_level=float("nan")), "agreement.ci_level: nan"),
        (lambda c: dq(c)["gold"].update(latent_mean=float("-inf")), "datasets.TinyDQ.gold.latent_mean: -inf"),
        (lambda c: dq(c)["gold"].update(latent_sd=float("nan")), "datasets.TinyDQ.gold.latent_sd: nan"),
        (lambda c: sem(c)["runs"][1].update(floor=float("inf")), "datasets.TinySem.runs[1].floor: inf"),
        (lambda c: c.update(seed=10**30), "config key seed: 1000000000000000000000000000000 is greater than"),
        (lambda c: c.update(seed=-1), "config key seed: -1 is less than the minimum of 0"),
        (lambda c: sem(c)["gold"].update(topics=10**20), "datasets.TinySem.gold.topics: 100000000000000000000 is"),
    ],
)
def test_numbers_that_are_not_finite_or_do_not_fit_64_bits_are_refused(change, key):
    assert key in refused(change)


def test_the_largest_seed_is_accepted():
    config = tiny_config(seed=2**63 - 1)
    assert make_plan(config, check_files=False).config["seed"] == 2**63 - 1


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: sem(c)["gold"].update(tweets_min=500, tweets_max=100), "TinySem.gold.tweets_max: tweets_min (500)"),
        (lambda c: sem(c)["gold"].update(tweets_min=500), "TinySem.gold.tweets_min: tweets_min (500) is greater"),
        (lambda c: sem(c)["runs"][1].update(skill_min=0.9, skill_max=0.2), "TinySem.runs[1].skill_max"),
        (lambda c: sem(c)["runs"][1].update(bias_min=0.9), "TinySem.runs[1].bias_min: bias_min (0.9)"),
        (lambda c: sem(c)["runs"][1].update(noise_concentration_min=100.0), "runs[1].noise_concentration_min"),
        (lambda c: sem(c)["runs"][1].update(english_variants=7), "TinySem.runs[1].english_variants: 7"),
        (lambda c: sem(c)["runs"][1].update(weak_skill_min=0.5), "TinySem.runs[1].weak_skill_min: weak_skill_min"),
        (lambda c: sem(c)["runs"][1].update(team_size=2, weak_teams=9), "TinySem.runs[1].weak_teams: 9 weak teams"),
        (lambda c: dq(c)["gold"].update(scores=["E", "S"]), "TinyDQ.gold.score: 'A' is not one of scores"),
        (
            lambda c: dq(c)["gold"].update(scores=["A", "E", "S", "X"], latent_correlation=-0.4),
            "TinyDQ.gold.latent_correlation: -0.4 with 4 scores",
        ),
    ],
)
def test_min_max_pairs_and_related_fields_must_agree(change, key):
    assert key in refused(change)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: oc(c)["gold"].update(items_min=50, items_max=10), "TinyOC.gold.items_max"),
        (lambda c: oc(c)["runs"][1].update(skill_min=0.95), "TinyOC.runs[1].skill_min: skill_min (0.95)"),
        (lambda c: oc(c)["runs"][1].update(spread_min=0.5, spread_max=0.1), "TinyOC.runs[1].spread_max"),
        (lambda c: oc(c)["runs"][1].update(weak_guess_min=0.9, weak_guess_max=0.2), "TinyOC.runs[1].weak_guess_max"),
        (lambda c: oc(c)["runs"][1].update(weak_teams=99), "TinyOC.runs[1].weak_teams: 99 weak teams"),
        (lambda c: oc(c)["gold"].update(class_shares=[1, 1]), "TinyOC.gold.class_shares: 2 shares for 5 classes"),
        (lambda c: oc(c)["gold"].update(cut_points=[0, 1]), "TinyOC.gold.cut_points: [0, 1] must be 4 numbers"),
        (lambda c: oc(c)["gold"].update(cut_points=[0, 2, 1, 3]), "TinyOC.gold.cut_points: [0, 2, 1, 3] must be stri"),
        (
            lambda c: oc(c)["gold"].update(cut_points=[0, 1, 2, 3], tilt_sd=0.5),
            "TinyOC.gold.tilt_sd: a setting of the Dirichlet topic model",
        ),
        (lambda c: oc(c)["runs"][0].update({"class": 7}), "TinyOC.runs[0].class: 7 is not one of the classes"),
    ],
)
def test_classification_settings_must_agree(change, key):
    assert key in refused(change, classification=True)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: sem(c)["gold"].update(class_shares=[0.5, 0.5]), "TinySem.gold.class_shares: 2 shares for 5"),
        (lambda c: sem(c)["gold"].update(cut_points=[-1, 0, 1]), "TinySem.gold.cut_points: [-1, 0, 1] must be 4"),
        (lambda c: sem(c)["gold"].update(cut_points=[0, 0, 1, 2]), "TinySem.gold.cut_points: [0, 0, 1, 2] must be"),
        (
            lambda c: sem(c)["gold"].update(cut_points=[0, 1, 2, 3], class_shares=[0.2] * 5),
            "TinySem.gold.class_shares: a setting of the Dirichlet topic model",
        ),
        (lambda c: sem(c)["runs"][0].update({"class": "3"}), "TinySem.runs[0].class: '3' is not one of the classes"),
        (lambda c: sem(c).update(classes=[1, "1", 2]), "TinySem.classes: label(s) '1' given twice"),
        (lambda c: sem(c)["runs"].append({"type": "uniform", "name": "topic"}), "run 'topic' is a reserved word"),
        (lambda c: c.update(popularity={"uniform_run": "../BL"}), "popularity.uniform_run: run '../BL' contains a"),
    ],
)
def test_fields_that_must_agree_with_the_classes_and_names(change, key):
    assert key in refused(change)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: sem(c).update(classes=["a\tb", "c", "d"]), "TinySem.classes[0]: 'a\\tb' contains"),
        (lambda c: sem(c)["gold"].update(topic_prefix="t\t"), "TinySem.gold.topic_prefix: 't\\t' contains"),
        (lambda c: sem(c)["gold"].update(topic_prefix="t\n"), "TinySem.gold.topic_prefix: 't\\n' contains"),
        (lambda c: sem(c)["runs"][1].update(prefix="S\x00"), "TinySem.runs[1].prefix: 'S\\x00' contains"),
        (lambda c: sem(c).update(description="a\rb"), "TinySem.description: 'a\\rb' contains"),
        (lambda c: sem(c).update(venue="a\u2028b"), "TinySem.venue: 'a\\u2028b' contains"),
        (lambda c: sem(c)["gold"].update(corpus="x\x1b[31m"), "TinySem.gold.corpus"),
        (lambda c: c.update(popularity={"popularity_run": "BL\tpop"}), "popularity.popularity_run"),
    ],
)
def test_control_characters_are_refused_in_every_string(change, key):
    message = refused(change)
    assert key in message and "control character" in message


def test_plain_unicode_text_stays_allowed():
    config = tiny_config()
    sem(config).update(description="Ünïcødé — tweets, 中文", venue="SemEval\u00a02016")
    assert make_plan(config, check_files=False)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: sem(c)["runs"][1].update(systems=10**6), "config key datasets.TinySem: too large"),
        (lambda c: sem(c)["gold"].update(topics=10**9), "config key datasets.TinySem: too large"),
        (lambda c: c["significance"].update(hsd_trials=10**11), "config key datasets: too long"),
        (lambda c: c["consistency"].update(trials=10**9), "too large"),
        (lambda c: dq(c)["gold"].update(annotators=10**9), "config key datasets.TinyDQ: too large"),
        (lambda c: oc_only(c)["gold"].update(items_min=10**7, items_max=10**8), "datasets.TinyOC: too large"),
    ],
)
def test_sizes_that_cannot_fit_are_refused_quickly_with_the_estimate(change, expected):
    started = time.monotonic()
    message = refused(change)
    assert time.monotonic() - started < 5
    assert expected in message
    assert "GB of memory" in message or "hours of work" in message
    assert "limits: {memory_gb" in message and MEMORY_VARIABLE in message


def test_the_limits_can_be_overridden_in_the_configuration_and_by_the_environment(monkeypatch):
    config = tiny_config()
    config["significance"]["hsd_trials"] = 10**11
    with pytest.raises(ConfigError, match="too long"):
        make_plan(config, check_files=False)
    assert make_plan({**config, "limits": {"hours": 0}}, check_files=False)
    assert make_plan({**config, "limits": {"hours": 1e9}}, check_files=False)
    monkeypatch.setenv(HOURS_VARIABLE, "0")
    assert make_plan(config, check_files=False)
    monkeypatch.setenv(HOURS_VARIABLE, "1")  # the environment wins over the configuration
    with pytest.raises(ConfigError, match=f"limit is 1 hours \\({HOURS_VARIABLE}"):
        make_plan({**config, "limits": {"hours": 0}}, check_files=False)
    monkeypatch.setenv(MEMORY_VARIABLE, "lots")
    with pytest.raises(ConfigError, match=f"environment variable {MEMORY_VARIABLE}: 'lots' is not a number"):
        make_plan(config, check_files=False)


def test_a_small_memory_limit_refuses_even_the_default_configuration():
    config = load(REPO / "config" / "config.yaml")
    found = estimate(config)
    assert 0.4 < found.memory_mb / 1024 < 2 and 0 < found.hours < 0.5, found
    with pytest.raises(ConfigError, match=r"needs about 0\.\d+ GB of memory .*the limit is 0\.1 GB"):
        make_plan({**config, "limits": {"memory_gb": 0.1}}, workdir=REPO)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_many_classes_are_refused_by_their_memory_or_as_a_huge_list():
    config = load_yaml(REPO / "config" / "config.yaml")
    sem16c = config["datasets"]["Sem16T4C"]
    sem16c["classes"] = list(range(1500))
    sem16c["gold"].pop("cut_points")  # the fitted gold and systems are for five classes
    for source in sem16c["runs"]:
        source.pop("profiles", None)
    with pytest.raises(ConfigError, match=r"config key datasets.Sem16T4C: too large for this machine: .* GB of memory"):
        make_plan(config, workdir=REPO)
    message = refused(lambda c: sem(c).update(classes=list(range(10_000))))
    assert message == "config key datasets.TinySem.classes: a list of 10000 entries (at most 2000)"


def test_a_huge_list_is_refused_before_the_schema_compares_its_items():
    started = time.monotonic()
    message = refused(lambda c: sem(c).update(classes=list(range(10_000)) + [str(i) for i in range(10_000)]))
    assert time.monotonic() - started < 1
    assert message == "config key datasets.TinySem.classes: a list of 20000 entries (at most 2000)"


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.update(name="x" * 100_000),
        lambda c: c.update(seed=["1"] * 1500),
        lambda c: sem(c).update(description="y\n" * 100_000),
        lambda c: sem(c).update(classes=["a" * 100_000, "b"]),
        lambda c: sem(c)["runs"][0].update({"class": "\t" * 100_000}),
    ],
)
def test_an_error_message_never_shows_a_huge_value(tmp_path, change):
    import yaml

    config = tiny_config()
    change(config)
    path = write(tmp_path, "long.yaml", yaml.safe_dump(config))
    with pytest.raises(ConfigError) as error:
        make_plan(load_yaml(path), check_files=False)
    assert len(str(error.value)) < 600 and "characters)" in str(error.value), str(error.value)[:600]


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c["datasets"]["Sem16T4E"]["runs"][1].update(systems=10**6),
        lambda c: c["datasets"]["Sem16T4E"]["gold"].update(topics=10**9),
        lambda c: c["significance"].update(hsd_trials=10**9),
        lambda c: c["datasets"]["Sem16T4C"].update(classes=list(range(10_000))),
    ],
)
def test_the_sizes_of_the_issue_are_refused_on_the_default_configuration(change):
    config = load_yaml(REPO / "config" / "config.yaml")
    change(config)
    started = time.monotonic()
    with pytest.raises(ConfigError, match=r"too (large|long) for this machine|classes: a list of 10000 entries"):
        make_plan(config, workdir=REPO)
    assert time.monotonic() - started < 5
