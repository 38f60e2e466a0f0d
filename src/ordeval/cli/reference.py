"""``ordeval reference RESULTS OUT``: record the reference of a results folder (:mod:`ordeval.reference`),
which ``ordeval diff OUT RESULTS`` compares a later run with."""

from __future__ import annotations

import sys


def cmd_reference(args) -> int:
    from ..reference import KEPT_TEXT, matches, record_reference

    files = record_reference(args.results, args.out)
    kept = sum(matches(name, KEPT_TEXT) for name in files)
    print(f"{args.out}: reference of {args.results}: {len(files)} outputs by SHA-256, the text of {kept} tables",
          file=sys.stderr)  # fmt: skip
    return 0


def add_parser(commands) -> None:
    """The ``reference`` subcommand's arguments."""
    from ..reference import INDEX, KEPT_TEXT, VOLATILE

    parser = commands.add_parser(
        "reference",
        help="record a results folder as the reference that 'ordeval diff' compares later runs with",
        description=f"Write OUT/{INDEX} (the SHA-256 of every output the results folder's manifest.json records, "
        f"one line per file) and a copy of the tables {', '.join(KEPT_TEXT)} (their numbers as text), under the "
        "same paths as in RESULTS. Figures and intermediate files are recorded by hash only. Left out, as they "
        f"embed the commit, versions or times: {', '.join(VOLATILE)}. The results folder must be complete and "
        "unchanged since the run (every file of the manifest present, with its SHA-256). OUT must be new, empty, "
        "or an earlier reference, which is replaced whole.",
    )
    parser.add_argument("results", metavar="RESULTS", help="results folder of a complete run (results/<name>/)")
    parser.add_argument("out", metavar="OUT", help="the reference folder (e.g. reference/<name>/)")
