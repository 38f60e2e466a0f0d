"""``ordeval reference RESULTS OUT``: record the reference of a results folder (:mod:`ordeval.results.reference`),
which ``ordeval diff OUT RESULTS`` compares a later run with."""

from __future__ import annotations

import sys


def cmd_reference(args) -> int:
    from ordeval.results.fingerprint import by_value
    from ordeval.results.recording import record_reference
    from ordeval.results.reference import KEPT_TEXT, matches

    files = record_reference(args.results, args.out)
    kept = sum(matches(name, KEPT_TEXT) for name in files)
    valued = sum(by_value(name) and not matches(name, KEPT_TEXT) for name in files)
    print(
        f"{args.out}: reference of {args.results}: {len(files)} outputs by SHA-256, the text of {kept} tables, "
        f"the fingerprint of the numbers of {valued} other files",
        file=sys.stderr,
    )
    return 0


def add_parser(commands) -> None:
    """The ``reference`` subcommand's arguments."""
    from ordeval.results.reference import INDEX, KEPT_TEXT, VOLATILE

    parser = commands.add_parser(
        "reference",
        help="record a results folder as the reference that 'ordeval diff' compares later runs with",
        description=f"Write OUT/{INDEX} (the SHA-256 of every output the results folder's manifest.json records, "
        "the fingerprint of the numbers of every other number-bearing file -- score matrices, runs, arrays, LaTeX, "
        "HTML -- that 'ordeval diff' compares within a tolerance, and the machine's environment) and a copy of the "
        f"tables {', '.join(KEPT_TEXT)} (their numbers as text), under the same paths as in RESULTS. Figures are "
        f"recorded by hash. Left out, as they embed the commit, versions or times: {', '.join(VOLATILE)}. The "
        "results folder must be complete and unchanged since the run (every file of the manifest present, with its "
        "SHA-256). OUT must lie outside RESULTS and be new, empty, or an earlier reference that holds only the "
        f"files it wrote (listed in its {INDEX}); it is replaced once the new reference is complete, and never "
        "when anything else is in it.",
    )
    parser.add_argument("results", metavar="RESULTS", help="results folder of a complete run (results/<name>/)")
    parser.add_argument("out", metavar="OUT", help="the reference folder (e.g. reference/<name>/)")
