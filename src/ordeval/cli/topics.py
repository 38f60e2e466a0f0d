"""``ordeval topics``: topic set size design (Sakai, "Topic Set Size Design", Information Retrieval Journal
19(3), 2016) from a scores folder: how many topics each measure needs to detect a given difference."""

from __future__ import annotations

import json

from ordeval.cli.common import UserError, existing


def cmd_topics(args) -> int:
    from ordeval.stats.topic_set_size import DESIGNS, table_text, topic_set_size_table
    from ordeval.tasks.stack import read_score_folder

    folder = existing(args.scores, "scores folder")
    matrices = read_score_folder(folder)
    if args.measure:
        unknown = [m for m in args.measure if m not in matrices]
        if unknown:
            raise UserError(f"{folder}: no scores of {', '.join(unknown)}; it has {', '.join(matrices)}")
        matrices = {m: matrices[m] for m in args.measure}
    designs = args.design or list(DESIGNS)
    table = topic_set_size_table(matrices, alpha=args.alpha, power=args.power, mdds=args.mdd or None, designs=designs)
    if args.json:
        print(json.dumps(table.records(), default=float, indent=1))
    else:
        print(table_text(table))
    return 0


def add_parser(commands) -> None:
    """The ``topics`` subcommand's arguments."""
    from ordeval.cli import checks

    parser = commands.add_parser(
        "topics",
        help="how many topics a test collection needs (topic set size design)",
        description="From each measure's topics x runs scores (a scores folder: the pipeline's scores/<dataset>/ "
        "or 'ordeval score --out'), the residual variance of the two-way ANOVA, then the topics needed by a "
        "paired t-test and a one-way ANOVA over the runs (exact power, noncentral t and F) to detect a minimum "
        "difference --mdd at --alpha with --power, and for a CI of a paired difference narrower than --mdd "
        "(Sakai, Information Retrieval Journal 19(3), 2016). Without --mdd: 5%, 10% and 20% of each "
        "measure's score range.",
    )
    parser.add_argument("scores", help="scores folder (stack.npz or <measure>.tsv files)")
    parser.add_argument("--alpha", type=checks.probability, default=0.05, help="significance level (default 0.05)")
    parser.add_argument("--power", type=checks.probability, default=0.8, help="power 1 - beta (default 0.8)")
    parser.add_argument(
        "--mdd",
        type=checks.positive_number,
        action="append",
        metavar="DIFF",
        help="minimum detectable difference (repeatable; default: scaled to each measure)",
    )
    # ordeval.stats.topic_set_size.DESIGNS, written out: that module imports scipy (~0.3 s), which every ordeval
    # command would pay for its --help (a test checks that the two agree).
    parser.add_argument("--design", choices=("paired_t", "anova", "ci"), action="append", help="only this design")
    parser.add_argument("--measure", action="append", metavar="NAME", help="only this measure (repeatable)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
