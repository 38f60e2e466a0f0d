"""The settings of the subtask C simulators (:mod:`.simulate`) as the configuration gives them: the keys of a
``simulate_items`` gold source and of a ``simulate`` run source, their defaults, and their validation
(:func:`gold_parameters`, :func:`run_parameters`: the keyword arguments of :func:`.simulate.simulate_gold`
and :func:`.simulate.simulate_runs`, or a :class:`ConfigError` naming the key)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from ordeval.io.errors import ConfigError
from ordeval.tasks import latent, topic_model
from ordeval.tasks.latent import team_count

#: Dirichlet concentration of the topics' class proportions (calibrated so that about 70% of the topics
#: have an empty gold class at the default sizes; the real gold: 64 of 100 topics in 2016, 103 of 125 in 2017).
DEFAULT_CONCENTRATION = 10.0

GOLD_DEFAULTS = {
    "items_min": 20,
    "items_max": 400,
    "class_shares": None,
    "concentration": DEFAULT_CONCENTRATION,
    "tilt_sd": 0.0,
    "polarity_sd": 0.0,
    "cut_points": None,
    "location_sd": 1.0,
    "scale_sd": 0.0,
}
GOLD_KEYS = {"type", "topics", "corpus", "topic_prefix", *GOLD_DEFAULTS}

#: The biases a simulated system may have (see :func:`simulate_runs`).
BIASES = ("none", "neutral", "majority", "extremes")
RUN_DEFAULTS = {
    "skill_min": 0.3,
    "skill_max": 0.85,
    "spread_min": 0.05,
    "spread_max": 0.6,
    "biases": list(BIASES),
    "bias_min": 0.15,
    "bias_max": 0.6,
    "topic_difficulty_sd": 0.08,
    "interaction_sd": 0.05,
    "model": "confusion",
    "team_size": 1,
    "team_shared": 0.0,
    "weak_teams": 0,
    "weak_skill_min": 0.0,
    "weak_skill_max": 0.2,
    "weak_guess_min": 0.5,
    "weak_guess_max": 1.0,
    "profiles": None,
    "profile_jitter": 0.0,
    "topic_shift_sd": 0.0,
    "topic_shift_slope": 0.0,
    "item_difficulty_sd": 0.0,
    "item_shared": 0.0,
}
#: How a simulated system predicts (see :func:`simulate_runs`).
MODELS = ("confusion", "latent")
#: The keys of a profile of the ``latent`` model (a system fitted to real runs: :mod:`ordeval.tasks.latent`), and
#: its optional ones: its own ``interaction_sd`` (the sd of its own shift per topic, else the source's) and its
#: ``loadings`` on the topic factors shared by the systems.
PROFILE_KEYS = ("noise_sd", "edges")
PROFILE_OPTIONAL = ("interaction_sd", "loadings")
RUN_KEYS = {"type", "systems", "prefix", "corpus", *RUN_DEFAULTS}


# --------------------------------------------------------------------------- validation


def _fail(entry: str, key: str, problem: str) -> ConfigError:
    return ConfigError(f"{entry}.{key}: {problem}" if entry else f"{key}: {problem}")


def _number(source: Mapping, key: str, entry: str, low=None, high=None, integer=False, low_open=False):
    value = source[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        raise _fail(entry, key, f"{value!r} is not {'an integer' if integer else 'a number'}")
    if not math.isfinite(value):
        raise _fail(entry, key, f"{value!r} is not finite")
    if low is not None and (value < low or (low_open and value == low)):
        raise _fail(entry, key, f"{value!r} must be {'>' if low_open else '>='} {low}")
    if high is not None and value > high:
        raise _fail(entry, key, f"{value!r} must be <= {high}")
    return value


def _unknown_keys(source: Mapping, known: set[str], entry: str) -> None:
    unknown = sorted(set(source) - known)
    if unknown:
        raise _fail(entry, unknown[0], f"unknown key; known: {', '.join(sorted(known - {'type'}))}")


def gold_parameters(source: Mapping, num_classes: int, entry: str = "gold") -> dict:
    """The keyword arguments of :func:`simulate_gold` from a ``simulate_items`` source, validated."""
    _unknown_keys(source, GOLD_KEYS, entry)
    if "topics" not in source:
        raise _fail(entry, "topics", "required")
    merged = {
        **GOLD_DEFAULTS,
        **{key: source[key] for key in GOLD_DEFAULTS if key in source},
        "topics": source["topics"],
    }
    _number(merged, "topics", entry, low=1, integer=True)
    _number(merged, "items_min", entry, low=1, integer=True)
    _number(merged, "items_max", entry, low=merged["items_min"], integer=True)
    _number(merged, "concentration", entry, low=0, low_open=True)
    _number(merged, "tilt_sd", entry, low=0, high=5)
    _number(merged, "polarity_sd", entry, low=0, high=5)
    shares = merged["class_shares"]
    if shares is not None:
        if not isinstance(shares, (list, tuple)) or len(shares) != num_classes:
            raise _fail(entry, "class_shares", f"needs one share per class ({num_classes}), got {shares!r}")
        for position, share in enumerate(shares):
            _number({f"class_shares[{position}]": share}, f"class_shares[{position}]", entry, low=0, low_open=True)
    _number(merged, "location_sd", entry, low=0, high=10)
    _number(merged, "scale_sd", entry, low=0, high=5)
    logistic = topic_model.logistic_gold_problem(source, num_classes)
    if logistic:
        raise _fail(entry, *logistic)
    return {key: merged[key] for key in ("topics", *GOLD_DEFAULTS)}


def run_parameters(source: Mapping, num_classes: int, entry: str = "runs") -> dict:
    """The keyword arguments of :func:`simulate_runs` from a ``simulate`` source, validated."""
    _unknown_keys(source, RUN_KEYS, entry)
    if "systems" not in source:
        raise _fail(entry, "systems", "required")
    merged = {**RUN_DEFAULTS, **{key: source[key] for key in RUN_DEFAULTS if key in source}}
    merged["systems"] = source["systems"]
    _number(merged, "systems", entry, low=1, integer=True)
    _number(merged, "skill_min", entry, low=0, high=1)
    _number(merged, "skill_max", entry, low=merged["skill_min"], high=1)
    _number(merged, "spread_min", entry, low=0, low_open=True, high=1)
    _number(merged, "spread_max", entry, low=merged["spread_min"], high=1)
    _number(merged, "bias_min", entry, low=0, high=1)
    _number(merged, "bias_max", entry, low=merged["bias_min"], high=1)
    _number(merged, "topic_difficulty_sd", entry, low=0)
    _number(merged, "interaction_sd", entry, low=0)
    _number(merged, "team_size", entry, low=1, integer=True)
    _number(merged, "team_shared", entry, low=0, high=1)
    _number(merged, "weak_teams", entry, low=0, high=team_count(merged["systems"], merged["team_size"]), integer=True)
    _number(merged, "weak_skill_min", entry, low=0, high=1)
    _number(merged, "weak_skill_max", entry, low=merged["weak_skill_min"], high=1)
    _number(merged, "weak_guess_min", entry, low=0, high=1)
    _number(merged, "weak_guess_max", entry, low=merged["weak_guess_min"], high=1)
    _number(merged, "profile_jitter", entry, low=0)
    _number(merged, "topic_shift_sd", entry, low=0)
    _number(merged, "topic_shift_slope", entry, low=-5, high=5)
    _number(merged, "item_difficulty_sd", entry, low=0)
    _number(merged, "item_shared", entry, low=0, high=1)
    if merged["model"] not in MODELS:
        raise _fail(entry, "model", f"{merged['model']!r} must be one of {', '.join(MODELS)}")
    profiles = merged["profiles"]
    if profiles is not None:
        if merged["model"] != "latent":
            raise _fail(entry, "profiles", "profiles are systems of the latent model: set model: latent")
        if not isinstance(profiles, (list, tuple)) or not profiles:
            raise _fail(entry, "profiles", f"{profiles!r} must be a non-empty list of profiles")
        for position, profile in enumerate(profiles):
            problem = latent.profile_problem(profile, num_classes, PROFILE_KEYS, PROFILE_OPTIONAL)
            if problem:
                raise _fail(entry, f"profiles[{position}]", problem)
        problem = latent.loadings_problem(profiles)
        if problem:
            raise _fail(entry, "profiles", problem)
    biases = merged["biases"]
    if not isinstance(biases, (list, tuple)) or not biases or any(bias not in BIASES for bias in biases):
        raise _fail(entry, "biases", f"{biases!r} must be a non-empty list of {', '.join(BIASES)}")
    if num_classes < 2:
        raise _fail(entry, "systems", "simulating runs needs at least 2 classes")
    return {key: merged[key] for key in ("systems", *RUN_DEFAULTS)}
