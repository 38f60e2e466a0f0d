"""The topic model of a simulated gold, which both simulators use: how many items each topic has and how they
fall into the ordered classes.

A topic has ``round(exp(U(log size_min, log size_max)))`` items (tens to hundreds, as the SemEval topics
have), and its class proportions come from one of two models: a Dirichlet around average class shares,
tilted and polarised per topic (:func:`topic_proportions`), or a latent logistic reading of the topic's
items cut at K - 1 cut points (:func:`logistic_topic_proportions`); its labels are multinomial with those
proportions (:func:`topic_counts`). The quantification gold is each topic's label counts over its size,
the classification gold the labels themselves (docs/methods.md, section 6).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ordeval.stats import portable

#: Average class shares of a five-class gold: skewed towards the positive classes, as in SemEval Task 4 (with
#: another number of classes, uniform shares).
DEFAULT_CLASS_SHARES_5 = (0.02, 0.12, 0.45, 0.35, 0.06)
#: The settings of a gold's Dirichlet topic model (:func:`topic_proportions`), which a gold with
#: ``cut_points`` (the logistic topic model, :func:`logistic_topic_proportions`) does not use.
DIRICHLET_GOLD_KEYS = ("class_shares", "concentration", "tilt_sd", "polarity_sd")


def topic_counts(
    rng: np.random.Generator,
    topics: int,
    num_classes: int,
    size_min: int,
    size_max: int,
    *,
    class_shares: Sequence[float] | None,
    concentration: float,
    tilt_sd: float = 0.0,
    polarity_sd: float = 0.0,
    cut_points: Sequence[float] | None = None,
    location_sd: float = 1.0,
    scale_sd: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """(items per topic, topics x classes label counts) of a simulated gold: each topic's size from
    :func:`topic_sizes`, its class proportions from the logistic model where ``cut_points`` are given
    (:func:`logistic_topic_proportions`), else from the Dirichlet model around ``class_shares``
    (:data:`DEFAULT_CLASS_SHARES_5` for five classes, else uniform; :func:`topic_proportions`), and its labels
    multinomial with those proportions. Draws, in order: the sizes, the proportions, the counts."""
    if class_shares is None:
        class_shares = DEFAULT_CLASS_SHARES_5 if num_classes == 5 else [1.0] * num_classes
    shares = np.asarray(class_shares, dtype=float)
    if shares.shape != (num_classes,):
        raise ValueError(f"class_shares has {shares.size} entries for {num_classes} classes")
    shares = shares / shares.sum()
    sizes = topic_sizes(rng, topics, size_min, size_max)
    if cut_points is not None:
        proportions = logistic_topic_proportions(rng, cut_points, location_sd, scale_sd, topics)
    else:
        proportions = topic_proportions(rng, shares, concentration, topics, tilt_sd, polarity_sd)
    counts = np.stack([rng.multinomial(n, p) for n, p in zip(sizes, proportions, strict=True)])
    return sizes, counts


def topic_sizes(rng: np.random.Generator, topics: int, size_min: int, size_max: int) -> np.ndarray:
    """``round(exp(U(log size_min, log size_max)))`` items per topic (tens to hundreds)."""
    sizes = portable.exp(rng.uniform(portable.log(size_min), portable.log(size_max), size=topics))
    return np.clip(np.rint(sizes).astype(np.int64), size_min, size_max)


def topic_proportions(
    rng: np.random.Generator,
    shares: np.ndarray,
    concentration: float,
    topics: int,
    tilt_sd: float = 0.0,
    polarity_sd: float = 0.0,
) -> np.ndarray:
    """Class proportions of ``topics`` topics (topics x K): Dirichlet(concentration * shares_t), where
    shares_t is ``shares`` tilted along the class order by the topic's b_t ~ N(0, tilt_sd) and polarised by
    its c_t ~ N(0, polarity_sd): shares_t,j proportional to shares_j exp(b_t x_j + c_t x_j^2), x_j = j - (K-1)/2.
    A topic more positive than the average is so in all its classes at once, and a divisive topic has more
    of both extremes, as real tweet topics do (a single Dirichlet makes the classes vary independently). With
    both sds 0, one Dirichlet for every topic (no other draw)."""
    if tilt_sd == 0 and polarity_sd == 0:
        return rng.dirichlet(concentration * shares, size=topics)
    position = np.arange(shares.size) - (shares.size - 1) / 2
    exponent = rng.normal(0.0, tilt_sd, size=(topics, 1)) * position
    if polarity_sd > 0:
        exponent = exponent + rng.normal(0.0, polarity_sd, size=(topics, 1)) * position**2
    tilted = shares * portable.exp(exponent)
    draws = rng.standard_gamma(concentration * tilted / tilted.sum(axis=1, keepdims=True))
    return draws / draws.sum(axis=1, keepdims=True)


def logistic_class_probabilities(cut_points, location, log_scale) -> np.ndarray:
    """Class proportions of topics whose items read as ``location + exp(log_scale) L`` (L standard
    logistic), cut into K classes at the K - 1 ascending ``cut_points`` c: shape (..., K),
    p_j = F((c_j - location) / s) - F((c_{j-1} - location) / s), F(x) = 1 / (1 + exp(-x)), c_{-1} = -inf,
    c_{K-1} = +inf; ``location`` and ``log_scale`` broadcast against each other."""
    from scipy.special import expit  # here: building data sets that do not use it needs no scipy

    cuts = np.asarray(cut_points, dtype=float)
    location, log_scale = np.broadcast_arrays(np.asarray(location, dtype=float), np.asarray(log_scale, dtype=float))
    below = expit((cuts - location[..., None]) / portable.exp(log_scale)[..., None])  # (..., K-1): P(reading <= c_j)
    zeros, ones = np.zeros(below.shape[:-1] + (1,)), np.ones(below.shape[:-1] + (1,))
    return np.diff(np.concatenate([zeros, below, ones], axis=-1), axis=-1)


def cut_points_problem(cut_points, num_classes: int) -> str | None:
    """What is wrong with a gold's ``cut_points`` (None when nothing): not K - 1 finite ascending numbers."""
    if not isinstance(cut_points, (list, tuple, np.ndarray)) or len(cut_points) != num_classes - 1:
        return (
            f"{cut_points!r} must be {num_classes - 1} numbers (a cut point between each two of {num_classes} classes)"
        )
    if any(isinstance(c, bool) or not isinstance(c, (int, float, np.number)) or not np.isfinite(c) for c in cut_points):
        return f"{list(cut_points)!r} must be finite numbers"
    if any(high <= low for low, high in zip(cut_points, cut_points[1:], strict=False)):
        return f"{list(cut_points)!r} must be strictly ascending"
    return None


def logistic_gold_problem(source, num_classes: int) -> tuple[str, str] | None:
    """What is wrong with a gold that gives ``cut_points`` (None when nothing, or when it gives none): the key
    at fault and the problem, for a message naming the key. The cut points must be K - 1 finite ascending
    numbers (:func:`cut_points_problem`), and the keys of the Dirichlet model (``DIRICHLET_GOLD_KEYS``) are
    refused beside them: the logistic model would silently ignore them."""
    if "cut_points" not in source or source["cut_points"] is None:
        return None
    problem = cut_points_problem(source["cut_points"], num_classes)
    if problem:
        return "cut_points", problem
    mixed = [key for key in DIRICHLET_GOLD_KEYS if key in source]
    if mixed:
        return mixed[0], (
            "a setting of the Dirichlet topic model, which a gold with cut_points (the logistic topic model) does "
            "not use; give location_sd and scale_sd instead"
        )
    return None


def logistic_topic_proportions(
    rng: np.random.Generator, cut_points, location_sd: float, scale_sd: float, topics: int
) -> np.ndarray:
    """Class proportions of ``topics`` topics (topics x K) from a latent reading of their items: topic t's
    items read as mu_t + s_t L, L standard logistic, mu_t ~ N(0, location_sd) (how positive the topic is),
    s_t = exp(N(0, scale_sd)) (how divided), cut into classes at the K - 1 ascending ``cut_points``
    (:func:`logistic_class_probabilities`). A topic more positive than the average is so in all its classes
    at once and a divided topic has more of both extremes, while a rare extreme class stays rare on most
    topics (the logistic's thin tails): the real SemEval-2016 gold's share of topics with no tweet of an
    extreme class (53% and 25%) where a tilted Dirichlet fitted to the same gold gives 70% and 40%."""
    cut_points = list(cut_points)
    problem = cut_points_problem(cut_points, len(cut_points) + 1)
    if problem:
        raise ValueError(f"cut_points {problem}")
    location = rng.normal(0.0, location_sd, size=topics)
    log_scale = rng.normal(0.0, scale_sd, size=topics)
    return logistic_class_probabilities(cut_points, location, log_scale)
