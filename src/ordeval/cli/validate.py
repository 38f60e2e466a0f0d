"""``ordeval validate``: every problem of gold and run files, as ``file:line: problem``."""

from __future__ import annotations

import json
import sys

from ordeval.cli.common import UserError, add_file_options, add_plugin_option, check_format, parse_classes, task_formats
from ordeval.cli.inputs import format_hint, gold_format_of, input_path, shown
from ordeval.io.errors import InputError


def cmd_validate(args) -> int:
    from ordeval.tasks.validation import check_file

    check_format(args.task, args.format)
    gold_format = gold_format_of(args)
    if args.gold:
        check_format(args.task, gold_format, "--gold-format")
    classes = parse_classes(args.classes)
    if args.files.count("-") + (args.gold == "-") > 1:
        raise UserError("standard input ('-') can be read once")
    gold_path = input_path(args.gold, "--gold") if args.gold else None
    files = [input_path(path) for path in args.files]
    report = _json_report if args.json else _report
    checked_files = []
    found = 0
    gold = None
    try:
        if gold_path is not None:
            gold = _checked(
                check_file(gold_path, args.task, gold_format, classes, score=args.score, role="gold"),
                args.task,
                "--gold-format" if args.gold_format else "--format",
            )
            checked_files.append(gold)
            found += report(gold)
            if not gold.ok:
                _finish(args, checked_files, found)
                print(
                    f"{shown(str(gold_path))}: the runs are checked against the gold once its problems are fixed",
                    file=sys.stderr,
                )
                return 1
        for path in files:
            checked = check_file(
                path, args.task, args.format, classes, score=args.score, role=args.role, gold=gold, align=args.align
            )
            checked_files.append(_checked(checked, args.task))
            found += report(checked)
    except ValueError as error:  # a format/role that cannot be (e.g. a NTCIR file without --score)
        if isinstance(error, InputError):
            raise
        raise UserError(str(error)) from None
    _finish(args, checked_files, found)
    if found:
        print(f"ordeval validate: {found} problem{'s' if found != 1 else ''} found", file=sys.stderr)
        return 1
    return 0


def _checked(checked, task: str, option: str = "--format"):
    """``checked``; a UserError (one line with a guess at the right format) where the file has problems
    and looks like another format of the task."""

    if checked.problems:
        hint = format_hint(checked.path, checked.fmt, task_formats(task), option)
        if hint:
            raise UserError(f"{checked.path}: not a {checked.fmt} file ({checked.problems[0].problem}){hint}")
    return checked


def _json_report(checked) -> int:
    return len(checked.problems)


def _finish(args, checked_files, found: int) -> None:
    """With ``--json``: one document listing every file checked, its problems and notes."""
    if not args.json:
        return
    files = [
        {
            "file": shown(str(checked.path)),
            "role": checked.role,
            "format": checked.fmt,
            "ok": checked.ok,
            "summary": shown(checked.summary()) if checked.ok else "",
            "problems": [{"line": problem.line, "problem": shown(problem.problem)} for problem in checked.problems],
            "truncated": checked.truncated,
            "notes": [shown(note) for note in checked.notes],
        }
        for checked in checked_files
    ]
    print(json.dumps({"problems": found, "files": files}, indent=1))


def _say(text: str) -> None:
    """A line of the report, standard input's copy named ``<stdin>``."""
    print(shown(text))


def _report(checked) -> int:
    for problem in checked.problems:
        _say(str(problem))
    if checked.truncated:
        _say(f"{checked.path}: (stopped after {len(checked.problems)} problems)")
    for note in checked.notes:
        _say(f"{checked.path}: note: {note}")
    if checked.ok:
        _say(
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
    validate.add_argument("files", nargs="+", metavar="FILE", help="files to check ('-': standard input)")
    add_file_options(validate, required_format=True)
    add_plugin_option(validate)
    validate.add_argument("--gold", help="the gold file: the FILEs are runs, checked against it")
    validate.add_argument("--role", choices=("gold", "run"), help="what the FILEs are (default: from the format)")
    validate.add_argument("--json", action="store_true", help="one JSON document on stdout: every file, its problems")
