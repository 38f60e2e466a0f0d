"""How close the synthetic default data come to the published analyses: ``results/realism.{csv,md}``.

For each figure that the papers publish and the default configuration can give (the discriminative power
of the OQ measures, the share of p-values that are exactly 0, the agreement between the OC measure
groups, the consistency ranges, the DNKT agreement, the official SemEval spreads, the papers'
conclusions), the published value, the synthetic value and the difference.

The synthetic values come from the library directly, with the same functions, random streams and
settings as the pipeline's jobs (data built by the task, scored with every registered measure, the
randomised Tukey HSD of ``significance_pvalues``, the splits and taus of ``consistency_taus``, the
agreement of ``agreement_tables``), so ``--seed`` can report other seeds without a Snakemake run; with the
configuration's own seed the values equal those of ``results/<name>/tables``. ``--hsd-trials`` and
``--trials`` make a quicker, less exact check (the defaults are the configuration's).

    python benchmarks/realism.py [--config config/config.yaml] [--seed N ...] [--hsd-trials B] [--trials T]

Several ``--seed`` values: one column per seed; the first is the one the ``diff`` and ``ok`` columns use.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from _common import RESULTS

from ordeval import config as configuration
from ordeval.analysis.agreement import ranking_agreement
from ordeval.analysis.significance import discriminative_power, pairwise_significance, pooled_discriminative_power
from ordeval.seeding import stream
from ordeval.splits import condition_splits, split_taus
from ordeval.tasks import get_task

ROOT = Path(__file__).resolve().parent.parent
#: The six OQ measures of the papers' significance tables.
OQ_SIX = ("NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD")
#: The ACL 2021 paper's two groups of OC measures (its Section 5.1).
GROUP_A = ("alpha_ORD", "alpha_INT", "F1_M", "HMPR", "MAE_M", "kappa")
GROUP_B = ("Accuracy", "MAE_mu")

# Published figures: (key, source, published value or (low, high), target, note).
SAKAI_CIKM = "Sakai, CIKM 2021 LQ workshop (seed 001), Table 3"
SAKAI_ACL = "Sakai, ACL-IJCNLP 2021"
SAKAI_RNOD = "Sakai, RNOD variants and DNKT, arXiv 2204.07304 (seed 000)"
NAKOV16 = "Nakov et al., SemEval-2016 Task 4 overview"
ROSENTHAL17 = "Rosenthal et al., SemEval-2017 Task 4 overview"
PUBLISHED_DP = {"NMD": 42.0, "RSNOD": 46.0, "RNOD": 47.0, "NVD": 47.0, "RNSS": 46.1, "JSD": 46.7}


def build_and_score(name: str, spec: Mapping, data_root: str, seed: int):
    """The data set ``name`` built as ``prepare_data`` builds it, and its score stack (every measure)."""
    task = get_task(spec.get("task", "quantification"))
    data = task.build(name, spec, data_root, seed)
    scored = task.score(data, list(task.registry))
    return data, scored


def significance(stack, name: str, seed: int, trials: int, threads: int):
    return pairwise_significance(stack, trials, stream(seed, name, "significance"), threads)


def mean_taus(stack, name: str, seed: int, condition: str, trials: int, subset_size: int, kendall: str) -> dict:
    """Mean tau per measure over the splits of one consistency condition (trials with a NaN left out)."""
    rng = stream(seed, name, f"consistency-{condition}")
    splits = condition_splits(condition, len(stack.topics), trials, subset_size, rng)
    taus = split_taus(stack.values, splits, variant=kendall)
    complete = taus[~np.isnan(taus).any(axis=1)]
    return dict(zip(stack.measures, complete.mean(axis=0).tolist(), strict=True))


def agreement(stack, kendall: str, measures: Sequence[str] | None = None):
    measures = list(measures or stack.measures)
    sub = stack.subset(measures)
    return ranking_agreement(sub.means(), measures, sub.lower_is_better, variant=kendall)


def pooled_emd(gold: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """SemEval's official Subtask E measure per run: EMD between the gold and the estimated distribution,
    sum_i |cumulative difference at class i|, averaged over the topics."""
    return np.abs(np.cumsum(runs - gold[None], axis=-1)[..., :-1]).sum(axis=-1).mean(axis=-1)


def synthetic_values(config: Mapping, seed: int, hsd_trials: int, trials: int, threads: int = 2) -> dict:
    """Every synthetic figure of the realism table for one seed."""
    kendall = config.get("kendall", "b")
    subset = config["consistency"]["subset_size"]
    alpha = config["significance"]["alpha"]
    values: dict[str, object] = {}
    powers, zeros, total = [], 0, 0
    similarity: dict[str, list] = {}
    oq_consistency: dict[str, list] = {"half": [], "10v10": []}
    spreads = {}
    for name, spec in config["datasets"].items():
        data, scored = build_and_score(name, spec, config["data_root"], seed)
        stack = scored.stack
        sig = significance(stack, name, seed, hsd_trials, threads)
        zeros += int((sig.p_values == 0).sum())
        total += int(sig.p_values.size)
        task = spec.get("task", "quantification")
        if task == "quantification":
            powers.append(discriminative_power(sig.subset(list(OQ_SIX)), alpha))
            values[f"{name}: DP of the six (%)"] = float(powers[-1].percent.mean())
            values[f"{name}: p-values exactly 0 (%)"] = 100.0 * float((sig.p_values == 0).mean())
            six = agreement(stack, kendall, OQ_SIX)
            similarity.setdefault("six", []).append(six.taus)
            full = agreement(stack, kendall)
            similarity.setdefault("all", []).append(full.taus)
            similarity["all_measures"] = full.measures
            for condition in ("half", "10v10"):
                oq_consistency[condition].append(mean_taus(stack, name, seed, condition, trials, subset, kendall))
            if name.startswith("Sem1"):
                simulated = [i for i, run in enumerate(data.run_names) if run.startswith("SIM")]
                emd = pooled_emd(data.gold, data.runs[simulated])
                spreads[name] = (float(emd.min()), float(emd.max()))
            if name == "Sem16T4E":
                half = oq_consistency["half"][-1]
                small = oq_consistency["10v10"][-1]
                values["Sem16T4E half range"] = (min(half.values()), max(half.values()))
                values["Sem16T4E 10v10 range"] = (min(small.values()), max(small.values()))
                i = full.measures.index("DNKT")
                others = [j for j, m in enumerate(full.measures) if j != i and not m.startswith("DNKT_")]
                values["Sem16T4E DNKT pairs"] = (float(full.taus[i, others].min()), float(full.taus[i, others].max()))
        else:
            simulated = [i for i, run in enumerate(data.run_names) if run.startswith("SIM")]
            mae = scored.extras["pooled"].column("MAE_M", float)[simulated]  # one confusion matrix per run
            spreads[name] = (float(mae.min()), float(mae.max()))
            if name == "Sem16T4C":
                oc = agreement(stack, kendall)
                a = [oc.measures.index(m) for m in GROUP_A]
                b = [oc.measures.index(m) for m in GROUP_B]
                between = oc.taus[np.ix_(a, b)]
                values["Sem16T4C A-B mean tau"] = float(between.mean())
                upper = oc.taus[np.triu_indices(len(oc.measures), k=1)]
                values["Sem16T4C tau range"] = (float(upper.min()), float(upper.max()))
                small = mean_taus(stack, name, seed, "10v10", trials, subset, kendall)
                values["Sem16T4C 10v10 range"] = (min(small.values()), max(small.values()))
    pooled = pooled_discriminative_power(powers)
    for measure, percent in zip(pooled.measures, pooled.percent, strict=True):
        values[f"DP {measure}"] = float(percent)
    values["p-values exactly 0 (%)"] = 100.0 * zeros / total
    # conclusions
    measures = similarity["all_measures"]
    mean_all = np.mean(similarity["all"], axis=0)
    base = [i for i, m in enumerate(measures) if not m.startswith("DNKT_")]
    avg = {measures[i]: float(np.mean([mean_all[i, j] for j in base if j != i])) for i in base}
    values["DNKT least similar"] = min(avg, key=avg.get) == "DNKT"
    consistency = {m: np.mean([c[m] for cond in oq_consistency.values() for c in cond]) for m in measures}
    base_consistency = {m: consistency[m] for m in (measures[i] for i in base)}
    values["DNKT least consistent"] = min(base_consistency, key=base_consistency.get) == "DNKT"
    ranked = sorted(base_consistency, key=base_consistency.get)
    values["least consistent OQ measures"] = ", ".join(f"{m} {base_consistency[m]:.3f}" for m in ranked[:3])
    ranked = sorted(avg, key=avg.get)
    values["least similar OQ measures"] = ", ".join(f"{m} {avg[m]:.3f}" for m in ranked[:3])
    mean_six = np.mean(similarity["six"], axis=0)
    six_avg = [float(np.mean(np.delete(mean_six[i], i))) for i in range(len(OQ_SIX))]
    values["NMD an outlier"] = int(np.argmin(six_avg)) == 0
    values["NMD mean tau with the other five"] = six_avg[0]
    values["others' mean tau (min)"] = min(six_avg[1:])
    for name, (low, high) in spreads.items():
        values[f"{name} spread"] = (low, high)
    return values
