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


def published_rows() -> list[tuple]:
    """(figure, source, published, target, how the synthetic value is compared)."""
    rows = [
        (f"DP {m} (%)", SAKAI_CIKM, value, f"within 10 of {value}", ("DP " + m, "within", 10.0))
        for m, value in PUBLISHED_DP.items()
    ]
    rows += [
        ("p-values exactly 0 (%), all data sets and measures", "issue 28 target", None, "<= 35",
         ("p-values exactly 0 (%)", "at_most", 35.0)),
        ("Sem16T4C mean tau, group A vs group B", f"{SAKAI_ACL}, Table 2 and Section 5.1", -0.04, "<= 0.25",
         ("Sem16T4C A-B mean tau", "at_most", 0.25)),
        ("Sem16T4C tau range, all OC measure pairs", f"{SAKAI_ACL}, Table 2", (-0.15, 1.00), "-",
         ("Sem16T4C tau range", None, None)),
        ("Sem16T4C 10 vs 10 consistency range", f"{SAKAI_ACL}, Table 3", (0.595, 0.872), "lowest <= 0.70",
         ("Sem16T4C 10v10 range", "low_at_most", 0.70)),
        ("Sem16T4E half-split consistency range", f"{SAKAI_RNOD}, Table 25", (0.788, 0.934), "within 0.75..0.96",
         ("Sem16T4E half range", "inside", (0.75, 0.96))),
        ("Sem16T4E 10 vs 10 consistency range", f"{SAKAI_RNOD}, Table 25", (0.663, 0.771), "lowest <= 0.72",
         ("Sem16T4E 10v10 range", "low_at_most", 0.72)),
        ("Sem16T4E tau, DNKT vs the other measures", f"{SAKAI_RNOD}, Table 3", (0.55, 0.67), "-",
         ("Sem16T4E DNKT pairs", None, None)),
        ("DNKT the least similar OQ measure", SAKAI_RNOD, True, "kept", ("DNKT least similar", "equal", True)),
        ("DNKT the least consistent OQ measure", SAKAI_RNOD, True, "kept", ("DNKT least consistent", "equal", True)),
        ("NMD an outlier among the six OQ measures", f"{SAKAI_ACL}; {SAKAI_CIKM}", True, "kept",
         ("NMD an outlier", "equal", True)),
        ("Sem16T4C simulated runs' MAE^M (best..worst)", f"{NAKOV16} (TwiSE 0.719 .. pkudblab 1.697)",
         (0.719, 1.697), "each end within 15%", ("Sem16T4C spread", "ends", 0.15)),
        ("Sem16T4E simulated runs' EMD (best..worst)", f"{NAKOV16} (QCRI 0.243 .. PotTS 0.818)",
         (0.243, 0.818), "each end within 15%", ("Sem16T4E spread", "ends", 0.15)),
    ]  # fmt: skip
    return rows


def _text(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return f"{value[0]:.3f}..{value[1]:.3f}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def check(value, rule, bound, published) -> bool | None:
    """Whether ``value`` meets its target (None: no target)."""
    if rule is None:
        return None
    if rule == "within":
        return abs(value - published) <= bound
    if rule == "at_most":
        return value <= bound
    if rule == "low_at_most":
        return value[0] <= bound
    if rule == "inside":
        return bound[0] <= value[0] and value[1] <= bound[1]
    if rule == "equal":
        return value == bound
    if rule == "ends":
        return all(abs(v - p) <= bound * p for v, p in zip(value, published, strict=True))
    raise ValueError(rule)


def difference(value, published):
    if isinstance(value, bool) or published is None or isinstance(published, bool):
        return None
    if isinstance(value, tuple):
        return (value[0] - published[0], value[1] - published[1])
    return value - published


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "config" / "config.yaml"))
    parser.add_argument("--seed", type=int, action="append", help="master seed (repeatable; default the config's)")
    parser.add_argument("--hsd-trials", type=int, help="randomised Tukey HSD trials (default the config's)")
    parser.add_argument("--trials", type=int, help="consistency splits (default the config's)")
    args = parser.parse_args(argv)
    config = configuration.load(args.config)
    seeds = args.seed or [config["seed"]]
    hsd = args.hsd_trials or config["significance"]["hsd_trials"]
    trials = args.trials or config["consistency"]["trials"]
    per_seed = [synthetic_values(config, seed, hsd, trials, config["threads"]) for seed in seeds]
    header = ["figure", "source", "published", "target", *[f"seed {s}" for s in seeds], "difference", "ok"]
    header += [f"ok seed {s}" for s in seeds[1:]]
    rows, met, targets = [], 0, 0
    for figure, source, published, target, (key, rule, bound) in published_rows():
        values = [v[key] for v in per_seed]
        oks = [check(v, rule, bound, published) for v in values]
        targets += oks[0] is not None
        met += oks[0] is True
        rows.append([figure, source, _text(published), target, *map(_text, values),
                     _text(difference(values[0], published)), _text(oks[0]), *map(_text, oks[1:])])  # fmt: skip
    RESULTS.mkdir(parents=True, exist_ok=True)
    with open(RESULTS / "realism.csv", "w", encoding="utf-8", newline="") as handle:
        import csv

        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    lines = [
        "# Realism of the synthetic default data",
        "",
        f"Configuration `{Path(args.config).name}`, seeds {', '.join(map(str, seeds))}; randomised Tukey HSD "
        f"B = {hsd}, {trials} consistency splits; values computed by `benchmarks/realism.py` (library calls "
        "with the pipeline's streams). `difference` and `ok` are for the first seed.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *["| " + " | ".join(row) + " |" for row in rows],
        "",
        "Details (first seed): "
        + "; ".join(f"{k}: {_text(v)}" for k, v in per_seed[0].items() if ":" in k or "least" in k or "spread" in k),
        "",
    ]
    (RESULTS / "realism.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    print(f"seed={seeds[0]} targets={targets} met={met}")  # the benchmarks' last line: key=value pairs
    return 0


if __name__ == "__main__":
    sys.exit(main())
