"""The example topics of Popularity vs Uniform (rule popularity_examples): where NMD and RNOD judge the two
baselines most differently, the gold and the baselines' distributions, read from the ordinal quantification data
sets' canonical files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.analysis.popularity import D_MEASURES, compared_origins, compute_deltas, most_negative_d
from ordeval.reports.figures import save_figure
from ordeval.reports.figures.popularity import ExamplePanel, examples_figure
from ordeval.tasks.quantification.data import read_selection
from ordeval.tasks.stack import read_stack

Files = Mapping[str, str | Path]


def write_examples(
    stacks: Files,
    golds: Files,
    run_files: Files,
    arrays: Files,
    provenance: Files,
    outputs: Files,
    *,
    measures: Sequence[str],
    runs: Sequence[str],
    classes: Mapping[str, Sequence[str]],
    compared: Sequence[str],
    skipped: Mapping[str, str],
) -> int:
    """The gold and the two ``runs``' distributions (Popularity, Uniform) of the two topics of each data set of
    ``stacks`` ({data set: its stack.npz}, with its canonical ``golds``, ``run_files`` and ``arrays``; its
    ``classes``) where NMD favours runs[0] most relative to RNOD (the most negative d = Delta_NMD - Delta_RNOD:
    :func:`~ordeval.analysis.popularity.most_negative_d`); a data set without both measures is passed over, and
    with no panel the figure says why (``skipped``: {data set: why it is left out}). ``provenance``: {data set:
    its provenance.json} of every data set (``compared``: those with both runs, whose origins the figure states).
    ``outputs``: ``pdf``, ``png``. The number of panels."""
    examples = []
    for name, path in stacks.items():
        scores = read_stack(path, measures)
        if not all(m in scores.measures for m in D_MEASURES):
            continue
        picked = most_negative_d(compute_deltas(scores, *runs))
        labels = list(classes[name])
        gold, chosen = read_selection(
            golds[name], run_files[name], arrays[name], labels, [example.topic for example in picked], runs
        )
        for example in picked:
            distributions = np.stack([gold[example.topic], *(chosen[(run, example.topic)] for run in runs)])
            examples.append(ExamplePanel(name, example, labels, ["gold", *runs], distributions))
    listed = "; ".join(f"{name}: {reason}" for name, reason in skipped.items())
    note = "No example topics: " + (listed or "no data set has both runs and the measures NMD and RNOD.")
    title = "Topics where NMD favours Popularity most relative to RNOD (most negative d = ΔNMD − ΔRNOD)"
    origins = compared_origins(provenance, list(compared), runs)
    save_figure(examples_figure(examples, title, note), outputs["pdf"], outputs["png"], origins)
    return len(examples)
