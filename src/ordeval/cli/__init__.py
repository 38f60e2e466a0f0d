"""The ``ordeval`` command: score runs, leaderboards, file checks, the measure registry, the pipeline.

``ordeval measures``     the registered measures (name, task, direction, formula, reference)
``ordeval validate``     every problem of gold and run files, as ``file:line: problem`` (exit 1 if any)
``ordeval score``        per-topic scores of runs against a gold, their means and the leaderboard
``ordeval leaderboard``  the leaderboard of a scores folder (``<measure>.tsv`` files)
``ordeval run``          the Snakemake pipeline, with a one-screen summary and the full log in a file
``ordeval properties``   the measures' properties, checked on defining cases and random instances
``ordeval topics``       how many topics a test collection needs (topic set size design)
``ordeval evaluate-measure``  a new measure's meta-evaluation next to the established ones
``ordeval diff``         which outputs of two results folders (or a reference and a results folder) differ,
                         and which table cells moved by how much (exit 1 when they differ)
``ordeval reference``    record a results folder as the reference that ``diff`` compares later runs with
``ordeval fetch``        the public real data of the replication and the paper presets, fetched into resources/
                         and verified (``--check``: verify only, exit 1 when a file is missing or changed)

A user error (a missing file, a bad format, a configuration or input error) is one line on stderr,
``ordeval: error: <file>:<line>: <problem>``, and exit status 2; never a traceback (set
``ORDEVAL_DEBUG=1`` to see one). ``ordeval validate`` exits with 1 when it finds a problem, ``ordeval diff``
when the folders differ, ``ordeval fetch --check`` when a file is missing or changed; these statuses hold when
standard output is a closed pipe (``| head -1``) or closed (``>&-``): what would have been printed is dropped
(:mod:`ordeval.cli.streams`).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from collections.abc import Sequence

from ordeval import __version__
from ordeval.cli import (
    diff,
    evaluate,
    fetch,
    inputs,
    leaderboard,
    measures,
    properties,
    reference,
    run,
    score,
    stopping,
    streams,
    topics,
    validate,
)
from ordeval.cli.common import Parser, UserError, describe, fail, load_plugin_files, one_line, parse_classes
from ordeval.io.errors import ConfigError, InputError
from ordeval.stats.threads import damaged_kernel_cache

__all__ = ["main", "build_parser", "parse_classes", "UserError"]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="ordeval",
        description="Meta-evaluation of ordinal classification and quantification measures: score runs, "
        "leaderboards with significance groups, file checks, the measure registry, the full pipeline.",
        epilog="Each command has its own --help. Errors are one line on stderr; exit status 2 (1: problems found by "
        "'validate', differences found by 'diff').",
    )
    parser.add_argument("--version", action="version", version=f"ordeval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in (measures, validate, score, leaderboard, run, properties, topics, evaluate, diff, reference, fetch):
        module.add_parser(commands)
    return parser


def plugin_arguments(argv: Sequence[str]) -> list[str]:
    """The values of every ``--plugins FILE`` / ``--plugins=FILE`` in ``argv``."""
    found = []
    for index, argument in enumerate(argv):
        if argument == "--plugins" and index + 1 < len(argv):
            found.append(argv[index + 1])
        elif argument.startswith("--plugins="):
            found.append(argument.split("=", 1)[1])
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """The ``ordeval`` command; returns the exit status, the documented one also when standard output is a
    closed pipe or closed (:mod:`ordeval.cli.streams`)."""
    try:
        with streams.guarded(), stopping.stoppable():
            return _main(list(sys.argv[1:] if argv is None else argv))
    except stopping.Stopped as stop:  # before or after a command's own handling: the cleanup has run
        _say_stopped(stop)
        return 128 + stop.number
    except streams.OutputError as error:  # a full disk behind '> file': say where, on what is left
        try:
            print(f"ordeval: error: {error.strerror}", file=sys.stderr)
        except (OSError, ValueError, AttributeError):
            pass
        return 2


def _say_stopped(stop: stopping.Stopped) -> None:
    try:
        print(f"ordeval: stopped by {stop.name}", file=sys.stderr)
    except (OSError, ValueError, AttributeError):
        pass


def _main(argv: list[str]) -> int:
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1 :]
    inputs.reset()
    try:  # before the parser is built: a plugin may add a file format (--format's choices) or a measure
        load_plugin_files(plugin_arguments(argv))
    except ConfigError as error:
        return fail(describe(error))
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0) if not isinstance(stop.code, str) else 2
    if args.command is None:
        parser.print_help()
        return 0
    if extra and args.command not in ("run", "evaluate-measure"):
        return fail(f"arguments after '--' are for 'ordeval run' and 'evaluate-measure' only: {' '.join(extra)}")
    handlers = {
        "measures": measures.cmd_measures,
        "validate": validate.cmd_validate,
        "score": score.cmd_score,
        "leaderboard": leaderboard.cmd_leaderboard,
        "properties": properties.cmd_properties,
        "topics": topics.cmd_topics,
        "diff": diff.cmd_diff,
        "reference": reference.cmd_reference,
        "fetch": fetch.cmd_fetch,
    }
    try:
        if args.command == "run":
            return run.cmd_run(args, extra)
        if args.command == "evaluate-measure":
            return evaluate.cmd_evaluate(args, extra)
        return handlers[args.command](args)
    except UserError as error:
        return fail(one_line(str(error)))
    except streams.OutputError:
        raise
    except (InputError, ConfigError, OSError, ValueError, KeyError) as error:
        if os.environ.get("ORDEVAL_DEBUG"):
            raise
        return fail(describe(error))
    except pickle.UnpicklingError:  # ordeval unpickles nothing (allow_pickle=False): numba's cache of its kernels
        if os.environ.get("ORDEVAL_DEBUG"):
            raise
        return fail(damaged_kernel_cache())
    except MemoryError:  # e.g. a huge valid file under `ulimit -v`: the readers stop early on one that is not text
        if os.environ.get("ORDEVAL_DEBUG"):
            raise
        return fail(f"out of memory: 'ordeval {args.command}' needs more memory than this process may use")
    except stopping.Stopped as stop:
        _say_stopped(stop)
        return 128 + stop.number
    except KeyboardInterrupt:
        print("ordeval: interrupted", file=sys.stderr)
        return 130
    except SystemExit as stop:  # ordeval itself never calls sys.exit here: a plugin's code did
        return fail(f"'ordeval {args.command}' ended by sys.exit({stop.code!r}) in a plugin's code")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
