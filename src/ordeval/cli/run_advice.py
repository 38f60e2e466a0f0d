"""What ``ordeval run`` says once Snakemake has ended: the one-line errors of a failed run and only the hints that
apply -- a Snakemake running in the project now (named, never told to unlock), locks or outputs marked incomplete
that a stopped or interrupted run left (the command that continues, with ``--unlock`` or ``--rerun-incomplete``),
files an earlier configuration of the same name left in the results folder."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from pathlib import Path


def again(args, extra: Sequence[str], *more: str) -> str:
    """The ``ordeval run`` command of this call (``more`` added to its Snakemake arguments), quoted for a shell."""
    words = ["ordeval", "run"]
    if args.configfile:
        words += ["--configfile", args.configfile]
    if args.target != "all":
        words += ["--target", args.target]
    if args.cores != "all":
        words += ["--cores", str(args.cores)]
    passed = [*extra, *more]
    return shlex.join(words + (["--", *passed] if passed else []))


def left_behind(results: Path) -> list[str]:
    """A note on the files under ``results`` that this configuration does not make (an earlier configuration of
    the same name made them: a data set since dropped), which ``ordeval diff`` and ``reference`` leave out."""
    from ordeval.io.errors import InputError
    from ordeval.results.reference import MANIFEST, unlisted_files

    if not (results / MANIFEST).is_file():
        return []
    try:
        unlisted = unlisted_files(results)
    except InputError:
        return []
    if not unlisted:
        return []
    files = f"{len(unlisted)} file{'s' if len(unlisted) != 1 else ''}"
    return [
        f"note: {files} under {os.path.relpath(results)}/ not made by this configuration (e.g. {unlisted[0]}): "
        "left by an earlier one of the same name; ordeval diff and reference leave them out, and they may be deleted"
    ]


def live_snakemake(project: Path) -> list[int] | None:
    """The process ids of the Snakemake processes now running in ``project`` (``--directory`` or their
    working folder), other than this process; None where processes cannot be listed (no ``/proc``)."""
    proc = Path("/proc")
    if not (proc / "self" / "cmdline").is_file():
        return None
    target = project.resolve()
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = [part.decode(errors="replace") for part in (entry / "cmdline").read_bytes().split(b"\0") if part]
            state = (entry / "stat").read_text(encoding="utf-8", errors="replace").rpartition(")")[2].split()[0]
            if not _runs_snakemake(argv) or state == "Z":
                continue
            where = Path(os.readlink(entry / "cwd"))
            for option, value in zip(argv, [*argv[1:], ""], strict=True):
                if option in ("--directory", "-d"):
                    where = where / value
                elif option.startswith("--directory="):
                    where = where / option.partition("=")[2]
            if where.resolve() == target:
                found.append(int(entry.name))
        except (OSError, IndexError):  # ended meanwhile, or another user's
            continue
    return sorted(found)


def _runs_snakemake(argv: list[str]) -> bool:
    """Whether a command line runs Snakemake: ``snakemake ...``, ``python -m snakemake ...``, or the interpreter
    running the ``snakemake`` script, as a console script started by hand runs (``/usr/bin/python3
    /usr/local/bin/snakemake ...``)."""
    if not argv:
        return False
    if Path(argv[0]).name == "snakemake":
        return True
    if any(first == "-m" and second == "snakemake" for first, second in zip(argv, argv[1:], strict=False)):
        return True
    script = next((argument for argument in argv[1:] if not argument.startswith("-")), "")  # after its options
    return Path(script).name == "snakemake"


def snakemake_locks(project: Path) -> list[Path]:
    """The lock files Snakemake keeps in ``project/.snakemake/locks`` while it runs there (and leaves behind
    when it is killed)."""
    folder = project / ".snakemake" / "locks"
    return sorted(folder.glob("*.lock")) if folder.is_dir() else []


def snakemake_incomplete(project: Path) -> list[Path]:
    """The markers Snakemake keeps in ``project/.snakemake/incomplete`` for outputs whose jobs did not finish (a run
    stopped midway leaves them: the next run refuses those outputs until told ``--rerun-incomplete``)."""
    folder = project / ".snakemake" / "incomplete"
    return sorted(path for path in folder.iterdir() if path.is_file()) if folder.is_dir() else []


def after_stop(project: Path, args, extra: Sequence[str]) -> list[str]:
    """How to continue after this call stopped Snakemake and its jobs (and waited for them): the same command,
    with ``--rerun-incomplete`` where the stopped jobs left outputs marked incomplete (Snakemake refuses them
    otherwise), after ``--unlock`` where it left its locks; only once no Snakemake runs here."""
    live = live_snakemake(project)
    if live:
        processes = f"process{'es' if len(live) > 1 else ''} {', '.join(map(str, live))}"
        return [
            f"hint: a Snakemake is still running in {project} ({processes}): wait for it to end, then run the same "
            "command again (do not --unlock or --rerun-incomplete while it runs)"
        ]
    locks, incomplete = snakemake_locks(project), snakemake_incomplete(project)
    steps = [again(args, [], "--unlock")] if locks else []
    steps.append(again(args, extra, "--rerun-incomplete") if incomplete else again(args, extra))
    left = [what for what, found in (("its locks", locks), ("outputs marked incomplete", incomplete)) if found]
    lead = f"the stopped run left {' and '.join(left)}; " if left else ""
    caveat = "" if live is not None else " (if no other Snakemake runs in this folder)"
    return [f"hint: {lead}to continue{caveat}: {' && '.join(steps)}"]


def diagnosis(watch, stopped_by: int | None, project: Path, args, extra: Sequence[str]) -> list[str]:
    """The one-line errors, and only the hints that apply (a Snakemake running now is named as such)."""
    if stopped_by is not None:  # the jobs' errors are those of the stop itself
        return after_stop(project, args, extra)
    found = watch.errors or watch.other[:3] or ["(see the full log)"]
    lines = ["error:" if len(found) == 1 else "errors:"] + [f"  {line}" for line in found]
    if not (watch.locked or watch.incomplete):
        return lines
    live = live_snakemake(project)
    if live:
        processes = f"process{'es' if len(live) > 1 else ''} {', '.join(map(str, live))}"
        lines.append(
            f"hint: a Snakemake is running in {project} now ({processes}): wait for it to finish, then run "
            f"the same command again (do not --unlock or --rerun-incomplete while it runs)"
        )
        return lines
    unknown = (
        f"if no other Snakemake runs in {project}: "
        if live is None  # processes cannot be listed here
        else "if no Snakemake on another machine uses this folder: "
    )
    if watch.locked or snakemake_locks(project):  # a lock: never --rerun-incomplete, which would clobber its jobs
        state = (
            "the folder is locked by a Snakemake that was interrupted (none runs on this machine now)"
            if live is not None
            else "the folder is locked by another Snakemake or an interrupted one"
        )
        lines.append(f"hint: {state}; {unknown}{again(args, [], '--unlock')}")
    else:
        lines.append(
            f"hint: outputs of an interrupted run are incomplete; {unknown}{again(args, extra, '--rerun-incomplete')}"
        )
    return lines
