"""``ordeval properties``: the property checks of every registered measure (or of some), computed on the
defining cases and seeded random instances (:mod:`ordeval.properties`)."""

from __future__ import annotations

import json
import sys

from ordeval.cli.common import UserError, add_plugin_option, load_plugin_files, scoring_tasks


def cmd_properties(args) -> int:
    load_plugin_files(args.plugins)
    from ordeval.properties import property_table, render, resolve_measures, table_disagreements

    try:
        measures = resolve_measures(args.measure or None, args.task)
    except KeyError as error:
        raise UserError(str(error.args[0])) from None
    table = property_table(measures, trials=args.trials, seed=args.seed)
    if args.format == "json":
        print(json.dumps(table.records(), default=str, indent=1))
    else:
        print(render(table, markdown=args.format == "markdown"))
    problems = table_disagreements(table)
    for line in problems:
        print(f"ordeval: declared flag contradicted: {line}", file=sys.stderr)
    return 1 if problems else 0


def add_parser(commands) -> None:
    """The ``properties`` subcommand's arguments."""
    from ordeval.cli import checks

    parser = commands.add_parser(
        "properties",
        help="check the measures' properties (computed, not declared)",
        description="Each property of a measure's task (ordinal, handles constant runs, handles class imbalance; "
        "the OQ properties) checked on its defining cases and seeded random instances: holds or violated, with the "
        "smallest counterexample or witness found ('*': the verdict rests on the search). Exit status 1 when a "
        "measure's declared flag disagrees with its check.",
    )
    parser.add_argument("--measure", action="append", metavar="NAME", help="only this measure (repeatable)")
    parser.add_argument("--task", choices=scoring_tasks(), help="only the measures of this task")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text", help="output format")
    parser.add_argument("--trials", type=checks.trials, default=2000, help="instances per property (default 2000)")
    parser.add_argument("--seed", type=checks.seed, default=0, help="seed of the random instances (default 0)")
    add_plugin_option(parser)
