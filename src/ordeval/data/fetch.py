"""The registered files fetched into a data folder (``ordeval fetch``), with pooch.

Each file that is missing from the data folder, or whose size or SHA-256 is not the registered one, is downloaded
from ``<base>/<owner>/<repo>/<commit>/<path>`` (the registry's host, or a mirror laid out the same way) or copied
from a local copy laid out as the data folder (``--from``). pooch streams it to a temporary file beside its final
place, checks its SHA-256 and only then moves it there: an interrupted, cut or damaged download never leaves a file
under a registered name. A dropped connection or a damaged download is tried again (``retries``). Files present
with their registered size and SHA-256 are left alone.

Why pooch rather than our own download code: docs/ARCHITECTURE.md, "The public real data".
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ordeval.data.registry import DataFile, Registry, load, problem
from ordeval.io.errors import InputError

#: Seconds to wait for a connection, and between two pieces of a download.
TIMEOUT = 30
#: Bytes read at a time.
CHUNK = 1 << 16
#: pooch's temporary files (``tempfile``'s names) that an interrupted fetch may leave beside the files; removed by
#: the next fetch once older than :data:`STALE_AFTER` seconds (another fetch may be writing one now).
POOCH_TEMPORARY = re.compile(r"^tmp[a-z0-9_]{8}$")
STALE_AFTER = 300.0


@dataclass
class Outcome:
    """What a fetch did for one data set."""

    dataset: str
    files: int = 0
    size: int = 0
    fetched: int = 0
    replaced: int = 0  #: present but changed, replaced by the registered file
    present: int = 0  #: present and verified, left alone

    def line(self, origin: str) -> str:
        moved = [f"{self.fetched} fetched"] if self.fetched else []
        if self.replaced:
            moved.append(f"{self.replaced} changed and replaced")
        done = [f"{', '.join(moved)} from {origin}"] if moved else []
        if self.present:
            done.append(f"{self.present} present and verified" if done else "all present and verified, nothing fetched")
        return f"{self.dataset}: {self.files} files, {self.size / 1e6:.1f} MB: {', '.join(done)}"


class _Mismatch(ValueError):
    """A download or copy that is not the registered file (pooch tries again on a ValueError)."""

    def __init__(self, size: int, sha256: str):
        super().__init__(f"{size} bytes, SHA-256 {sha256}")
        self.size, self.sha256 = size, sha256


class _SourceMissing(Exception):
    """A file absent from the local copy (``--from``)."""


def _verify(output_file: str, entry: DataFile) -> None:
    from ordeval.io.files import sha256

    size = os.path.getsize(output_file)
    found = sha256(output_file)
    if size != entry.size or found != entry.sha256:
        raise _Mismatch(size, found)


class _Progress:
    """pooch's progress calls for one file (``total =``, ``update``, ``reset``, ``close``) added to one bar over
    every file of the fetch; a second attempt at the file takes back what the first one counted."""

    def __init__(self, bar, size: int):
        self.bar, self.size, self.counted, self.total = bar, size, 0, size

    def update(self, step: int) -> None:
        step = max(0, min(int(step), self.size - self.counted))
        if step:
            self.bar.update(step)
            self.counted += step

    def reset(self) -> None:
        pass

    def close(self) -> None:
        self.update(self.size)

    def undo(self) -> None:
        if self.counted:
            self.bar.n -= self.counted
            self.bar.refresh()
            self.counted = 0


class _Transfer:
    """pooch's downloader for one file: over HTTP (pooch's ``HTTPDownloader``) or copied from a local copy, then
    checked against the registry (a :class:`_Mismatch` otherwise, which pooch tries again)."""

    def __init__(self, entry: DataFile, source: Path | None, bar):
        self.entry, self.source, self.bar, self.progress = entry, source, bar, None

    def __call__(self, url: str, output_file: str, pooch) -> None:
        if self.progress is not None:
            self.progress.undo()
        self.progress = _Progress(self.bar, self.entry.size) if self.bar is not None else None
        if self.source is None:
            from pooch import HTTPDownloader

            HTTPDownloader(progressbar=self.progress or False, chunk_size=CHUNK, timeout=TIMEOUT)(
                url, output_file, pooch
            )
        else:
            self._copy(url, output_file)
        _verify(output_file, self.entry)

    def _copy(self, source: str, temporary: str) -> None:
        """``source`` copied into pooch's ``temporary`` file, which pooch moves to its place once checked."""
        try:
            handle = open(source, "rb")
        except OSError as error:
            raise _SourceMissing(error.strerror or str(error)) from error
        with handle, open(temporary, "wb") as out:
            for block in iter(lambda: handle.read(CHUNK), b""):
                out.write(block)
                if self.progress is not None:
                    self.progress.update(len(block))


def fetch(
    folder: str | Path,
    *,
    base_url: str | None = None,
    source: str | Path | None = None,
    retries: int = 3,
    progress: bool = False,
    registry: Registry | None = None,
) -> tuple[list[Outcome], str]:
    """Fetch every registered file missing from ``folder`` (or changed there) from ``base_url`` (default: the
    registry's host) or copy it from the local copy ``source``; (one outcome per data set, where from). A problem
    is an InputError naming the file (or folder) and what to do."""
    registry = registry or load()
    folder = Path(folder)
    origin = str(source) if source is not None else (base_url or registry.host)
    if source is not None and not Path(source).is_dir():
        raise InputError(source, None, "no such folder (--from takes a local copy laid out as the data folder)")
    _check_writable(folder)
    _remove_stale_temporaries(folder, registry)
    outcomes, problems = _survey(folder, registry)
    wanted: list[tuple[DataFile, bool]] = []
    for entry, found in problems:
        if found.startswith("a folder"):
            raise InputError(folder / entry.place, None, f"{found}: remove it, then fetch again")
        wanted.append((entry, found != "missing"))
    if wanted:
        _fetch_files(folder, wanted, base_url or registry.host, source, retries, progress)
        by_name = {outcome.dataset: outcome for outcome in outcomes}
        for entry, changed in wanted:
            if changed:
                by_name[entry.dataset].replaced += 1
            else:
                by_name[entry.dataset].fetched += 1
    return outcomes, origin


def _survey(folder: Path, registry: Registry) -> tuple[list[Outcome], list[tuple[DataFile, str]]]:
    """(one outcome per data set, counting the files present and verified; (file, problem) for every other)."""
    outcomes = {name: Outcome(name) for name in registry.datasets}
    problems = []
    for entry in registry.files:
        outcome = outcomes[entry.dataset]
        outcome.files += 1
        outcome.size += entry.size
        found = problem(folder / entry.place, entry)
        if found is None:
            outcome.present += 1
        else:
            problems.append((entry, found))
    return [outcome for outcome in outcomes.values() if outcome.files], problems


def _fetch_files(
    folder: Path, wanted: Sequence[tuple[DataFile, bool]], base_url: str, source, retries: int, progress: bool
) -> None:
    import pooch

    pooch.get_logger().setLevel("WARNING")  # its "Downloading file ..." lines: the bar and the summary say it
    source = Path(source) if source is not None else None
    keeper = pooch.Pooch(
        path=folder,
        base_url="",
        registry={entry.place: f"sha256:{entry.sha256}" for entry, _ in wanted},
        urls={entry.place: str(source / entry.place) if source else entry.url(base_url) for entry, _ in wanted},
        retry_if_failed=0 if source is not None else retries,
    )
    bar = None
    if progress:
        from tqdm import tqdm

        total = sum(entry.size for entry, _ in wanted)
        bar = tqdm(total=total, unit="B", unit_scale=True, desc="ordeval fetch", leave=False, file=sys.stderr)
    try:
        for entry, _ in wanted:
            if bar is not None:
                bar.set_postfix_str(entry.place.rsplit("/", 1)[-1], refresh=False)
            try:
                keeper.fetch(entry.place, downloader=_Transfer(entry, source, bar))
            except Exception as error:  # noqa: BLE001 - every failure becomes one line naming the file
                raise _explained(error, folder, entry, keeper.get_url(entry.place), source, retries) from error
    finally:
        if bar is not None:
            bar.close()


def _explained(error: Exception, folder: Path, entry: DataFile, url: str, source, retries: int) -> Exception:
    """The one-line InputError for a failed fetch of ``entry``."""
    import requests

    target = folder / entry.place
    tries = f" (tried {retries + 1} times)" if retries and source is None else ""
    if isinstance(error, _Mismatch):
        where = f"the copy {url}" if source is not None else f"the download from {url}"
        hint = (
            "the local copy is damaged or another file: use a good copy (docs/data.md gives each file's origin)"
            if source is not None
            else "the mirror's copy is damaged or another file: check --url / ORDEVAL_DATA_URL, or copy a verified one "
            "with --from DIR"
        )
        return InputError(
            target,
            None,
            f"{where} is not the registered file{tries}: {error.size} bytes, SHA-256 {error.sha256}; expected "
            f"{entry.size} bytes, SHA-256 {entry.sha256}; it was removed, nothing is written under this name; {hint}",
        )
    if isinstance(error, _SourceMissing):
        return InputError(
            target, None, f"not in the local copy: {url}: {error} (--from DIR must be laid out as the data folder)"
        )
    if isinstance(error, requests.exceptions.HTTPError):
        status = error.response.status_code if error.response is not None else "an error"
        reason = error.response.reason if error.response is not None else ""
        return InputError(
            target,
            None,
            f"{url}: the server answered {status} {reason}{tries}; a mirror must hold the file at "
            "<base>/<owner>/<repo>/<commit>/<path> (check --url / ORDEVAL_DATA_URL), or copy the files from a local "
            "copy with --from DIR",
        )
    if isinstance(error, (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError)):
        return InputError(
            target,
            None,
            f"the connection to {_address(url)} dropped while downloading {url}{tries}; nothing is written under this "
            "name: run the same command again to go on, or copy the files from a local copy with --from DIR",
        )
    if isinstance(error, requests.exceptions.RequestException):  # no connection: refused, no route, no name, timeout
        return InputError(
            target,
            None,
            f"cannot reach {_address(url)} ({_reason(error)}){tries} to download {url}: no network? copy the files "
            "from a local copy with `ordeval fetch --from DIR` (docs/data.md), or name a mirror with --url",
        )
    if isinstance(error, OSError):
        folder_shown = Path(error.filename).parent if getattr(error, "filename", None) else target.parent
        return InputError(
            folder_shown,
            None,
            f"cannot write {entry.place} in the data folder ({error.strerror or error}): make it writable, or fetch "
            "into another folder with --to DIR (and point data_root at it)",
        )
    return InputError(target, None, f"fetching {url} failed: {type(error).__name__}: {error}")


def _address(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _reason(error: Exception) -> str:
    """The innermost reason of a requests error: 'Connection refused', 'Name or service not known', ..."""
    text = str(error)
    found = re.findall(r"\[Errno -?\d+\] ([^'\")\]]+)", text)
    if found:
        return found[-1].strip().rstrip(".")
    if "timed out" in text.lower():
        return f"no answer within {TIMEOUT} s"
    return type(error).__name__


def _check_writable(folder: Path) -> None:
    """The data folder exists (made if need be) and a file can be written in it; one line naming it otherwise."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".ordeval-fetch-"):
            pass
    except OSError as error:
        raise InputError(
            folder,
            None,
            f"cannot write the data folder here ({error.strerror or error}): make it writable, or fetch into another "
            "folder with --to DIR (and point data_root at it: --config data_root=DIR)",
        ) from None


def _remove_stale_temporaries(folder: Path, registry: Registry) -> list[Path]:
    """pooch's temporary files left by a killed fetch in the folders of registered files, once older than
    :data:`STALE_AFTER` seconds."""
    from ordeval.io.files import remove_stale

    found = []
    for place in sorted({str(Path(entry.place).parent) for entry in registry.files}):
        try:
            found += [folder / place / name for name in os.listdir(folder / place) if POOCH_TEMPORARY.match(name)]
        except OSError:
            continue
    return remove_stale(found, STALE_AFTER)


def check(folder: str | Path, registry: Registry | None = None) -> tuple[list[Outcome], list[str]]:
    """Verify ``folder`` against the registry, downloading nothing: (one outcome per data set, one line per missing
    or changed file)."""
    folder = Path(folder)
    outcomes, problems = _survey(folder, registry or load())
    return outcomes, [f"{folder / entry.place}: {found}" for entry, found in problems]
