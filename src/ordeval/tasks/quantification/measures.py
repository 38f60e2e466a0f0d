"""Evaluation measures for ordinal quantification (docs/methods.md, section 2) and their registry.

Every measure takes ``estimate`` and ``gold``: arrays of probability distributions over the
K ordered classes along the last axis (shape ``(..., K)``; leading axes broadcast, e.g. runs x
topics x K against topics x K) and returns one score per distribution (shape ``(...)``).
Lower is better for all of them.

Adding a measure is one function plus one registry entry (here or in a plugin module)::

    @register("MYM", display=r"MyM", description="what it is")
    def my_measure(estimate, gold):
        ...

Every analysis, table and figure takes its measures from :data:`REGISTRY`.

Each measure declares the properties of :mod:`ordeval.tasks.quantification.properties` it has (``ordinal``,
``farther_is_worse``, ``perfect_estimate``, ``uniform_gold``, ``uniform_estimate_graded``,
``priority_preserving``; defined there); a test fails when a declaration and its check disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

import numpy as np

from ordeval.stats import portable
from ordeval.tasks.registry import Registry

#: Two probabilities closer than this are tied (DNKT, docs/methods.md, section 2).
TIE_TOLERANCE = 1e-9

MeasureFunction = Callable[[np.ndarray, np.ndarray], np.ndarray]

#: The property flags the measures declare (defined and checked in :mod:`ordeval.tasks.quantification.properties`).
ORDINAL = {
    "ordinal": True,
    "farther_is_worse": True,
    "perfect_estimate": True,
    "uniform_gold": True,
    "uniform_estimate_graded": True,
    "priority_preserving": False,
}
#: Ordinal, but moving mass farther from a one-class gold is not always worse (RNADW averages over every
#: class; RNOD2 and RNADW2 measure class distance by gold mass).
ORDINAL_NOT_FARTHER = {**ORDINAL, "farther_is_worse": False}
NOMINAL = {**ORDINAL, "ordinal": False, "farther_is_worse": False}

#: The ordinal quantification measures, in the order tables list them by default.
REGISTRY = Registry("quantification")
register = REGISTRY.register
MEASURES = REGISTRY


def get_measure(name: str):
    """The registered measure called ``name``; a clear error lists the known ones otherwise."""
    return REGISTRY[name]


def score_runs(measure_names: list[str], estimates: np.ndarray, gold: np.ndarray) -> dict[str, np.ndarray]:
    """Per-topic scores of every run: ``{measure: array(runs, topics)}`` for runs x topics x K estimates."""
    estimates = np.asarray(estimates, dtype=float)
    gold = np.asarray(gold, dtype=float)
    if estimates.shape[-1] != gold.shape[-1]:
        raise ValueError(f"estimates have {estimates.shape[-1]} classes, gold has {gold.shape[-1]}")
    if gold.shape[-1] < 2:
        raise ValueError(f"ordinal quantification needs at least 2 classes, got {gold.shape[-1]}")
    memo = _SCORED.set({})  # a combination reuses its components' scores (same arrays, same values)
    try:
        return {name: _score(name, estimates, gold) for name in measure_names}
    finally:
        _SCORED.reset(memo)


#: Scores computed so far by the current :func:`score_runs` call:
#: {(measure, id(estimate), id(gold)): (estimate, gold, scores)}. The arrays are held so that their ids
#: stay theirs until the call ends (a measure scoring temporary arrays cannot meet a reused id).
_SCORED: ContextVar[dict | None] = ContextVar("scored", default=None)


def _score(name: str, estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """``REGISTRY[name](estimate, gold)``, computed once per :func:`score_runs` call."""
    from ordeval.tasks.registry import measure_values  # a measure that raises or returns no numbers: one line naming it

    memo = _SCORED.get()
    if memo is None:
        return measure_values(REGISTRY[name], estimate, gold)
    key = (name, id(estimate), id(gold))
    if key not in memo:
        memo[key] = (estimate, gold, measure_values(REGISTRY[name], estimate, gold))
    return memo[key][2]


# --------------------------------------------------------------------------- building blocks


def _num_classes(gold: np.ndarray) -> int:
    return gold.shape[-1]


def absolute_distance(num_classes: int) -> np.ndarray:
    """delta_ij = |i - j|, the class distance of OD and ADW."""
    index = np.arange(num_classes)
    return np.abs(index[:, None] - index[None, :]).astype(float)


def gold_mass_distance(gold: np.ndarray) -> np.ndarray:
    """delta_ij = sum_{k=min(i,j)}^{max(i,j)} p*_k - (p*_i + p*_j)/2 (RNOD2, RNADW2), shape (..., K, K).

    The distance between two classes is the gold mass between them, counting the two
    end classes half: classes that few items fall between are close.
    """
    cumulative = np.concatenate([np.zeros(gold.shape[:-1] + (1,)), np.cumsum(gold, axis=-1)], -1)
    index = np.arange(gold.shape[-1])
    low = np.minimum(index[:, None], index[None, :])
    high = np.maximum(index[:, None], index[None, :])
    mass_between = cumulative[..., high + 1] - cumulative[..., low]
    delta = mass_between - (gold[..., :, None] + gold[..., None, :]) / 2
    # delta_ii = p*_i - p*_i is 0 exactly; the cumulative sums would leave rounding noise.
    return np.where(low == high, 0.0, delta)


def distance_weighted(estimate: np.ndarray, gold: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """DW_i = sum_j delta_ij (p_j - p*_j)^2 for every class i, shape (..., K)."""
    squared = (estimate - gold) ** 2
    return np.einsum("...ij,...j->...i", delta, squared)


def _mean_over(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of ``values`` over the classes where ``mask`` holds (last axis)."""
    return np.sum(np.where(mask, values, 0.0), axis=-1) / np.sum(mask, axis=-1)


def order_aware_divergence(estimate: np.ndarray, gold: np.ndarray, delta: np.ndarray | None = None) -> np.ndarray:
    """OD(p || p*) = (1/|C*|) sum_{i in C*} DW_i with C* = {i : p*_i > 0}."""
    if delta is None:
        delta = absolute_distance(_num_classes(gold))
    return _mean_over(distance_weighted(estimate, gold, delta), gold > 0)


def _root_normalised(value: np.ndarray, num_classes: int) -> np.ndarray:
    # Rounding can leave -1e-17 where the exact value is 0.
    return np.sqrt(np.maximum(value, 0.0) / (num_classes - 1))


def _jensen_shannon(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """(KLD(p || m) + KLD(p* || m)) / 2 with a_i / m_i computed as 2 a_i / (a_i + b_i).

    The same number as a_i / ((a_i + b_i) / 2) wherever halving is exact, but finite where the midpoint
    would underflow: for a_i = 5e-324 (the smallest subnormal) and b_i = 0, m_i rounds to 0 and
    a_i log2(a_i / m_i) would be infinite, while a_i + b_i >= a_i > 0 always. Every term then lies in
    [a_i log2(a_i), a_i], so JSD is in [0, 1] (base 2) for every pair of distributions.
    """
    total = estimate + gold

    def kld(a: np.ndarray) -> np.ndarray:
        positive = a > 0
        ratio = 2 * np.where(positive, a, 1.0) / np.where(positive, total, 1.0)
        return np.where(positive, a * portable.log2(ratio), 0.0).sum(axis=-1)

    return np.clip((kld(estimate) + kld(gold)) / 2, 0.0, 1.0)


# --------------------------------------------------------------------------- the measures


@register(
    "NMD",
    display="NMD",
    reference="Sakai, ACL-IJCNLP 2021, Sect. 4 (SemEval's EMD / (K-1))",
    description="Normalised Match Distance (SemEval EMD / (K-1))",
    **ORDINAL,
)
def normalised_match_distance(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """NMD = sum_i |cp_i - cp*_i| / (K - 1), cp the cumulative distribution."""
    difference = np.cumsum(estimate, axis=-1) - np.cumsum(gold, axis=-1)
    return np.abs(difference).sum(axis=-1) / (_num_classes(gold) - 1)


@register(
    "EMD",
    display="EMD",
    reference="Nakov et al., SemEval-2016 Task 4, subtask E (the official measure); = (K-1) x NMD",
    description="Earth Mover's Distance, SemEval-2016 Task 4 subtask E's official measure ((K-1) x NMD)",
    meta_evaluated=False,
    **ORDINAL,
)
def earth_movers_distance(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """EMD = sum_i |cp_i - cp*_i|, cp the cumulative distribution: NMD without the 1/(K-1) normalisation.

    Scored only where named (``--measures EMD``): it is 4 x NMD for five classes, so it is left out of
    the meta-evaluation tables, where it would only repeat NMD."""
    difference = np.cumsum(estimate, axis=-1) - np.cumsum(gold, axis=-1)
    return np.abs(difference).sum(axis=-1)


@register(
    "RSNOD",
    display="RSNOD",
    reference="Sakai, ACL-IJCNLP 2021, Sect. 4",
    description="Root Symmetric Normalised Order-aware Divergence",
    **ORDINAL,
)
def root_symmetric_normalised_order_aware_divergence(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """RSNOD = sqrt(SOD / (K-1)), SOD = (OD(p || p*) + OD(p* || p)) / 2.

    DW is symmetric in p and p*, so OD(p* || p) averages the same DW over {i : p_i > 0}.
    """
    dw = distance_weighted(estimate, gold, absolute_distance(_num_classes(gold)))
    symmetric = (_mean_over(dw, gold > 0) + _mean_over(dw, estimate > 0)) / 2
    return _root_normalised(symmetric, _num_classes(gold))


@register(
    "RNOD",
    display="RNOD",
    reference="Sakai, ACL-IJCNLP 2021, Sect. 4",
    description="Root Normalised Order-aware Divergence",
    **ORDINAL,
)
def root_normalised_order_aware_divergence(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """RNOD = sqrt(OD(p || p*) / (K-1))."""
    return _root_normalised(order_aware_divergence(estimate, gold), _num_classes(gold))


@register(
    "RNADW",
    display="RNADW",
    reference="Sakai, arXiv:2204.07304 (RNOD variants and DNKT)",
    description="Root Normalised Average Distance-Weighted sum of squares",
    **ORDINAL_NOT_FARTHER,
)
def root_normalised_average_distance_weighted(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """RNADW = sqrt(ADW / (K-1)), ADW = (1/K) sum_{i in C} DW_i (symmetric in p and p*)."""
    dw = distance_weighted(estimate, gold, absolute_distance(_num_classes(gold)))
    return _root_normalised(dw.mean(axis=-1), _num_classes(gold))


@register(
    "RNOD2",
    display="RNOD2",
    reference="Sakai, arXiv:2204.07304 (RNOD variants and DNKT)",
    description="RNOD with the gold-mass class distance",
    **ORDINAL_NOT_FARTHER,
)
def root_normalised_order_aware_divergence_2(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """RNOD2 = sqrt(OD / (K-1)) with delta_ij = sum_{k=min(i,j)}^{max(i,j)} p*_k - (p*_i + p*_j)/2."""
    divergence = order_aware_divergence(estimate, gold, gold_mass_distance(gold))
    return _root_normalised(divergence, _num_classes(gold))


@register(
    "RNADW2",
    display="RNADW2",
    reference="Sakai, arXiv:2204.07304 (RNOD variants and DNKT)",
    description="RNADW with the gold-mass class distance",
    **ORDINAL_NOT_FARTHER,
)
def root_normalised_average_distance_weighted_2(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """RNADW2 = sqrt(ADW / (K-1)) with the delta of RNOD2."""
    dw = distance_weighted(estimate, gold, gold_mass_distance(gold))
    return _root_normalised(dw.mean(axis=-1), _num_classes(gold))


@register(
    "NVD",
    display="NVD",
    reference="Sakai, ACL-IJCNLP 2021, Sect. 4",
    description="Normalised Variational Distance",
    **NOMINAL,
)
def normalised_variational_distance(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """NVD = (1/2) sum_i |p_i - p*_i|."""
    return np.abs(estimate - gold).sum(axis=-1) / 2


@register(
    "RNSS",
    display="RNSS",
    reference="Sakai, ACL-IJCNLP 2021, Sect. 4",
    description="Root Normalised Sum of Squares",
    **NOMINAL,
)
def root_normalised_sum_of_squares(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """RNSS = sqrt(sum_i (p_i - p*_i)^2 / 2)."""
    return np.sqrt(((estimate - gold) ** 2).sum(axis=-1) / 2)


@register(
    "JSD",
    display="JSD",
    reference="Sakai, ACL-IJCNLP 2021, Sect. 4",
    description="Jensen-Shannon divergence (base 2)",
    **NOMINAL,
)
def jensen_shannon_divergence(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """JSD = (KLD(p || m) + KLD(p* || m)) / 2, m = (p + p*)/2, KLD(a || b) = sum_{a_i>0} a_i log2(a_i/b_i)."""
    return _jensen_shannon(estimate, gold)


@register(
    "DNKT",
    display="DNKT",
    reference="Sakai, arXiv:2204.07304 (RNOD variants and DNKT)",
    description="Distance based on Normalised Kendall's Tau",
    ordinal=False,
    farther_is_worse=False,
    perfect_estimate=False,
    uniform_gold=False,
    uniform_estimate_graded=False,
    priority_preserving=True,
)
def distance_normalised_kendall_tau(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """DNKT = (1 - tau_b) / 2 over the K(K-1)/2 pairs of bins.

    tau_b = (CONC - DISC) / (sqrt(max(1, notTIED)) sqrt(max(1, notTIED*))); two probabilities
    closer than 1e-9 are tied, and a pair tied in either vector is neither concordant nor discordant.
    """
    first, second = np.triu_indices(_num_classes(gold), k=1)

    def pair_signs(distribution: np.ndarray) -> np.ndarray:  # +1, -1, or 0 when |difference| < tolerance
        difference = distribution[..., first] - distribution[..., second]
        return (difference >= TIE_TOLERANCE).view(np.int8) - (difference <= -TIE_TOLERANCE).view(np.int8)

    estimate_signs, gold_signs = np.broadcast_arrays(pair_signs(estimate), pair_signs(gold))
    concordant_minus_discordant = (estimate_signs * gold_signs).sum(axis=-1, dtype=np.int64)
    untied_estimate = np.maximum(1, np.count_nonzero(estimate_signs, axis=-1))
    untied_gold = np.maximum(1, np.count_nonzero(gold_signs, axis=-1))
    tau_b = concordant_minus_discordant / np.sqrt(untied_estimate * untied_gold)
    undefined = np.isnan(estimate).any(axis=-1) | np.isnan(gold).any(axis=-1)  # NaN in, NaN out
    return np.where(undefined, np.nan, (1 - tau_b) / 2)[()]  # [()]: a scalar for one distribution


def harmonic_combination(first: str, second: str) -> MeasureFunction:
    """The harmonic mean 2 M1 M2 / (M1 + M2) of two registered measures (0 when both are 0)."""

    def combined(estimate: np.ndarray, gold: np.ndarray) -> np.ndarray:
        a = _score(first, estimate, gold)
        b = _score(second, estimate, gold)
        total = a + b
        return np.where(total > 0, 2 * a * b / np.where(total > 0, total, 1.0), 0.0)

    combined.__doc__ = f"{first}_{second} = 2 {first} {second} / ({first} + {second}), 0 when both are 0."
    return combined


for _other in ("JSD", "NMD", "RNOD"):
    register(
        f"DNKT_{_other}",
        display=f"DNKT_{_other}",
        description=f"harmonic mean of DNKT and {_other}",
        reference="Sakai, arXiv:2204.07304 (RNOD variants and DNKT)",
        **{**(NOMINAL if _other == "JSD" else ORDINAL), "priority_preserving": True},  # DNKT 0 makes it 0
    )(harmonic_combination("DNKT", _other))
