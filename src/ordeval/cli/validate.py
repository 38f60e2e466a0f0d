"""``ordeval validate``: every problem of gold and run files, as ``file:line: problem``."""

from __future__ import annotations

import sys

from ..errors import InputError
from .common import UserError, add_file_options, check_format, existing, parse_classes


def cmd_validate(args) -> int:
    from ..validation import check_file

    check_format(args.task, args.format)
    classes = parse_classes(args.classes)
    files = [existing(path) for path in args.files]
    found = 0
    gold = None
    try:
        if args.gold:
            gold_format = args.gold_format or (
                "ntcir_annotations" if args.format == "ntcir_submission" else args.format
            )
            check_format(args.task, gold_format, "--gold-format")
            gold = check_file(existing(args.gold), args.task, gold_format, classes, score=args.score, role="gold")
            found += _report(gold)
            if not gold.ok:
                print(
                    f"{args.gold}: the runs are checked against the gold once its problems are fixed", file=sys.stderr
                )
                return 1
        for path in files:
            checked = check_file(path, args.task, args.format, classes, score=args.score, role=args.role,
                                 gold=gold, align=args.align)  # fmt: skip
            found += _report(checked)
    except ValueError as error:  # a format/role that cannot be (e.g. a NTCIR file without --score)
        if isinstance(error, InputError):
            raise
        raise UserError(str(error)) from None
    if found:
        print(f"ordeval validate: {found} problem{'s' if found != 1 else ''} found", file=sys.stderr)
        return 1
    return 0


def _report(checked) -> int:
    for problem in checked.problems:
        print(problem)
    if checked.truncated:
        print(f"{checked.path}: (stopped after {len(checked.problems)} problems)")
    for note in checked.notes:
        print(f"{checked.path}: note: {note}")
    if checked.ok:
        print(
            f"{checked.path}: OK ({checked.role}: {checked.summary().removeprefix('ok: ').removeprefix('ok')})".replace(
                ": )", ")"
            )
        )
    return len(checked.problems)


def add_parser(commands) -> None:
    """The ``validate`` subcommand's arguments."""
    validate = commands.add_parser(
        "validate",
        help="check gold or run files and list every problem",
        description="Check gold or run files with the readers' rules and list every problem as 'file:line: problem'. "
        "With --gold, the FILEs are runs and are also paired with the gold. Exit status 1 if a problem is found.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="files to check")
    add_file_options(validate, required_format=True)
    validate.add_argument("--gold", help="the gold file: the FILEs are runs, checked against it")
    validate.add_argument("--role", choices=("gold", "run"), help="what the FILEs are (default: from the format)")
