"""Fit the SemEval simulators to the real fields: ``results/fit_simulators.{json,md}``.

Reads the official SemEval-2016 Task 4 runs and gold (subtasks C and E) and the SemEval-2017 gold through the
library (``real2016``), and fits the settings that ``config/config.yaml`` uses for its four SemEval data sets
(docs/methods.md, section 6, says how):

* gold (``simulate_items`` / ``simulate_tweets``): the range of tweets per topic (a log-uniform range with the
  mean and sd of the real log sizes, within the real smallest and largest); the logistic topic model's cut
  points and the sds of a topic's location and log scale (maximum likelihood of the real counts: multinomial
  given the topic's proportions, its location and scale integrated out), checked against the real gold's
  share of topics with no tweet of a class and the spread of each class's proportion;
  2016 from the 2016 gold, 2017 from the 2017 gold;
* systems: one latent ordinal classifier (``ordeval.tasks.latent``) per official run (the organisers'
  constant baseline aside, which the configuration builds from the gold): its noise sd and cut points, with
  a shift and a noise scale per topic shared by every run. Subtask C: maximum likelihood of every run's
  per-topic confusion counts, the noise of every item scaled by exp(N(0, item_difficulty_sd)) (one sd for
  all runs, chosen by likelihood); subtask E: least squares of every run's per-topic distributions against
  the counted expectation, and the concentration of each run's estimates from its residual variance.
  Alternating: the runs given the topic effects, the topic effects given the runs. Then (subtask E) each
  profile's noise sd and concentration scaled so that, simulated on the real gold, it scores its run's mean
  NMD and DNKT (``fit_moments.py``; least squares alone misses DNKT), and its floor fitted again;
* the sd of the topic shifts, of the log topic scales (and, in C, of each run's own shift per topic) from
  their fitted values, less the spread that fitting them on a simulated field without them gives
  (estimation noise); the topic shifts' slope on the topic's mean gold class by least squares;
* subtask C, on fields simulated on the real gold: a common factor on the noise sds that gives the runs'
  official scores on average, and the share of noise common to every system on a tweet (``item_shared``)
  that gives the real correlation of the runs' errors tweet by tweet.

Then every fitted field is simulated again on the real gold (``--check-seeds``) and its runs compared with
the real runs: official scores (MAE^M and MAE^mu pooled, EMD), by rank (``fit_report.py``).

    python benchmarks/fit_simulators.py [--data-root ../shared/data/raw] [--check-seeds 20] [--rounds 3]
        [--moment-sims 20]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import fit_moments
import numpy as np
import real2016
from _common import RESULTS
from fit_gold import fit_gold, gold_check
from fit_report import check, markdown, pooled_oc
from scipy.optimize import minimize

from ordeval.stats.seeding import stream
from ordeval.tasks import latent
from ordeval.tasks.classification import simulate as oc_simulate
from ordeval.tasks.classification.measures import confusion_matrices
from ordeval.tasks.quantification import simulate as oq_simulate

NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(9)
WEIGHTS = WEIGHTS / WEIGHTS.sum()
#: Largest noise sd of a profile (a run whose predictions hardly depend on the gold reaches it).
MAX_SD = 50.0
#: Smallest noise sd of a profile: below it, cut points at a class centre would split that class's items
#: by a hair's breadth, and a topic's shift would move them all (least squares on subtask E finds such fits).
MIN_SD = 0.3
SHIFTS = np.linspace(-1.5, 1.5, 61)
LOG_SCALES = np.linspace(-1.5, 1.5, 61)
ITEM_DIFFICULTY = np.round(np.arange(0.0, 0.81, 0.1), 2)
ROUNDS = 3
#: Topic factors of the subtask C runs' own shifts per topic (the two leading ones hold 61% of their
#: variance, less estimation noise; the rest is each run's own interaction sd).
FACTORS = 2
#: The Dirichlet floors tried for a subtask E run, the simulators' default, and what counts as an empty class.
FLOORS = np.array([m * 10.0**e for e in range(-5, 0) for m in (1, 2, 5)] + [1.0])
DEFAULT_FLOOR = 0.01
EMPTY = 1e-9


# --------------------------------------------------------------------------- profiles


def edges_of(theta: np.ndarray) -> np.ndarray:
    """Ascending cut points from (first edge, log gaps)."""
    return theta[0] + np.concatenate([[0.0], np.cumsum(np.exp(theta[1:]))])


def theta_of(edges: np.ndarray) -> np.ndarray:
    return np.concatenate([[edges[0]], np.log(np.maximum(np.diff(edges), 1e-6))])


def mixed_probabilities(sd: float, edges: np.ndarray, shift, log_scale, item_sd: float) -> np.ndarray:
    """Class probabilities (topics x j x i) with the item noise scale exp(N(0, item_sd)) integrated out."""
    shift, log_scale = np.broadcast_arrays(np.asarray(shift, float), np.asarray(log_scale, float))
    if item_sd == 0:
        return latent.class_probabilities(edges, sd * np.exp(log_scale), shift)
    sds = sd * np.exp(log_scale[..., None] + item_sd * NODES)  # (..., nodes)
    probabilities = latent.class_probabilities(edges, sds, shift[..., None])  # (..., nodes, j, i)
    return np.einsum("n,...nji->...ji", WEIGHTS, probabilities)


def profile_dict(parameters: np.ndarray, extra: dict | None = None) -> dict:
    sd = float(np.exp(parameters[0]))
    edges = np.clip(edges_of(parameters[1:]), -(6 * sd + 6), 6 * sd + 10)
    return {"noise_sd": round(sd, 3), "edges": [round(float(e), 3) for e in edges], **(extra or {})}


class Field:
    """A real field and its latent fit: per-run parameters (log sd, first edge, log gaps) and per-topic
    effects (shift, log scale), refitted in turn by :meth:`fit`."""

    def __init__(self, num_runs: int, num_topics: int, num_classes: int, own_shifts: bool = False):
        self.parameters = np.tile(
            np.concatenate([[np.log(1.5)], theta_of(np.arange(num_classes - 1) + 0.5)]), (num_runs, 1)
        )
        self.shift = np.zeros(num_topics)
        self.log_scale = np.zeros(num_topics)
        self.own = np.zeros((num_runs, num_topics))  #: each run's own shift per topic (fitted if own_shifts)
        self.own_shifts = own_shifts
        self.restarts = False  #: start every run's fit from several noise sds in every round, not only the first

    def loss(self, run: int, parameters: np.ndarray, shift, log_scale) -> np.ndarray:  # per topic
        raise NotImplementedError

    def run_loss(self, run: int, parameters=None, shift=None, log_scale=None) -> np.ndarray:
        """The loss of ``run`` per topic with the fitted effects (topic shift plus the run's own)."""
        parameters = self.parameters[run] if parameters is None else parameters
        shift = self.shift if shift is None else shift
        log_scale = self.log_scale if log_scale is None else log_scale
        return self.loss(run, parameters, shift + self.own[run], log_scale)

    def fit(self, rounds: int = ROUNDS) -> None:
        for round_ in range(rounds):
            for run in range(len(self.parameters)):
                self.parameters[run] = self._fit_run(run, restart=round_ == 0)
            for _ in range(2):
                self.shift = self._grid(SHIFTS, lambda value: (value, self.log_scale))
                self.log_scale = self._grid(LOG_SCALES, lambda value: (self.shift, value))
                if self.own_shifts:
                    self.own = self.run_shifts()
                    self.own -= self.own.mean(axis=0)  # the runs' common part is the topic's shift
            # the mean shift and scale belong to the runs' edges and sds (the same field either way)
            centre, spread = self.shift.mean(), self.log_scale.mean()
            self.shift, self.log_scale = self.shift - centre, self.log_scale - spread
            self.parameters[:, 0] += spread
            self.parameters[:, 1] -= centre
            if self.own_shifts:
                own_centre = self.own.mean(axis=1)
                self.own -= own_centre[:, None]
                self.parameters[:, 1] -= own_centre

    def _fit_run(self, run: int, restart: bool) -> np.ndarray:
        def objective(parameters):
            if not np.log(MIN_SD) <= parameters[0] <= np.log(MAX_SD):
                return 1e12
            return float(self.run_loss(run, parameters).sum())

        starts = [self.parameters[run]]
        if restart or self.restarts:
            starts += [np.concatenate([[np.log(sd)], self.parameters[run][1:]]) for sd in (0.7, 1.5, 5.0)]
        results = [
            minimize(objective, start, method="Nelder-Mead", options={"maxiter": 2000, "xatol": 1e-4, "fatol": 1e-6})
            for start in starts
        ]
        return min(results, key=lambda result: result.fun).x

    def _grid(self, values: np.ndarray, effects) -> np.ndarray:
        """Each topic's best value on a grid, the other effect fixed."""
        total = np.zeros((len(values), len(self.shift)))
        for k, value in enumerate(values):
            shift, log_scale = effects(np.full(len(self.shift), value))
            total[k] = sum(self.run_loss(run, shift=shift, log_scale=log_scale) for run in range(len(self.parameters)))
        return values[total.argmin(axis=0)]

    def run_shifts(self) -> np.ndarray:
        """Each run's own best shift on each topic (runs x topics), the topic effects fixed."""
        result = np.zeros((len(self.parameters), len(self.shift)))
        for run in range(len(self.parameters)):
            losses = np.stack(
                [self.loss(run, self.parameters[run], self.shift + value, self.log_scale) for value in SHIFTS]
            )
            result[run] = SHIFTS[losses.argmin(axis=0)]
        return result


class ClassificationField(Field):
    """Subtask C: counts[run, topic, gold j, predicted i]; loss = - log likelihood per topic."""

    def __init__(self, counts: np.ndarray, item_sd: float, own_shifts: bool = False):
        super().__init__(counts.shape[0], counts.shape[1], counts.shape[-1], own_shifts)
        self.counts, self.item_sd = counts, item_sd

    def loss(self, run, parameters, shift, log_scale):
        probabilities = mixed_probabilities(
            np.exp(parameters[0]), edges_of(parameters[1:]), shift, log_scale, self.item_sd
        )
        return -(self.counts[run] * np.log(np.maximum(probabilities, 1e-300))).sum(axis=(-2, -1))


class QuantificationField(Field):
    """Subtask E: estimates[run, topic, i] against the gold (topics x j); loss = squared error per topic."""

    def __init__(self, estimates: np.ndarray, gold: np.ndarray):
        super().__init__(estimates.shape[0], estimates.shape[1], estimates.shape[-1])
        self.estimates, self.gold = estimates, gold

    def expected(self, run, parameters=None, shift=None, log_scale=None) -> np.ndarray:
        parameters = self.parameters[run] if parameters is None else parameters
        shift = self.shift if shift is None else shift
        log_scale = self.log_scale if log_scale is None else log_scale
        probabilities = mixed_probabilities(np.exp(parameters[0]), edges_of(parameters[1:]), shift, log_scale, 0.0)
        return np.einsum("tj,tji->ti", self.gold, probabilities)

    def loss(self, run, parameters, shift, log_scale):
        return ((self.expected(run, parameters, shift, log_scale) - self.estimates[run]) ** 2).sum(axis=-1)

    def concentrations(self) -> np.ndarray:
        """Dirichlet concentration of each run from its residual variance:
        sum_i Var(p_i) = (1 - sum_i m_i^2) / (c + 1)."""
        result = []
        for run in range(len(self.parameters)):
            expected = self.expected(run)
            residual = ((self.estimates[run] - expected) ** 2).sum(axis=-1).mean()
            spread = (1 - (expected**2).sum(axis=-1)).mean()
            result.append(np.clip(spread / max(residual, 1e-12) - 1, 1.0, 5000.0))
        return np.array(result)

    def floors(self, concentrations: np.ndarray, draws: int = 20) -> np.ndarray:
        """Each run's Dirichlet floor: from FLOORS, the one whose simulated estimates (Dirichlet(c m + floor)
        around the fitted expectation m, ``draws`` times) are empty (below 1e-9, where DNKT ties two classes)
        as often as the real run's; among floors equally close, the nearest to the simulators' default."""
        rng = stream(1, "fit", "floors")
        result = []
        for run, concentration in enumerate(concentrations):
            alpha = concentration * self.expected(run)
            real = float((self.estimates[run] < EMPTY).mean())
            simulated = np.array(
                [
                    np.mean(
                        [
                            (oq_simulate.valid_distributions(rng.standard_gamma(alpha + floor), 1.0) < EMPTY).mean()
                            for _ in range(draws)
                        ]
                    )
                    for floor in FLOORS
                ]
            )
            gap = np.round(np.abs(simulated - real), 3)
            closest = np.flatnonzero(gap == gap.min())
            result.append(float(FLOORS[closest[np.argmin(np.abs(np.log(FLOORS[closest] / DEFAULT_FLOOR)))]]))
        return np.array(result)


def topic_shift_settings(shift: np.ndarray, mean_class: np.ndarray, noise: np.ndarray) -> dict:
    """The topic shifts as the simulators draw them: a slope on the topic's mean gold class (least squares)
    and the sd of the rest (less the estimation noise)."""
    slope, intercept = np.polyfit(mean_class - mean_class.mean(), shift, 1)
    rest = shift - intercept - slope * (mean_class - mean_class.mean())
    return {"topic_shift_slope": round(float(slope), 3), "topic_shift_sd": round(corrected_sd(rest, noise), 3)}


def corrected_sd(fitted: np.ndarray, noise: np.ndarray) -> float:
    """sd of an effect from its fitted values, less the spread of the same fit on a field without it."""
    return float(np.sqrt(max(fitted.var() - noise.var(), 0.0)))


# --------------------------------------------------------------------------- subtask C


def classification_counts(gold: np.ndarray, runs: np.ndarray, item_topic: np.ndarray, num_classes: int) -> np.ndarray:
    """Per run and topic, counts[gold j, predicted i] (the transpose of the confusion matrix)."""
    confusion = confusion_matrices(gold, runs, item_topic, int(item_topic.max()) + 1, num_classes)
    return np.swapaxes(confusion, -1, -2)


def fit_classification(
    data, names: Sequence[int], rounds: int = ROUNDS, item_difficulty: Sequence[float] = ITEM_DIFFICULTY
) -> tuple[dict, ClassificationField]:
    """Sem16T4C's settings: the item difficulty sd of ``item_difficulty`` with the highest likelihood of the
    pooled counts, then the runs' profiles and the topic and run effects."""
    counts = classification_counts(data.gold, data.runs[list(names)], data.item_topic, len(data.classes))
    pooled = counts.sum(axis=1, keepdims=True)  # item difficulty chosen on the pooled counts
    likelihood = {}
    for item_sd in item_difficulty:
        field = ClassificationField(pooled, float(item_sd))
        for run in range(len(names)):
            field.parameters[run] = field._fit_run(run, restart=True)
        losses = [float(field.loss(r, field.parameters[r], 0.0, 0.0).sum()) for r in range(len(names))]
        likelihood[float(item_sd)] = -sum(losses)
    item_sd = max(likelihood, key=likelihood.get)
    field = ClassificationField(counts, item_sd, own_shifts=True)
    field.fit(rounds)
    # the same fit on a field simulated from the fitted runs without topic or run effects: estimation noise
    null = ClassificationField(simulate_counts(field, counts, stream(1, "fit", "C")), item_sd, own_shifts=True)
    null.parameters = field.parameters.copy()
    null.fit(rounds=1)
    # a run's own shifts are measured where its predictions depend on the gold (noise sd at most 3)
    reading = np.exp(field.parameters[:, 0]) <= 3
    gold_counts = counts[0].sum(axis=-1)
    mean_class = gold_counts @ np.arange(gold_counts.shape[1]) / gold_counts.sum(axis=1)
    extras = own_shift_profiles(field.own, null.own, reading)
    settings = {
        "model": "latent",
        "item_difficulty_sd": item_sd,
        **topic_shift_settings(field.shift, mean_class, null.shift),
        "topic_difficulty_sd": round(corrected_sd(field.log_scale, null.log_scale), 3),
        "interaction_sd": round(corrected_sd(field.own[reading], null.own[reading]), 3),
        "profiles": [profile_dict(p, extra) for p, extra in zip(field.parameters, extras, strict=True)],
    }
    settings, factor = calibrate_classification(data, names, settings)
    return {**settings, "noise_sd_factor": factor}, field


def interaction_factors(own: np.ndarray, noise: np.ndarray, factors: int = FACTORS) -> tuple[list, list]:
    """Each run's loadings on ``factors`` topic factors and its own interaction sd, from its fitted own shifts
    per topic (runs x topics) less estimation noise (the variance of the same fit on a field without them):
    the leading eigenvectors of the covariance C = cov(own) - diag(var(noise)) times the root of their
    eigenvalues, and sqrt(C_rr - sum_k loading_rk^2), so that the model's variance of each run's shift is
    C_rr and its covariances those of the leading factors."""
    covariance = np.cov(own) - np.diag(np.var(noise, axis=1, ddof=1))
    values, vectors = np.linalg.eigh(covariance)
    top = np.argsort(values)[::-1][:factors]
    loadings = vectors[:, top] * np.sqrt(np.maximum(values[top], 0.0))
    loadings = loadings * np.where(loadings.sum(axis=0) < 0, -1.0, 1.0)  # a factor's sign: mostly positive
    rest = np.sqrt(np.maximum(np.diag(covariance) - (loadings**2).sum(axis=1), 0.0))
    return [[round(float(v), 3) for v in row] for row in loadings], [round(float(v), 3) for v in rest]


def own_shift_profiles(own: np.ndarray, noise: np.ndarray, reading: np.ndarray) -> list[dict]:
    """Per run, the profile keys of its own shifts per topic: where its predictions depend on the gold
    (``reading``), its loadings on the shared topic factors and the rest as its interaction sd
    (:func:`interaction_factors`); elsewhere its interaction sd alone (the sd of its fitted own shifts less
    estimation noise)."""
    loadings, rest = interaction_factors(own[reading], noise[reading])
    shared = iter([{"interaction_sd": sd, "loadings": row} for sd, row in zip(rest, loadings, strict=True)])
    return [
        next(shared) if reads else {"interaction_sd": round(corrected_sd(own[run], noise[run]), 3)}
        for run, reads in enumerate(reading)
    ]


def simulated_fields(data, names: Sequence[int], settings: dict, seeds: int):
    """Fields simulated on the real gold with ``settings`` (no jitter): runs x items, one per seed."""
    k = len(data.classes)
    parameters = oc_simulate.run_parameters({"systems": len(names), **settings, "profile_jitter": 0.0}, k)
    for seed in range(seeds):
        yield oc_simulate.simulate_runs(
            stream(seed, "calibration", "systems"),
            stream(seed, "calibration", "runs"),
            data.gold,
            data.item_topic,
            k,
            **parameters,
        )


def error_correlation(runs: np.ndarray, gold: np.ndarray) -> float:
    """Mean correlation over the pairs of runs of their signed errors (predicted - gold class), item by item."""
    return float(np.corrcoef(runs - gold[None])[np.triu_indices(len(runs), k=1)].mean())


def calibrate_classification(data, names: Sequence[int], settings: dict, seeds: int = 3) -> tuple[dict, float]:
    """Two settings matched on fields simulated on the real gold (simulated moments):

    * a factor on every noise sd such that the runs' official MAE^M and MAE^mu, rank by rank, come closest to
      the real ones (least squares; fitting each run's own shift per topic leaves the fitted sds a little small);
    * ``item_shared``, such that the runs' signed errors correlate item by item as much as the real runs'
      do (an item misread by one system is misread by the others)."""
    real = np.concatenate([np.sort(v) for v in pooled_oc(data.gold, data.runs[list(names)], data.item_topic, 5)])

    def scaled(factor: float) -> dict:
        profiles = [{**p, "noise_sd": round(p["noise_sd"] * factor, 3)} for p in settings["profiles"]]
        return {**settings, "profiles": profiles}

    def score_gap(factor: float) -> float:
        gaps = [
            np.concatenate([np.sort(v) for v in pooled_oc(data.gold, runs, data.item_topic, 5)]) - real
            for runs in simulated_fields(data, names, scaled(factor), seeds)
        ]
        return float(np.mean(np.mean(gaps, axis=0) ** 2))

    factor = min(np.round(np.arange(0.9, 1.41, 0.05), 2), key=score_gap)
    settings = scaled(float(factor))
    target = error_correlation(data.runs[list(names)], data.gold)

    def correlation_gap(shared: float) -> float:
        fields = simulated_fields(data, names, {**settings, "item_shared": shared}, seeds)
        return abs(np.mean([error_correlation(runs, data.gold) for runs in fields]) - target)

    shared = min(np.round(np.arange(0.0, 0.81, 0.05), 2), key=correlation_gap)
    return {**settings, "item_shared": float(shared)}, float(factor)


def simulate_counts(field: ClassificationField, counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Counts like ``counts`` (same gold per topic) drawn from the fitted runs with no topic or run effects."""
    gold_counts = counts[0].sum(axis=-1)  # topics x j
    result = np.zeros_like(counts)
    for run, parameters in enumerate(field.parameters):
        probabilities = mixed_probabilities(
            np.exp(parameters[0]), edges_of(parameters[1:]), 0.0, np.zeros(len(gold_counts)), field.item_sd
        )
        probabilities = probabilities / probabilities.sum(axis=-1, keepdims=True)
        result[run] = rng.multinomial(gold_counts, probabilities)
    return result


# --------------------------------------------------------------------------- subtask E


def fit_quantification(
    data, names: Sequence[int], rounds: int = ROUNDS, moment_sims: int = fit_moments.SIMS
) -> tuple[dict, QuantificationField, dict]:
    """Subtask E's settings (least squares, then each profile matched to its run's NMD and DNKT by
    ``moment_sims`` simulations: :mod:`fit_moments`; 0: not matched), the least-squares field, and per run
    the moments matched."""
    field = QuantificationField(data.runs[list(names)], data.gold)
    field.restarts = True  # least squares has several optima: each round starts from several noise sds
    field.fit(rounds)
    concentrations = field.concentrations()
    floors = field.floors(concentrations)
    rng = stream(1, "fit", "E")
    flat = np.zeros_like(field.shift)
    expected = [field.expected(run, shift=flat, log_scale=flat) for run in range(len(concentrations))]
    null_estimates = np.stack(
        [
            oq_simulate.valid_distributions(rng.standard_gamma(c * m + f), 1.0)
            for c, m, f in zip(concentrations, expected, floors, strict=True)
        ]
    )
    null = QuantificationField(null_estimates, data.gold)
    null.parameters = field.parameters.copy()
    null.fit(rounds=1)
    settings = {
        "model": "latent",
        **topic_shift_settings(field.shift, data.gold @ np.arange(data.gold.shape[1]), null.shift),
        "topic_difficulty_sd": round(corrected_sd(field.log_scale, null.log_scale), 3),
        "profiles": [
            profile_dict(p, {"concentration": round(float(c), 1), "floor": float(f)})
            for p, c, f in zip(field.parameters, concentrations, floors, strict=True)
        ],
    }
    if not moment_sims:
        return settings, field, {}
    settings, moments = fit_moments.match(data.gold, field, settings, (MIN_SD, MAX_SD), moment_sims)
    return settings, field, dict(zip((data.run_names[name] for name in names), moments, strict=True))


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-root", default=str(real2016.SHARED_RAW), help="the shared raw data folder")
    parser.add_argument("--check-seeds", type=int, default=20, help="simulated fields compared with the real ones")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds of fitting the runs and the topic effects")
    parser.add_argument(
        "--item-difficulty",
        type=float,
        nargs="+",
        default=list(ITEM_DIFFICULTY),
        metavar="SD",
        help="Sem16T4C's item difficulty sds tried (default: 0.0 to 0.8 by 0.1; one value: no search)",
    )
    parser.add_argument(
        "--moment-sims",
        type=int,
        default=fit_moments.SIMS,
        help="simulations of a subtask E profile when matching its run's NMD and DNKT (0: none)",
    )
    args = parser.parse_args(argv)
    fields = real2016.load(args.data_root)
    data_c, data_e = fields["Sem16T4C"], fields["Sem16T4E"]
    names_c, names_e = real2016.fitted_runs(data_c, "Sem16T4C"), real2016.fitted_runs(data_e, "Sem16T4E")
    gold_2017 = real2016.load_gold_2017(args.data_root)
    gold = {
        "Sem16T4": fit_gold(data_c.gold_counts()),
        "Sem17T4": fit_gold(
            np.stack(
                [
                    np.bincount(gold_2017.labels[gold_2017.item_topic == t], minlength=5)
                    for t in range(len(gold_2017.topics))
                ]
            )
        ),
    }
    for name, counts in (("Sem16T4", data_c.gold_counts()), ("Sem17T4", None)):
        topics = len(counts) if counts is not None else len(gold_2017.topics)
        gold[name]["check"] = gold_check(gold[name], topics, args.check_seeds)
    settings_c, _ = fit_classification(data_c, names_c, args.rounds, args.item_difficulty)
    factor = settings_c.pop("noise_sd_factor")
    settings_e, _, moments = fit_quantification(data_e, names_e, args.rounds, args.moment_sims)
    result = {
        "gold": gold,
        "runs": {
            "Sem16T4C": {**settings_c, "fitted_to": [data_c.run_names[i] for i in names_c], "noise_sd_factor": factor},
            "Sem16T4E": {**settings_e, "fitted_to": [data_e.run_names[i] for i in names_e]},
        },
        "moments": moments,
        "moment_sims": args.moment_sims,
        "check_seeds": args.check_seeds,
    }
    result["check"] = check(data_c, names_c, settings_c, data_e, names_e, settings_e, args.check_seeds)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "fit_simulators.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    text = markdown(result)
    (RESULTS / "fit_simulators.md").write_text(text, encoding="utf-8")
    print(text)
    pairs = [pair for v in result["check"].values() for pair in zip(v["real"], v["simulated_mean"], strict=True)]
    worst = max(abs(real - simulated) for real, simulated in pairs)
    print(f"profiles_c={len(names_c)} profiles_e={len(names_e)} worst_rank_difference={worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
