"""``ordeval leaderboard``: the leaderboard of a scores folder (``<measure>.tsv`` files)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import InputError
from .common import NOT_MATRICES, Progress, UserError, add_hsd_options, existing, measure_list, progress_wanted


def check_leaderboard(stack, trials: int, hint: str = "") -> None:
    """Raise a UserError when ``stack`` cannot have a leaderboard (checked before anything is written)."""
    if len(stack.runs) < 2:
        raise UserError(f"a leaderboard needs at least 2 runs, there is {len(stack.runs)}{hint}")
    if len(stack.topics) < 2:
        raise UserError(f"a leaderboard needs at least 2 topics, there is {len(stack.topics)}{hint}")
    if trials < 1:
        raise UserError("--trials: at least 1")


def write_leaderboard(stack, out: Path, dataset: str, *, trials: int, seed: int, alpha: float, level: float,
                      threads: int | None, progress: Progress) -> str:  # fmt: skip
    """``<out>/leaderboard.{csv,md,tex}`` of every measure of ``stack``; returns the Markdown."""
    from ..analysis.leaderboard import leaderboard
    from ..analysis.significance import pairwise_significance
    from ..files import write_text
    from ..latex import comment, measure_labels
    from ..latex.leaderboard import leaderboard_latex, leaderboard_markdown
    from ..seeding import stream
    from ..table import Table

    check_leaderboard(stack, trials)
    progress.label = f"randomised Tukey HSD, {len(stack.measures)} measures"
    significance = pairwise_significance(stack, trials, stream(seed, "cli", "leaderboard"), threads, progress)
    boards = [
        leaderboard(stack.matrix(m), stack.runs, m, stack.direction_of(m), significance.matrix(m), alpha, level).table()
        for m in stack.measures
    ]
    setting = (
        f"{dataset}: mean over {len(stack.topics)} topics with {level:.0%} t intervals, rank, and significance "
        f"groups (runs sharing a letter do not differ significantly: randomised Tukey HSD, B = {trials}, "
        f"seed = {seed}, alpha = {alpha:g})."
    )
    out.mkdir(parents=True, exist_ok=True)
    Table.concat(boards).write(out / "leaderboard.csv", sep=",")
    write_text(
        comment(setting) + "\n" + leaderboard_latex(boards, measure_labels(stack), level), out / "leaderboard.tex"
    )
    names = dict(zip(stack.measures, stack.display, strict=True))
    markdown = leaderboard_markdown(dataset, boards, names, level, setting)
    write_text(markdown, out / "leaderboard.md")
    return markdown


def read_scores_folder(folder: Path, measures: Sequence[str] | None = None):
    """The ScoreStack of a scores folder: ``<measure>.tsv`` (topics x runs) and, where present,
    ``measures.tsv`` (the directions, display names); else every score table, directions from the registry."""
    import numpy as np

    from ..api import _registered_direction
    from ..scores import ScoreStack, read_measure_table, read_score_matrix

    table_path = folder / "measures.tsv"
    info: dict[str, dict] = {}
    if table_path.is_file():
        table = read_measure_table(table_path)
        for row in table.records():
            info[row["measure"]] = row
        names = list(info)
    else:
        names = sorted(path.stem for path in folder.glob("*.tsv") if path.name not in NOT_MATRICES)
        names = [name for name in names if _is_score_table(folder / f"{name}.tsv")]
    if measures:
        missing = [name for name in measures if name not in names and not (folder / f"{name}.tsv").is_file()]
        if missing:
            raise UserError(f"{folder}: no scores of measure(s) {', '.join(missing)}")
        names = list(measures)
    if not names:
        raise UserError(f"{folder}: no score tables (<measure>.tsv with a 'topic' column, one column per run)")
    topics = runs = None
    matrices = []
    for name in names:
        path = folder / f"{name}.tsv"
        if not path.is_file():
            raise UserError(f"{path}: no such file (listed in {table_path})")
        these_topics, these_runs, values = read_score_matrix(path)
        if topics is None:
            topics, runs, first = these_topics, these_runs, path
        elif these_topics != topics or these_runs != runs:
            raise InputError(path, "line 1", f"its topics or runs differ from those of {first}")
        matrices.append(values)
    lower = [bool(info[n]["lower_is_better"]) if n in info else _registered_direction(n) for n in names]
    display = [str(info[n]["display"]) if n in info else n for n in names]
    latex = [str(info[n].get("latex", "") or "") if n in info else "" for n in names]
    task = str(next(iter(info.values()))["task"]) if info else ""
    return ScoreStack(names, topics, runs, np.stack(matrices), lower, display, task, latex)


def _is_score_table(path: Path) -> bool:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.readline().split("\t")[0].strip() == "topic"


def cmd_leaderboard(args) -> int:
    folder = existing(args.scores_dir, "folder")
    stack = read_scores_folder(folder, measure_list(args.measures))
    out = Path(args.out) if args.out else folder
    progress = Progress("randomised Tukey HSD", progress_wanted(args))
    markdown = write_leaderboard(stack, out, args.name or folder.resolve().name, trials=args.trials, seed=args.seed,
                                 alpha=args.alpha, level=args.level, threads=args.threads,
                                 progress=progress)  # fmt: skip
    sys.stdout.write(markdown if markdown.endswith("\n") else markdown + "\n")
    print(f"leaderboard: {out}/leaderboard.csv, .md, .tex", file=sys.stderr)
    return 0


def add_parser(commands) -> None:
    """The ``leaderboard`` subcommand's arguments."""
    board = commands.add_parser(
        "leaderboard",
        help="leaderboard from a scores folder",
        description="The leaderboard of a scores folder (<measure>.tsv, topics x runs; the directions from its "
        "measures.tsv, as the pipeline and 'ordeval score' write it, else from the registry): "
        "leaderboard.{csv,md,tex}, the Markdown also on stdout.",
    )
    board.add_argument("scores_dir", metavar="SCORES_DIR", help="e.g. results/<name>/scores/<dataset>")
    board.add_argument("--measures", help="comma-separated measures (default: every one in the folder)")
    board.add_argument("--out", help="output folder (default: SCORES_DIR)")
    add_hsd_options(board)
