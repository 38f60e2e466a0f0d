"""The check and the report of ``fit_simulators.py``: fields simulated from the fitted settings on the real
gold, their official scores by rank beside the real runs' (``check``), and ``results/fit_simulators.md``."""

from __future__ import annotations

import fit_moments
import numpy as np
import real2016

from ordeval.stats.seeding import stream
from ordeval.tasks.classification import simulate as oc_simulate
from ordeval.tasks.classification.measures import REGISTRY as OC_MEASURES
from ordeval.tasks.classification.measures import confusion_matrices
from ordeval.tasks.quantification import simulate as oq_simulate


def emd(gold: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """SemEval's official subtask E score per run: sum_i |cumulative difference|, mean over topics."""
    return np.abs(np.cumsum(runs - gold[None], axis=-1)[..., :-1]).sum(axis=-1).mean(axis=-1)


def pooled_oc(gold, runs, item_topic, num_classes) -> tuple[np.ndarray, np.ndarray]:
    """Official subtask C scores per run: MAE^M and MAE^mu of one confusion matrix over all tweets."""
    pooled = confusion_matrices(gold, runs, np.zeros_like(item_topic), 1, num_classes)[:, 0]
    return OC_MEASURES["MAE_M"](pooled), OC_MEASURES["MAE_mu"](pooled)


def check(data_c, names_c, settings_c, data_e, names_e, settings_e, seeds: int) -> dict:
    """Order statistics of the official scores: real runs vs fields simulated on the real gold."""
    k = len(data_c.classes)
    real_mae_m, real_mae_mu = pooled_oc(data_c.gold, data_c.runs[names_c], data_c.item_topic, k)
    real_emd = emd(data_e.gold, data_e.runs[names_e])
    simulated: dict[str, list] = {"MAE_M": [], "MAE_mu": [], "EMD": []}
    for seed in range(seeds):
        runs = oc_simulate.simulate_runs(
            stream(seed, "check", "systems"),
            stream(seed, "check", "runs"),
            data_c.gold,
            data_c.item_topic,
            k,
            **oc_simulate.run_parameters({"systems": len(names_c), **settings_c, "profile_jitter": 0.0}, k),
        )
        mae_m, mae_mu = pooled_oc(data_c.gold, runs, data_c.item_topic, k)
        simulated["MAE_M"].append(np.sort(mae_m))
        simulated["MAE_mu"].append(np.sort(mae_mu))
        estimates = oq_simulate.simulate_runs(
            stream(seed, "check", "systems"),
            stream(seed, "check", "runs"),
            data_e.gold,
            systems=len(names_e),
            **settings_e,
        )
        simulated["EMD"].append(np.sort(emd(data_e.gold, estimates)))
    real = {"MAE_M": np.sort(real_mae_m), "MAE_mu": np.sort(real_mae_mu), "EMD": np.sort(real_emd)}
    return {
        key: {
            "real": [round(float(v), 3) for v in real[key]],
            "simulated_mean": [round(float(v), 3) for v in np.mean(values, axis=0)],
            "simulated_sd": [round(float(v), 3) for v in np.std(values, axis=0)],
        }
        for key, values in simulated.items()
    }


def markdown(result: dict) -> str:
    lines = [
        "# The SemEval simulators fitted to the real fields",
        "",
        f"Written by `benchmarks/fit_simulators.py` from the official SemEval-2016 Task 4 runs and gold and the "
        f"SemEval-2017 Task 4 gold ({real2016.SOURCE}); `config/config.yaml` uses these settings for "
        "Sem16T4C, Sem16T4E, Sem17T4C and Sem17T4E. How they are fitted: docs/methods.md, section 6.",
        "",
        "## Gold",
        "",
        "| gold | items_min | items_max | cut_points | location_sd | scale_sd | real: topics / tweets / tweets per "
        "topic / topics with an empty class |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, gold in result["gold"].items():
        real = gold["real"]
        lines.append(
            f"| {name} | {gold['items_min']} | {gold['items_max']} | {gold['cut_points']} | "
            f"{gold['location_sd']} | {gold['scale_sd']} | {real['topics']} / {real['items']} / "
            f"{real['sizes_min']}..{real['sizes_max']} / {real['topics_with_an_empty_class']} |"
        )
    seeds = result["check_seeds"]
    lines += [
        "",
        f"Check: per class (-2..2), the share of topics with no tweet of it and the sd of its proportion "
        f"over the topics, the real gold vs the fitted gold simulated {seeds} times (mean).",
        "",
        "| gold | empty, real | empty, simulated | sd, real | sd, simulated |",
        "|---|---|---|---|---|",
    ]
    for name, gold in result["gold"].items():
        real, simulated = gold["real"], gold["check"]
        lines.append(
            f"| {name} | {real['empty_share_per_class']} | {simulated['empty_share_per_class']} | "
            f"{real['sd_per_class']} | {simulated['sd_per_class']} |"
        )
    for subtask, key in (("C", "Sem16T4C"), ("E", "Sem16T4E")):
        settings = result["runs"][key]
        lines += ["", f"## Subtask {subtask} systems ({key})", ""]
        lines.append(", ".join(f"{k} {v}" for k, v in settings.items() if k not in ("profiles", "model", "fitted_to")))
        lines += [
            "",
            "| run | " + " | ".join(k for k in settings["profiles"][0]) + " |",
            "|---|" + "---|" * len(settings["profiles"][0]),
        ]
        for run, profile in zip(settings["fitted_to"], settings["profiles"], strict=True):
            lines.append(f"| {run} | " + " | ".join(str(profile.get(k, "-")) for k in settings["profiles"][0]) + " |")
    lines += fit_moments.markdown(result["moments"], result["moment_sims"])
    lines += [
        "",
        f"## Check: the official scores by rank, real vs {seeds} fields simulated on the real gold",
        "",
        "| score | rank | real | simulated mean | simulated sd |",
        "|---|---|---|---|---|",
    ]
    for score, values in result["check"].items():
        for rank, (real, mean, sd) in enumerate(
            zip(values["real"], values["simulated_mean"], values["simulated_sd"], strict=True), start=1
        ):
            lines.append(f"| {score} | {rank} | {real:.3f} | {mean:.3f} | {sd:.3f} |")
    return "\n".join(lines) + "\n"
