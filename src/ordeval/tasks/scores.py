"""Precomputed scores: a data set given as per-topic score matrices of measures ordeval does not know.

A researcher who has per-topic scores from elsewhere -- any IR measure from a trec_eval-style tool, a
new measure computed in a notebook -- meta-evaluates them with every analysis of ordeval::

    MyIR:
      task: scores
      description: TREC-style runs scored by trec_eval -q
      scores:
        - {type: score_matrix, path: ndcg.tsv, measure: nDCG, lower_is_better: false}
        - {type: score_matrix, path: ap.tsv, measure: AP, lower_is_better: false}

Each file is a topics x runs matrix: a header ``topic<TAB>run_1<TAB>...``, then one line per topic (the
format of ordeval's own ``scores/<dataset>/<measure>.tsv``). All files of a data set must have the same
topics (in any order) and the same runs; scores must be finite numbers. The measures, their names and
directions come from the configuration; the data are marked ``real`` unless the data set says
``origin: synthetic`` (or ``partly synthetic``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import sha256, write_json, write_text
from ordeval.io.parsing import iter_lines
from ordeval.io.provenance import ORIGINS, read_provenance
from ordeval.tasks.base import Scored, Task, TaskData
from ordeval.tasks.registry import Registry
from ordeval.tasks.sources import check_source_files, resolve_path
from ordeval.tasks.stack import ScoreStack, read_score_matrix, read_stack, score_matrix_header, write_stack


@dataclass
class ScoreData(TaskData):
    """A data set of precomputed scores: the stack itself."""

    stack: ScoreStack | None = field(default=None)


class ScoresTask(Task):
    name = "scores"
    short = "scores"
    title = "precomputed scores"
    order = 2
    description = "precomputed per-topic score matrices of any measures (e.g. from trec_eval)"
    registry = Registry("scores")  # empty: a data set's measures come from its configuration
    summary_suffix = "_scores"
    file_types = frozenset({"score_matrix"})
    baseline_types = frozenset()
    data_modules = ("ordeval.tasks.scores",)
    scoring_modules = ()
    scores_runs = False
    schema_file = Path(__file__).with_name("scores_schema.yaml")

    # ------------------------------------------------------------------ configuration
    def dataset_measures(self, spec: Mapping) -> list[str]:
        return [source["measure"] for source in spec["scores"]]

    def directions(self, spec: Mapping) -> dict[str, bool]:
        return {source["measure"]: bool(source.get("lower_is_better", True)) for source in spec["scores"]}

    def declared_runs(self, spec: Mapping, data_root) -> list[str]:
        """The runs named in the header of the first score file (none where it cannot be read)."""
        try:
            _, header = score_matrix_header(resolve_path(spec["scores"][0]["path"], data_root))
        except (OSError, InputError):
            return []
        return header[1:]

    def topic_count(self, spec: Mapping, data_root) -> int | None:
        try:  # line by line: the memory of one line, not of the file
            lines = sum(1 for _, line in iter_lines(resolve_path(spec["scores"][0]["path"], data_root)) if line)
        except (OSError, InputError):
            return None
        return max(lines - 1, 0) or None

    def simulated_run_names(self, source: Mapping) -> list[str]:
        return []

    def tsv_run_names(self, path: Path) -> list[str]:
        return []

    # ------------------------------------------------------------------ data
    def build(self, name: str, spec: Mapping, files: Mapping, seed: int) -> ScoreData:
        """The score matrices of data set ``name`` (``files``: ``scores_0``, ``scores_1``, ...), checked to share
        their topics and runs; nothing is simulated."""
        check_source_files(name, spec, files)
        origin = spec.get("origin", "real")
        if origin not in ORIGINS:
            raise ConfigError(f"config key datasets.{name}.origin: {origin!r} is not one of {', '.join(ORIGINS)}")
        measures, matrices, records = [], [], {}
        topics = runs = None
        first_path = None
        for index, source in enumerate(spec["scores"]):
            path = Path(files[f"scores_{index}"])
            these_topics, these_runs, values = read_score_matrix(path)
            if topics is None:
                topics, runs, first_path = these_topics, these_runs, path
            else:
                if set(these_topics) != set(topics):
                    from ordeval.io.names import normalisation_hints

                    missing = sorted(set(topics) - set(these_topics))
                    extra = sorted(set(these_topics) - set(topics))
                    hint = normalisation_hints(missing, extra)
                    raise InputError(
                        path,
                        None,
                        f"topics differ from those of {first_path} (missing {missing[:5]}, extra {extra[:5]}){hint}",
                    )
                if these_runs != runs:
                    raise InputError(path, "line 1", f"runs {these_runs} differ from those of {first_path}: {runs}")
                order = {topic: i for i, topic in enumerate(these_topics)}
                values = values[[order[topic] for topic in topics]]
            if source["measure"] in measures:
                raise ConfigError(
                    f"config key datasets.{name}.scores[{index}]: measure {source['measure']!r} given twice"
                )
            measures.append(source["measure"])
            matrices.append(values)
            records[source["measure"]] = {"path": str(source["path"]), "sha256": sha256(path)}
        directions = self.directions(spec)
        stack = ScoreStack(
            measures, topics, runs, np.stack(matrices), [directions[m] for m in measures], task=self.name
        )
        provenance = {
            "dataset": name,
            "origin": origin,
            "description": spec.get("description", ""),
            "gold": {"source": "file" if origin != "synthetic" else "simulated", "type": "score_matrix"},
            "runs": {run: {"source": "file", "type": "score_matrix"} for run in runs},
            "scores": records,
            "simulated_runs": [],
        }
        return ScoreData(name, [], list(topics), list(runs), provenance, stack)

    def write_canonical(self, data: ScoreData, files: Mapping) -> None:
        """The topics (``gold``: a column ``topic``) and the runs (``runs``: a column ``run``) as tables, the
        validated score matrices as a stack (``arrays``), and the provenance."""
        write_text("".join(f"{line}\n" for line in ["topic", *data.stack.topics]), files["gold"])
        write_text("".join(f"{line}\n" for line in ["run", *data.stack.runs]), files["runs"])
        write_stack(data.stack, files["arrays"])
        write_json(data.provenance, files["provenance"])

    def read_canonical(self, name: str, spec: Mapping, files: Mapping) -> ScoreData:
        stack = read_stack(files["arrays"])
        provenance = read_provenance(files["provenance"])
        return ScoreData(name, [], stack.topics, stack.runs, provenance, stack)

    def size_hints(self, spec: Mapping) -> dict:
        """The data set's measures: one per score matrix."""
        return {"measures": len(spec.get("scores", []))}

    def describe(self, data: ScoreData) -> dict:
        return {"topics": len(data.topics), "runs": len(data.run_names), "measures": len(data.stack.measures)}

    def score(self, data: ScoreData, measures: Sequence[str]) -> Scored:
        return Scored(data.stack.subset(list(measures)))


TASK = ScoresTask()
