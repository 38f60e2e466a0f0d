"""Topic set size design (Sakai, "Topic Set Size Design", Information Retrieval Journal 19(3), 2016): how
many topics a test collection needs for a measure to detect a given difference, from the variance of the
measure's scores.

Variance. From a measure's topics x runs score matrix x (n topics, m runs), the residual variance of the
two-way ANOVA without replication (topic and run effects, no interaction term),

    V_E = sum_ij (x_ij - x_i. - x_.j + x..)^2 / ((n - 1)(m - 1)),

with x_i. the topic means, x_.j the run means and x.. the grand mean, estimates the variance sigma^2 of a
score around its topic and run effects. Under that model the difference of two runs' scores on a topic has
variance sigma_d^2 = 2 sigma^2.

Designs (each: the smallest n that meets the requirement; power and width are monotone in n):

* ``paired_t`` -- a two-sided paired t-test at level alpha detects a true difference of ``mdd`` (the minimum
  detectable difference) with probability at least 1 - beta. With effect size d = mdd / sigma_d and
  t* = t_{1 - alpha/2; n - 1}, the exact power is, from the noncentral t with n - 1 degrees of freedom and
  noncentrality sqrt(n) d,  P(T' > t*) + P(T' < -t*).
* ``anova`` -- a one-way ANOVA over m runs (n topics each) at level alpha detects, with probability at least
  1 - beta, any set of run means whose range (best minus worst) is at least ``mdd``. The least favourable
  such configuration has two runs at +-mdd/2 around the grand mean and the rest at it, so the
  noncentrality is lambda = n mdd^2 / (2 sigma^2); the power is P(F' > F*), F* = F_{1 - alpha; m - 1, m(n - 1)},
  F' noncentral F with (m - 1, m(n - 1)) degrees of freedom and noncentrality lambda. (In Cohen's terms
  f^2 = mdd^2 / (2 m sigma^2) with m n observations.)
* ``ci`` -- the 100(1 - alpha)% confidence interval of the difference between two runs,
  mean difference +- t_{1 - alpha/2; n - 1} sqrt(V_d / n), has expected width at most ``mdd`` (here the
  width delta): E[W] = 2 t_{1 - alpha/2; n - 1} sigma_d c(n) / sqrt(n), c(n) = E[sqrt(V_d)] / sigma_d
  = sqrt(2 / (n - 1)) Gamma(n / 2) / Gamma((n - 1) / 2).

Minimum detectable differences (:func:`scaled_mdds`): a measure's scores live on its own scale, so the
table's settings are fractions (5%, 10%, 20% by default) of the measure's observed score range on the data
set (the largest minus the smallest topic x run score; 1 where all scores are equal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from scipy import special

try:  # the functions scipy.stats.nct.sf and ncf.sf call: importing scipy.stats costs ~1 s a job, special ~0.2 s
    from scipy.special._ufuncs import _ncf_sf as noncentral_f_sf
    from scipy.special._ufuncs import _nct_sf as noncentral_t_sf
except ImportError:  # pragma: no cover - a scipy that keeps them elsewhere
    from scipy import stats

    noncentral_t_sf, noncentral_f_sf = stats.nct.sf, stats.ncf.sf

from ordeval.io.table import Table
from ordeval.stats import MAX_SCORE, portable
from ordeval.stats.intervals import residual_variance as stats_residual_variance

DESIGNS = ("paired_t", "anova", "ci")
ALPHA = 0.05
POWER = 0.8
#: Minimum detectable differences of the table, as fractions of each measure's observed score range.
MDD_FRACTIONS = (0.05, 0.10, 0.20)
#: The fractions the figure's curves are drawn at.
CURVE_FRACTIONS = tuple(np.round(np.linspace(0.03, 0.30, 28), 2))
#: The search stops here: a design needing more topics than this is an error.
MAX_TOPICS = 10**8
COLUMNS = ["measure", "design", "alpha", "power", "mdd", "residual_variance", "topics", "runs"]


def _nct_sf_integral(critical: float, df: float, shift: float) -> float:
    """P(T' > critical) = integral of Phi(shift - critical s) over the density of S = sqrt(chi2_df / df)."""
    from scipy import integrate, stats  # only here: a noncentrality too large for the noncentral t

    density = stats.chi(df, scale=1 / np.sqrt(df))
    low, high = density.ppf(1e-15), density.isf(1e-15)
    return integrate.quad(lambda s: stats.norm.cdf(shift - critical * s) * density.pdf(s), low, high, epsabs=1e-12)[0]


def residual_variance(scores) -> float:
    """V_E of the two-way ANOVA without replication of a topics x runs matrix (at least 2 x 2, finite)."""
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise ValueError(f"a topics x runs score matrix of at least 2 x 2 is needed, got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError("the score matrix holds a value that is not a finite number")
    if np.abs(x).max() > MAX_SCORE:
        raise ValueError(
            f"the score matrix holds a score beyond {MAX_SCORE:g} in magnitude (its square would overflow)"
        )
    return stats_residual_variance(x)


def _check(mdd, variance: float, alpha: float) -> None:
    if not (np.all(np.isfinite(mdd)) and np.all(np.asarray(mdd) > 0)):
        raise ValueError(f"the minimum detectable difference must be a positive number, got {mdd}")
    if not (np.isfinite(variance) and variance >= 0):
        raise ValueError(f"the variance must be a non-negative number, got {variance}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")


def paired_t_power(topics, mdd: float, variance: float, alpha: float = ALPHA):
    """Exact power of the two-sided paired t-test with ``topics`` topics (n >= 2; an array works too) for a
    true difference ``mdd``, ``variance`` the residual variance sigma^2 (sigma_d^2 = 2 sigma^2)."""
    _check(mdd, variance, alpha)
    n = np.asarray(topics, dtype=float)
    if variance == 0:
        return np.ones_like(n)[()]
    df = n - 1
    critical = _t_isf(alpha / 2, df)
    with np.errstate(over="ignore"):
        shift = np.sqrt(n) * (np.asarray(mdd, dtype=float) / np.sqrt(2 * variance))
    if not np.isfinite(shift).all():  # a difference too large for a float effect: the test always detects it
        shift = np.where(np.isfinite(shift), shift, np.finfo(float).max)
    return (_nct_sf(critical, df, shift) + _nct_sf(critical, df, -shift))[()]


def _nct_sf(critical, df, shift) -> np.ndarray:
    """P(T' > critical) for T' noncentral t (df, shift), and by symmetry P(T' < -critical) for -shift.

    scipy's noncentral t gives NaN for a large noncentrality; there the probability is computed from its
    definition, T' = (Z + shift) / S with S = sqrt(chi2_df / df): P(T' > c) = E[Phi(shift - c S)]."""
    critical, df, shift = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (critical, df, shift)))
    with np.errstate(over="ignore"):
        values = np.atleast_1d(np.clip(np.asarray(noncentral_t_sf(critical, df, shift), dtype=float), 0, 1)).copy()
    flat = [np.atleast_1d(v).ravel() for v in (critical, df, shift)]
    for index in np.flatnonzero(~np.isfinite(values)):
        values.flat[index] = _nct_sf_integral(*(float(v[index]) for v in flat))
    return np.clip(values.reshape(np.shape(critical)), 0.0, 1.0)


def anova_power(topics, mdd: float, variance: float, runs: int, alpha: float = ALPHA):
    """Exact power of the one-way ANOVA over ``runs`` runs with ``topics`` topics each when the run means
    span ``mdd`` (least favourable configuration, noncentrality n mdd^2 / (2 sigma^2))."""
    _check(mdd, variance, alpha)
    if int(runs) != runs or runs < 2:
        raise ValueError(f"a one-way ANOVA compares at least 2 runs, got {runs}")
    n = np.asarray(topics, dtype=float)
    if variance == 0:
        return np.ones_like(n)[()]
    numerator, denominator = runs - 1, runs * (n - 1)
    critical = _f_isf(alpha, numerator, denominator)
    with np.errstate(over="ignore"):  # a difference so large that its noncentrality is no float: power 1
        noncentrality = n * (np.asarray(mdd, dtype=float) / np.sqrt(2 * variance)) ** 2
        power = np.asarray(noncentral_f_sf(critical, numerator, denominator, noncentrality), dtype=float)
    return np.where(np.isnan(power) & (noncentrality > 1e10), 1.0, power)[()]


def _f_isf(alpha: float, numerator, denominator):
    """F's upper ``alpha`` quantile F_{1 - alpha; numerator, denominator}: scipy's inverse of the distribution
    function at 1 - alpha, or below 1e-6, where 1 - alpha keeps too few of alpha's digits (1 - 1e-250 is 1), from
    the inverse of the incomplete beta function at alpha itself: with y = I^-1_alpha(denominator / 2,
    numerator / 2), F = denominator (1 - y) / (numerator y)."""
    if alpha >= 1e-6:
        return special.fdtri(numerator, denominator, 1.0 - alpha)
    y = special.betaincinv(np.asarray(denominator, dtype=float) / 2, numerator / 2, alpha)
    with np.errstate(divide="ignore"):
        return denominator * (1 - y) / (numerator * y)


def ci_expected_width(topics, variance: float, alpha: float = ALPHA):
    """Expected width of the 100(1 - alpha)% CI of a paired difference with ``topics`` topics (n >= 2)."""
    if not (np.isfinite(variance) and variance >= 0):
        raise ValueError(f"the variance must be a non-negative number, got {variance}")
    n = np.asarray(topics, dtype=float)
    c = np.sqrt(2 / (n - 1)) * portable.exp(special.gammaln(n / 2) - special.gammaln((n - 1) / 2))
    return (2 * _t_isf(alpha / 2, n - 1) * np.sqrt(2 * variance / n) * c)[()]


def _t_isf(q, df):
    """Student's t upper quantile t_{1 - q; df} (scipy.stats.t.isf); below ``q`` = 1e-6, where scipy's inverse
    fails for some degrees of freedom (infinite at 1e-250 with 3), from the inverse of the incomplete beta
    function: P(T > t) = I_x(df / 2, 1 / 2) / 2 with x = df / (df + t^2), so t = sqrt(df (1 - x) / x)."""
    if q >= 1e-6:
        return -special.stdtrit(df, q)
    df = np.asarray(df, dtype=float)
    x = special.betaincinv(df / 2, 0.5, 2 * q)
    with np.errstate(divide="ignore", over="ignore"):
        return np.sqrt(df * (1 - x) / x)


def smallest_topics_each(reached: Callable[[np.ndarray], np.ndarray], count: int, start: int = 2) -> np.ndarray:
    """For ``count`` requirements at once: per requirement i the smallest n >= ``start``
    with ``reached(ns)[i]``, where ``reached`` takes one n per requirement (an integer array) and each of its
    answers stays true once true. All are searched together (doubling, then bisection), one call of
    ``reached`` per step: a curve of 28 differences costs about as many calls as one difference."""
    low = np.full(count, start, dtype=np.int64)
    done = np.asarray(reached(low), dtype=bool)
    high = np.where(done, start, start * 2)
    pending = ~done
    while pending.any():  # doubling: reached(high) or high past the limit
        missed = pending & ~np.asarray(reached(high), dtype=bool)
        if (high[missed] >= MAX_TOPICS).any():
            raise ValueError(f"more than {MAX_TOPICS} topics would be needed")
        low = np.where(missed, high, low)
        high = np.where(missed, np.minimum(high * 2, MAX_TOPICS), high)
        pending = missed
    active = high - low > 1  # reached(high), not reached(low)
    while active.any():
        middle = (low + high) // 2
        hit = np.asarray(reached(middle), dtype=bool)
        high = np.where(active & hit, middle, high)
        low = np.where(active & ~hit, middle, low)
        active = high - low > 1
    return high


def topics_each(design: str, mdds, variance: float, *, runs: int = 2, alpha=ALPHA, power=POWER) -> np.ndarray:
    """:func:`topics_for` of every difference in ``mdds`` (the CI widths for ``ci``), searched together."""
    mdds = np.asarray(mdds, dtype=float).ravel()
    for mdd in mdds:
        _check(float(mdd), variance, alpha)
    if design == "paired_t":
        _check_power(power)
        return smallest_topics_each(lambda n: paired_t_power(n, mdds, variance, alpha) >= power, len(mdds))
    if design == "anova":
        _check_power(power)
        return smallest_topics_each(lambda n: anova_power(n, mdds, variance, runs, alpha) >= power, len(mdds))
    if design == "ci":
        return smallest_topics_each(lambda n: ci_expected_width(n, variance, alpha) <= mdds, len(mdds))
    raise ValueError(f"unknown design {design!r}; known: {', '.join(DESIGNS)}")


def topics_paired_t(mdd: float, variance: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Topics for the paired t-test design (see the module docstring)."""
    return int(topics_each("paired_t", [mdd], variance, alpha=alpha, power=power)[0])


def topics_anova(mdd: float, variance: float, runs: int, alpha: float = ALPHA, power: float = POWER) -> int:
    """Topics for the one-way ANOVA design over ``runs`` runs (see the module docstring)."""
    return int(topics_each("anova", [mdd], variance, runs=runs, alpha=alpha, power=power)[0])


def topics_ci(width: float, variance: float, alpha: float = ALPHA) -> int:
    """Topics for the CI design: expected width of the CI of a paired difference at most ``width``."""
    return int(topics_each("ci", [width], variance, alpha=alpha)[0])


def _check_power(power: float) -> None:
    if not 0 < power < 1:
        raise ValueError(f"power must lie strictly between 0 and 1, got {power}")


def topics_for(design: str, mdd: float, variance: float, *, runs: int = 2, alpha=ALPHA, power=POWER) -> int:
    """Topics of ``design`` (``paired_t``, ``anova`` or ``ci``; ``mdd`` is the CI width for ``ci``)."""
    return int(topics_each(design, [mdd], variance, runs=runs, alpha=alpha, power=power)[0])


def score_range(scores) -> float:
    """The spread a measure's minimum detectable differences are scaled to: max - min of its scores
    (1 where they are all equal)."""
    x = np.asarray(scores, dtype=float)
    spread = float(x.max() - x.min())
    return spread if spread > 0 else 1.0


def scaled_mdds(scores, fractions: Sequence[float] = MDD_FRACTIONS) -> list[float]:
    """Minimum detectable differences ``fraction x score_range(scores)``, rounded to 4 significant digits."""
    spread = score_range(scores)
    return [float(f"{fraction * spread:.4g}") for fraction in fractions]


def topic_set_size_table(
    matrices: Mapping[str, np.ndarray],
    *,
    alpha: float = ALPHA,
    power: float = POWER,
    mdds: Sequence[float] | None = None,
    fractions: Sequence[float] = MDD_FRACTIONS,
    designs: Sequence[str] = DESIGNS,
    runs: int | None = None,
) -> Table:
    """One row per measure, design and minimum detectable difference: measure, design, alpha, power (empty
    for ``ci``), mdd (the CI width for ``ci``), residual_variance, topics, runs (m of the ANOVA design, 2
    otherwise).

    ``matrices``: ``{measure: topics x runs scores}`` of one data set. ``mdds``: the same absolute values
    for every measure; by default :func:`scaled_mdds` with ``fractions``. ``runs``: m of the ANOVA design
    (default: the data set's number of runs). Write it with :func:`ordeval.io.table.write_csv`, which adds the
    ``data_origin`` column.
    """
    unknown = [design for design in designs if design not in DESIGNS]
    if unknown:
        raise ValueError(f"unknown design {unknown[0]!r}; known: {', '.join(DESIGNS)}")
    rows = []
    for measure, scores in matrices.items():
        variance = residual_variance(scores)
        m = int(runs) if runs is not None else np.shape(scores)[1]
        differences = list(mdds) if mdds is not None else scaled_mdds(scores, fractions)
        for design in designs:
            found = topics_each(design, differences, variance, runs=m, alpha=alpha, power=power)
            for mdd, topics in zip(differences, found, strict=True):
                rows.append(
                    (
                        measure,
                        design,
                        float(alpha),
                        np.nan if design == "ci" else float(power),
                        float(mdd),
                        variance,
                        int(topics),
                        m if design == "anova" else 2,
                    )
                )
    return Table({column: [row[i] for row in rows] for i, column in enumerate(COLUMNS)})


def topic_curves(
    matrices: Mapping[str, np.ndarray],
    design: str,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
    fractions: Sequence[float] = CURVE_FRACTIONS,
    runs: int | None = None,
) -> dict[str, np.ndarray]:
    """``{measure: topics at each of fractions}``: the minimum detectable difference running over
    ``fraction x score_range`` of each measure (the figure's curves)."""
    curves = {}
    for measure, scores in matrices.items():
        variance, spread = residual_variance(scores), score_range(scores)
        m = int(runs) if runs is not None else np.shape(scores)[1]
        differences = np.asarray(fractions, dtype=float) * spread
        curves[measure] = topics_each(design, differences, variance, runs=m, alpha=alpha, power=power)
    return curves


def table_text(table: Table) -> str:
    """The table as aligned plain text (for the command line)."""
    header = COLUMNS
    body = []
    for row in table.records():
        power = "" if np.isnan(row["power"]) else f"{row['power']:g}"
        body.append(
            [
                str(row["measure"]),
                row["design"],
                f"{row['alpha']:g}",
                power,
                f"{row['mdd']:.4g}",
                f"{row['residual_variance']:.4g}",
                str(row["topics"]),
                str(row["runs"]),
            ]
        )
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.rjust(w) if i >= 2 else cell.ljust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in [header, *body]
    ]
    return "\n".join(lines) + "\n"
