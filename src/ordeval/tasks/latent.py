"""The latent ordinal classifier that both simulators can use for systems fitted to real runs.

A system reads, for an item of gold class j (index 0..K-1), the latent value ``j + shift + sd * z`` with z
standard normal, and cuts it into classes at its K - 1 ascending ``edges``: class i is
(edges[i-1], edges[i]] (edges[-1] = -inf, edges[K-1] = +inf). A system is a *profile*: its noise ``sd`` and
its ``edges`` (and, for quantification, the ``concentration`` of its per-topic estimates), as fitted to
the official runs of a shared task by ``benchmarks/fit_simulators.py`` (docs/methods.md, section 6).
Wide middle bins and far-out extreme edges make a system that rarely predicts the rare classes (low
MAE^mu, high MAE^M); a large sd makes a system whose predictions barely depend on the gold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ordeval.stats import portable

#: The keys of a profile: an ordinal classification system's, and a quantification system's.
OC_PROFILE_KEYS = ("noise_sd", "edges")
OQ_PROFILE_KEYS = ("noise_sd", "edges", "concentration")
#: The optional keys of a quantification profile: the Dirichlet's pseudo-count ``floor`` of every class (how
#: often a class the system hardly predicts comes out empty; the simulator's ``floor`` when not given), and
#: its own ``interaction_sd`` and ``loadings`` as for classification (below).
OQ_PROFILE_OPTIONAL = ("floor", "interaction_sd", "loadings")
#: The optional keys of an ordinal classification profile: its own ``interaction_sd`` (the sd of its own
#: shift per topic, else the source's) and its ``loadings`` on the topic factors shared by the systems.
OC_PROFILE_OPTIONAL = ("interaction_sd", "loadings")
#: The settings of a gold's Dirichlet topic model (:func:`topic_proportions`), which a gold with
#: ``cut_points`` (the logistic topic model, :func:`logistic_topic_proportions`) does not use.
DIRICHLET_GOLD_KEYS = ("class_shares", "concentration", "tilt_sd", "polarity_sd")


def profile_problem(
    profile: Mapping, num_classes: int, needs: Sequence[str] = OC_PROFILE_KEYS, optional: Sequence[str] = ()
) -> str | None:
    """What is wrong with one profile (None when nothing): keys missing or not among ``needs`` and
    ``optional``, ``edges`` not K - 1 ascending numbers, a noise sd, concentration or floor that is not a
    positive number."""
    if not isinstance(profile, Mapping):
        return f"{profile!r} is not a mapping with keys {', '.join(needs)}"
    missing = [key for key in needs if key not in profile]
    if missing:
        return f"misses {', '.join(missing)}"
    unknown = sorted(set(profile) - set(needs) - set(optional))
    if unknown:
        return f"has unknown key(s) {', '.join(unknown)}; known: {', '.join((*needs, *optional))}"
    loadings = profile.get("loadings", [])
    if not isinstance(loadings, (list, tuple)) or not 0 <= len(loadings) <= 10:
        return f"loadings {loadings!r} must be a list of at most 10 numbers (one per topic factor)"
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) for v in loadings):
        return f"loadings {loadings!r} must be finite numbers"
    if "interaction_sd" in profile:
        value = profile["interaction_sd"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
            return f"interaction_sd {value!r} is not a number >= 0"
    for key in ("noise_sd", "concentration", "floor"):
        value = profile.get(key, 1.0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
            return f"{key} {value!r} is not a positive number"
    edges = profile["edges"]
    if not isinstance(edges, (list, tuple)) or len(edges) != num_classes - 1:
        return (
            f"edges {edges!r} must be {num_classes - 1} numbers (a cut point between each two of {num_classes} classes)"
        )
    if any(isinstance(e, bool) or not isinstance(e, (int, float)) or not np.isfinite(e) for e in edges):
        return f"edges {edges!r} must be finite numbers"
    if any(high < low for low, high in zip(edges, edges[1:], strict=False)):
        return f"edges {edges!r} must be in ascending order"
    return None


def loadings_problem(profiles: Sequence[Mapping]) -> str | None:
    """What is wrong with the profiles' ``loadings`` together (None when nothing): lists of different lengths
    (every profile that gives loadings gives one per topic factor)."""
    lengths = sorted({len(p["loadings"]) for p in profiles if isinstance(p, Mapping) and "loadings" in p})
    if len(lengths) > 1:
        return f"loadings of {' and '.join(map(str, lengths))} numbers: every profile needs one per topic factor"
    return None


@dataclass
class Systems:
    """The systems of a field dealt from profiles (:func:`assign_profiles`), one entry per system: noise
    ``sd``, ``edges`` (systems x K-1), ``concentration`` and ``floor`` (quantification; floor NaN where the
    profile gives none), and their run-by-topic interaction: ``interaction_sd`` (NaN where the profile gives
    none) and ``loadings`` on the topic factors (systems x factors; zeros where the profile gives none)."""

    sd: np.ndarray
    edges: np.ndarray
    concentration: np.ndarray
    floor: np.ndarray
    interaction_sd: np.ndarray
    loadings: np.ndarray


def assign_profiles(rng: np.random.Generator, profiles: Sequence[Mapping], systems: int, jitter: float) -> Systems:
    """The :class:`Systems` of ``systems`` systems dealt from ``profiles``.

    The profiles are taken in an order drawn from ``rng`` (again from the start when there are more
    systems than profiles); each system's sd is multiplied by exp(N(0, jitter)), its concentration
    likewise, and each edge moved by N(0, jitter) sd (kept ascending), so that the field differs a little
    from seed to seed while keeping the fitted shape (floor, interaction sd and loadings: no jitter, no draw)."""
    order = rng.permutation(len(profiles))
    chosen = [profiles[order[r % len(profiles)]] for r in range(systems)]
    sd = np.array([float(p["noise_sd"]) for p in chosen])
    edges = np.array([[float(e) for e in p["edges"]] for p in chosen]).reshape(systems, -1)
    concentration = np.array([float(p.get("concentration", 1.0)) for p in chosen])
    floor = np.array([float(p.get("floor", np.nan)) for p in chosen])
    interaction = np.array([float(p.get("interaction_sd", np.nan)) for p in chosen])
    factors = max((len(p.get("loadings", ())) for p in chosen), default=0)
    loadings = np.zeros((systems, factors))
    for system, profile in enumerate(chosen):
        given = [float(value) for value in profile.get("loadings", ())]
        loadings[system, : len(given)] = given
    if jitter > 0:
        sd = sd * portable.exp(rng.normal(0.0, jitter, size=systems))
        concentration = concentration * portable.exp(rng.normal(0.0, jitter, size=systems))
        edges = np.sort(edges + rng.normal(0.0, jitter, size=edges.shape) * sd[:, None], axis=1)
    return Systems(sd, edges, concentration, floor, interaction, loadings)


def topic_interactions(rng: np.random.Generator, systems: Systems, default_sd: float, num_topics: int) -> np.ndarray:
    """Each system's own shift on each topic (systems x topics): e_rt = loadings_r . f_t + sd_r z_rt, with
    f_t ~ N(0, I) the topic's factors, shared by every system (systems with loadings alike move alike from
    topic to topic, as the real runs of similar teams do), and sd_r the system's interaction sd (its
    profile's, else ``default_sd``). The z are drawn first, all at once; the factors only where a profile
    has loadings."""
    sd = np.where(np.isnan(systems.interaction_sd), default_sd, systems.interaction_sd)
    shifts = rng.standard_normal((len(sd), num_topics)) * sd[:, None]
    if systems.loadings.shape[1]:
        shifts = shifts + portable.matmul(
            systems.loadings, rng.standard_normal((systems.loadings.shape[1], num_topics))
        )
    return shifts


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


def topic_shifts(rng: np.random.Generator, mean_class: np.ndarray, slope: float, sd: float) -> np.ndarray:
    """Per topic, the shift of every system's latent values: slope (mean gold class of the topic - its mean
    over the topics) + N(0, sd) (no draw when sd is 0)."""
    shift = slope * (mean_class - mean_class.mean())
    return shift + rng.normal(0.0, sd, size=mean_class.size) if sd > 0 else shift


def class_probabilities(edges: np.ndarray, sd, shift) -> np.ndarray:
    """P(predicted class i | gold class j) of one system, shape (..., K, K) indexed [..., j, i].

    ``edges``: (K-1,); ``sd`` and ``shift`` broadcast against each other (e.g. one per topic):
    P = Phi((edges[i] - j - shift) / sd) - Phi((edges[i-1] - j - shift) / sd)."""
    from scipy.special import ndtr  # here: building data sets that do not use it needs no scipy

    edges = np.asarray(edges, dtype=float)
    num_classes = edges.size + 1
    sd, shift = np.broadcast_arrays(np.asarray(sd, dtype=float), np.asarray(shift, dtype=float))
    centre = np.arange(num_classes)[:, None] + shift[..., None, None]  # (..., j, 1)
    below = ndtr((edges - centre) / sd[..., None, None])  # (..., j, K-1): P(latent <= edge)
    zeros, ones = np.zeros(below.shape[:-1] + (1,)), np.ones(below.shape[:-1] + (1,))
    return np.diff(np.concatenate([zeros, below, ones], axis=-1), axis=-1)


def cut(latent: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Class index of every latent value: the number of edges below it."""
    return np.searchsorted(np.asarray(edges, dtype=float), latent, side="left")
