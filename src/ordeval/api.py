"""The Python API: score runs and meta-evaluate measures in a notebook, without Snakemake.

>>> import ordeval
>>> scores = ordeval.score("gold.txt", {"A": "runA.txt", "B": "runB.txt"}, task="classification",
...                        gold_format="semeval_labels", run_format="semeval_labels")
>>> scores.head()              # tidy: topic, run, measure, score
>>> ordeval.agreement(scores)  # Kendall's tau between the measures' run rankings, with CIs
>>> ordeval.hsd_pvalues(scores, measure="MAE_M", trials=5000, seed=1)

Inputs are files in any format ordeval reads, pandas data frames in the canonical long format, or
numpy arrays; the score functions return pandas data frames (pandas is imported here only).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.io.files import write_atomically
from ordeval.stats.seeding import stream
from ordeval.tasks import default_task, get_task, scoring_tasks
from ordeval.tasks.sources import source_paths
from ordeval.tasks.stack import ScoreStack

DEFAULT_CLASSES = (-2, -1, 0, 1, 2)


def file_formats(task: str) -> list[str]:
    """The file formats the readers of ``task`` take (its file source types, with the canonical ``tsv``)."""
    return sorted(get_task(task).file_types)


# --------------------------------------------------------------------------- scoring


def _source(
    value, kind: str, file_format: str | None, folder: Path, name: str, task: str, classes, extra: dict
) -> dict:
    """A data set source for ``value``: a path (in ``file_format``), a data frame or an array (written to
    ``folder`` as the canonical long table)."""
    if isinstance(value, (str, Path)):
        fmt = file_format or "tsv"
        if fmt not in file_formats(task):
            raise ValueError(f"{task} files can be {', '.join(file_formats(task))}, not {fmt!r}")
        return {"type": fmt, "path": str(Path(value).resolve()), **extra}
    import pandas as pd

    if isinstance(value, np.ndarray):
        if get_task(task).canonical_columns["gold"][-1] != "prob" or value.ndim != 2:
            raise ValueError("arrays are accepted for distributions only (quantification): topics x classes")
        value = pd.DataFrame(
            {
                "topic": np.repeat([f"t{i + 1:04d}" for i in range(value.shape[0])], value.shape[1]),
                "class": np.tile([str(c) for c in classes], value.shape[0]),
                "prob": value.ravel(),
            }
        )
    if not isinstance(value, pd.DataFrame):
        raise TypeError(
            f"{name}: expected a file path, a pandas DataFrame or a numpy array, got {type(value).__name__}"
        )
    columns = list(get_task(task).canonical_columns[kind])
    if kind == "run" and "run" not in value.columns:
        value = value.assign(run=name)
    missing = [column for column in columns if column not in value.columns]
    if missing:
        raise ValueError(f"{name}: the data frame lacks column(s) {', '.join(missing)} (expected {', '.join(columns)})")
    path = folder / f"{kind}-{len(list(folder.iterdir()))}.tsv"
    write_atomically(
        path, lambda temporary: value[columns].to_csv(temporary, sep="\t", index=False, lineterminator="\n")
    )
    return {"type": "tsv", "path": str(path)}


def build_data(
    gold,
    runs,
    *,
    task: str | None = None,
    classes: Sequence = DEFAULT_CLASSES,
    gold_format: str | None = None,
    run_format: str | None = None,
    align: str = "id",
    score_key: str | None = None,
    baselines: Sequence[str] = (),
    name: str = "api",
):
    """The data set (a :class:`~ordeval.tasks.base.TaskData`: topics, run names, gold and runs as arrays) of
    ``gold`` and ``runs`` (see :func:`score`), with the organiser ``baselines`` computed from the gold
    (see :func:`baseline_sources`) after the runs; ``task`` by default the task of a data set that names none."""
    task = default_task() if task is None else task
    task_object = get_task(task)
    with tempfile.TemporaryDirectory(prefix="ordeval-") as temporary:
        folder = Path(temporary)
        extra_gold = {"score": score_key} if gold_format == "ntcir_annotations" else {}
        spec = {
            "task": task,
            "classes": list(classes),
            "gold": _source(gold, "gold", gold_format, folder, "gold", task, classes, extra_gold),
            "runs": [],
        }
        if isinstance(runs, Mapping):
            for run_name, value in runs.items():
                extra = {}
                if run_format == "ntcir_submission":
                    extra["score"] = score_key
                if "align" in task_object.run_file_options and run_format != "tsv":
                    extra["align"] = align
                source = _source(value, "run", run_format, folder, run_name, task, classes, extra)
                if source["type"] != "tsv":
                    source["name"] = run_name
                spec["runs"].append(source)
        elif runs is not None:  # one canonical runs table (path or data frame) holding every run
            spec["runs"].append(_source(runs, "run", "tsv", folder, "runs", task, classes, {}))
        spec["runs"] += baseline_sources(task, baselines, classes)
        return task_object.build(name, spec, source_paths(name, spec, folder), 0)


def score_stack(gold, runs, *, task: str | None = None, measures: Sequence[str] | None = None, **options) -> ScoreStack:
    """Like :func:`score`, but returns the :class:`~ordeval.tasks.stack.ScoreStack` (measures x topics x runs,
    with each measure's direction)."""
    task = default_task() if task is None else task
    task_object = get_task(task)
    data = build_data(gold, runs, task=task, **options)
    names = list(measures) if measures is not None else task_object.registry.default_names()
    return task_object.score(data, names).stack


#: Constant-class baselines of the SemEval tasks' five-point scale, named as in the configuration.
SEMEVAL_CLASS_NAMES = {
    "-2": "highly-negative",
    "-1": "negative",
    "0": "neutral",
    "1": "positive",
    "2": "highly-positive",
}


def baseline_name(kind: str, label=None) -> str:
    """The pipeline's run name of an organiser baseline: ``BL-uniform``, ``BL-popularity``, and for a
    constant class ``BL-<class>`` (``BL-positive`` for class 1 of the SemEval scale -2..2)."""
    if kind != "constant_class":
        return f"BL-{kind}"
    return f"BL-{SEMEVAL_CLASS_NAMES.get(str(label), str(label))}"


def baseline_sources(task: str, baselines: Sequence[str], classes: Sequence) -> list[dict]:
    """Run sources of the organiser baselines ``uniform``, ``popularity`` and ``constant:<class>`` (those the
    task has: its ``baseline_types``), computed from the gold when the data set is built."""
    kinds = get_task(task).baseline_types
    offered = sorted(("constant:<class>" if kind == "constant_class" else kind) for kind in kinds)
    labels = [str(label) for label in classes]
    sources = []
    for text in baselines:
        kind, _, label = str(text).partition(":")
        kind = "constant_class" if kind == "constant" else kind
        if kind not in kinds or (kind == "constant_class") != bool(label):
            raise ValueError(f"baseline {text!r}: {task} baselines are {', '.join(offered) or 'none'}")
        if kind == "constant_class" and label not in labels:
            raise ValueError(f"baseline {text!r}: {label!r} is not one of the classes {', '.join(labels)}")
        source = {"type": kind, "name": baseline_name(kind, label)}
        if kind == "constant_class":
            source["class"] = label
        sources.append(source)
    names = [source["name"] for source in sources]
    if len(set(names)) != len(names):
        raise ValueError(f"a baseline is asked for twice: {', '.join(baselines)}")
    return sources


def score(gold, runs, **options):
    """Score every run on every topic with every measure; a tidy data frame ``topic, run, measure, score``.

    ``gold``: a file (``gold_format``: for quantification semeval_dist, semeval_labels,
    ntcir_annotations (with ``score_key`` A/E/S) or tsv; for classification semeval_labels or tsv), a
    pandas DataFrame in the canonical long format (quantification: topic, class, prob; classification:
    topic, item, label) or, for quantification, a topics x classes numpy array. ``runs``: a mapping
    run name -> file / data frame / array (``run_format``), or one canonical runs table (with a ``run``
    column). ``task``: quantification (default) or classification; ``classes``: the class labels in
    ascending order (default -2..2); ``measures``: registry names (default every registered measure of
    the task); ``align`` (classification files): pair a run with the gold by item ``id`` or ``position``;
    ``baselines``: organiser baselines computed from the gold, ``uniform``, ``popularity`` (quantification)
    and ``constant:<class>``, added after the runs as ``BL-uniform``, ``BL-popularity``, ``BL-<class>``
    (``runs`` may then be None). Bad input raises :class:`ordeval.io.errors.InputError` naming the file, the
    line and the problem.
    """
    return tidy(score_stack(gold, runs, **options))


def tidy(stack: ScoreStack):
    """A ScoreStack as a tidy data frame: topic, run, measure, score (one row per cell)."""
    import pandas as pd

    measures, topics, runs = stack.values.shape
    return pd.DataFrame(
        {
            "topic": np.tile(np.repeat(np.array(stack.topics, dtype=object), runs), measures),
            "run": np.tile(np.array(stack.runs, dtype=object), measures * topics),
            "measure": np.repeat(np.array(stack.measures, dtype=object), topics * runs),
            "score": stack.values.ravel(),
        }
    )


# --------------------------------------------------------------------------- from tidy scores back to matrices


def as_stack(scores, lower_is_better: Mapping[str, bool] | None = None) -> ScoreStack:
    """A ScoreStack from a ScoreStack, a tidy data frame (topic, run, measure, score) or a mapping
    ``{measure: topics x runs matrix}`` (numpy arrays or data frames with runs as columns). A measure's
    direction comes from ``lower_is_better``, else from its registry, else lower is better."""
    if isinstance(scores, ScoreStack):
        return scores
    directions = dict(lower_is_better or {})
    if isinstance(scores, Mapping):
        measures, matrices, runs, topics = [], [], None, None
        for measure, matrix in scores.items():
            if hasattr(matrix, "columns"):
                runs = list(matrix.columns) if runs is None else runs
                topics = [str(t) for t in matrix.index] if topics is None else topics
                matrix = matrix.to_numpy(dtype=float)
            matrix = np.asarray(matrix, dtype=float)
            measures.append(measure)
            matrices.append(matrix)
        values = np.stack(matrices)
        runs = runs or [f"run{i + 1}" for i in range(values.shape[2])]
        topics = topics or [f"t{i + 1}" for i in range(values.shape[1])]
    else:
        frame = scores
        measures = list(dict.fromkeys(frame["measure"]))
        topics = list(dict.fromkeys(frame["topic"]))
        runs = list(dict.fromkeys(frame["run"]))
        wide = frame.pivot_table(index=["measure", "topic"], columns="run", values="score", sort=False)
        values = np.stack([wide.loc[m].loc[topics, runs].to_numpy(dtype=float) for m in measures])
    for measure in measures:
        if measure not in directions:
            directions[measure] = _registered_direction(measure)
    return ScoreStack(
        list(measures), [str(t) for t in topics], [str(r) for r in runs], values, [directions[m] for m in measures]
    )


def registered_direction(measure: str) -> bool | None:
    """Whether lower is better for ``measure`` by the registry of the first task that registers it; None for
    a measure no task registers."""
    for task in scoring_tasks():
        registry = get_task(task).registry
        if measure in registry:
            return registry[measure].lower_is_better
    return None


def _registered_direction(measure: str) -> bool:
    found = registered_direction(measure)
    return True if found is None else found


# --------------------------------------------------------------------------- the meta-evaluation


def agreement(
    scores,
    *,
    level: float = 0.95,
    kendall: str = "b",
    measures: Sequence[str] | None = None,
    lower_is_better: Mapping[str, bool] | None = None,
    ci_method: str = "fisher_z",
):
    """Kendall's tau between the run rankings of every pair of measures, with CIs.

    Runs are ranked by mean score, best first under each measure's direction; tau-b (``kendall="b"``)
    or tau-a = (C - D) / (n(n-1)/2). ``ci_method`` (docs/methods.md 4.1): ``fisher_z``,
    CI = tanh(atanh(tau) -/+ z_{(1+level)/2} sqrt(0.437/(n-4))); ``fisher_z_rounded``, the same on tau
    rounded to 3 decimals (the papers' tables); ``long_cliff``, tau -/+ z_{(1+level)/2} sqrt(var), var
    Long and Cliff's (1997) consistent variance estimate. Returns a data frame measure_a, measure_b, tau,
    ci_low, ci_high.
    """
    from ordeval.analysis.agreement import ranking_agreement

    stack = as_stack(scores, lower_is_better)
    stack = stack.subset(list(measures)) if measures else stack
    result = ranking_agreement(stack.means(), stack.measures, stack.lower_is_better, level, kendall, ci_method)
    return result.pair_table().to_pandas()


def hsd_pvalues(
    scores,
    *,
    measure: str | None = None,
    trials: int = 5000,
    seed: int = 0,
    threads: int | None = None,
    lower_is_better: Mapping[str, bool] | None = None,
):
    """Randomised Tukey HSD p-values of every pair of runs (docs/methods.md 4.3).

    In each of ``trials`` trials every topic's row of the topics x runs matrix is permuted across runs;
    p(s, t) = #{trials with max_r mean*_r - min_r mean*_r >= |mean_s - mean_t|} / trials, the same
    permutations for every measure. Returns a runs x runs data frame (``measure`` given, or one measure
    only) or a dict of them per measure.
    """
    import pandas as pd

    from ordeval.analysis.significance import pairwise_significance

    stack = as_stack(scores, lower_is_better)
    stack = stack.subset([measure]) if measure else stack
    result = pairwise_significance(stack, trials, stream(seed, "api", "hsd"), threads)
    frames = {m: pd.DataFrame(result.matrix(m), index=stack.runs, columns=stack.runs) for m in stack.measures}
    return frames[stack.measures[0]] if len(frames) == 1 else frames


def discriminative_power(
    scores,
    *,
    alpha: float = 0.05,
    trials: int = 5000,
    seed: int = 0,
    threads: int | None = None,
    lower_is_better: Mapping[str, bool] | None = None,
):
    """Discriminative power per measure: S = #{run pairs with HSD p < alpha}, T = m(m-1)/2, 100 S/T.
    Returns a data frame measure, significant, pairs, percent."""
    import pandas as pd

    from ordeval.analysis.significance import discriminative_power as power
    from ordeval.analysis.significance import pairwise_significance

    stack = as_stack(scores, lower_is_better)
    result = power(pairwise_significance(stack, trials, stream(seed, "api", "hsd"), threads), alpha)
    return pd.DataFrame(
        {
            "measure": result.measures,
            "significant": result.significant,
            "pairs": result.pairs,
            "percent": result.percent,
        }
    )


def consistency(
    scores,
    *,
    trials: int = 1000,
    subset_size: int | None = None,
    hsd_trials: int = 5000,
    alpha: float = 0.05,
    seed: int = 0,
    kendall: str = "b",
    threads: int | None = None,
    lower_is_better: Mapping[str, bool] | None = None,
):
    """System ranking consistency (docs/methods.md 4.2): over ``trials`` random splits of the topics into two
    disjoint sets (halves; or two sets of ``subset_size`` topics), Kendall's tau between the run
    rankings on the two sets, per measure; the measures compared by the randomised Tukey HSD on the
    trials x measures taus (higher mean tau is better), VE2 = sum of squared residuals of the two-way
    ANOVA / ((trials - 1)(measures - 1)). Returns (summary data frame: measure, mean_tau, outperforms,
    ve2, trials; taus: trials x measures array)."""
    from ordeval.analysis.consistency import compare_measures
    from ordeval.stats.splits import random_splits, split_taus

    stack = as_stack(scores, lower_is_better)
    topics = len(stack.topics)
    first, second = (topics // 2, topics - topics // 2) if subset_size is None else (subset_size, subset_size)
    splits = random_splits(topics, trials, first, second, stream(seed, "api", "splits"))
    taus = split_taus(stack.values, splits, variant=kendall)
    comparison = compare_measures(taus, stack.measures, hsd_trials, alpha, stream(seed, "api", "hsd"), threads)
    return comparison.summary_table().to_pandas(), taus


def leaderboard(
    scores,
    *,
    measure: str | None = None,
    level: float = 0.95,
    alpha: float = 0.05,
    trials: int = 5000,
    seed: int = 0,
    threads: int | None = None,
    lower_is_better: Mapping[str, bool] | None = None,
):
    """Leaderboards (per-topic protocol): per measure, every run's mean, t interval, rank and significance
    group letters (runs sharing a letter do not differ significantly under the randomised Tukey HSD). A data
    frame measure, rank, run, mean, ci_low, ci_high, group, lower_is_better. With one run, or one topic,
    the groups are empty (no test)."""
    from ordeval.analysis.leaderboard import build_leaderboards, no_test_reason
    from ordeval.analysis.significance import pairwise_significance

    stack = as_stack(scores, lower_is_better)
    stack = stack.subset([measure]) if measure else stack
    reason = no_test_reason(stack)
    significance = None if reason else pairwise_significance(stack, trials, stream(seed, "api", "hsd"), threads)
    boards = build_leaderboards(
        stack,
        significance,
        dataset="scores",
        alpha=alpha,
        level=level,
        test=f"randomised Tukey HSD, B = {trials}, seed = {seed}",
        no_test_reason=reason,
    )
    return boards.table().to_pandas()


def measures(task: str | None = None):
    """The registered measures: a data frame task, name, display, direction, description, formula, reference."""
    import pandas as pd

    rows = []
    for name in [task] if task else scoring_tasks():
        for measure in get_task(name).registry.values():
            rows.append(
                {
                    "task": name,
                    "name": measure.name,
                    "display": measure.display,
                    "direction": measure.direction,
                    "description": measure.description,
                    "formula": measure.formula,
                    "reference": measure.reference,
                }
            )
    return pd.DataFrame(rows)
