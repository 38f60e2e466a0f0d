"""What the subcommands share: one-line user errors, progress on stderr, argument parsing helpers."""

from __future__ import annotations

import argparse
import re
import sys
import time

from ordeval.cli.checks import UserError, existing  # noqa: F401 (the subcommands take them from here)
from ordeval.io.errors import InputError
from ordeval.tasks import scoring_tasks  # noqa: F401 (the subcommands' task choices)

# --------------------------------------------------------------------------- one-line errors


def one_line(text: str) -> str:
    """Several lines as one: ``a:\n  b\n  c`` -> ``a: b; c``."""
    line = ""
    for part in (part.strip() for part in str(text).splitlines()):
        if part:
            line += part if not line else (" " if line.endswith(":") else "; ") + part
    return line


def describe(error: BaseException) -> str:
    """``<file>:<line>: <problem>`` (or ``<file>: <problem>``) for an error about an input or a configuration."""
    if isinstance(error, InputError):
        where = error.where or ""
        match = re.match(r"^line (\d+)\b\s*(.*)$", where, re.S)
        if match:
            rest = match.group(2).strip()
            return one_line(f"{error.path}:{match.group(1)}: {error.problem}" + (f" {rest}" if rest else ""))
        return one_line(f"{error.path}, {where}: {error.problem}" if where else f"{error.path}: {error.problem}")
    if isinstance(error, FileNotFoundError) and error.filename:
        return f"{error.filename}: no such file"
    if isinstance(error, OSError) and error.filename:
        return f"{error.filename}: {error.strerror or error}"
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return one_line(re.sub(r"^(.*?), line (\d+): ", r"\1:\2: ", text))


def fail(message: str) -> int:
    from ordeval.cli.inputs import shown

    print(f"ordeval: error: {shown(message)}", file=sys.stderr)
    return 2


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line too (``ordeval: error: ...``), exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse's hook
        self.exit(2, f"ordeval: error: {one_line(message)} (see '{self.prog} --help')\n")


# --------------------------------------------------------------------------- progress on stderr


class Progress:
    """A one-line progress indication on stderr: redrawn in place on a terminal; on another stream
    (``--progress`` with stderr redirected), one line per tenth of the work."""

    def __init__(self, label: str, enabled: bool, stream=None):
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.tty = self.enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.shown = -1
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        percent = int(100 * done / total)
        elapsed = time.monotonic() - self.start
        text = f"{self.label}: {done:,}/{total:,} ({percent}%) {elapsed:.0f} s"
        if self.tty:
            width = 30
            filled = int(width * done / total)
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r{self.label}: [{bar}] {done:,}/{total:,} {elapsed:.0f} s")
            if done >= total:
                self.stream.write("\n")
        elif percent // 10 > self.shown or done >= total:
            self.shown = percent // 10
            self.stream.write(text + "\n")
        self.stream.flush()


def progress_wanted(args) -> bool:
    return bool(getattr(args, "progress", False)) or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())


# --------------------------------------------------------------------------- shared argument parsing


def parse_classes(text: str | None) -> list:
    """``-2,-1,0,1,2`` (the labels, ascending), or a number K: K classes labelled -(K-1)/2..(K-1)/2 when
    K is odd (SemEval's -2..2 for 5), 0..K-1 when K is even. Default: -2..2."""
    if text is None:
        return [-2, -1, 0, 1, 2]
    parts = [part.strip() for part in str(text).split(",") if part.strip()]
    if len(parts) == 1:
        try:
            count = int(parts[0])
        except ValueError:
            raise UserError(f"--classes: {text!r} is neither a number of classes nor a comma-separated list") from None
        if count < 2:
            raise UserError(f"--classes: ordinal data need at least 2 classes, not {count}")
        return list(range(-(count // 2), count // 2 + 1)) if count % 2 else list(range(count))
    labels = []
    for part in parts:
        try:
            labels.append(int(part))
        except ValueError:
            labels.append(part)
    if len(set(map(str, labels))) != len(labels):
        raise UserError(f"--classes: duplicate label in {text!r}")
    return labels


def measure_list(text: str | None, task: str | None = None) -> list[str] | None:
    if not text:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if task:
        from ordeval.tasks import get_task

        registry = get_task(task).registry
        unknown = [name for name in names if name not in registry]
        if unknown:
            raise UserError(
                f"--measures: unknown {task} measure(s) {', '.join(unknown)}; known: {', '.join(registry.names())}"
            )
    if len(set(names)) != len(names):
        raise UserError(f"--measures: a measure is named twice in {text!r}")
    return names


# --------------------------------------------------------------------------- tasks and formats from the registry


def task_formats(task: str) -> list[str]:
    """The file formats the readers of ``task`` take, sorted."""
    from ordeval.api import file_formats

    return file_formats(task)


def all_formats() -> list[str]:
    """Every file format of a scoring task."""
    return sorted({fmt for task in scoring_tasks() for fmt in task_formats(task)})


def format_help() -> str:
    """``quantification: a, b; classification: c, d``."""
    return "; ".join(f"{task}: {', '.join(task_formats(task))}" for task in scoring_tasks())


def check_format(task: str, fmt: str, option: str = "--format") -> None:
    """A UserError unless ``fmt`` is a format of ``task``."""
    if fmt not in task_formats(task):
        raise UserError(f"{option}: {task} files can be {', '.join(task_formats(task))}, not {fmt!r}")


def title(text: str) -> str:
    """An argparse type: a name for titles (printable characters, at most 200)."""
    if not text.strip() or len(text) > 200 or not text.isprintable():
        raise argparse.ArgumentTypeError(f"{text[:200]!r}: printable characters, 1 to 200")
    return text


def add_hsd_options(parser: argparse.ArgumentParser) -> None:
    """The options of a leaderboard: the significance test, intervals, title, output."""
    from ordeval.cli import checks

    parser.add_argument(
        "--trials",
        "-B",
        type=checks.trials,
        default=5000,
        help=f"trials of the significance test (default 5000; at most {checks.MAX_TRIALS:,} and the "
        f"memory limit, see {checks.MEMORY_VARIABLE} in docs/organiser.md)",
    )
    parser.add_argument("--seed", type=checks.seed, default=0, help="random seed of the trials (0..2^63-1, default 0)")
    parser.add_argument(
        "--alpha", type=checks.probability, default=0.05, help="significance level of the groups (default 0.05)"
    )
    parser.add_argument(
        "--level", type=checks.probability, default=0.95, help="confidence level of the intervals (default 0.95)"
    )
    parser.add_argument("--threads", type=checks.positive, default=None, help="threads of the HSD (default: all)")
    parser.add_argument(
        "--name",
        type=title,
        help="data set name in the leaderboard's title (default: the data set's folder or file name)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output on stdout (JSON)")
    add_plugin_option(parser)
    parser.add_argument(
        "--progress", action="store_true", help="show progress on stderr even when it is not a terminal"
    )


def add_plugin_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugins",
        action="append",
        default=[],
        metavar="FILE",
        help="a plugin (Python file or module) that registers measures; repeatable",
    )


def load_plugin_files(plugins) -> None:
    """Import the ``--plugins`` (and the installed entry points), before any measure is looked up."""
    from ordeval.tasks.plugins import load_plugins

    load_plugins(list(plugins or ()), key="--plugins")


def add_file_options(parser: argparse.ArgumentParser, *, required_format: bool) -> None:
    tasks = scoring_tasks()
    parser.add_argument("--task", choices=tasks, required=True, help=f"the task of the files ({', '.join(tasks)})")
    parser.add_argument(
        "--format",
        required=required_format,
        default="tsv",
        choices=all_formats(),
        metavar="FORMAT",
        help=f"file format of the runs ({format_help()})",
    )
    parser.add_argument(
        "--gold-format",
        help="file format of the gold (default: as --format; ntcir_annotations for ntcir_submission runs)",
    )
    parser.add_argument(
        "--classes",
        help="class labels, ascending, comma-separated (default -2,-1,0,1,2), or their "
        "number K (odd K: centred on 0; even K: 0..K-1)",
    )
    parser.add_argument("--score", choices=("A", "E", "S"), help="NTCIR files: which score's distribution")
    parser.add_argument(
        "--align",
        choices=("id", "position"),
        default="id",
        help="classification: pair a run with the gold by item id (default) or line position",
    )
