"""``ordeval fetch``: the public real data that the replication and the paper presets read, fetched from their
public origins (or a mirror, or a local copy) into the data folder and verified (:mod:`ordeval.data.fetch`)."""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager

from ordeval.cli.common import UserError


@contextmanager
def _terminated_as_interrupt():
    """SIGTERM (``kill``, a CI timeout) ends the fetch as Ctrl-C does: the file being written is removed (pooch
    writes to a temporary file, which its clean-up deletes), never left under its final name."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def cmd_fetch(args) -> int:
    from ordeval.data.fetch import check, fetch
    from ordeval.data.registry import URL_VARIABLE, check_base_url, fetch_command

    folder = args.to
    if args.check:
        if args.source or args.url:
            raise UserError("--check verifies the data folder only: it takes neither --from nor --url")
        outcomes, problems = check(folder)
        for line in problems:
            print(line)
        if problems:
            count = sum(outcome.files for outcome in outcomes)
            command = fetch_command(folder)
            print(
                f"ordeval fetch --check: {len(problems)} of the {count} registered files missing or changed in "
                f"{folder}; `{command}` fetches them (and replaces the changed ones)",
                file=sys.stderr,
            )
            return 1
        for outcome in outcomes:
            print(f"{outcome.dataset}: {outcome.files} files, {outcome.size / 1e6:.1f} MB: all present and verified")
        return 0
    if args.source and args.url:
        raise UserError("--from copies from a local copy and --url downloads from a mirror: give one of them")
    base = None
    if not args.source:
        named = args.url or os.environ.get(URL_VARIABLE, "").strip()
        if named:
            try:
                base = check_base_url(named, "--url" if args.url else URL_VARIABLE)
            except ValueError as error:
                raise UserError(str(error)) from None
    progress = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    with _terminated_as_interrupt():
        outcomes, origin = fetch(folder, base_url=base, source=args.source, retries=args.retries, progress=progress)
    for outcome in outcomes:
        print(outcome.line(origin))
    return 0


def add_parser(commands) -> None:
    """The ``fetch`` subcommand's arguments."""
    from ordeval.data.registry import DEFAULT_FOLDER, URL_VARIABLE, load

    registry = load()
    size = sum(entry.size for entry in registry.files) / 1e6
    parser = commands.add_parser(
        "fetch",
        help="fetch the public real data of the replication and the paper presets into resources/",
        description=f"Download the {len(registry.files)} registered public files ({size:.1f} MB: "
        f"{', '.join(registry.datasets)}) that config/replication.yaml and the paper presets read, each from its "
        f"origin repository at a pinned commit ({registry.host}/<owner>/<repo>/<commit>/<path>), into the data "
        "folder; check each file's size and SHA-256, write it atomically (never a partial file under its name), "
        "leave files already present and verified alone, and replace a registered file that was changed. A dropped "
        "connection is tried again. Ends with one line per data set. docs/data.md lists every file, its origin "
        "and its licence or terms. Exit status 2 on a problem (one line naming the file and what to do); with "
        "--check, 1 when a file is missing or changed.",
    )
    parser.add_argument(
        "--to",
        default=f"{DEFAULT_FOLDER}/",
        metavar="DIR",
        help=f"the data folder (default {DEFAULT_FOLDER}/, which the replication and the presets read; elsewhere run "
        "them with --config data_root=DIR)",
    )
    parser.add_argument(
        "--from",
        dest="source",
        metavar="DIR",
        help="copy the files from a local copy laid out as the data folder (a mirror on disk, a USB stick, a "
        "colleague's resources/) instead of downloading them, with the same checks",
    )
    parser.add_argument(
        "--url",
        metavar="BASE",
        help=f"download from a mirror laid out as BASE/<owner>/<repo>/<commit>/<path>, as {registry.host} is "
        f"(default: ${URL_VARIABLE}, else {registry.host})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="verify the data folder, download nothing: one line per missing or changed file, exit status 1 if any",
    )
    parser.add_argument(
        "--retries",
        type=_retries,
        default=3,
        metavar="N",
        help="times a dropped connection or a damaged download is tried again (default 3)",
    )


def _retries(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value <= 20:
        raise argparse.ArgumentTypeError(f"{value}: between 0 and 20")
    return value
