"""The real SemEval-2016 Task 4 fields (subtasks C and E) and the SemEval-2017 gold, read through the library.

The official runs of every team and the official gold (the organisers' bundle; see ``../shared/data/raw/
SOURCES.md`` for their origin) are read as ``config/replication.yaml`` reads them (its Sem16T4C and Sem16T4E
data sets, by the task readers ``semeval_labels`` and ``semeval_dist``) from ``--data-root`` (default
``../shared/data/raw`` beside the repository). ``benchmarks/fit_simulators.py`` fits the simulators to them and
``benchmarks/realism.py`` compares the synthetic default with them.
"""

from __future__ import annotations

from pathlib import Path

from ordeval.tasks import get_task
from ordeval.tasks.sources import source_paths
from ordeval.workflow import config as configuration

ROOT = Path(__file__).resolve().parent.parent
SHARED_RAW = ROOT.parent / "shared" / "data" / "raw"
#: The configuration that reads the official runs (its Sem16T4C and Sem16T4E data sets, all real).
REPLICATION = ROOT / "config" / "replication.yaml"
GOLD_2017 = "Sem17T4CE/SemEval2017_task4_subtaskC_test_english_gold.txt"
#: The organisers' baselines (every tweet neutral; every topic all positive) that the default
#: configuration builds from the gold (``constant_class``), not from a fitted system.
CONSTANT_BASELINES = {"Sem16T4C": "BL-majority", "Sem16T4E": "BL-positive"}
#: Citation of the real runs and of their official scores.
SOURCE = "Nakov et al., SemEval-2016 Task 4 overview; the organisers' official runs and scores"


def specs() -> dict[str, dict]:
    """Data set configurations of the real Sem16T4C and Sem16T4E fields: those of config/replication.yaml
    (the official gold and every official run, named as in the official results)."""
    datasets = configuration.load(REPLICATION)["datasets"]
    return {name: datasets[name] for name in ("Sem16T4C", "Sem16T4E")}


def load(data_root: Path = SHARED_RAW) -> dict:
    """The real Sem16T4C and Sem16T4E data sets (``ordeval`` task data: gold and every official run)."""
    data_root = Path(data_root)
    if not (data_root / "Sem16T4CE" / "official").is_dir():
        raise FileNotFoundError(f"{data_root}: the official SemEval-2016 runs are not there (see its SOURCES.md)")
    return {
        name: get_task(spec.get("task", "quantification")).build(name, spec, source_paths(name, spec, data_root), 0)
        for name, spec in specs().items()
    }


def load_gold_2017(data_root: Path = SHARED_RAW):
    """The SemEval-2017 Task 4 subtask C English gold (tweet labels; its counts per topic are the E gold)."""
    spec = {
        "task": "classification",
        "classes": [-2, -1, 0, 1, 2],
        "runs": [],
        "gold": {"type": "semeval_labels", "path": GOLD_2017},
    }
    return get_task("classification").read_gold("Sem17T4C", spec, source_paths("Sem17T4C", spec, data_root)["gold"])


def fitted_runs(data, name: str) -> list[int]:
    """Indices of the runs the simulator is fitted to: every official run but the constant baseline."""
    return [i for i, run in enumerate(data.run_names) if run != CONSTANT_BASELINES[name]]
