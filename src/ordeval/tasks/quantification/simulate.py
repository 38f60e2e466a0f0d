"""Synthetic gold data and system runs with the shapes of the real data sets.

Everything here is simulated. The generators are deterministic given their ``rng``; the
parameters come from the configuration (``simulate_*`` sources), with the defaults below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ordeval.stats import portable
from ordeval.tasks import latent, topic_model
from ordeval.tasks.latent import graded_skills, team_count

#: System biases of :func:`simulate_runs`.
BIASES = ("none", "flatten", "sharpen", "shift", "majority")
#: How a simulated system estimates (see :func:`simulate_runs`).
MODELS = ("dirichlet", "latent")
#: The keys of a profile of the ``latent`` model (a system fitted to real runs: :func:`latent_runs`,
#: :mod:`ordeval.tasks.latent`), and its optional ones: the Dirichlet's pseudo-count ``floor`` of every class (how
#: often a class the system hardly predicts comes out empty; the simulator's ``floor`` when not given), its own
#: ``interaction_sd`` and its ``loadings`` on the topic factors shared by the systems.
PROFILE_KEYS = ("noise_sd", "edges", "concentration")
PROFILE_OPTIONAL = ("floor", "interaction_sd", "loadings")


def simulate_annotator_gold(
    rng: np.random.Generator,
    *,
    topics: int,
    annotators: int,
    num_classes: int,
    num_scores: int = 1,
    score_index: int = 0,
    latent_correlation: float = 0.6,
    latent_mean: float = 0.3,
    latent_sd: float = 0.9,
    annotator_bias_sd: float = 0.3,
    rating_noise_sd: float = 0.8,
) -> np.ndarray:
    """NTCIR-like gold: the share of ``annotators`` giving each rating, topics x classes.

    Each dialogue has a latent quality per score (A, E, S, ...), jointly normal with pairwise
    correlation ``latent_correlation``. Annotator a rates score k of dialogue t as
    ``clip(round(centre + latent_mean + latent_sd z_tk + bias_ak + noise_tak), 0, K-1)``.
    All scores are drawn from the one ``rng``, so the data sets for A, E and S built from the
    same stream describe the same dialogues; ``score_index`` picks the score returned.
    """
    covariance = np.full((num_scores, num_scores), latent_correlation) + (1 - latent_correlation) * np.eye(num_scores)
    latent = rng.multivariate_normal(np.zeros(num_scores), covariance, size=topics, method="cholesky")
    bias = rng.normal(0.0, annotator_bias_sd, size=(annotators, num_scores))
    noise = rng.normal(0.0, rating_noise_sd, size=(topics, annotators, num_scores))
    centre = (num_classes - 1) / 2
    raw = centre + latent_mean + latent_sd * latent[:, None, :] + bias[None, :, :] + noise
    ratings = np.clip(np.rint(raw), 0, num_classes - 1).astype(int)[:, :, score_index]
    counts = np.stack([(ratings == k).sum(axis=1) for k in range(num_classes)], axis=1)
    return counts / annotators


def simulate_tweet_gold(
    rng: np.random.Generator,
    *,
    topics: int,
    num_classes: int,
    tweets_min: int = 20,
    tweets_max: int = 400,
    class_shares: list[float] | None = None,
    concentration: float = 6.0,
    tilt_sd: float = 0.0,
    polarity_sd: float = 0.0,
    cut_points: Sequence[float] | None = None,
    location_sd: float = 1.0,
    scale_sd: float = 0.0,
) -> np.ndarray:
    """SemEval-like gold: label counts of each topic's tweets over the tweet count, topics x classes.

    A topic has ``n ~ round(exp(U(log tweets_min, log tweets_max)))`` tweets (tens to hundreds)
    whose labels are multinomial with topic proportions ``Dirichlet(concentration * class_shares)``,
    the shares tilted along the class order and polarised per topic by ``tilt_sd`` and ``polarity_sd``
    (:func:`ordeval.tasks.topic_model.topic_proportions`);
    the default shares lean towards the positive classes, as in SemEval Task 4. With ``cut_points``, the
    proportions come instead from a latent logistic reading of the topic's tweets, located by N(0,
    ``location_sd``) and scaled by exp(N(0, ``scale_sd``))
    (:func:`ordeval.tasks.topic_model.logistic_topic_proportions`).
    """
    sizes, counts = topic_model.topic_counts(
        rng,
        topics,
        num_classes,
        tweets_min,
        tweets_max,
        class_shares=class_shares,
        concentration=concentration,
        tilt_sd=tilt_sd,
        polarity_sd=polarity_sd,
        cut_points=cut_points,
        location_sd=location_sd,
        scale_sd=scale_sd,
    )
    return counts / sizes[:, None]


def ordinal_confusion(num_classes: int, leak: float) -> np.ndarray:
    """Row-stochastic matrix moving ``leak`` of each class's mass to its neighbouring classes."""
    matrix = np.eye(num_classes) * (1 - leak)
    for i in range(num_classes):
        neighbours = [j for j in (i - 1, i + 1) if 0 <= j < num_classes]
        for j in neighbours:
            matrix[i, j] = leak / len(neighbours)
    return matrix


def simulate_runs(
    system_rng: np.random.Generator,
    noise_rng: np.random.Generator,
    gold: np.ndarray,
    *,
    systems: int,
    english_variants: int = 0,
    skill_min: float = 0.15,
    skill_max: float = 0.9,
    prior_concentration: float = 1.0,
    max_prior_pull: float = 0.7,
    max_confusion: float = 0.5,
    noise_concentration_min: float = 4.0,
    noise_concentration_max: float = 80.0,
    english_noise_concentration: float = 25.0,
    floor: float = 0.01,
    biases: tuple[str, ...] | list[str] = BIASES,
    bias_min: float = 0.1,
    bias_max: float = 0.6,
    team_size: int = 1,
    team_noise_concentration: float = 300.0,
    topic_difficulty_max: float = 0.0,
    weak_teams: int = 0,
    weak_skill_min: float = 0.0,
    weak_skill_max: float = 0.2,
    model: str = "dirichlet",
    profiles: Sequence[Mapping] | None = None,
    profile_jitter: float = 0.0,
    topic_shift_sd: float = 0.0,
    topic_shift_slope: float = 0.0,
    topic_difficulty_sd: float = 0.0,
    interaction_sd: float = 0.0,
) -> np.ndarray:
    """Simulated systems of graded skill, array (systems + english_variants) x topics x classes.

    System r has a skill s_r (evenly spaced in [skill_min, skill_max], shuffled), a prior
    pi_r ~ Dirichlet(prior_concentration), and for every topic estimates
        p = Dirichlet(kappa_r * B_r(((1 - w_r) g + w_r pi_r) C_r) + floor)
    with pull w_r = (1 - s_r) max_prior_pull, ordinal confusion C_r moving (1 - s_r) max_confusion
    of each class's mass to its neighbours, concentration kappa_r growing with skill, and a
    system-specific bias B_r of strength b_r ~ U(bias_min, bias_max), drawn from ``biases``:
    ``none``; ``flatten`` (towards the uniform distribution: (1 - b) p + b/K); ``sharpen`` (towards the
    mode: p^(1 + 4b), renormalised); ``shift`` (b of every class's mass moves one class up or, for
    half the systems, down: an ordinal error that nominal measures barely see); ``majority``
    (towards the gold's most probable class: (1 - b) p + b e_argmax(g)). The biases make measures
    that weigh the class order, the mode or the spread differently disagree about the ranking.
    The first ``english_variants`` systems also get an English run, a noisier variant of their
    (Chinese) run: Dirichlet(english_noise_concentration * p + floor). System parameters come
    from ``system_rng`` (shareable across the A/E/S data sets of one corpus), noise from ``noise_rng``.

    Weak teams: ``weak_teams`` of the teams (default 0) take their skills evenly spaced in [weak_skill_min,
    weak_skill_max] instead, so that the others can be close while a few runs are far behind, as in the
    official results of a shared task.

    Two effects make the runs as close as real ones (defaults: both off):

    * teams: the systems come in teams of ``team_size`` consecutive runs that share one skill, prior,
      confusion and bias, and one draw p of the estimate per topic; each run of the team is a near copy
      Dirichlet(team_noise_concentration * p + floor);
    * topic difficulty shared by all runs: topic t has a weight w_t ~ U(0, topic_difficulty_max) and a
      misleading distribution q_t ~ Dirichlet(prior_concentration) that every system's target moves
      towards, ((1 - w_t) target + w_t q_t), before its own bias and noise: all systems err alike there.

    ``model`` = ``dirichlet`` is the model above; ``latent`` (:func:`latent_runs`) simulates systems fitted
    to real runs, each a ``profiles`` entry, and uses none of the settings above but ``systems``,
    ``english_variants``, ``english_noise_concentration`` and ``floor``.
    """
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    if model == "latent":
        runs = latent_runs(
            system_rng,
            noise_rng,
            gold,
            systems=systems,
            profiles=profiles or [],
            profile_jitter=profile_jitter,
            topic_shift_sd=topic_shift_sd,
            topic_shift_slope=topic_shift_slope,
            topic_difficulty_sd=topic_difficulty_sd,
            interaction_sd=interaction_sd,
            floor=floor,
        )
    else:
        _check_field(systems, english_variants, team_size, weak_teams, biases)
        skills = graded_skills(
            team_count(systems, team_size), weak_teams, skill_min, skill_max, weak_skill_min, weak_skill_max
        )
        field = dirichlet_systems(system_rng, skills, gold.shape[1], prior_concentration, biases, bias_min, bias_max)
        targets = dirichlet_targets(
            noise_rng, gold, field, max_prior_pull, max_confusion, topic_difficulty_max, prior_concentration
        )
        concentrations = noise_concentration_min + field["skill"] * (noise_concentration_max - noise_concentration_min)
        runs = team_runs(noise_rng, targets, concentrations, floor, systems, team_size, team_noise_concentration)
    variants = [
        _dirichlet_rows(noise_rng, english_noise_concentration * run + floor) for run in runs[:english_variants]
    ]
    return np.concatenate([runs, np.array(variants).reshape(-1, *gold.shape)])


def _check_field(systems: int, english_variants: int, team_size: int, weak_teams: int, biases) -> None:
    """A ValueError for settings of the ``dirichlet`` model that cannot make a field of systems."""
    if english_variants > systems:
        raise ValueError(f"english_variants ({english_variants}) exceeds systems ({systems})")
    if team_size < 1:
        raise ValueError(f"team_size must be at least 1, got {team_size}")
    teams = team_count(systems, team_size)
    if not 0 <= weak_teams <= teams:
        raise ValueError(f"weak_teams must be between 0 and the number of teams ({teams}), got {weak_teams}")
    unknown = [bias for bias in biases if bias not in BIASES]
    if unknown or not len(biases):
        raise ValueError(f"biases must be a non-empty list of {', '.join(BIASES)}, got {list(biases)}")


def dirichlet_systems(
    rng: np.random.Generator, skills: np.ndarray, num_classes: int, prior_concentration: float, biases, low, high
) -> dict:
    """The teams of the ``dirichlet`` model of :func:`simulate_runs`, drawn from ``rng`` in this order: their
    ``skill`` (``skills`` shuffled), ``prior`` (Dirichlet(prior_concentration) each), ``bias`` (drawn from
    ``biases``), ``strength`` (U(low, high)) and ``direction`` (-1 or 1, of a ``shift`` bias)."""
    teams = len(skills)
    return {
        "skill": rng.permutation(skills),
        "prior": rng.dirichlet(np.full(num_classes, prior_concentration), size=teams),
        "bias": [biases[i] for i in rng.integers(0, len(biases), size=teams)],
        "strength": rng.uniform(low, high, size=teams),
        "direction": rng.choice([-1, 1], size=teams),
    }


def dirichlet_targets(
    rng: np.random.Generator,
    gold: np.ndarray,
    field: dict,
    max_prior_pull: float,
    max_confusion: float,
    topic_difficulty_max: float,
    prior_concentration: float,
) -> list[np.ndarray]:
    """Each team's expected estimate (topics x K) in the ``dirichlet`` model of :func:`simulate_runs`: the gold
    pulled towards the team's prior, confused with the neighbouring classes, moved towards the topics'
    misleading distributions (drawn from ``rng`` where ``topic_difficulty_max`` is positive) and biased."""
    num_topics, num_classes = gold.shape
    if topic_difficulty_max > 0:
        weight = rng.uniform(0.0, topic_difficulty_max, size=(num_topics, 1))
        misleading = rng.dirichlet(np.full(num_classes, prior_concentration), size=num_topics)
    targets = []
    for team, (skill, prior) in enumerate(zip(field["skill"], field["prior"], strict=True)):
        pull = (1 - skill) * max_prior_pull
        target = portable.matmul(
            (1 - pull) * gold + pull * prior, ordinal_confusion(num_classes, (1 - skill) * max_confusion)
        )
        if topic_difficulty_max > 0:
            target = (1 - weight) * target + weight * misleading
        bias, strength, direction = field["bias"][team], field["strength"][team], int(field["direction"][team])
        targets.append(biased(target, gold, bias, strength, direction))
    return targets


def team_runs(
    rng: np.random.Generator,
    targets: list[np.ndarray],
    concentrations: np.ndarray,
    floor: float,
    systems: int,
    team_size: int,
    team_concentration: float,
) -> np.ndarray:
    """The runs of the teams, systems x topics x K: team t's estimate Dirichlet(concentrations_t target_t +
    floor), and with teams of several runs, each of its runs a near copy Dirichlet(team_concentration estimate +
    floor) (the last team may have fewer runs)."""
    runs = []
    for team, (target, concentration) in enumerate(zip(targets, concentrations, strict=True)):
        estimate = _dirichlet_rows(rng, concentration * target + floor)
        if team_size == 1:
            runs.append(estimate)
        else:
            members = min(team_size, systems - team * team_size)
            runs.extend(_dirichlet_rows(rng, team_concentration * estimate + floor) for _ in range(members))
    return np.stack(runs)


def latent_runs(
    system_rng: np.random.Generator,
    noise_rng: np.random.Generator,
    gold: np.ndarray,
    *,
    systems: int,
    profiles: Sequence[Mapping],
    profile_jitter: float = 0.0,
    topic_shift_sd: float = 0.0,
    topic_shift_slope: float = 0.0,
    topic_difficulty_sd: float = 0.0,
    interaction_sd: float = 0.0,
    floor: float = 0.01,
) -> np.ndarray:
    """Systems fitted to real runs (the ``latent`` model of :func:`simulate_runs`), systems x topics x K.

    System r is a profile ``{noise_sd, edges, concentration}`` (:mod:`ordeval.tasks.latent`; the profiles
    are taken in an order drawn from ``system_rng``, again from the start when there are more systems, each
    jittered by ``profile_jitter``): a latent ordinal classifier that counts its predicted classes over
    the topic's items. Its expected estimate for topic t is m = sum_j g_tj P_rt(. | j), with P_rt the
    class probabilities of gold class j under the latent value j + d_t + e_rt + noise_sd s_t z: d_t =
    topic_shift_slope (mean gold class of t - its mean over the topics) + N(0, topic_shift_sd), shared by
    every system (a topic that reads more positive than it is to all of them), e_rt ~ N(0, interaction_sd)
    the system's own (with profiles that give ``interaction_sd`` or ``loadings``, their own sds and shared
    topic factors: :func:`ordeval.tasks.latent.topic_interactions`), s_t = exp(N(0, topic_difficulty_sd))
    the topic's noise scale. Its estimate is
    Dirichlet(concentration m + floor): concentration plays the part of the number of items counted, and
    the floor (the profile's, else ``floor``) decides how often a class the system hardly predicts comes
    out empty (below 1e-9: tied with an empty gold class in DNKT).
    """
    if not profiles:
        raise ValueError("the latent model needs profiles (systems fitted to real runs)")
    num_topics, num_classes = gold.shape
    dealt = latent.assign_profiles(system_rng, profiles, systems, profile_jitter)
    sd, edges, concentration = dealt.sd, dealt.edges, dealt.concentration
    floors = np.where(np.isnan(dealt.floor), floor, dealt.floor)
    if edges.shape[1] != num_classes - 1:
        raise ValueError(f"profiles have {edges.shape[1]} edges for {num_classes} classes (one fewer expected)")
    shift = latent.topic_shifts(
        noise_rng, portable.matmul(gold, np.arange(num_classes)), topic_shift_slope, topic_shift_sd
    )
    scale = (
        portable.exp(noise_rng.normal(0.0, topic_difficulty_sd, size=num_topics)) if topic_difficulty_sd > 0 else 1.0
    )
    runs = np.empty((systems, num_topics, num_classes))
    structured = dealt.loadings.shape[1] > 0 or not np.isnan(dealt.interaction_sd).all()
    own_shifts = latent.topic_interactions(noise_rng, dealt, interaction_sd, num_topics) if structured else None
    for r in range(systems):
        if own_shifts is not None:
            own = own_shifts[r]
        else:
            own = noise_rng.normal(0.0, interaction_sd, size=num_topics) if interaction_sd > 0 else 0.0
        probabilities = latent.class_probabilities(edges[r], sd[r] * scale, shift + own)  # topics x j x i
        expected = np.einsum("tj,tji->ti", gold, probabilities)
        runs[r] = _dirichlet_rows(noise_rng, concentration[r] * expected + floors[r])
    return runs


def biased(target: np.ndarray, gold: np.ndarray, kind: str, strength: float, direction: int) -> np.ndarray:
    """``target`` (topics x K distributions) under one system's bias (see :func:`simulate_runs`)."""
    num_classes = target.shape[-1]
    if kind == "none":
        return target
    if kind == "flatten":
        return (1 - strength) * target + strength / num_classes
    if kind == "sharpen":
        powered = portable.power(target, 1 + 4 * strength)
        return powered / powered.sum(axis=-1, keepdims=True)
    if kind == "shift":
        moved = np.zeros_like(target)
        if direction > 0:
            moved[:, 1:] += target[:, :-1]
            moved[:, -1] += target[:, -1]
        else:
            moved[:, :-1] += target[:, 1:]
            moved[:, 0] += target[:, 0]
        return (1 - strength) * target + strength * moved
    if kind == "majority":
        mode = np.eye(num_classes)[np.argmax(gold, axis=-1)]
        return (1 - strength) * target + strength * mode
    raise ValueError(f"unknown bias {kind!r}; known: {', '.join(BIASES)}")


def _dirichlet_rows(rng: np.random.Generator, alpha: np.ndarray) -> np.ndarray:
    """One Dirichlet draw per row of ``alpha`` (vectorised through gamma variates), as a distribution the
    readers accept (:func:`valid_distributions`)."""
    return valid_distributions(rng.standard_gamma(alpha), alpha)


def valid_distributions(weights: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Rows of non-negative ``weights`` normalised to distributions that a written and read data file
    keeps as they are: no NaN (a row whose weights all underflowed to 0 takes its ``fallback`` row, e.g.
    the Dirichlet's mean), and no subnormal probability (below 2.2e-308, the smallest normal float, set
    to 0: a small-shape gamma variate can give 5e-324, a probability that means 0)."""
    weights = np.where(weights.sum(axis=-1, keepdims=True) > 0, weights, fallback)
    rows = weights / weights.sum(axis=-1, keepdims=True)
    return np.where(rows < np.finfo(float).tiny, 0.0, rows)
