"""How close the synthetic default comes to the published analyses and to the real SemEval-2016 fields, over
many seeds: ``results/realism.{csv,md}`` (and every seed's values in ``results/realism_seeds.csv``).

For each target: the published figure (cited by author, venue and table), the same figure on the real
SemEval-2016 fields where it concerns them (the official runs, read as ``config/replication.yaml`` reads
them, from ``--data-root``; computed here with the same functions), and over the seeds the median, the 5-95%
band and the share of seeds that meet the target. Targets are two-sided: both ends of a published range, or
a band around a single value.

The synthetic values come from the library directly, with the pipeline's random streams and settings (data
built by the task and scored with its default measures, the randomised Tukey HSD of ``significance_pvalues``,
the splits and taus of ``consistency_taus``, the agreement of ``agreement_tables``), computed only for what the
targets need: the HSD for the six OQ measures of the papers' significance tables, and for Sem16T4C.
``--hsd-trials`` and ``--trials`` make a quicker, less exact check.

    python benchmarks/realism.py [--seeds 100] [--first-seed 100] [--seed N ...] [--hsd-trials B] [--trials T]
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import real2016
from _common import RESULTS
from realism_targets import (
    CLUSTER,
    GROUP_A,
    GROUP_B,
    OQ_SIX,
    TABLE3,
    Target,
    consistency_measures,
    dp_percent,
    targets,
)
from scipy.stats import kendalltau

from ordeval.analysis.agreement import ranking_agreement
from ordeval.analysis.significance import discriminative_power, pairwise_significance, pooled_discriminative_power
from ordeval.stats.seeding import stream
from ordeval.stats.splits import condition_splits, split_taus
from ordeval.tasks import get_task
from ordeval.tasks.classification.measures import REGISTRY as OC_MEASURES
from ordeval.tasks.classification.measures import confusion_matrices
from ordeval.tasks.sources import source_paths
from ordeval.workflow import config as configuration

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- computing the figures


@dataclass
class Settings:
    hsd_trials: int
    trials: int
    subset: int
    alpha: float
    kendall: str
    threads: int


def build_and_score(name: str, spec: Mapping, data_root, seed: int):
    """The data set ``name`` built as ``prepare_data`` builds it, and its score stack (default measures)."""
    task = get_task(spec.get("task", "quantification"))
    data = task.build(name, spec, source_paths(name, spec, data_root), seed)
    return data, task.score(data, task.registry.default_names()).stack


def mean_taus(stack, name: str, seed: int, condition: str, s: Settings) -> dict[str, float]:
    """Mean tau per measure over the splits of one consistency condition (trials with a NaN left out)."""
    splits = condition_splits(
        condition, len(stack.topics), s.trials, s.subset, stream(seed, name, f"consistency-{condition}")
    )
    taus = split_taus(stack.values, splits, variant=s.kendall)
    complete = taus[~np.isnan(taus).any(axis=1)]
    return dict(zip(stack.measures, complete.mean(axis=0).tolist(), strict=True))


def consistency_range(stack, name: str, seed: int, condition: str, s: Settings) -> tuple[float, float]:
    """The lowest and highest mean tau of one condition over the measures the papers print for ``name``."""
    taus = mean_taus(stack.subset(list(consistency_measures(name))), name, seed, condition, s)
    return (min(taus.values()), max(taus.values()))


def agreement(stack, kendall: str, measures: Sequence[str] | None = None):
    sub = stack.subset(list(measures or stack.measures))
    return ranking_agreement(sub.means(), sub.measures, sub.lower_is_better, variant=kendall)


def group_agreement(stack, kendall: str) -> float:
    oc = agreement(stack, kendall)
    return float(
        oc.taus[np.ix_([oc.measures.index(m) for m in GROUP_A], [oc.measures.index(m) for m in GROUP_B])].mean()
    )


def significance(stack, name: str, seed: int, s: Settings, measures: Sequence[str] | None = None):
    sub = stack.subset(list(measures)) if measures else stack
    return pairwise_significance(sub, s.hsd_trials, stream(seed, name, "significance"), s.threads)


def official_emd(gold: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """SemEval's subtask E score per run and topic: sum_i |cumulative difference| (runs x topics)."""
    return np.abs(np.cumsum(runs - gold[None], axis=-1)[..., :-1]).sum(axis=-1)


def official_oc(data, runs: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """SemEval's subtask C scores per run: MAE^M and MAE^mu of one confusion matrix over all tweets."""
    pooled = confusion_matrices(data.gold, data.runs[list(runs)], np.zeros_like(data.item_topic), 1, len(data.classes))
    return OC_MEASURES["MAE_M"](pooled[:, 0]), OC_MEASURES["MAE_mu"](pooled[:, 0])


def mean_correlation(scores: np.ndarray) -> float:
    """Mean Pearson correlation over the pairs of runs of their per-topic scores (runs x topics)."""
    varying = scores[np.nanstd(scores, axis=1) > 0]
    return float(np.corrcoef(varying)[np.triu_indices(len(varying), k=1)].mean())


def sem16e_values(data, stack, runs: Sequence[int], sig, seed: int, s: Settings) -> dict:
    """The figures of a Sem16T4E field (simulated or real); ``runs``: its systems; ``sig``: HSD of the six."""
    values: dict[str, object] = {
        "Sem16T4E DP": float(discriminative_power(sig, s.alpha).percent.mean()),
        "Sem16T4E zeros": 100.0 * float((sig.p_values == 0).mean()),
        "Sem16T4E half": consistency_range(stack, "Sem16T4E", seed, "half", s),
        "Sem16T4E 10v10": consistency_range(stack, "Sem16T4E", seed, "10v10", s),
    }
    table3 = agreement(stack, s.kendall, TABLE3)
    dnkt = np.delete(table3.taus[TABLE3.index("DNKT")], TABLE3.index("DNKT"))
    values["Sem16T4E DNKT pairs"] = (float(dnkt.min()), float(dnkt.max()))
    values["Sem16T4E identical pairs"] = int((table3.taus[np.triu_indices(len(TABLE3), k=1)] > 1 - 1e-9).sum())
    emd = official_emd(data.gold, data.runs[list(runs)])
    means = emd.mean(axis=1)
    values["Sem16T4E EMD by rank"] = tuple(np.sort(means).tolist())
    values["Sem16T4E cluster"] = int(((means >= CLUSTER[0]) & (means <= CLUSTER[1])).sum())
    values["Sem16T4E topic sd"] = float(np.median(emd.std(axis=1)))
    values["Sem16T4E closeness"] = mean_correlation(emd)
    empty = 100.0 * (data.gold == 0).mean(axis=0)
    values["Sem16 gold empty lowest"], values["Sem16 gold empty highest"] = float(empty[0]), float(empty[-1])
    return values


def sem16c_values(data, stack, runs: Sequence[int], seed: int, s: Settings) -> dict:
    """The figures of a Sem16T4C field (simulated or real); ``runs``: its systems."""
    sig = significance(stack, "Sem16T4C", seed, s)
    oc = agreement(stack, s.kendall)
    upper = oc.taus[np.triu_indices(len(oc.measures), k=1)]
    macro, micro = official_oc(data, runs)
    per_topic = stack.matrix("MAE_M").T[list(runs)]  # runs x topics
    return {
        "Sem16T4C zeros": 100.0 * float((sig.p_values == 0).mean()),
        "Sem16T4C A-B": group_agreement(stack, s.kendall),
        "Sem16T4C tau range": (float(upper.min()), float(upper.max())),
        "Sem16T4C half": consistency_range(stack, "Sem16T4C", seed, "half", s),
        "Sem16T4C 10v10": consistency_range(stack, "Sem16T4C", seed, "10v10", s),
        "Sem16T4C MAE_M by rank": tuple(np.sort(macro).tolist()),
        "Sem16T4C MAE_mu by rank": tuple(np.sort(micro).tolist()),
        "Sem16T4C micro-macro": int(((micro < 0.65) & (macro > 1.0)).sum()),
        "Sem16T4C topic sd": float(np.median(np.nanstd(per_topic, axis=1))),
        "Sem16T4C closeness": mean_correlation(per_topic),
    }


def synthetic_values(config: Mapping, seed: int, s: Settings) -> dict:
    """Every synthetic figure for one seed."""
    values: dict[str, object] = {}
    powers, similarity, consistency = [], [], []
    for name, spec in config["datasets"].items():
        data, stack = build_and_score(name, spec, config["data_root"], seed)
        simulated = [i for i, run in enumerate(data.run_names) if run.startswith("SIM")]
        if spec.get("task", "quantification") == "quantification":
            sig = significance(stack, name, seed, s, OQ_SIX)
            powers.append(discriminative_power(sig, s.alpha))
            full = agreement(stack, s.kendall)
            similarity.append((full.measures, full.taus))
            consistency += [mean_taus(stack, name, seed, condition, s) for condition in ("half", "10v10")]
            if name == "Sem16T4E":
                values.update(sem16e_values(data, stack, simulated, sig, seed, s))
        elif name == "Sem16T4C":
            values.update(sem16c_values(data, stack, simulated, seed, s))
        elif name == "Sem17T4C":
            values["Sem17T4C A-B"] = group_agreement(stack, s.kendall)
        if name in ("Sem17T4C", "Sem17T4E"):
            for condition in ("half", "10v10"):
                values[f"{name} {condition}"] = consistency_range(stack, name, seed, condition, s)
    pooled = pooled_discriminative_power(powers)
    for measure, percent in zip(pooled.measures, pooled.percent, strict=True):
        values[f"DP {measure}"] = float(percent)
    published_dp = dp_percent("pooled")
    values["DP order"] = float(kendalltau(pooled.percent, [published_dp[m] for m in pooled.measures]).statistic)
    measures = similarity[0][0]
    mean_similarity = np.mean([taus for _, taus in similarity], axis=0)
    base = [i for i, m in enumerate(measures) if not m.startswith("DNKT_")]
    average = {measures[i]: float(np.mean([mean_similarity[i, j] for j in base if j != i])) for i in base}
    values["DNKT least similar"] = min(average, key=average.get) == "DNKT"
    mean_consistency = {measures[i]: float(np.mean([c[measures[i]] for c in consistency])) for i in base}
    values["DNKT least consistent"] = min(mean_consistency, key=mean_consistency.get) == "DNKT"
    six = [measures.index(m) for m in OQ_SIX]
    six_taus = mean_similarity[np.ix_(six, six)]
    values["NMD outlier"] = int(np.argmin([np.mean(np.delete(six_taus[i], i)) for i in range(len(OQ_SIX))])) == 0
    return values


def real_values(data_root: Path, seed: int, s: Settings) -> dict:
    """The figures of the real 2016 fields (empty where the official runs are not at hand)."""
    try:
        fields = real2016.load(data_root)
    except FileNotFoundError as error:
        print(f"no real 2016 fields: {error}", file=sys.stderr)
        return {}
    values = {}
    for name, data in fields.items():
        task = get_task("classification" if name == "Sem16T4C" else "quantification")
        stack = task.score(data, task.registry.default_names()).stack
        runs = real2016.fitted_runs(data, name)
        if name == "Sem16T4E":
            values.update(sem16e_values(data, stack, runs, significance(stack, name, seed, s, OQ_SIX), seed, s))
        else:
            values.update(sem16c_values(data, stack, runs, seed, s))
    return values


def real_resampled(data_root: Path, seed: int, s: Settings, resamples: int) -> dict[str, list]:
    """The real fields' figures that need no HSD, on ``resamples`` bootstrap samples of their topics: how
    much the real figure itself moves with the choice of topics (the scale of a target's tolerance)."""
    try:
        fields = real2016.load(data_root)
    except FileNotFoundError:
        return {}
    rng = stream(seed, "realism", "bootstrap")
    values: dict[str, list] = {}
    for name, data in fields.items():
        task = get_task("classification" if name == "Sem16T4C" else "quantification")
        stack = task.score(data, task.registry.default_names()).stack
        for _ in range(resamples):
            topics = rng.integers(0, len(stack.topics), size=len(stack.topics))
            sample = dataclasses.replace(stack, values=stack.values[:, topics, :])
            found = {
                f"{name} {condition}": consistency_range(sample, name, seed, condition, s)
                for condition in ("half", "10v10")
            }
            if name == "Sem16T4E":
                table3 = agreement(sample, s.kendall, TABLE3)
                dnkt = np.delete(table3.taus[TABLE3.index("DNKT")], TABLE3.index("DNKT"))
                found["Sem16T4E DNKT pairs"] = (float(dnkt.min()), float(dnkt.max()))
                found["Sem16T4E identical pairs"] = int(
                    (table3.taus[np.triu_indices(len(TABLE3), k=1)] > 1 - 1e-9).sum()
                )
            else:
                oc = agreement(sample, s.kendall)
                upper = oc.taus[np.triu_indices(len(oc.measures), k=1)]
                found["Sem16T4C A-B"] = group_agreement(sample, s.kendall)
                found["Sem16T4C tau range"] = (float(upper.min()), float(upper.max()))
            for key, value in found.items():
                values.setdefault(key, []).append(value)
    return values


# --------------------------------------------------------------------------- report


def text(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]:.3f}..{value[1]:.3f}"
    if isinstance(value, tuple):
        return f"{min(value):.3f}..{max(value):.3f}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def band(values: list) -> tuple[str, str]:
    """(median, 5-95% band) of the seeds' values: numbers, (low, high) pairs (one band per end) or booleans."""
    values = [v for v in values if v is not None]
    if not values:
        return "-", "-"
    if isinstance(values[0], (bool, np.bool_)):
        return f"{100 * np.mean(values):.0f}% yes", "-"
    array = np.array(values, dtype=float)
    median, low, high = np.median(array, axis=0), np.percentile(array, 5, axis=0), np.percentile(array, 95, axis=0)
    if array.ndim == 2:
        return (f"{median[0]:.3f}..{median[1]:.3f}", f"low {low[0]:.3f}-{high[0]:.3f}; high {low[1]:.3f}-{high[1]:.3f}")
    return f"{median:.3f}", f"{low:.3f}-{high:.3f}"


def summary(all_targets: list[Target], per_seed: dict[int, dict | None], real: dict, resampled: dict) -> list[dict]:
    """Per target: the published figure, the real field's, the median and band over the seeds, the share met."""
    result = []
    for target in all_targets:
        shown, met = [], []
        for values in per_seed.values():
            if values is None:  # the seed crashed: no target met
                met.append(False)
                continue
            shown.append(target.shown(values[target.key], real))
            met.append(bool(target.met(values[target.key], real)))
        median, spread = band(shown)
        comparable = target.met(next(v for v in per_seed.values() if v is not None)[target.key], real) is not None
        result.append(
            {
                "figure": target.figure,
                "source": target.source,
                "published": text(target.published),
                "real_2016": text(real.get(target.key)),
                "real_resampled_5_95": band(resampled.get(target.key, []))[1],
                "target": target.target,
                "median": median,
                "band_5_95": spread,
                "met_percent": f"{100 * np.mean(met):.0f}" if comparable else "-",
                "seeds": len(met),
            }
        )
    return result


def write(rows_: list[dict], per_seed: dict[int, dict | None], header: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    with open(RESULTS / "realism.csv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows_[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows_)
    with open(RESULTS / "realism_seeds.csv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["seed", "figure", "value"])
        for seed, values in per_seed.items():
            for key, value in (values or {"crashed": True}).items():
                writer.writerow(
                    [
                        seed,
                        key,
                        text(value)
                        if not isinstance(value, tuple) or len(value) == 2
                        else " ".join(f"{v:.4f}" for v in value),
                    ]
                )
    names = {
        "figure": "figure",
        "source": "source",
        "published": "published",
        "real_2016": "real 2016 field",
        "real_resampled_5_95": "real field, topics resampled (5-95%)",
        "target": "target",
        "median": "median",
        "band_5_95": "5-95% of seeds",
        "met_percent": "seeds met (%)",
    }
    lines = [header, "", "| " + " | ".join(names.values()) + " |", "|" + "---|" * len(names)]
    lines += ["| " + " | ".join(str(row[key]) for key in names) + " |" for row in rows_]
    (RESULTS / "realism.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(ROOT / "config" / "config.yaml"))
    parser.add_argument("--seeds", type=int, default=100, help="number of seeds, from --first-seed on")
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--seed", type=int, action="append", help="these seeds instead (repeatable)")
    parser.add_argument("--hsd-trials", type=int, help="randomised Tukey HSD trials (default the config's)")
    parser.add_argument("--trials", type=int, help="consistency splits (default the config's)")
    parser.add_argument("--data-root", default=str(real2016.SHARED_RAW), help="where the official 2016 runs are")
    parser.add_argument("--resamples", type=int, default=100, help="bootstrap samples of the real fields' topics")
    args = parser.parse_args(argv)
    config = configuration.load(args.config)
    seeds = args.seed or list(range(args.first_seed, args.first_seed + args.seeds))
    settings = Settings(
        hsd_trials=args.hsd_trials or config["significance"]["hsd_trials"],
        trials=args.trials or config["consistency"]["trials"],
        subset=config["consistency"]["subset_size"],
        alpha=config["significance"]["alpha"],
        kendall=config.get("kendall", "b"),
        threads=config["threads"],
    )
    real = real_values(Path(args.data_root), config["seed"], settings)
    resampled = real_resampled(Path(args.data_root), config["seed"], settings, args.resamples)
    per_seed: dict[int, dict | None] = {}
    for seed in seeds:
        start = time.perf_counter()
        try:
            per_seed[seed] = synthetic_values(config, seed, settings)
        except Exception as error:  # a crash is a result here: counted, reported, and the other seeds go on
            print(f"seed {seed}: {type(error).__name__}: {error}", file=sys.stderr)
            per_seed[seed] = None
        print(f"seed {seed}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    all_targets = targets()
    rows_ = summary(all_targets, per_seed, real, resampled)
    crashed = [seed for seed, values in per_seed.items() if values is None]
    header = "\n".join(
        [
            "# Realism of the synthetic default data",
            "",
            f"Configuration `{Path(args.config).name}`, {len(seeds)} seeds ({seeds[0]}..{seeds[-1]}); "
            f"randomised Tukey HSD B = {settings.hsd_trials}, {settings.trials} consistency splits; written by "
            "`benchmarks/realism.py` (library calls with the pipeline's random streams). *published*: the papers' "
            "figure; *real 2016 field*: the same "
            "figure computed here on the official SemEval-2016 runs (the organisers' constant baseline aside where "
            f"systems are compared), and its 5-95% band over {args.resamples} bootstrap samples of the real field's "
            "topics (how much the real figure moves with the topics alone); *median* and *5-95% of seeds*: the "
            "synthetic figure over the seeds (for a range, the band of each end; rank by rank: the largest relative "
            "difference from the real field's score at the same rank); a consistency range spans the measures of the "
            "paper's table (Table 25 of the RNOD-variants study has no RSNOD); *seeds met*: the share of seeds on "
            "which the target holds.",
            "",
            f"Seeds that crashed: {', '.join(map(str, crashed)) or 'none'}.",
        ]
    )
    write(rows_, per_seed, header)
    shares = [int(row["met_percent"]) for row in rows_ if row["met_percent"] != "-"]
    below = sum(share < 80 for share in shares)
    print(
        f"seeds={len(seeds)} targets={len(shares)} below_80={below} lowest_share={min(shares)} crashed={len(crashed)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
