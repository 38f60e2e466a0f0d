"""The registry of the public real data (``registry.yaml``): where each file lies under the data folder, where it
comes from (a public git repository, a commit, a path there), its size and SHA-256, its licence, and what ordeval
reads it for; and files checked against it.

The registry is read where it is used (``ordeval fetch``, and once when a configuration is planned: about 2 ms);
nothing is cached. Checking a file costs a ``stat`` and, when the size matches, its SHA-256 (about 1 ms per MB).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urlsplit

REGISTRY_FILE = Path(__file__).with_name("registry.yaml")
#: The data folder that ``ordeval fetch`` fills and that config/replication.yaml and the paper presets read.
DEFAULT_FOLDER = "resources"
#: The environment variable that replaces the registry's host: a mirror laid out as
#: ``<base>/<owner>/<repo>/<commit>/<path>``.
URL_VARIABLE = "ORDEVAL_DATA_URL"

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_FIELDS = ("place", "dataset", "use", "repo", "commit", "path", "size", "sha256", "licence")


@dataclass(frozen=True)
class DataFile:
    """One registered file."""

    place: str  #: its path under the data folder (POSIX, relative)
    dataset: str  #: the key of its data set in :attr:`Registry.datasets`
    use: str  #: what ordeval reads it for, and which configurations read it
    repo: str  #: ``owner/name`` of the public repository it comes from
    commit: str  #: the commit (40 hex digits) at which it is read there
    path: str  #: its path in the repository
    size: int  #: bytes
    sha256: str
    licence: str  #: the text of its licence or terms

    def url(self, base: str) -> str:
        """``<base>/<owner>/<repo>/<commit>/<path>``, the path percent-encoded (``+`` as ``%2B``: some servers
        read a bare ``+`` as a space)."""
        return f"{base.rstrip('/')}/{self.repo}/{self.commit}/{quote(self.path, safe='/')}"


@dataclass(frozen=True)
class DataSet:
    """A data set of the registry: what it is, the publication that describes it, its terms."""

    name: str
    title: str
    reference: str
    about: str
    terms: str


@dataclass(frozen=True)
class Registry:
    host: str  #: the default base address (https://raw.githubusercontent.com)
    datasets: dict[str, DataSet]
    licences: dict[str, str]
    files: tuple[DataFile, ...]

    def by_place(self) -> dict[str, DataFile]:
        return {entry.place: entry for entry in self.files}

    def of(self, dataset: str) -> list[DataFile]:
        return [entry for entry in self.files if entry.dataset == dataset]


def load(path: str | Path = REGISTRY_FILE) -> Registry:
    """The registry, every field checked (a ValueError naming the entry and the field otherwise)."""
    import yaml

    with open(path, encoding="utf-8") as handle:
        raw = yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    where = str(path)
    if not isinstance(raw, Mapping) or not {"host", "datasets", "licences", "files"} <= set(raw):
        raise ValueError(f"{where}: a mapping with host, datasets, licences and files is expected")
    datasets = {}
    for name, fields in raw["datasets"].items():
        if not isinstance(fields, Mapping) or not all(isinstance(fields.get(key), str) for key in _DATASET_FIELDS):
            raise ValueError(f"{where}: datasets.{name}: needs {', '.join(_DATASET_FIELDS)} (text)")
        datasets[name] = DataSet(name, *(" ".join(fields[key].split()) for key in _DATASET_FIELDS))
    licences = {str(key): str(text) for key, text in raw["licences"].items()}
    files = []
    for index, fields in enumerate(raw["files"]):
        entry = f"{where}: files[{index}]"
        if not isinstance(fields, Mapping) or set(fields) != set(_FIELDS):
            raise ValueError(f"{entry}: needs exactly the fields {', '.join(_FIELDS)}")
        files.append(_checked_file(entry, fields, datasets, licences))
    places = [file.place for file in files]
    if len(set(places)) != len(places):
        raise ValueError(f"{where}: a place is registered twice")
    return Registry(str(raw["host"]), datasets, licences, tuple(files))


_DATASET_FIELDS = ("title", "reference", "about", "terms")


def _checked_file(entry: str, fields: Mapping, datasets: Mapping, licences: Mapping) -> DataFile:
    place = fields["place"]
    parts = PurePosixPath(place).parts if isinstance(place, str) else ()
    if not parts or place.startswith("/") or ".." in parts or "\\" in place or place != PurePosixPath(place).as_posix():
        raise ValueError(f"{entry}: place {place!r} is not a relative path below the data folder")
    checks = {
        "dataset": fields["dataset"] in datasets,
        "repo": isinstance(fields["repo"], str) and bool(_REPO.match(fields["repo"])),
        "commit": isinstance(fields["commit"], str) and bool(_COMMIT.match(fields["commit"])),
        "path": isinstance(fields["path"], str) and bool(fields["path"]) and not fields["path"].startswith("/"),
        "size": isinstance(fields["size"], int) and not isinstance(fields["size"], bool) and fields["size"] >= 0,
        "sha256": isinstance(fields["sha256"], str) and bool(_SHA256.match(fields["sha256"])),
        "licence": fields["licence"] in licences,
        "use": isinstance(fields["use"], str) and bool(fields["use"].strip()),
    }
    bad = [key for key, good in checks.items() if not good]
    if bad:
        raise ValueError(f"{entry} ({place}): bad {', '.join(bad)}")
    values = {key: fields[key] for key in _FIELDS}
    values["licence"] = licences[fields["licence"]]
    return DataFile(**values)


# --------------------------------------------------------------------------- files checked against the registry


def problem(path: str | Path, entry: DataFile) -> str | None:
    """What is wrong with ``path`` as the registered file ``entry``: None when its size and SHA-256 are the
    registered ones, else ``missing``, ``a folder, not a file``, or ``changed: ...`` with the size or SHA-256
    found and the registered one."""
    from ordeval.io.files import sha256

    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    if path.is_dir():
        return "a folder, not a file"
    if size != entry.size:
        return f"changed: {size} bytes, registered {entry.size}"
    found = sha256(path)
    if found != entry.sha256:
        return f"changed: SHA-256 {found}, registered {entry.sha256} (the same size)"
    return None


def registered_among(
    paths: Iterable[tuple[Path, str]], data_root: str | Path, registry: Registry | None = None
) -> list[tuple[DataFile, Path, str]]:
    """(registered file, path, what asks for it) for each of ``paths`` (path, what asks for it) that lies in
    ``data_root`` at a registered place."""
    registry = registry or load()
    places = registry.by_place()
    root = Path(os.path.normpath(data_root))
    found = []
    for path, asker in paths:
        normal = Path(os.path.normpath(path))
        if not normal.is_relative_to(root):
            continue
        entry = places.get(normal.relative_to(root).as_posix())
        if entry is not None:
            found.append((entry, path, asker))
    return found


def fetch_command(data_root: str | Path, workdir: str | Path = ".") -> str:
    """The command that fetches the registered files into ``data_root``: ``ordeval fetch`` where it is the default
    folder of ``workdir``, else with ``--to``."""
    root = Path(os.path.normpath(data_root))
    if root == Path(os.path.normpath(Path(workdir) / DEFAULT_FOLDER)) or root == Path(DEFAULT_FOLDER):
        return "ordeval fetch"
    return f"ordeval fetch --to {shlex.quote(str(data_root))}"


def check_base_url(url: str, where: str = "--url") -> str:
    """``url`` without its trailing slashes, when it is an http(s) address with a host; a ValueError naming
    ``where`` otherwise."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"{where}: {url!r} is not an http(s) address of a mirror laid out as <base>/<owner>/<repo>/<commit>/<path> "
            "(for a folder of files, use --from DIR)"
        )
    return url.strip().rstrip("/")
