"""Synthetic ordinal-classification data with the shapes of SemEval Task 4 subtask C.

Everything here is simulated and deterministic given the numpy Generators passed in. The parameters come
from the configuration: the keys of a ``simulate_items`` gold source and of a ``simulate`` run source are
the keyword arguments of :func:`simulate_gold` and :func:`simulate_runs` (defaults in their
docstrings); :func:`gold_parameters` and :func:`run_parameters` validate them (:class:`ConfigError`
naming the key; they live in :mod:`.simulate_settings`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from ordeval.stats import portable
from ordeval.tasks import latent, topic_model
from ordeval.tasks.classification.simulate_settings import (
    BIASES,
    DEFAULT_CONCENTRATION,
    GOLD_DEFAULTS,
    RUN_DEFAULTS,
    gold_parameters,
    run_parameters,
)
from ordeval.tasks.latent import graded_skills, team_count

__all__ = [  # this module's simulators, and the settings its callers reach through it
    "BIASES",
    "GOLD_DEFAULTS",
    "RUN_DEFAULTS",
    "bias_map",
    "bin_edges",
    "constant_class",
    "gold_parameters",
    "guessed",
    "latent_predictions",
    "ordinal_kernel",
    "run_parameters",
    "simulate_gold",
    "simulate_runs",
    "system_parameters",
]

# --------------------------------------------------------------------------- gold


def simulate_gold(
    rng: np.random.Generator,
    *,
    topics: int,
    num_classes: int,
    items_min: int = 20,
    items_max: int = 400,
    class_shares: Sequence[float] | None = None,
    concentration: float = DEFAULT_CONCENTRATION,
    tilt_sd: float = 0.0,
    polarity_sd: float = 0.0,
    cut_points: Sequence[float] | None = None,
    location_sd: float = 1.0,
    scale_sd: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """SemEval-like gold: (topic index, class index) of every item, items grouped by topic.

    * ``topics``: number of topics (required);
    * ``items_min`` = 20, ``items_max`` = 400: a topic has ``n ~ round(exp(U(log items_min, log
      items_max)))`` items;
    * ``class_shares`` = [0.02, 0.12, 0.45, 0.35, 0.06] for 5 classes (uniform otherwise): the average
      class proportions, skewed towards the positive classes as in SemEval;
    * ``concentration`` = 10.0: each topic's proportions are Dirichlet(concentration * class_shares); the
      smaller, the more the topics differ and the more of them have empty gold classes (about 70% of the
      topics at the defaults);
    * ``tilt_sd`` = 0, ``polarity_sd`` = 0: the shares tilted along the class order and polarised per topic
      (a topic more positive than the average in all its classes at once, a divisive topic with more of both
      extremes; :func:`ordeval.tasks.topic_model.topic_proportions`);
    * ``cut_points`` = None, ``location_sd`` = 1, ``scale_sd`` = 0: with K - 1 ascending cut points, the
      proportions come instead from a latent logistic reading of the topic's items, located by
      N(0, location_sd) and scaled by exp(N(0, scale_sd))
      (:func:`ordeval.tasks.topic_model.logistic_topic_proportions`); the four settings above are then not used.

    Labels are multinomial with the topic's proportions (:func:`ordeval.tasks.topic_model.topic_counts`).
    """
    sizes, counts = topic_model.topic_counts(
        rng,
        topics,
        num_classes,
        items_min,
        items_max,
        class_shares=class_shares,
        concentration=concentration,
        tilt_sd=tilt_sd,
        polarity_sd=polarity_sd,
        cut_points=cut_points,
        location_sd=location_sd,
        scale_sd=scale_sd,
    )
    item_topic = np.repeat(np.arange(topics), sizes)
    labels = np.concatenate([np.repeat(np.arange(num_classes), row) for row in counts])
    # shuffle the items within each topic (the counts put them in class order)
    order = np.lexsort((rng.random(item_topic.size), item_topic))
    return item_topic, labels[order]


# --------------------------------------------------------------------------- runs


def ordinal_kernel(num_classes: int, spread: float) -> np.ndarray:
    """Row j: where an error on an item of gold class j goes; class i gets weight ``spread**(|i - j| - 1)``
    (neighbours first), the diagonal 0; rows sum to 1."""
    distance = np.abs(np.subtract.outer(np.arange(num_classes), np.arange(num_classes)))
    weights = np.where(distance > 0, portable.power(spread, np.maximum(distance - 1, 0).astype(float)), 0.0)
    return weights / weights.sum(axis=1, keepdims=True)


def bias_map(kind: str, num_classes: int, majority: int) -> np.ndarray:
    """Row i: where a biased system moves a prediction of class i.

    ``none`` keeps it; ``neutral`` moves it to the middle class; ``majority`` to the gold's most frequent
    class; ``extremes`` one class further from the middle (the middle class to either neighbour)."""
    matrix = np.zeros((num_classes, num_classes))
    middle = (num_classes - 1) / 2
    for i in range(num_classes):
        if kind == "none":
            matrix[i, i] = 1
        elif kind == "neutral":
            matrix[i, int(math.floor(middle))] += 0.5
            matrix[i, int(math.ceil(middle))] += 0.5
        elif kind == "majority":
            matrix[i, majority] = 1
        elif kind == "extremes":
            if i < middle:
                matrix[i, max(i - 1, 0)] = 1
            elif i > middle:
                matrix[i, min(i + 1, num_classes - 1)] = 1
            else:
                matrix[i, i - 1] = matrix[i, i + 1] = 0.5
        else:
            raise ValueError(f"unknown bias {kind!r}; known: {', '.join(BIASES)}")
    return matrix


def system_parameters(
    rng: np.random.Generator,
    systems: int,
    *,
    skill_min: float,
    skill_max: float,
    spread_min: float,
    spread_max: float,
    biases: Sequence[str],
    bias_min: float,
    bias_max: float,
    weak_teams: int = 0,
    weak_skill_min: float = 0.0,
    weak_skill_max: float = 0.2,
    weak_guess_min: float = 0.5,
    weak_guess_max: float = 1.0,
    **_,
) -> dict:
    """Per system: skill (evenly spaced in [skill_min, skill_max], shuffled), spread (U(spread_min,
    spread_max)), bias kind (the ``biases`` in turn, shuffled), bias strength (U(bias_min, bias_max);
    0 for ``none``) and guess rate (0); the last ``weak_teams`` skills are instead evenly spaced in
    [weak_skill_min, weak_skill_max] (shuffled with the others), with guess rates evenly spaced in
    [weak_guess_min, weak_guess_max], the highest for the lowest skill."""
    skills = graded_skills(systems, weak_teams, skill_min, skill_max, weak_skill_min, weak_skill_max)
    order = rng.permutation(systems)
    skills = skills[order]
    spreads = rng.uniform(spread_min, spread_max, size=systems)
    kinds = [biases[i % len(biases)] for i in range(systems)]
    kinds = [kinds[i] for i in rng.permutation(systems)]
    strengths = rng.uniform(bias_min, bias_max, size=systems)
    strengths[[i for i, kind in enumerate(kinds) if kind == "none"]] = 0.0
    guesses = np.zeros(systems)
    guesses[systems - weak_teams :] = np.linspace(weak_guess_min, weak_guess_max, weak_teams)
    guesses = guesses[order]  # the weakest skill guesses most
    return {"skill": skills, "spread": spreads, "bias": kinds, "bias_strength": strengths, "guess": guesses}


def simulate_runs(
    system_rng: np.random.Generator,
    noise_rng: np.random.Generator,
    gold: np.ndarray,
    item_topic: np.ndarray,
    num_classes: int,
    *,
    systems: int,
    skill_min: float = 0.3,
    skill_max: float = 0.85,
    spread_min: float = 0.05,
    spread_max: float = 0.6,
    biases: Sequence[str] = BIASES,
    bias_min: float = 0.15,
    bias_max: float = 0.6,
    topic_difficulty_sd: float = 0.08,
    interaction_sd: float = 0.05,
    model: str = "confusion",
    team_size: int = 1,
    team_shared: float = 0.0,
    weak_teams: int = 0,
    weak_skill_min: float = 0.0,
    weak_skill_max: float = 0.2,
    weak_guess_min: float = 0.5,
    weak_guess_max: float = 1.0,
    profiles: Sequence[Mapping] | None = None,
    profile_jitter: float = 0.0,
    topic_shift_sd: float = 0.0,
    topic_shift_slope: float = 0.0,
    item_difficulty_sd: float = 0.0,
    item_shared: float = 0.0,
) -> np.ndarray:
    """Simulated systems of graded skill: class index per system and item, systems x items.

    * ``systems``: number of systems (required);
    * ``skill_min`` = 0.3, ``skill_max`` = 0.85: system skills, evenly spaced, shuffled; a system of skill
      s keeps the gold class of an item with probability s (before its bias), on average over topics;
    * ``spread_min`` = 0.05, ``spread_max`` = 0.6: a system's spread s ~ U(spread_min, spread_max); its
      error on an item of gold class j moves it to class i with weight s^(|i - j| - 1): mostly to the
      neighbouring classes (ordinal confusion), farther for a larger spread; the worse the system (lower
      skill), the more errors;
    * ``biases`` = [none, neutral, majority, extremes]: the systems take these biases in turn (then
      shuffled); a biased system then moves each prediction, with probability its bias strength, to the
      middle class (neutral), the gold's most frequent class (majority), or one class further from the
      middle (extremes) -- so measures that weigh rare classes differently (MAE_M vs MAE_mu, Accuracy)
      rank the systems differently;
    * ``bias_min`` = 0.15, ``bias_max`` = 0.6: bias strengths, U(bias_min, bias_max) per biased system;
    * ``topic_difficulty_sd`` = 0.08: per-topic shift of every system's error rate (hard and easy topics);
    * ``interaction_sd`` = 0.05: per system-and-topic shift of the error rate.

    ``model`` = ``confusion`` is the model above; ``latent`` is an ordinal classifier that reads a noisy
    latent value and cuts it into classes (:func:`latent_predictions`): skill s gives the noise sd
    2 (1 - s); a bias of strength b widens the bin of its class (the gold's most frequent class for
    ``majority``, the middle one for ``neutral``) by b classes on each side, or narrows the middle bin by
    b/2 on each side (``extremes``), so that a majority-biased system gains Accuracy and MAE_mu and loses the macro
    measures; ``topic_difficulty_sd`` scales every system's noise on a topic by exp(N(0, sd)) and
    ``interaction_sd`` shifts a system's latent values on a topic by N(0, sd); ``spread_*`` are unused.

    Weak teams: ``weak_teams`` of the teams (default 0) have skills evenly spaced in [``weak_skill_min`` = 0,
    ``weak_skill_max`` = 0.2] instead, and each of their predictions is, with a probability (their guess
    rate, evenly spaced in [``weak_guess_min`` = 0.5, ``weak_guess_max`` = 1], the highest for the weakest),
    replaced by a class drawn
    uniformly at random: mostly noisy systems, far behind the others on every measure, as the weakest
    runs of a shared task are (a system that always guesses scores MAE_M 1.6 on five classes).

    Teams: ``team_size`` consecutive systems share their parameters (skill, spread, bias, topic
    shifts) and, in the ``latent`` model, the share ``team_shared`` of their latent noise variance: near
    copies, as the several runs of one team are.

    Systems fitted to real runs (``latent`` model only): ``profiles`` = a list of ``{noise_sd, edges}``
    (:mod:`ordeval.tasks.latent`), taken by the teams in an order drawn from ``system_rng`` (again from the
    start when there are more teams than profiles) instead of the skill and bias settings: the team reads
    gold + shift + noise_sd * noise and cuts it at its own ``edges``, each jittered by ``profile_jitter``
    (sd multiplied by exp(N(0, jitter)), edges moved by N(0, jitter) sd). Two effects for every latent
    system (default 0: off): a shift of every system's latent values on a topic, ``topic_shift_slope`` times the
    topic's mean gold class less the mean over the topics, plus N(0, ``topic_shift_sd``) (the topic's items
    read more positive or negative than their gold to every system, so that the systems err alike there),
    ``item_difficulty_sd``, the noise of every system on an item scaled by the item's exp(N(0, sd)) (an item
    hard for one system is hard for all), and ``item_shared``, the share of every system's noise variance that
    is common to all systems on an item (an item that reads as another class to one system reads so to all).

    System parameters come from ``system_rng`` (shareable across the data sets of one corpus), topic
    effects and the predictions from ``noise_rng``.
    """
    teams = team_count(systems, team_size)
    team_parameters = system_parameters(
        system_rng,
        teams,
        skill_min=skill_min,
        skill_max=skill_max,
        spread_min=spread_min,
        spread_max=spread_max,
        biases=list(biases),
        bias_min=bias_min,
        bias_max=bias_max,
        weak_teams=weak_teams,
        weak_skill_min=weak_skill_min,
        weak_skill_max=weak_skill_max,
        weak_guess_min=weak_guess_min,
        weak_guess_max=weak_guess_max,
    )
    team_of = np.arange(systems) // team_size
    parameters = {key: [values[t] for t in team_of] for key, values in team_parameters.items()}
    num_topics = int(item_topic.max()) + 1 if item_topic.size else 0
    majority = int(np.bincount(gold, minlength=num_classes).argmax()) if gold.size else 0
    difficulty = noise_rng.normal(0.0, topic_difficulty_sd, size=num_topics)
    if model == "latent":
        dealt = latent.assign_profiles(system_rng, profiles, teams, profile_jitter) if profiles else None
        latent_systems(parameters, dealt, team_of, num_classes, majority)
        centre, scale = latent_items(
            noise_rng, gold, item_topic, difficulty, topic_shift_sd, topic_shift_slope, item_difficulty_sd
        )
        predictions = latent_predictions(
            noise_rng, centre, item_topic, parameters, team_of, scale, interaction_sd, team_shared, item_shared, dealt
        )
    else:
        predictions = confusion_predictions(
            noise_rng, gold, item_topic, parameters, num_classes, majority, difficulty, interaction_sd
        )
    return guessed(noise_rng, predictions, parameters["guess"], num_classes)


def confusion_predictions(
    rng: np.random.Generator,
    gold: np.ndarray,
    item_topic: np.ndarray,
    parameters: dict,
    num_classes: int,
    majority: int,
    difficulty: np.ndarray,
    interaction_sd: float,
) -> np.ndarray:
    """The ``confusion`` model of :func:`simulate_runs`, systems x items: system r keeps an item's gold class
    (then moved by its bias) with probability 1 - e, else errs by its ordinal kernel, where
    e = clip(1 - skill_r + difficulty_t + N(0, interaction_sd)_rt, 0, 1) on the item's topic t."""
    num_topics = len(difficulty)
    identity = np.eye(num_classes)
    predictions = np.empty((len(parameters["skill"]), gold.size), dtype=np.int64)
    for system in range(len(predictions)):
        strength = parameters["bias_strength"][system]
        bias = (1 - strength) * identity + strength * bias_map(parameters["bias"][system], num_classes, majority)
        kernel = ordinal_kernel(num_classes, parameters["spread"][system])
        keep, err = (
            bias[gold],
            portable.matmul(kernel, bias)[gold],
        )  # items x classes: after a kept / a wrong base prediction
        interaction = rng.normal(0.0, interaction_sd, size=num_topics)
        error = np.clip(1 - parameters["skill"][system] + difficulty + interaction, 0.0, 1.0)[item_topic]
        probabilities = (1 - error)[:, None] * keep + error[:, None] * err
        cumulative = np.cumsum(probabilities, axis=1)
        draws = rng.random(gold.size)[:, None] * cumulative[:, -1:]
        predictions[system] = np.minimum((draws >= cumulative).sum(axis=1), num_classes - 1)
    return predictions


def latent_systems(
    parameters: dict, dealt: latent.Systems | None, team_of: np.ndarray, num_classes: int, majority: int
) -> None:
    """The noise sd and cut points of every system of the ``latent`` model, added to ``parameters``: those of
    the profiles dealt to the teams (``dealt``), else from the skill (sd 2 (1 - skill)) and the bias
    (:func:`bin_edges`)."""
    if dealt is not None:
        parameters["noise_sd"], parameters["edges"] = dealt.sd[team_of], dealt.edges[team_of]
        return
    parameters["noise_sd"] = [2.0 * (1.0 - skill) for skill in parameters["skill"]]
    parameters["edges"] = [
        bin_edges(num_classes, kind, strength, majority)
        for kind, strength in zip(parameters["bias"], parameters["bias_strength"], strict=True)
    ]


def latent_items(
    rng: np.random.Generator,
    gold: np.ndarray,
    item_topic: np.ndarray,
    difficulty: np.ndarray,
    topic_shift_sd: float,
    topic_shift_slope: float,
    item_difficulty_sd: float,
) -> tuple[np.ndarray, np.ndarray]:
    """(centre, scale) of every item's latent value in the ``latent`` model: the gold class plus the topic's
    shift (:func:`ordeval.tasks.latent.topic_shifts`; none while both settings are 0), and the noise scale
    exp(topic difficulty), times the item's exp(N(0, item_difficulty_sd)) where that sd is positive."""
    num_topics = len(difficulty)
    centre, scale = gold, portable.exp(difficulty)[item_topic]
    if topic_shift_sd > 0 or topic_shift_slope != 0:
        mean_class = np.bincount(item_topic, weights=gold, minlength=num_topics) / np.maximum(
            np.bincount(item_topic, minlength=num_topics), 1
        )
        shift = latent.topic_shifts(rng, mean_class, topic_shift_slope, topic_shift_sd)
        centre = gold + shift[item_topic]
    if item_difficulty_sd > 0:
        scale = scale * portable.exp(rng.normal(0.0, item_difficulty_sd, size=gold.size))
    return centre, scale


def guessed(rng: np.random.Generator, predictions: np.ndarray, guesses, num_classes: int) -> np.ndarray:
    """``predictions`` (systems x items) where system r replaces each prediction, with probability
    ``guesses[r]``, by a class drawn uniformly at random (no draw for a system that never guesses)."""
    for system, rate in enumerate(guesses):
        if rate > 0:
            replace = rng.random(predictions.shape[1]) < rate
            predictions[system, replace] = rng.integers(0, num_classes, size=int(replace.sum()))
    return predictions


def bin_edges(num_classes: int, kind: str, strength: float, majority: int) -> np.ndarray:
    """The K - 1 cut points of a latent classifier (class j is (j - 1/2, j + 1/2) unbiased) under a bias:
    the bin of the favoured class (``majority``: the gold's most frequent; ``neutral``: the middle one)
    widened by ``strength`` on each side, the cut points beyond it kept in order (a bin may vanish); or
    the middle bin narrowed by ``strength / 2`` on each side (``extremes``; strength 1 closes it)."""
    edges = np.arange(num_classes - 1) + 0.5
    middle = (num_classes - 1) // 2
    if kind in ("majority", "neutral"):
        favoured = majority if kind == "majority" else middle
        if favoured >= 1:
            edges[favoured - 1] -= strength
            edges[: favoured - 1] = np.minimum(edges[: favoured - 1], edges[favoured - 1])
        if favoured <= num_classes - 2:
            edges[favoured] += strength
            edges[favoured + 1 :] = np.maximum(edges[favoured + 1 :], edges[favoured])
    elif kind == "extremes" and 1 <= middle <= num_classes - 2:
        edges[middle - 1] += strength / 2
        edges[middle] -= strength / 2
    elif kind not in BIASES:
        raise ValueError(f"unknown bias {kind!r}; known: {', '.join(BIASES)}")
    return edges


def latent_predictions(
    rng: np.random.Generator,
    centre: np.ndarray,
    item_topic: np.ndarray,
    parameters: dict,
    team_of: np.ndarray,
    item_scale: np.ndarray,
    interaction_sd: float,
    team_shared: float,
    item_shared: float = 0.0,
    dealt: latent.Systems | None = None,
) -> np.ndarray:
    """The ``latent`` model of :func:`simulate_runs`: system r predicts the bin (its ``edges``) of
    centre + shift_rt + noise_sd_r scale (sqrt(item_shared) e + sqrt(1 - item_shared) (sqrt(team_shared) e_team
    + sqrt(1 - team_shared) e_r)), with centre the gold class (plus the topic's shift), scale the item's (topic
    difficulty, item difficulty) and e common to every system; shift_rt, the team's own shift on the topic,
    is N(0, interaction_sd), or with profiles (``dealt``, one per team) their own interaction sds and
    loadings on shared topic factors (:func:`ordeval.tasks.latent.topic_interactions`)."""
    systems = len(team_of)
    num_topics = int(item_topic.max()) + 1 if item_topic.size else 0
    teams = int(team_of.max()) + 1 if systems else 0
    if dealt is None:
        shifts = rng.normal(0.0, interaction_sd, size=(teams, num_topics))
    else:
        shifts = latent.topic_interactions(rng, dealt, interaction_sd, num_topics)
    shared = rng.standard_normal((teams, centre.size))
    common = rng.standard_normal(centre.size) if item_shared > 0 else 0.0
    predictions = np.empty((systems, centre.size), dtype=np.int64)
    for system, team in enumerate(team_of):
        noise = np.sqrt(team_shared) * shared[team] + np.sqrt(1 - team_shared) * rng.standard_normal(centre.size)
        noise = np.sqrt(item_shared) * common + np.sqrt(1 - item_shared) * noise if item_shared > 0 else noise
        latent_values = centre + shifts[team, item_topic] + parameters["noise_sd"][system] * item_scale * noise
        predictions[system] = latent.cut(latent_values, parameters["edges"][system])
    return predictions


def constant_class(num_items: int, class_index: int) -> np.ndarray:
    """The constant baseline: every item gets class ``class_index``."""
    return np.full(num_items, class_index, dtype=np.int64)
