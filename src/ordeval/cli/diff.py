"""``ordeval diff OLD NEW``: which outputs of two results folders (or of a recorded reference and a results
folder) differ, and for tables which cells moved and by how much (:mod:`ordeval.results.reference`,
:mod:`ordeval.results.compare`). Exit status 0 when equal (within the tolerance), 1 when not, 2 on bad input."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable

from ordeval.cli.checks import non_negative_number, positive

#: Details shown per table and per list of files, unless --limit or --all says otherwise.
LIMIT = 10
PRECISION_HELP = (
    "Numbers are equal at the written precision: when the one written with more decimals, rounded to the "
    "decimals of the other, gives the other (|a - b| <= half a unit of the fewer decimals; a tie counts as "
    "equal). A number's decimals are the most decimals of its column in its table, so that a column printed at "
    "3 decimals is compared at 3 decimals; a table written in full precision (a number of 15 or more "
    "significant digits, as ordeval writes floats) holds exact numbers, so two of ordeval's tables are "
    "compared exactly. Text cells (and empty ones) are compared exactly."
)


def tolerance_of(args):
    """The tolerance the arguments ask for: :data:`ordeval.results.compare.PORTABLE` unless ``--exact`` or a given
    ``--tolerance`` / ``--relative-tolerance`` (each replacing its part)."""
    from ordeval.results.compare import EXACT, PORTABLE, Tolerance

    if args.exact:
        return EXACT
    absolute = PORTABLE.absolute if args.tolerance is None else args.tolerance
    relative = PORTABLE.relative if args.relative_tolerance is None else args.relative_tolerance
    return Tolerance(absolute, relative)


def cmd_diff(args) -> int:
    from ordeval.results.reference import compare_folders

    tolerance = tolerance_of(args)
    result = compare_folders(args.old, args.new, tolerance, args.ignore)
    limit = None if args.all else args.limit
    if args.json:
        print(json.dumps(document(result), indent=1, allow_nan=False))
    elif args.markdown:
        sys.stdout.write(markdown(result, limit))
    else:
        sys.stdout.write(terminal(result, limit))
    return 0 if result.equal else 1


# --------------------------------------------------------------------------- what every format says


def _number(value: float | None):
    """A difference for JSON (a string where it is not a finite float)."""
    return value if value is None or math.isfinite(value) else repr(value)


def _signed(value: float | None) -> str:
    return "" if value is None else f"{value:+.4g}"


def _key_text(diff, row_key) -> str:
    from ordeval.results.compare import describe_key

    return describe_key(diff.key, row_key)


def _largest(diff) -> str:
    cell = diff.largest
    if cell is None:
        return "text only" if diff.changed else ""
    return f"{_signed(cell.difference)} ({cell.column}; {_key_text(diff, cell.key)})"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def _counts(result) -> str:
    changed = len(result.changed_tables)
    parts = [
        f"{_plural(changed, 'table')} with changed cells or rows",
        f"{_plural(len(result.values), 'file')} with changed numbers or text",
        f"{_plural(len(result.changed), 'file')} changed (SHA-256)",
        f"{len(result.added)} added",
        f"{len(result.removed)} removed",
    ]
    within = result.equal_by_value + len(result.tables) - changed
    tail = [f"{result.identical + within} equal"]
    if within:
        tail.append(f"{within} of them equal within the tolerance with other bytes")
    if result.new.left_out or result.old.left_out:
        tail.append(f"{max(result.new.left_out, result.old.left_out)} volatile files left out")
    unlisted = result.old.unlisted + result.new.unlisted
    if unlisted:
        tail.append(
            f"{_plural(unlisted, 'file')} that no manifest lists left out (outputs of an earlier configuration, "
            "temporary files)"
        )
    if result.ignored:
        tail.append(f"{result.ignored} ignored (--ignore)")
    return f"{', '.join(parts)}; {', '.join(tail)}"


def _verdict(result) -> str:
    return "EQUAL" if result.equal else "NOT EQUAL"


def _table_notes(diff) -> list[str]:
    notes = []
    for what, rows in (("rows added", diff.rows_added), ("rows removed", diff.rows_removed)):
        if rows:
            notes.append(
                f"{len(rows)} {what}: "
                + "; ".join(_key_text(diff, row) for row in rows[:LIMIT])
                + (f"; ... {len(rows) - LIMIT} more" if len(rows) > LIMIT else "")
            )
    for what, columns in (("columns added", diff.columns_added), ("columns removed", diff.columns_removed)):
        if columns:
            notes.append(f"{what}: {', '.join(columns)}")
    if diff.columns_reordered:
        notes.append("columns in another order (not a difference: columns are matched by name)")
    if diff.rows_reordered:
        notes.append("rows in another order (not a difference: rows are matched by their key)")
    return notes


def _key_note(diff) -> str:
    from ordeval.results.compare import ROW_NUMBER

    if diff.key == [ROW_NUMBER]:
        return "rows matched by position (no text column)"
    named = [name for name in diff.key if name != ROW_NUMBER]
    return f"rows matched by {', '.join(named)}" + (
        " and their order among equal keys (#)" if ROW_NUMBER in diff.key else ""
    )


def _cells_changed(diff) -> str:
    count = len(diff.changed)
    return f"{count} cell{'s' * (count != 1)} changed"


def _shown(items: list, limit: int | None) -> tuple[list, int]:
    if limit is None or len(items) <= limit:
        return items, 0
    return items[:limit], len(items) - limit


def _more(count: int, markdown: bool = False) -> str:
    option = "`--all`" if markdown else "--all"
    return f"... {count} more ({option} shows every one)"


def _file_lists(result):
    return [
        ("Files changed (SHA-256: figures, or files one side keeps by hash only)", result.changed),
        ("Added", result.added),
        ("Removed", result.removed),
    ]


def _environment_lines(result) -> list[list[str]]:
    """[what, old, new] where the two sides' recorded environments differ."""
    return [[key, old, new] for key, (old, new) in result.environments_differ.items()]


# --------------------------------------------------------------------------- terminal


def _aligned(rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        (indent + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]


def terminal(result, limit: int | None = LIMIT) -> str:
    """The comparison for a terminal: the verdict and counts, a line per changed table (cells changed, the
    largest difference), the files changed, added and removed, then each changed table's cells."""
    lines = [
        f"ordeval diff: {result.old.path} ({result.old.kind}) -> {result.new.path} ({result.new.kind})",
        f"{_verdict(result)}: {_counts(result)}",
        f"Numbers: {result.tolerance.describe()}.",
    ]
    environments = _environment_lines(result)
    if environments:
        lines += [
            "",
            "Environments differ (results can differ in their last bits across them; numbers are compared "
            "within the tolerance)",
            *_aligned([["", "old", "new"], *environments]),
        ]
    changed = result.changed_tables
    if changed:
        lines += ["", "Tables with changed cells or rows"]
        rows = [["table", "cells changed", "largest difference"]]
        rows += [[t.path, f"{len(t.diff.changed)} of {t.diff.compared}", _largest(t.diff)] for t in changed]
        lines += _aligned(rows)
    if result.values:
        shown, more = _shown(result.values, limit)
        lines += ["", "Files with changed numbers or text (compared by value)"]
        lines += [f"  {change.path}: {change.what}" for change in shown] + ([f"  {_more(more)}"] if more else [])
    for title, names in _file_lists(result):
        if names:
            shown, more = _shown(names, limit)
            lines += ["", title, *(f"  {name}" for name in shown)] + ([f"  {_more(more)}"] if more else [])
    for table in changed:
        diff = table.diff
        lines += ["", f"{table.path}: {_cells_changed(diff)}; {_key_note(diff)}"]
        shown, more = _shown(diff.changed, limit)
        if shown:
            rows = [["row", "column", "old", "new", "difference"]]
            rows += [[_key_text(diff, c.key), c.column, c.old, c.new, _signed(c.difference)] for c in shown]
            lines += _aligned(rows)
        if more:
            lines.append(f"  {_more(more)}")
        lines += [f"  {note}" for note in _table_notes(diff)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- Markdown


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_table(header: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in rows]


def markdown(result, limit: int | None = LIMIT) -> str:
    """The comparison as Markdown (a CI log, a pull-request comment): the same content as :func:`terminal`."""
    lines = [
        f"### ordeval diff: `{result.old.path}` → `{result.new.path}`",
        "",
        f"**{_verdict(result)}**: {_counts(result)}. Numbers: {result.tolerance.describe()}.",
    ]
    environments = _environment_lines(result)
    if environments:
        lines += [
            "",
            "Environments differ (numbers are compared within the tolerance):",
            "",
            *_md_table(["", "old", "new"], environments),
        ]
    changed = result.changed_tables
    if changed:
        rows = [[f"`{t.path}`", f"{len(t.diff.changed)} of {t.diff.compared}", _largest(t.diff)] for t in changed]
        lines += ["", *_md_table(["table", "cells changed", "largest difference"], rows)]
    if result.values:
        shown, more = _shown(result.values, limit)
        lines += ["", "**Files with changed numbers or text (compared by value)**", ""]
        lines += [f"- `{change.path}`: {_md(change.what)}" for change in shown]
        lines += [f"- {_more(more, markdown=True)}"] if more else []
    for title, names in _file_lists(result):
        if names:
            shown, more = _shown(names, limit)
            lines += ["", f"**{title}**", "", *(f"- `{name}`" for name in shown)]
            lines += [f"- {_more(more, markdown=True)}"] if more else []
    for table in changed:
        diff = table.diff
        lines += ["", f"#### `{table.path}`", "", f"{_cells_changed(diff)}; {_key_note(diff)}."]
        shown, more = _shown(diff.changed, limit)
        if shown:
            rows = [[_key_text(diff, c.key), c.column, c.old, c.new, _signed(c.difference)] for c in shown]
            lines += ["", *_md_table(["row", "column", "old", "new", "difference"], rows)]
        if more:
            lines += ["", _more(more, markdown=True)]
        notes = _table_notes(diff)
        lines += ["", *(f"- {_md(note)}" for note in notes)] if notes else []
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- JSON


def _key_object(diff, row_key) -> dict:
    return dict(zip(diff.key, row_key, strict=True))


def document(result) -> dict:
    """Everything, uncapped: the verdict, the files, and each compared table with its cells."""
    tables = []
    for table in result.tables:
        diff = table.diff
        tables.append(
            {
                "path": table.path,
                "equal": diff.equal,
                "key": diff.key,
                "cells_compared": diff.compared,
                "cells_changed": len(diff.changed),
                "largest_difference": _number(diff.largest.difference) if diff.largest else None,
                "cells": [
                    {
                        "key": _key_object(diff, c.key),
                        "column": c.column,
                        "old": c.old,
                        "new": c.new,
                        "difference": _number(c.difference),
                    }
                    for c in diff.changed
                ],
                "rows_added": [_key_object(diff, row) for row in diff.rows_added],
                "rows_removed": [_key_object(diff, row) for row in diff.rows_removed],
                "columns_added": diff.columns_added,
                "columns_removed": diff.columns_removed,
                "columns_reordered": diff.columns_reordered,
                "rows_reordered": diff.rows_reordered,
            }
        )
    return {
        "old": {"path": str(result.old.path), "kind": result.old.kind},
        "new": {"path": str(result.new.path), "kind": result.new.kind},
        "equal": result.equal,
        "tolerance": result.tolerance.as_dict(),
        "added": result.added,
        "removed": result.removed,
        "changed": [
            {"path": name, "old_sha256": result.old.hashes[name], "new_sha256": result.new.hashes[name]}
            for name in result.changed
        ],
        "tables": tables,
        "values": [{"path": change.path, "what": change.what} for change in result.values],
        "identical": result.identical,
        "equal_by_value": result.equal_by_value,
        "environments": {
            "old": result.old.environment,
            "new": result.new.environment,
            "differ": sorted(result.environments_differ),
        },
        "ignored": result.ignored,
        "left_out": {"old": result.old.left_out, "new": result.new.left_out},
        "unlisted": {"old": result.old.unlisted, "new": result.new.unlisted},
    }


# --------------------------------------------------------------------------- arguments


def add_parser(commands) -> None:
    """The ``diff`` subcommand's arguments."""
    from ordeval.results.reference import INDEX, VOLATILE

    parser = commands.add_parser(
        "diff",
        help="compare two results folders, or a recorded reference and a results folder",
        description="Compare the outputs of OLD and NEW, each a results folder (results/<name>/) or a recorded "
        f"reference ('ordeval reference'; a folder with {INDEX}): outputs added, removed and changed; for tables "
        "(.csv, .tsv: the tables, the score matrices scores/<dataset>/<measure>.tsv) whose text both sides hold, "
        "the changed cells with their row, column, old and new value and difference (new - old). Columns are "
        "matched by name and rows by their key, so columns or rows in another order are not a difference; the key "
        "is the fewest leading text columns (a column with a cell that is not a number) that identify every row "
        "(e.g. measure_a, measure_b); when none do, the fewest that come closest, the rows of equal key numbered "
        f"in order (#); a table without text columns row by row. {PRECISION_HELP.replace('%', '%%')} Other "
        "number-bearing files (.tex, .html, .json, .md, .npz, and tables one side keeps as a fingerprint only) are "
        "compared by value: their text (or array layout) exactly and their numbers within the tolerance; figures "
        "(.png, .pdf) by SHA-256. Numbers are equal within 1e-12 or 1e-9 of the larger magnitude unless --exact or "
        "another tolerance is given: floating-point results differ in their last bits between CPUs (docs/methods.md, "
        "section 8). "
        f"Left out on both sides, as they embed the commit, versions or times: {', '.join(VOLATILE)}. "
        "Exit status: 0 equal, 1 not equal, 2 bad input.",
    )
    parser.add_argument("old", metavar="OLD", help="results folder or recorded reference")
    parser.add_argument("new", metavar="NEW", help="results folder or recorded reference")
    parser.add_argument(
        "--tolerance",
        type=non_negative_number,
        metavar="ABS",
        help="numbers within ABS of each other are also equal (default 1e-12; 0: off)",
    )
    parser.add_argument(
        "--relative-tolerance",
        type=non_negative_number,
        metavar="REL",
        help="numbers within REL times the larger magnitude are also equal, as math.isclose (default 1e-9; 0: off)",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="no tolerance: numbers equal at their written precision only (same machine)",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out the files matching GLOB, relative to the folders ('*' matches '/' too: "
        "'figures/*'); repeatable",
    )
    parser.add_argument(
        "--limit",
        type=positive,
        default=LIMIT,
        metavar="N",
        help=f"cells per table and files per list shown (default {LIMIT}; '... N more')",
    )
    parser.add_argument("--all", action="store_true", help="show every changed cell and file")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="Markdown (a CI log, a pull-request comment)")
    output.add_argument("--json", action="store_true", help="machine-readable output, every cell (JSON)")
