"""The subtask E profiles matched to their runs' scores by simulated moments (a step of ``fit_simulators.py``).

The least-squares fit of ``fit_simulators.fit_quantification`` gives each official run a latent classifier
(noise sd, cut points) whose counted expectation is nearest its estimates, and a Dirichlet concentration from
what is left over. Simulated alone on the real gold, such a profile scores its run's NMD within 0.01, but not
its DNKT: the fitted noise spreads the estimates' errors over every class independently, where the real
run's errors keep the classes in the gold's order more often (pkudblab orders the five classes exactly as the
gold on 23% of the topics, its least-squares profile on 12%; ``fit_diagnostics.py``). A simulated field then
ranks its runs by the DNKT measures less consistently than the real one.

So each profile's noise sd and concentration are then scaled, by exp(a) and exp(b), to the values whose
simulated runs score, on average over ``sims`` simulations on the real gold (each its own topic effects,
fixed random streams), the real run's mean NMD and mean DNKT over the topics: Nelder-Mead on the sum of the
two squared relative differences, NMD's weighted 10 times (a run that cannot reach both keeps its NMD), a in
[log 0.25, log 4] and b in [log 0.2, log 20], the noise sd also kept in the least-squares fit's range. The
cut points stay where least squares put them; the floor is fitted again for the new noise sd and
concentration.
docs/methods.md, section 6, reports the result.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy.optimize import minimize

from ordeval.stats.seeding import stream
from ordeval.tasks.quantification.measures import score_runs
from ordeval.tasks.quantification.simulate import latent_runs

MOMENTS = ("NMD", "DNKT")
#: Weights of the two squared relative differences: a profile that cannot reach both keeps its run's NMD.
WEIGHTS = np.array([10.0, 1.0])
#: Simulations of a profile per evaluation of the search (about 16 ms each). The mean of 20 has an sd of
#: 0.0002-0.001 in NMD and 0.001-0.005 in DNKT (the per-simulation sds of fit_diagnostics.md over sqrt(20)).
SIMS = 20
#: What the report gives of each moment: the real run's, the least-squares profile's, the matched profile's.
KINDS = ("real", "least_squares", "matched")
#: Bounds of the log factors on a profile's noise sd and on its concentration.
BOUNDS = np.log([[0.25, 4.0], [0.2, 20.0]])
#: The topic effects and the default floor: what a profile shares with the other systems of a field.
SHARED = ("topic_shift_sd", "topic_shift_slope", "topic_difficulty_sd", "interaction_sd", "floor")


def simulated_alone(gold: np.ndarray, profile: Mapping, shared: Mapping, sims: int, keys: tuple[str, str]) -> list:
    """The profile simulated alone on ``gold`` ``sims`` times (systems x topics x K each); simulation s draws
    from the streams (s, *keys[0]) and (s, *keys[1]) (:func:`ordeval.stats.seeding.stream`)."""
    return [
        latent_runs(stream(s, *keys[0]), stream(s, *keys[1]), gold, systems=1, profiles=[profile], **shared)
        for s in range(sims)
    ]


def moments(gold: np.ndarray, profile: Mapping, shared: Mapping, sims: int) -> np.ndarray:
    """Mean over ``sims`` simulations of the profile alone on ``gold`` of its mean NMD and mean DNKT."""
    values = []
    for runs in simulated_alone(gold, profile, shared, sims, (("fit", "moments-systems"), ("fit", "moments-runs"))):
        scores = score_runs(list(MOMENTS), runs, gold)
        values.append([scores[name].mean() for name in MOMENTS])
    return np.mean(values, axis=0)


def scaled(profile: Mapping, factors: np.ndarray, sd_range: tuple[float, float]) -> dict:
    """The profile with its noise sd and concentration multiplied by exp(factors) (within BOUNDS; the noise sd
    also within ``sd_range``, the least-squares fit's)."""
    sd_factor, concentration_factor = np.exp(np.clip(factors, BOUNDS[:, 0], BOUNDS[:, 1]))
    sd = np.clip(profile["noise_sd"] * sd_factor, *sd_range)
    return {
        **profile,
        "noise_sd": round(float(sd), 3),
        "concentration": round(float(profile["concentration"] * concentration_factor), 1),
    }


def match_profile(
    gold: np.ndarray, real: np.ndarray, profile: Mapping, shared: Mapping, sims: int, sd_range: tuple[float, float]
) -> dict:
    """One profile scaled to the real run's moments ``real`` (module docstring)."""

    def gap(factors: np.ndarray) -> float:
        return float(
            (WEIGHTS * ((moments(gold, scaled(profile, factors, sd_range), shared, sims) - real) / real) ** 2).sum()
        )

    start = np.array([[0.0, 0.0], [0.3, 0.0], [0.0, 0.7]])  # steps of a third in the sd, of double the concentration
    found = minimize(
        gap,
        start[0],
        method="Nelder-Mead",
        options={"initial_simplex": start, "xatol": 0.02, "fatol": 1e-5, "maxfev": 60},
    )
    return scaled(profile, found.x, sd_range)


def match(
    gold: np.ndarray, field, settings: Mapping, sd_range: tuple[float, float], sims: int = SIMS
) -> tuple[dict, list]:
    """``settings`` (the least-squares fit of ``field``, ``fit_simulators.QuantificationField``, to its runs on
    ``gold``) with every profile matched to its run's moments and its floor fitted again for its new noise sd
    and concentration (``field``'s noise sds become the matched ones); and per run the moments: the real
    run's, the least-squares profile's, the matched one's."""
    shared = {key: settings[key] for key in SHARED if key in settings}
    scores = score_runs(list(MOMENTS), field.estimates, gold)
    real = np.stack([scores[name].mean(axis=1) for name in MOMENTS], axis=1)  # runs x MOMENTS
    profiles = [
        match_profile(gold, real[r], profile, shared, sims, sd_range) for r, profile in enumerate(settings["profiles"])
    ]
    for run, profile in enumerate(profiles):
        field.parameters[run][0] = np.log(profile["noise_sd"])
    floors = field.floors(np.array([profile["concentration"] for profile in profiles]))
    profiles = [{**profile, "floor": float(floor)} for profile, floor in zip(profiles, floors, strict=True)]
    report = []
    for r, (before, after) in enumerate(zip(settings["profiles"], profiles, strict=True)):
        values = np.stack([real[r], moments(gold, before, shared, sims), moments(gold, after, shared, sims)])
        report.append(
            {
                name: {kind: round(float(values[k, m]), 4) for k, kind in enumerate(KINDS)}
                for m, name in enumerate(MOMENTS)
            }
        )
    return {**settings, "profiles": profiles}, report


def markdown(moments: Mapping[str, dict], sims: int) -> list[str]:
    """The lines of ``fit_simulators.md`` that show each run's moments: real, least squares, matched."""
    if not moments:
        return []
    lines = [
        "",
        f"Subtask E profiles matched to their runs' mean NMD and DNKT (mean of {sims} simulations of each "
        "profile alone on the real gold):",
        "",
        "| run | " + " | ".join(f"{m} real | {m} least squares | {m} matched" for m in MOMENTS) + " |",
        "|---|" + "---|---|---|" * len(MOMENTS),
    ]
    for run, values in moments.items():
        cells = " | ".join(
            f"{values[m]['real']:.4f} | {values[m]['least_squares']:.4f} | {values[m]['matched']:.4f}" for m in MOMENTS
        )
        lines.append(f"| {run} | {cells} |")
    return lines
