"""The real SemEval-2016 Task 4 fields (subtasks C and E) and the SemEval-2017 gold, read through the library.

The official runs of every team and the official gold (the organisers' bundle; see ``../shared/data/raw/
SOURCES.md`` for their origin) are read by the task readers (``semeval_labels`` and ``semeval_dist``) from
``--data-root`` (default ``../shared/data/raw`` beside the repository); the runs pair with the gold by
position (C) or topic (E). ``benchmarks/fit_simulators.py`` fits the simulators to them and
``benchmarks/realism.py`` compares the synthetic default with them.
"""

from __future__ import annotations

from pathlib import Path

from ordeval.tasks import get_task

ROOT = Path(__file__).resolve().parent.parent
SHARED_RAW = ROOT.parent / "shared" / "data" / "raw"
OFFICIAL = "Sem16T4CE/official"
CLASSES = [-2, -1, 0, 1, 2]
GOLD = {
    "Sem16T4C": f"{OFFICIAL}/gold/SemEval2016_task4_subtaskC_test_gold.txt",
    "Sem16T4E": f"{OFFICIAL}/gold/SemEval2016_task4_subtaskE_test_gold.txt",
    "Sem17T4C": "Sem17T4CE/SemEval2017_task4_subtaskC_test_english_gold.txt",
}
#: The organisers' baselines (every tweet neutral; every topic all positive) that the default
#: configuration builds from the gold (``constant_class``), not from a fitted system.
CONSTANT_BASELINES = {"Sem16T4C": "_baseline-majority-0", "Sem16T4E": "_baseline-0-0-0-1-0"}
#: Citation of the real runs and of their official scores.
SOURCE = "Nakov et al., SemEval-2016 Task 4 overview; the organisers' official runs and scores"


def run_files(data_root: Path, subtask: str) -> list[tuple[str, str]]:
    """(run name, path relative to ``data_root``) of every official run of subtask C or E, by name."""
    folder = data_root / OFFICIAL / "runs" / subtask
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: the official SemEval-2016 runs are not there (see SOURCES.md)")
    suffix = f"-{subtask}.output"
    return [(path.name[: -len(suffix)], f"{OFFICIAL}/runs/{subtask}/{path.name}") for path in sorted(folder.iterdir())]


def specs(data_root: Path) -> dict[str, dict]:
    """Data set configurations of the real Sem16T4C and Sem16T4E fields (gold and every official run)."""
    oc_runs = [{"type": "semeval_labels", "name": name, "path": path, "align": "position"}
               for name, path in run_files(data_root, "C")]  # fmt: skip
    oq_runs = [{"type": "semeval_dist", "name": name, "path": path} for name, path in run_files(data_root, "E")]
    return {
        "Sem16T4C": {"task": "classification", "classes": CLASSES,
                     "gold": {"type": "semeval_labels", "path": GOLD["Sem16T4C"]}, "runs": oc_runs},
        "Sem16T4E": {"classes": CLASSES, "gold": {"type": "semeval_dist", "path": GOLD["Sem16T4E"]}, "runs": oq_runs},
    }  # fmt: skip


def load(data_root: Path = SHARED_RAW) -> dict:
    """The real Sem16T4C and Sem16T4E data sets (``ordeval`` task data: gold and every official run)."""
    data_root = Path(data_root)
    return {name: get_task(spec.get("task", "quantification")).build(name, spec, data_root, 0)
            for name, spec in specs(data_root).items()}  # fmt: skip


def load_gold_2017(data_root: Path = SHARED_RAW):
    """The SemEval-2017 Task 4 subtask C English gold (tweet labels; its counts per topic are the E gold)."""
    spec = {"task": "classification", "classes": CLASSES, "runs": [],
            "gold": {"type": "semeval_labels", "path": GOLD["Sem17T4C"]}}  # fmt: skip
    from ordeval.tasks.classification import data

    gold, _ = data.build_gold("Sem17T4C", spec, Path(data_root), 0)
    return gold


def fitted_runs(data, name: str) -> list[int]:
    """Indices of the runs the simulator is fitted to: every official run but the constant baseline."""
    return [i for i, run in enumerate(data.run_names) if run != CONSTANT_BASELINES[name]]
