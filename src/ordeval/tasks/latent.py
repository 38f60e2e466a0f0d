"""What both simulators share about their systems: teams (:func:`team_count`), graded skills
(:func:`graded_skills`), and the latent ordinal classifier of systems fitted to real runs.

A system reads, for an item of gold class j (index 0..K-1), the latent value ``j + shift + sd * z`` with z
standard normal, and cuts it into classes at its K - 1 ascending ``edges``: class i is
(edges[i-1], edges[i]] (edges[-1] = -inf, edges[K-1] = +inf). A system is a *profile*: its noise ``sd`` and
its ``edges`` (and, where it estimates distributions, the ``concentration`` of its per-topic estimates), as fitted to
the official runs of a shared task by ``benchmarks/fit_simulators.py`` (docs/methods.md, section 6).
Wide middle bins and far-out extreme edges make a system that rarely predicts the rare classes (low
MAE^mu, high MAE^M); a large sd makes a system whose predictions barely depend on the gold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ordeval.stats import portable


def team_count(systems: int, team_size: int) -> int:
    """Teams of ``team_size`` consecutive simulated systems (the last may be smaller): ceil(systems / team_size)."""
    return -(-systems // team_size)


def graded_skills(
    teams: int, weak_teams: int, skill_min: float, skill_max: float, weak_min: float, weak_max: float
) -> np.ndarray:
    """The skills of a field of simulated teams, best first: evenly spaced from ``skill_max`` down to ``skill_min``,
    then the last ``weak_teams`` evenly spaced from ``weak_max`` down to ``weak_min`` (a simulator shuffles them)."""
    return np.concatenate(
        [np.linspace(skill_max, skill_min, teams - weak_teams), np.linspace(weak_max, weak_min, weak_teams)]
    )


def profile_problem(
    profile: Mapping, num_classes: int, needs: Sequence[str], optional: Sequence[str] = ()
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
