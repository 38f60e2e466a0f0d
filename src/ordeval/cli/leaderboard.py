"""``ordeval leaderboard``: the leaderboard of a scores folder (``<measure>.tsv`` files); and the leaderboard
step that ``ordeval score`` shares: significance test, files, standard output."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.leaderboard import PROTOCOLS
from ordeval.cli import checks
from ordeval.cli.checks import check_hsd_memory
from ordeval.cli.common import Progress, UserError, add_hsd_options, existing, measure_list, progress_wanted
from ordeval.io.errors import InputError
from ordeval.tasks.stack import SUMMARY_FILES, is_score_table

#: The files a leaderboard call writes into its output folder.
LEADERBOARD_FILES = ("leaderboard.csv", "leaderboard.tex", "leaderboard.md")  # in the order of write_leaderboards
PAGE = "leaderboard.html"


def per_topic_leaderboards(stack, args, dataset: str, origins: Mapping[str, str] | None = None):
    """The per-topic leaderboards of ``stack``, with the randomised Tukey HSD's groups where it applies
    (memory checked first)."""
    from ordeval.analysis.leaderboard import build_leaderboards, check_finite_means, no_test_reason
    from ordeval.analysis.significance import pairwise_significance
    from ordeval.stats.seeding import stream

    check_finite_means(stack)  # before the test: an infinite mean is never ranked
    reason = no_test_reason(stack)
    significance = None
    if not reason:
        check_hsd_memory(args.trials, len(stack.measures), len(stack.topics), len(stack.runs))
        progress = Progress(f"randomised Tukey HSD, {len(stack.measures)} measures", progress_wanted(args))
        significance = pairwise_significance(
            stack, args.trials, stream(args.seed, "cli", "leaderboard"), args.threads, progress
        )
    return build_leaderboards(
        stack,
        significance,
        dataset=dataset,
        alpha=args.alpha,
        level=args.level,
        test=f"randomised Tukey HSD, B = {args.trials}, seed = {args.seed}",
        no_test_reason=reason,
        origins=origins,
    )


def write_leaderboard(boards, out: Path, stack=None) -> list[str]:
    """``<out>/leaderboard.{csv,md,tex}`` and the results page ``leaderboard.html`` (with the per-topic
    scores of ``stack`` on demand); returns the names of the files written."""
    from ordeval.io.provenance import origin_sentence
    from ordeval.reports.leaderboard_page import write_leaderboard_page
    from ordeval.reports.leaderboard_text import write_leaderboards

    out.mkdir(parents=True, exist_ok=True)
    write_leaderboards(boards, *(out / name for name in LEADERBOARD_FILES))
    origin = origin_sentence(boards.origins) if boards.origins else "data origin not recorded"
    write_leaderboard_page(
        out / PAGE,
        f"{boards.dataset}: leaderboard",
        boards.tables(),
        boards.display,
        stack if boards.protocol == "per-topic" else None,
        boards.protocol,
        origin,
        boards.level,
        boards.setting,
    )
    return [*LEADERBOARD_FILES, PAGE]


def print_leaderboard(boards, as_json: bool, extra: Mapping | None = None) -> None:
    """The leaderboards on standard output: Markdown, or with ``--json`` one JSON document."""
    if as_json:
        print(json.dumps({**(extra or {}), "leaderboard": boards.records()}, indent=1, allow_nan=False))
        return
    from ordeval.reports.leaderboard_text import leaderboards_markdown

    markdown = leaderboards_markdown(boards)
    sys.stdout.write(markdown if markdown.endswith("\n") else markdown + "\n")


def read_scores_folder(folder: Path, measures: Sequence[str] | None = None, stated: Mapping[str, bool] | None = None):
    """The ScoreStack of a scores folder: ``<measure>.tsv`` (topics x runs) and, where present,
    ``measures.tsv`` (the directions, display names); else every score table, directions from the registry.
    ``stated``: {measure: lower is better} from the command line, needed for a measure that neither gives
    (never a silent default), refused where it contradicts them."""
    from ordeval.tasks.stack import ScoreStack, read_measure_table, read_score_matrices

    table_path = folder / "measures.tsv"
    info: dict[str, dict] = {}
    if table_path.is_file():
        table = read_measure_table(table_path)
        for row in table.records():
            info[row["measure"]] = row
        names = list(info)
    else:
        names = sorted(path.stem for path in folder.glob("*.tsv") if path.name not in SUMMARY_FILES)
        names = [name for name in names if is_score_table(folder / f"{name}.tsv")]
    if measures:
        missing = [name for name in measures if name not in names and not (folder / f"{name}.tsv").is_file()]
        if missing:
            raise UserError(f"{folder}: no scores of measure(s) {', '.join(missing)}")
        names = list(measures)
    if not names:
        raise UserError(f"{folder}: no score tables (<measure>.tsv with a 'topic' column, one column per run)")
    lower = _directions(folder, names, info, dict(stated or {}))
    for name in names:
        if not (folder / f"{name}.tsv").is_file():
            raise UserError(f"{folder / f'{name}.tsv'}: no such file (listed in {table_path})")
    topics, runs, values = read_score_matrices([folder / f"{name}.tsv" for name in names])
    display = [str(info[n]["display"]) if n in info else n for n in names]
    latex = [str(info[n].get("latex", "") or "") if n in info else "" for n in names]
    task = str(next(iter(info.values()))["task"]) if info else ""
    return ScoreStack(names, topics, runs, values, lower, display, task, latex)


def _option(lower_is_better: bool) -> str:
    return "--lower-is-better" if lower_is_better else "--higher-is-better"


def _directions(folder: Path, names: list[str], info: Mapping[str, Mapping], stated: dict[str, bool]) -> list[bool]:
    """Each measure's direction: the folder's measures.tsv, else the registry, else as ``stated``."""
    from ordeval.api import registered_direction
    from ordeval.cli.evaluate import registered

    for name, lower in stated.items():
        if name not in names:
            raise UserError(
                f"{_option(lower)} {name}: {folder} has no scores of measure {name!r} (it has {', '.join(names)})"
            )
    directions = []
    for name in names:
        known = bool(info[name]["lower_is_better"]) if name in info else registered_direction(name)
        source = f"{folder / 'measures.tsv'} says" if name in info else "the measure registry says"
        if name in stated and known is not None and stated[name] != known:
            said = "lower" if known else "higher"
            raise UserError(f"{_option(stated[name])} {name}: {source} {said} is better")
        if name not in stated and known is None:
            twins = [other for other in registered() if other.lower() == name.lower()]
            twin = ""
            if twins:
                said = "lower" if registered_direction(twins[0]) else "higher"
                twin = f" (the registered measure {twins[0]!r}, spelt differently, is {said} is better)"
            raise UserError(
                f"{folder / (name + '.tsv')}: measure {name!r} is not registered and {folder} has no measures.tsv to "
                f"say whether lower or higher is better: give --lower-is-better {name} or --higher-is-better "
                f"{name}{twin}"
            )
        directions.append(stated.get(name, known))
    return directions


def stated_directions(args) -> dict[str, bool]:
    """{measure: lower is better} of ``--lower-is-better`` and ``--higher-is-better``."""
    lower, higher = args.lower_is_better or [], args.higher_is_better or []
    both = [name for name in lower if name in higher]
    if both:
        raise UserError(f"--lower-is-better and --higher-is-better both name {both[0]}")
    return {**dict.fromkeys(lower, True), **dict.fromkeys(higher, False)}


def folder_origins(folder: Path, dataset: str) -> dict[str, str]:
    """``{dataset: origin}`` from the provenance of a scores folder: ``provenance.json`` in it, or the
    pipeline's ``results/<name>/data/<dataset>/provenance.json`` beside ``results/<name>/scores/<dataset>``;
    empty when there is none."""
    from ordeval.io.provenance import read_origins

    for candidate in (folder / "provenance.json", folder.parent.parent / "data" / folder.name / "provenance.json"):
        if candidate.is_file():
            return read_origins({dataset: candidate})
    return {}


def pipeline_results(folder: Path) -> Path | None:
    """The pipeline's ``results/<name>`` folder when ``folder`` is one of its ``scores/<dataset>`` folders."""
    resolved = folder.resolve()
    if resolved.parent.name == "scores" and (resolved.parent.parent / "data").is_dir():
        return resolved.parent.parent
    return None


def output_folder(folder: Path, out: str | None) -> Path:
    """``--out`` (default: the current folder), never the scores folder nor inside the pipeline's results."""
    target = Path(out) if out else Path.cwd()
    resolved = target.resolve()
    results = pipeline_results(folder)
    if resolved == folder.resolve() or (results is not None and resolved.is_relative_to(results)):
        where = "the scores folder" if resolved == folder.resolve() else f"the pipeline's results ({results})"
        raise UserError(f"--out {out or '.'}: inside {where}; write the leaderboard elsewhere (--out FOLDER)")
    if target.exists() and not target.is_dir():
        raise UserError(f"--out {out}: not a folder")
    return target


def pooled_leaderboards(stack, folder: Path, args, dataset: str, origins: Mapping[str, str]):
    """The pooled leaderboards of a scores folder from its ``pooled.tsv`` (no groups: the item labels the
    test needs are not in the folder)."""
    from ordeval.analysis.leaderboard import build_leaderboards, read_pooled
    from ordeval.io.table import Table

    path = folder / "pooled.tsv"
    if not path.is_file():
        raise UserError(f"{folder}: no pooled.tsv (the pooled scores of a classification data set)")
    try:
        pooled = read_pooled(Table.read(path), stack.measures, stack.runs)
    except KeyError as error:
        raise InputError(path, "line 1", str(error.args[0])) from None
    return build_leaderboards(
        stack,
        None,
        dataset=dataset,
        protocol="pooled",
        pooled=pooled,
        alpha=args.alpha,
        level=args.level,
        origins=origins,
        no_test_reason="the item labels the paired randomisation test needs are not in a "
        "scores folder: 'ordeval score --protocol pooled' gives them",
    )


def cmd_leaderboard(args) -> int:
    from ordeval.analysis.leaderboard import UndefinedMean
    from ordeval.cli.common import load_plugin_files

    load_plugin_files(args.plugins)
    folder = existing(args.scores_dir, "folder")
    out = output_folder(folder, args.out)
    stack = read_scores_folder(folder, measure_list(args.measures), stated_directions(args))
    dataset = args.name or folder.resolve().name
    origins = folder_origins(folder, dataset)
    try:
        if args.protocol == "pooled":
            boards = pooled_leaderboards(stack, folder, args, dataset, origins)
        else:
            boards = per_topic_leaderboards(stack, args, dataset, origins)
    except UndefinedMean as error:
        scores = folder / ("pooled.tsv" if args.protocol == "pooled" else f"{error.measure}.tsv")
        raise InputError(scores, None, str(error)) from None
    with checks.exclusive_folder(out, "--out", "ordeval leaderboard"):  # its files are one leaderboard's
        write_leaderboard(boards, out, stack)
    print_leaderboard(boards, args.json)
    print(f"leaderboard: {out}/leaderboard.csv, .md, .tex, .html", file=sys.stderr)
    return 0


def add_parser(commands) -> None:
    """The ``leaderboard`` subcommand's arguments."""
    board = commands.add_parser(
        "leaderboard",
        help="leaderboard from a scores folder",
        description="The leaderboard of a scores folder (<measure>.tsv, topics x runs; the directions from its "
        "measures.tsv, as the pipeline and 'ordeval score' write it, else from the registry, else from "
        "--lower-is-better / --higher-is-better, which a measure known to neither needs): "
        "leaderboard.{csv,md,tex} in --out (default: the current folder), the Markdown (or with --json, JSON) on "
        "standard output. The data origin comes from the folder's provenance where the pipeline wrote one.",
    )
    board.add_argument("scores_dir", metavar="SCORES_DIR", help="e.g. results/<name>/scores/<dataset>")
    board.add_argument("--measures", help="comma-separated measures (default: every one in the folder)")
    board.add_argument(
        "--lower-is-better",
        action="append",
        metavar="NAME",
        help="measure NAME ranks lower scores first (repeatable): needed for a measure that is not "
        "registered in a folder without measures.tsv",
    )
    board.add_argument(
        "--higher-is-better",
        action="append",
        metavar="NAME",
        help="measure NAME ranks higher scores first (repeatable; as --lower-is-better)",
    )
    board.add_argument(
        "--out", help="output folder (default: the current folder; never SCORES_DIR nor the pipeline's results)"
    )
    board.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default="per-topic",
        help="per-topic means (default) or the pooled scores of the folder's pooled.tsv "
        "(classification; ranks without significance groups)",
    )
    add_hsd_options(board)
