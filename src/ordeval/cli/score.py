"""``ordeval score``: per-topic scores of runs against a gold, their means and the leaderboard."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from .common import (
    Progress,
    UserError,
    add_file_options,
    add_hsd_options,
    existing,
    measure_list,
    parse_classes,
    progress_wanted,
)
from .leaderboard import check_leaderboard, write_leaderboard


def _run_sources(values: Sequence[str]) -> dict[str, Path]:
    runs: dict[str, Path] = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator:
            name, path = Path(value).stem, value
        name = name.strip()
        if not name:
            raise UserError(f"--run {value!r}: give NAME=FILE (or FILE, named after the file)")
        if name in runs:
            raise UserError(f"--run: two runs are named {name!r}")
        runs[name] = existing(path)
    return runs


def score_files(args, progress: Progress):
    """The ScoreStack of the runs of ``args``."""
    import numpy as np

    from ..api import score_stack
    from ..scores import ScoreStack

    classes = parse_classes(args.classes)
    gold = existing(args.gold)
    runs = _run_sources(args.run)
    measures = measure_list(args.measures, args.task)
    gold_format = args.gold_format or ("ntcir_annotations" if args.format == "ntcir_submission" else args.format)
    options = dict(task=args.task, classes=classes, measures=measures, gold_format=gold_format,
                   run_format=args.format, align=args.align, score_key=args.score)  # fmt: skip
    if (gold_format in ("ntcir_annotations",) or args.format == "ntcir_submission") and not args.score:
        raise UserError("NTCIR files hold the A, E and S scores: say which with --score A|E|S")
    # One run at a time (so that progress can be shown; the same with or without it), except for a
    # canonical runs table, which holds many runs in one file.
    if args.format == "tsv" or len(runs) == 1:
        progress(0, len(runs))
        stack = score_stack(str(gold), {name: str(path) for name, path in runs.items()}, **options)
        progress(len(runs), len(runs))
        return stack
    parts = []
    progress(0, len(runs))
    for done, (name, path) in enumerate(runs.items(), start=1):
        parts.append(score_stack(str(gold), {name: str(path)}, **options))
        progress(done, len(runs))
    first = parts[0]
    if any(part.topics != first.topics for part in parts):  # pragma: no cover - the gold decides the topics
        raise UserError("the runs cover different topics")
    return ScoreStack(first.measures, first.topics, [run for part in parts for run in part.runs],
                      np.concatenate([part.values for part in parts], axis=2), first.lower_is_better,
                      first.display, first.task, first.latex)  # fmt: skip


def cmd_score(args) -> int:
    from ..scores import write_scores

    out = Path(args.out)
    progress = Progress("scoring runs", progress_wanted(args))
    stack = score_files(args, progress)
    if not args.no_leaderboard:  # before anything is written: no partial output
        check_leaderboard(stack, args.trials, " (--no-leaderboard writes the scores only)")
    out.mkdir(parents=True, exist_ok=True)
    write_scores(stack, out)
    print(f"scored {len(stack.runs)} runs x {len(stack.topics)} topics with {len(stack.measures)} measures: "
          f"{out}/<measure>.tsv, means.tsv, measures.tsv", file=sys.stderr)  # fmt: skip
    if args.no_leaderboard:
        return 0
    progress = Progress("randomised Tukey HSD", progress.enabled)
    write_leaderboard(stack, out, args.name or Path(args.gold).stem, trials=args.trials, seed=args.seed,
                      alpha=args.alpha, level=args.level, threads=args.threads, progress=progress)  # fmt: skip
    print(f"leaderboard: {out}/leaderboard.csv, .md, .tex", file=sys.stderr)
    return 0


def add_parser(commands) -> None:
    """The ``score`` subcommand's arguments."""
    score = commands.add_parser(
        "score",
        help="score runs against a gold: per-topic scores and a leaderboard",
        description="Score runs against a gold with the task's measures; write <out>/<measure>.tsv (topics x runs), "
        "means.tsv, measures.tsv and the leaderboard <out>/leaderboard.{csv,md,tex} (mean, interval, rank, "
        "significance groups from the randomised Tukey HSD).",
    )
    add_file_options(score, required_format=False)
    score.add_argument("--gold", required=True, help="the gold file")
    score.add_argument(
        "--run",
        action="append",
        required=True,
        metavar="NAME=FILE",
        help="a run (repeat for each run; FILE alone: named after the file; tsv: every run of the table)",
    )
    score.add_argument("--measures", help="comma-separated measure names (default: every measure of the task)")
    score.add_argument("--out", default="ordeval-scores", help="output folder (default ordeval-scores)")
    score.add_argument("--no-leaderboard", action="store_true", help="write the scores only")
    add_hsd_options(score)
