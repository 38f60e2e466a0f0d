"""How faithful the subtask E simulator is, run by run: ``results/fit_diagnostics.{json,md}``.

Two checks of the Sem16T4E systems of ``config/config.yaml`` (fitted by ``fit_simulators.py``) against the
official SemEval-2016 Task 4 subtask E runs (``real2016``), both on the real gold, with no profile jitter:

* **per run**: each profile simulated on the real gold (``--sims`` times) beside its real run: the mean over
  the topics of NMD, DNKT, DNKT_NMD, JSD and RSNOD, the share of topics where DNKT is 0 (the run orders the
  classes exactly as the gold does) and the share of empty estimates (below 1e-9). Where a simulated run's
  DNKT is off its real run's, the rankings by the DNKT measures differ from the real field's;
* **recovery**: ``--fields`` whole fields simulated from the settings on the real gold and fitted again by
  ``fit_simulators.fit_quantification`` (least squares, then matched to the runs' NMD and DNKT,
  ``fit_moments.py``): per profile, the mean and sd over the fields of the refitted noise
  sd and concentration (log ratio to the simulated one) and cut points (difference in noise sds). A mean far
  from 0 is a bias of the fit; the sd is how uncertain a fitted profile is.

docs/methods.md, section 6, reports what these show.

    python benchmarks/fit_diagnostics.py [--data-root ../shared/data/raw] [--sims 20] [--fields 16]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import real2016
from _common import RESULTS
from fit_moments import SHARED, simulated_alone
from fit_simulators import fit_quantification

from ordeval.stats.seeding import stream
from ordeval.tasks import get_task, latent
from ordeval.tasks.quantification.simulate import latent_runs
from ordeval.workflow import config as configuration

CONFIG = Path(__file__).resolve().parent.parent / "config" / "config.yaml"
MEASURES = ("NMD", "DNKT", "DNKT_NMD", "JSD", "RSNOD")
COLUMNS = (*MEASURES, "DNKT 0 (share of topics)", "empty (share of estimates)")
EMPTY = 1e-9


def simulator_settings(config_path: Path = CONFIG) -> tuple[list, dict]:
    """The Sem16T4E simulated systems of the configuration: their profiles, and the settings they share (the
    topic effects and the default floor)."""
    runs = configuration.load(config_path)["datasets"]["Sem16T4E"]["runs"]
    simulated = next(run for run in runs if run.get("type") == "simulate")
    return simulated["profiles"], {key: simulated[key] for key in SHARED if key in simulated}


def run_statistics(data, runs: np.ndarray) -> np.ndarray:
    """Per run (columns): the mean of each of MEASURES over the topics, the share of topics with DNKT 0 and
    the share of empty estimates; rows in the order of COLUMNS."""
    task = get_task("quantification")
    field = dataclasses.replace(data, runs=runs, run_names=[f"R{i}" for i in range(len(runs))])
    values = task.score(field, list(MEASURES)).stack.values  # measures x topics x runs
    return np.vstack(
        [values.mean(axis=1), (values[MEASURES.index("DNKT")] == 0).mean(axis=0), (runs < EMPTY).mean(axis=(1, 2))]
    )


def per_run(data, names: Sequence[int], profiles: list, shared: dict, sims: int) -> dict:
    """Each profile simulated alone on the real gold ``sims`` times beside its real run (the profiles share
    the random streams: only each run's own statistics are compared)."""
    simulated = []
    for profile in profiles:
        fields = simulated_alone(
            data.gold, profile, shared, sims, (("diagnostics", "systems"), ("diagnostics", "runs"))
        )
        simulated.append([run_statistics(data, runs)[:, 0] for runs in fields])
    values = np.array(simulated)  # profiles x sims x columns
    real = run_statistics(data, data.runs[list(names)])
    return {
        data.run_names[name]: {
            column: {
                "real": round(float(real[c, r]), 4),
                "simulated": round(float(values[r, :, c].mean()), 4),
                "sd": round(float(values[r, :, c].std()), 4),
            }
            for c, column in enumerate(COLUMNS)
        }
        for r, name in enumerate(names)
    }


def recovery(data, names: Sequence[int], profiles: list, shared: dict, fields: int) -> dict:
    """Whole fields simulated from the settings on the real gold and fitted again, profile by profile."""
    sd = np.array([p["noise_sd"] for p in profiles])
    edges = np.array([p["edges"] for p in profiles], dtype=float)
    concentration = np.array([p["concentration"] for p in profiles])
    found = []
    for f in range(fields):
        # latent_runs deals the profiles in an order drawn from its system stream; the same draw on an equal
        # stream tells which system took which profile
        dealt = latent.assign_profiles(stream(f, "diagnostics", "recovery-systems"), profiles, len(profiles), 0.0)
        runs = latent_runs(
            stream(f, "diagnostics", "recovery-systems"),
            stream(f, "diagnostics", "recovery-runs"),
            data.gold,
            systems=len(profiles),
            profiles=profiles,
            **shared,
        )
        order = [
            int(np.flatnonzero((sd == s) & (edges == e).all(axis=1))[0])
            for s, e in zip(dealt.sd, dealt.edges, strict=True)
        ]
        by_profile = np.empty_like(runs)
        by_profile[order] = runs
        refit, _, _ = fit_quantification(dataclasses.replace(data, runs=by_profile), range(len(profiles)))
        fitted = refit["profiles"]
        found.append(
            (
                np.log([p["noise_sd"] for p in fitted] / sd),
                np.log([p["concentration"] for p in fitted] / concentration),
                (np.array([p["edges"] for p in fitted]) - edges) / sd[:, None],
            )
        )
    log_sd, log_concentration, edge = (np.array(part) for part in zip(*found, strict=True))

    def summary(values: np.ndarray) -> dict:
        return {"mean": np.round(values.mean(axis=0), 3).tolist(), "sd": np.round(values.std(axis=0), 3).tolist()}

    return {
        data.run_names[name]: {
            "log noise sd": {k: v[r] for k, v in summary(log_sd).items()},
            "log concentration": {k: v[r] for k, v in summary(log_concentration).items()},
            "cut points (noise sds)": {k: v[r] for k, v in summary(edge).items()},
        }
        for r, name in enumerate(names)
    }


def markdown(result: dict) -> str:
    lines = [
        "# Subtask E simulator, run by run",
        "",
        "Profiles of `config/config.yaml` (Sem16T4E), simulated on the real SemEval-2016 subtask E gold with "
        "no jitter; real: the official runs (Nakov et al., SemEval-2016 Task 4 overview). Written by "
        "`benchmarks/fit_diagnostics.py`.",
        "",
        f"## Per run: real / simulated (mean of {result['sims']} simulations, sd)",
        "",
        "| run | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
    ]
    for run, columns in result["per_run"].items():
        cells = [f"{v['real']:.3f} / {v['simulated']:.3f} ({v['sd']:.3f})" for v in columns.values()]
        lines.append(f"| {run} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"## Recovery: {result['fields']} simulated fields fitted again (mean, sd over the fields)",
        "",
        "| run | log noise sd | log concentration | cut points (noise sds) |",
        "|---|---|---|---|",
    ]
    for run, parts in result["recovery"].items():
        cells = []
        for part in parts.values():
            mean, sd = part["mean"], part["sd"]
            if isinstance(mean, list):
                cells.append(", ".join(f"{m:+.2f} ({s:.2f})" for m, s in zip(mean, sd, strict=True)))
            else:
                cells.append(f"{mean:+.3f} ({sd:.3f})")
        lines.append(f"| {run} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-root", default=str(real2016.SHARED_RAW), help="the shared raw data folder")
    parser.add_argument("--sims", type=int, default=20, help="simulations of each profile for the per-run table")
    parser.add_argument("--fields", type=int, default=16, help="simulated fields fitted again (0: no recovery)")
    args = parser.parse_args(argv)
    data = real2016.load(args.data_root)["Sem16T4E"]
    names = real2016.fitted_runs(data, "Sem16T4E")
    profiles, shared = simulator_settings()
    if len(profiles) != len(names):
        raise SystemExit(f"{CONFIG}: {len(profiles)} Sem16T4E profiles for {len(names)} official runs")
    result = {
        "sims": args.sims,
        "fields": args.fields,
        "per_run": per_run(data, names, profiles, shared, args.sims),
        "recovery": recovery(data, names, profiles, shared, args.fields) if args.fields else {},
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "fit_diagnostics.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    text = markdown(result)
    (RESULTS / "fit_diagnostics.md").write_text(text, encoding="utf-8")
    print(text)
    gaps = {
        column: max(abs(v[column]["simulated"] - v[column]["real"]) for v in result["per_run"].values())
        for column in ("NMD", "DNKT", "DNKT 0 (share of topics)")
    }
    print(
        f"runs={len(names)} largest_nmd_gap={gaps['NMD']:.4f} largest_dnkt_gap={gaps['DNKT']:.4f} "
        f"largest_dnkt0_gap={gaps['DNKT 0 (share of topics)']:.4f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
