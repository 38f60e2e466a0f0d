"""The configuration's input files read before any job: a content error in a gold or run file (a bad line, a
run that misses topics of the gold, a label that is not a class) is refused when the configuration is planned
(``ordeval run``, ``snakemake``, :func:`ordeval.workflow.plan.plan`), with one line naming the file, the line and the
problem, instead of failing the job that builds the data set.

Only what comes from files is read: the gold and the run files of each data set, with the organisers' baselines
that are computed from the gold; simulated runs are left to the job (they need no checking and cost time). A
data set whose ``provenance.json`` under the results records the SHA-256 of every one of its input files as they
are now was built from exactly these bytes by a job that read them, and is not read again: a run that changes
nothing costs a hash of the inputs, not a second reading.

Before that, :func:`check_data_files`: every input file is there, and each that lies in ``data_root`` at the place
of a registered public file (:mod:`ordeval.data.registry`, docs/data.md) has the registered size and SHA-256. A
missing one is named with the command that fetches it; a changed one is refused (the papers' numbers are compared
with those of the registered bytes).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ordeval.io.errors import ConfigError, InputError

#: Where rule prepare_data writes a data set's provenance, under ``results/<name>/`` (the rule's own path:
#: tests/workflow/test_rules.py keeps the two the same).
PROVENANCE = "data/{dataset}/provenance.json"


def check_data_files(datasets: Mapping[str, Mapping], data_root: Path, workdir: Path) -> None:
    """The input files of ``datasets`` (name -> spec) are there (:func:`ordeval.tasks.sources.check_files_exist`: one
    line naming the missing ones, here with the command that fetches those that are registered public files), and
    every registered file among them is the registered one: one line naming the first that is not, with its size or
    SHA-256 and the registered one."""
    from ordeval.data.registry import fetch_command, load, problem, registered_among
    from ordeval.tasks.sources import check_files_exist, source_files

    listed = [(path, entry) for name, spec in datasets.items() for path, entry in source_files(name, spec, data_root)]
    registered = registered_among(listed, data_root, load()) if listed else []
    try:
        check_files_exist(datasets, data_root)
    except ConfigError as error:
        missing = [entry for entry, path, _ in registered if not path.is_file()]
        if not missing:
            raise
        listed_missing = sum(not path.is_file() for path, _ in listed)
        if len(missing) < listed_missing:
            which, them = f"{len(missing)} of them are", "them"
        else:
            which, them = ("it is", "it") if len(missing) == 1 else ("they are", "them")
        raise ConfigError(
            f"{error}; {which} public data (docs/data.md): fetch {them} with `{fetch_command(data_root, workdir)}`"
        ) from None
    changed = [(entry, path, asker, found) for entry, path, asker in registered if (found := problem(path, entry))]
    if changed:
        entry, path, asker, found = changed[0]
        more = f"; and {len(changed) - 1} more (`ordeval fetch --check` lists them)" if len(changed) > 1 else ""
        command = fetch_command(data_root, workdir)
        raise ConfigError(
            f"{path} (asked for by {asker}) is not the registered public file {entry.place}: {found}{more}; "
            f"`{command}` restores the registered bytes (to read your own version, give it another name)"
        )


def check_contents(plan) -> None:
    """Read the input files of every data set of ``plan`` (an :class:`ordeval.workflow.plan.Plan`) as the data job
    would, except the data sets built from them already; the first problem is raised (an InputError naming
    the file and line, or a ConfigError naming the configuration key)."""
    from ordeval.tasks import get_task
    from ordeval.tasks.sources import source_paths

    for name, dataset in plan.datasets.items():
        if not dataset.files or _built_from_these(plan, name, dataset.files):
            continue
        task = get_task(dataset.task)
        spec = files_only(dataset.spec)
        if spec is None:
            continue
        try:
            task.build(name, spec, source_paths(name, spec, plan.data_root), plan.config["seed"])
        except (InputError, ConfigError):
            raise
        except Exception as error:  # a plugin's reader or task: one line, not a traceback at workflow load
            raise ConfigError(
                f"config key datasets.{name}: reading its files failed: {type(error).__name__}: {error}"
            ) from error


def files_only(spec: Mapping) -> dict | None:
    """The data set's configuration without its simulated runs (``type: simulate``), or None where nothing
    would be read from a file by the gold and the remaining runs (a simulated gold: its runs, read from files,
    are paired with it when it has been simulated, in the job)."""
    if "gold" not in spec:  # precomputed scores: every source is a file
        return dict(spec)
    if "path" not in spec["gold"]:
        return None
    runs = [source for source in spec.get("runs", []) if source.get("type") != "simulate"]
    return {**spec, "runs": runs} if runs else None


def _built_from_these(plan, name: str, files: list[str]) -> bool:
    """Whether the data set's provenance (``results/<name>/data/<dataset>/provenance.json``) records every one of
    ``files`` with its SHA-256 as it is now."""
    from ordeval.io.files import sha256
    from ordeval.io.provenance import read_provenance
    from ordeval.tasks.sources import resolve_path

    path = Path(plan.workdir) / plan.results / PROVENANCE.format(dataset=name)
    if not path.is_file():
        return False
    try:
        record = read_provenance(path)
    except InputError:
        return False  # the job that made it runs again, or the one that reads it says what is wrong
    recorded = {}
    for entry in [record.get("gold"), *(record.get("runs") or {}).values(), *(record.get("scores") or {}).values()]:
        if isinstance(entry, Mapping) and isinstance(entry.get("path"), str) and isinstance(entry.get("sha256"), str):
            recorded[str(resolve_path(entry["path"], plan.data_root))] = entry["sha256"]
    try:
        return all(recorded.get(str(Path(file))) == sha256(file) for file in files)
    except (OSError, InputError):  # the readers say what is wrong with the file
        return False
