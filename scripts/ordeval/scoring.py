"""Per-topic score matrices: every run scored on every topic by every measure."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .datasets import Dataset
from .errors import InputError
from .files import write_table
from .measures import get_measure


@dataclass
class ScoreStack:
    """Score matrices of several measures on one data set: ``values[m]`` is topics x runs."""

    measures: list[str]
    topics: list[str]
    runs: list[str]
    values: np.ndarray  # measures x topics x runs

    def means(self) -> np.ndarray:
        """Mean score of every run under every measure, measures x runs."""
        return self.values.mean(axis=1)

    def matrix(self, measure: str) -> np.ndarray:
        return self.values[self.measures.index(measure)]

    def subset(self, measures: list[str]) -> ScoreStack:
        missing = [name for name in measures if name not in self.measures]
        if missing:
            raise KeyError(f"no scores for measure(s) {', '.join(missing)}; scored: {', '.join(self.measures)}")
        return ScoreStack(
            list(measures), self.topics, self.runs, self.values[[self.measures.index(m) for m in measures]]
        )


def score_dataset(dataset: Dataset, measures: list[str]) -> ScoreStack:
    """Score every run of ``dataset`` on every topic with each of ``measures``."""
    values = np.stack([get_measure(name)(dataset.runs, dataset.gold).T for name in measures])
    return ScoreStack(list(measures), list(dataset.topics), list(dataset.run_names), values)


def score_table(stack: ScoreStack, measure: str) -> pd.DataFrame:
    """Topics x runs table of one measure: first column ``topic``, then one column per run."""
    frame = pd.DataFrame(stack.matrix(measure), columns=stack.runs)
    frame.insert(0, "topic", stack.topics)
    return frame


def means_table(stack: ScoreStack) -> pd.DataFrame:
    """Mean per run: column ``run``, then one column per measure."""
    frame = pd.DataFrame(stack.means().T, columns=stack.measures)
    frame.insert(0, "run", stack.runs)
    return frame


def write_scores(stack: ScoreStack, matrix_paths: dict[str, str | Path], means_path: str | Path) -> None:
    for measure, path in matrix_paths.items():
        write_table(score_table(stack, measure), path)
    write_table(means_table(stack), means_path)


def read_score_matrix(path: str | Path) -> tuple[list[str], list[str], np.ndarray]:
    """(topics, runs, topics x runs scores) from a score table written by :func:`write_scores`."""
    frame = pd.read_csv(path, sep="\t", dtype={"topic": str}, keep_default_na=False)
    if frame.columns[0] != "topic" or frame.shape[1] < 2:
        raise InputError(path, "line 1", "a score table starts with a 'topic' column followed by one column per run")
    values = frame.iloc[:, 1:].to_numpy(dtype=float)
    if np.isnan(values).any():
        row = int(np.argwhere(np.isnan(values))[0, 0])
        raise InputError(path, f"line {row + 2}", "score is NaN or missing")
    return frame["topic"].tolist(), list(frame.columns[1:]), values


def load_score_stack(paths: dict[str, str | Path]) -> ScoreStack:
    """A ScoreStack from ``{measure: score table path}``; all tables must share topics and runs."""
    measures, matrices = [], []
    topics = runs = None
    for measure, path in paths.items():
        these_topics, these_runs, values = read_score_matrix(path)
        if topics is None:
            topics, runs = these_topics, these_runs
        elif these_topics != topics or these_runs != runs:
            raise InputError(path, None, f"topics or runs differ from those of {next(iter(paths.values()))}")
        measures.append(measure)
        matrices.append(values)
    return ScoreStack(measures, topics, runs, np.stack(matrices))
