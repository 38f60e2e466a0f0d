"""``ordeval score``: per-topic scores of runs against a gold, their means and the leaderboard.

Every argument is checked, and every file read and scored, and the significance test run, before the
first file is written; the leaderboard (or with ``--per-topic`` the per-topic scores, trec_eval ``-q``
style) goes to standard output, ``--json`` for one JSON document."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ordeval.analysis.leaderboard import PROTOCOLS
from ordeval.cli import checks
from ordeval.cli.common import (
    Progress,
    UserError,
    add_file_options,
    add_hsd_options,
    check_format,
    load_plugin_files,
    measure_list,
    parse_classes,
    progress_wanted,
    task_formats,
)
from ordeval.cli.inputs import STDIN, format_hint, gold_format_of, input_path
from ordeval.cli.leaderboard import (
    LEADERBOARD_FILES,
    PAGE,
    per_topic_leaderboards,
    print_leaderboard,
    write_leaderboard,
)
from ordeval.io.errors import InputError

#: Gold file names that say nothing about the data set: the title then uses the gold's folder name.
GENERIC_STEMS = {"gold", "test", "truth", "labels", "answers", "key", "qrels", "reference", "stdin"}


def _run_sources(values: Sequence[str]) -> dict[str, Path]:
    runs: dict[str, Path] = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator:
            name, path = Path(value).stem, value
        name = name.strip()
        if not name or (name == "-" and not separator):
            raise UserError(
                f"--run {value!r}: give NAME=FILE (or FILE, named after the file; NAME=- for standard input)"
            )
        if name in runs:
            raise UserError(f"--run: two runs are named {name!r}")
        runs[name] = path
    checks.check_run_names(runs)
    return {name: input_path(path, f"--run {name}") for name, path in runs.items()}


def default_name(gold: str) -> str:
    """The data set's name for titles: the gold file's name, or its folder's where the file's name is
    generic (``gold.tsv``, ``test.txt``); ``scores`` for standard input."""
    if gold == "-":
        return "scores"
    path = Path(gold).resolve()
    stem = path.stem
    if stem.lower() in GENERIC_STEMS or stem.lower().startswith("gold"):
        return path.parent.name or stem
    return stem


def _merge(parts):
    """One data set from data sets with the same gold and topics, each with some of the runs."""
    first = parts[0]
    provenance = dict(first.provenance)
    provenance["runs"] = {name: record for part in parts for name, record in part.provenance.get("runs", {}).items()}
    return dataclasses.replace(
        first,
        run_names=[name for part in parts for name in part.run_names],
        runs=np.concatenate([part.runs for part in parts]),
        provenance=provenance,
    )


def read_data(args, gold: Path, runs: dict[str, Path], classes, progress: Progress):
    """The data set (gold, runs and baselines) of the command's files. One run at a time (so that progress
    can be shown; the same with or without it), except for a canonical runs table, which holds many runs."""
    from ordeval.api import build_data

    gold_format = gold_format_of(args)
    options = dict(
        task=args.task,
        classes=classes,
        gold_format=gold_format,
        run_format=args.format,
        align=args.align,
        score_key=args.score,
        name=args.name or default_name(args.gold),
    )
    groups = [runs] if args.format == "tsv" or len(runs) == 1 else [{name: path} for name, path in runs.items()]
    parts = []
    progress(0, len(runs))
    try:
        for group in groups:
            parts.append(build_data(str(gold), {name: str(path) for name, path in group.items()}, **options))
            progress(sum(len(part.run_names) for part in parts), len(runs))
        if args.baseline:
            parts.append(build_data(str(gold), None, baselines=args.baseline, **options))
    except InputError as error:  # a wrong --format: one line with a guess at the right one
        formats = task_formats(args.task)
        given = gold_format if Path(error.path).resolve() == gold.resolve() else args.format
        hint = format_hint(
            error.path, given, formats, "--gold-format" if given == gold_format != args.format else "--format"
        )
        if hint:
            raise UserError(f"{error.path}: not a {given} file{hint}") from None
        raise
    return _merge(parts)


def _check_arguments(args):
    """Every argument that can be checked before reading a file; returns (classes, measures)."""
    from ordeval.api import baseline_sources
    from ordeval.tasks import all_tasks, get_task

    load_plugin_files(args.plugins)
    task = get_task(args.task)
    check_format(args.task, args.format)
    gold_format = gold_format_of(args)
    check_format(args.task, gold_format, "--gold-format")
    if (gold_format == "ntcir_annotations" or args.format == "ntcir_submission") and not args.score:
        raise UserError("NTCIR files hold the A, E and S scores: say which with --score A|E|S")
    if args.protocol == "pooled" and "pooled" not in task.extras:
        pooled = ", ".join(other.name for other in all_tasks() if "pooled" in other.extras)
        raise UserError(f"--protocol pooled: {args.task} has no pooled scores (tasks with pooled scores: {pooled})")
    if args.per_topic and args.protocol == "pooled":
        raise UserError("--per-topic: the pooled protocol has one score per run, no per-topic scores")
    if args.table and args.per_topic:
        raise UserError("--table and --per-topic: choose one (the table has a score per run and measure)")
    classes = parse_classes(args.classes)
    measures = measure_list(args.measures, args.task)
    try:
        baselines = [source["name"] for source in baseline_sources(args.task, args.baseline, classes)]
    except ValueError as error:
        raise UserError(f"--baseline: {error}") from None
    if args.run is None and not baselines:
        raise UserError("give the runs to score (--run NAME=FILE) and/or organiser baselines (--baseline)")
    return classes, measures


def pooled_leaderboards(data, stack, args, dataset: str):
    """The pooled leaderboards, with the paired randomisation test's groups where there are two runs."""
    from ordeval.analysis.leaderboard import build_leaderboards
    from ordeval.analysis.pooled import pooled_scores, pooled_significance
    from ordeval.stats.seeding import stream
    from ordeval.tasks import get_task

    registry = get_task(args.task).registry
    measures = [registry[name] for name in stack.measures]
    classes = len(data.classes)
    significance = None
    if len(stack.runs) > 1:
        progress = Progress("paired randomisation tests", progress_wanted(args))
        significance = pooled_significance(
            data.gold,
            data.runs,
            classes,
            measures,
            stack.measures,
            stack.runs,
            stack.lower_is_better,
            args.trials,
            stream(args.seed, "cli", "pooled"),
            progress,
        )
        pooled = significance.means
    else:
        pooled = pooled_scores(data.gold, data.runs, classes, measures)
    return build_leaderboards(
        stack,
        significance,
        dataset=dataset,
        protocol="pooled",
        pooled=pooled,
        items=len(data.gold),
        alpha=args.alpha,
        level=args.level,
        test=f"paired randomisation test of each run pair, the items' labels swapped, "
        f"B = {args.trials}, seed = {args.seed}",
        no_test_reason=f"a single run ({stack.runs[0]}): groups compare runs",
    )


#: Significant digits of the printed per-topic scores: every decimal of up to 15 digits reads back as the same
#: double, so a score prints as its decimal (0.42, not the 0.42000000000000004 of a mean's rounding); the
#: score files keep every digit.
PRINTED_DIGITS = 15


def per_topic_lines(stack) -> list[str]:
    """trec_eval ``-q`` style: ``run<TAB>measure<TAB>topic<TAB>score``, every topic then ``all`` (the mean);
    scores with :data:`PRINTED_DIGITS` significant digits."""
    means = stack.means()
    digits = PRINTED_DIGITS
    lines = []
    for r, run in enumerate(stack.runs):
        for m, measure in enumerate(stack.measures):
            values = stack.values[m, :, r].tolist()
            lines += [
                f"{run}\t{measure}\t{t}\t{value:.{digits}g}" for t, value in zip(stack.topics, values, strict=True)
            ]
            lines.append(f"{run}\t{measure}\tall\t{float(means[m, r]):.{digits}g}")
    return lines


def cmd_score(args) -> int:
    # the arguments and the input files' paths first: a wrong one neither makes nor locks the --out folder
    classes, measures = _check_arguments(args)
    gold = input_path(args.gold, "--gold")
    runs = _run_sources(args.run or [])
    with checks.exclusive_folder(args.out, "--out", "ordeval score"):  # from its check to its last file
        earlier = checks.out_folder(args.out)
        return _score(args, classes, measures, earlier, gold, runs)


def _score(args, classes, measures, earlier: list[Path], gold: Path, runs: dict[str, Path]) -> int:
    from ordeval.tasks import get_task
    from ordeval.tasks.stack import score_files, write_scores

    progress = Progress("scoring runs", progress_wanted(args))
    data = read_data(args, gold, runs, classes, progress)
    checks.check_run_names(data.run_names)
    task = get_task(args.task)
    scored = task.score(data, measures if measures is not None else task.registry.default_names())
    stack = dataclasses.replace(scored.stack, values=np.ascontiguousarray(scored.stack.values))  # as read back
    dataset = args.name or default_name(args.gold)
    boards = None
    if not args.no_leaderboard:  # the test runs before anything is written: no partial output
        if args.protocol == "pooled":
            boards = pooled_leaderboards(data, stack, args, dataset)
        else:
            boards = per_topic_leaderboards(stack, args, dataset)
    out = Path(args.out)
    checks.clear_previous(earlier)
    out.mkdir(parents=True, exist_ok=True)
    names = [path.name for path in score_files(stack, out).values()] + [f"{key}.tsv" for key in scored.extras]
    names += list(LEADERBOARD_FILES) + [PAGE] if boards is not None else []
    # the record first: a call stopped midway (a full disk, a kill) leaves a folder the next call may write again
    checks.record_written(out, names)
    write_scores(stack, score_files(stack, out))
    for key, table in scored.extras.items():  # e.g. pooled.tsv, as the pipeline's scores folder
        table.write(out / f"{key}.tsv")
    if boards is not None:
        write_leaderboard(boards, out, stack)
    print(
        f"scored {len(stack.runs)} run{'s' if len(stack.runs) != 1 else ''} x {len(stack.topics)} topics with "
        f"{len(stack.measures)} measures: {out}/<measure>.tsv, means.tsv, measures.tsv"
        + (", leaderboard.csv, .md, .tex, .html" if boards is not None else ""),
        file=sys.stderr,
    )
    if args.table and not args.json:
        pooled = scored.extras["pooled"] if args.protocol == "pooled" else None
        sys.stdout.write(results_table(stack, pooled))
    else:
        _print(stack, boards, args, dataset)
    return 0


def results_table(stack, pooled=None, decimals: int = 3) -> str:
    """The official results tables' layout (SemEval-2016 Task 4): a row per run, a column per measure, the
    runs in the order of the first measure (best first; ties in run order), ``decimals`` decimals, tab-separated
    with a header. ``pooled``: the pooled protocol's table (run, then a column per measure); else the means."""
    if pooled is None:
        values = stack.means().T  # runs x measures
    else:
        rows = {row["run"]: row for row in pooled.records()}
        values = np.array([[rows[run][measure] for measure in stack.measures] for run in stack.runs], dtype=float)
    first = values[:, 0] if stack.lower_is_better[0] else -values[:, 0]
    order = np.argsort(first, kind="stable")
    lines = ["\t".join(["run", *stack.measures])]
    lines += ["\t".join([stack.runs[r], *(f"{value:.{decimals}f}" for value in values[r])]) for r in order]
    return "\n".join(lines) + "\n"


def _print(stack, boards, args, dataset: str) -> None:
    """Standard output: the leaderboard (Markdown or JSON), or the per-topic scores, or the means."""
    if args.json:
        document = {
            "dataset": dataset,
            "task": args.task,
            "runs": stack.runs,
            "topics": len(stack.topics),
            "measures": stack.measures,
            "out": str(args.out),
            "means": {
                m: dict(zip(stack.runs, map(float, row), strict=True))
                for m, row in zip(stack.measures, stack.means(), strict=True)
            },
        }
        if args.per_topic:
            document["per_topic"] = {
                m: {
                    run: dict(zip(stack.topics, map(float, stack.values[i, :, r]), strict=True))
                    for r, run in enumerate(stack.runs)
                }
                for i, m in enumerate(stack.measures)
            }
        if boards is None:
            print(json.dumps(document, indent=1, allow_nan=False))
        else:
            print_leaderboard(boards, True, document)
    elif args.per_topic:
        sys.stdout.write("".join(line + "\n" for line in per_topic_lines(stack)))
    elif boards is not None:
        print_leaderboard(boards, False)
    else:
        from ordeval.tasks.stack import matrix_text

        sys.stdout.write(matrix_text(stack.runs, stack.measures, stack.means().T, first="run"))


def add_parser(commands) -> None:
    """The ``score`` subcommand's arguments."""
    score = commands.add_parser(
        "score",
        help="score runs against a gold: per-topic scores and a leaderboard",
        description="Score runs against a gold with the task's measures; write <out>/<measure>.tsv (topics x runs), "
        "means.tsv, measures.tsv (classification: also pooled.tsv, conventions.tsv) and the leaderboard "
        "<out>/leaderboard.{csv,md,tex} (rank, mean and interval, significance groups); print the leaderboard "
        "(--per-topic: the per-topic scores, trec_eval -q style; --json: JSON) on standard output. A FILE may "
        f"be '-' for standard input (once); messages name it {STDIN}.",
    )
    add_file_options(score, required_format=False)
    score.add_argument("--gold", required=True, help="the gold file ('-': standard input)")
    score.add_argument(
        "--run",
        action="append",
        metavar="NAME=FILE",
        help="a run (repeat for each run; FILE alone: named after the file; NAME=-: standard input; tsv: every "
        "run of the table)",
    )
    score.add_argument(
        "--baseline",
        action="append",
        default=[],
        metavar="KIND",
        help="an organiser baseline computed from the gold: uniform, popularity (quantification) or "
        "constant:<class>; repeatable; named BL-uniform, BL-popularity, BL-<class> (BL-positive "
        "for class 1 of -2..2)",
    )
    score.add_argument(
        "--measures",
        help="comma-separated measure names (default: every measure of the task "
        "but those scored only where named, such as SemEval's EMD)",
    )
    score.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default="per-topic",
        help="per-topic: mean over topics, randomised Tukey HSD (default); pooled (classification): "
        "one confusion matrix over all items, paired randomisation test",
    )
    score.add_argument(
        "--per-topic",
        action="store_true",
        help="print the per-topic scores (run, measure, topic, score; 'all': the mean; 15 significant "
        "digits, the files keep every digit) instead of the leaderboard",
    )
    score.add_argument(
        "--out",
        default="ordeval-scores",
        help=f"output folder (default ordeval-scores): new, empty or written by an earlier 'ordeval "
        f"score' (whose files, listed in {checks.RECORD}, are replaced)",
    )
    score.add_argument("--no-leaderboard", action="store_true", help="write the scores only")
    score.add_argument(
        "--table",
        action="store_true",
        help="print one table instead of the leaderboard, as the official SemEval results: a row "
        "per run, a column per measure (mean over topics, or with --protocol pooled the pooled "
        "score), best first by the first measure, 3 decimals, tab-separated",
    )
    add_hsd_options(score)
