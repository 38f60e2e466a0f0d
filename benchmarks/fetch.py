"""``ordeval fetch`` and the planner's check of the registered files: what they cost.

    python benchmarks/fetch.py [--data DIR] [--repeats 5]

- the fetch of the 36 registered files (9.2 MB) from a mirror on 127.0.0.1 (``http.server`` in a thread, the
  registry's layout) into an empty folder, as the command (``python -m ordeval fetch --url``: Python's start and
  imports included) and as the library call (``ordeval.data.fetch.fetch``), against a floor: the same 36 files
  downloaded with ``requests.get`` into place, unchecked, not atomic;
- the same from a local copy (``--from``), against ``shutil.copytree`` of the folder;
- the second fetch (every file present: stat and SHA-256 each, download nothing) and ``ordeval fetch --check``;
- planning the replication (``config/replication.yaml``, 29 registered files, 8.6 MB): the check planning makes
  of its input files (``workflow.source_check.check_data_files``: present, and the registered ones of the
  registered size and SHA-256) against the check it made before (``tasks.sources.check_files_exist``: present), and
  the whole ``plan()`` with it; per start, in ms.

DIR is a folder of the public data (default: the tests' copy, ``../shared/data/raw`` or ``resources/``). Wall
times on a shared machine: compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from _common import machine, median_seconds, write_results

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def mirror_of(data: Path, folder: Path, registry) -> Iterator[str]:
    """The registered files of ``data`` laid out as ``<owner>/<repo>/<commit>/<path>`` in ``folder``, served on
    127.0.0.1 while the block runs: its base address."""
    for entry in registry.files:
        target = folder / entry.repo / entry.commit / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(data / entry.place, target)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *arguments) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _default_data() -> Path:
    for candidate in (REPO / "resources", REPO.parent / "shared" / "data" / "raw"):
        if (candidate / "Sem16T4CE").is_dir():
            return candidate
    return REPO.parent / "shared" / "data" / "raw"


def _command(*arguments: str, env: dict | None = None) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ordeval", "fetch", *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=REPO,
    )
    if done.returncode:
        raise SystemExit(f"ordeval fetch {' '.join(arguments)} failed: {done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=_default_data())
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import requests

    from ordeval.data.fetch import fetch
    from ordeval.data.registry import load
    from ordeval.tasks.sources import check_files_exist
    from ordeval.workflow.config import load_yaml
    from ordeval.workflow.plan import plan
    from ordeval.workflow.source_check import check_data_files

    registry = load()
    data = args.data.resolve()
    work = Path(tempfile.mkdtemp(prefix="ordeval-fetch-bench-"))
    counter = iter(range(10**6))

    def fresh() -> Path:
        return work / f"data-{next(counter)}"

    rows: dict[str, float] = {}
    try:
        with mirror_of(data, work / "mirror", registry) as base:
            rows["http_command_s"], _ = median_seconds(
                lambda: _command("--to", str(fresh()), "--url", base), args.repeats
            )
            rows["http_library_s"], _ = median_seconds(lambda: fetch(fresh(), base_url=base), args.repeats)

            def floor() -> None:
                target = fresh()
                for entry in registry.files:
                    path = target / entry.place
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(requests.get(entry.url(base), timeout=30).content)

            rows["http_floor_requests_s"], _ = median_seconds(floor, args.repeats)
            filled = fresh()
            fetch(filled, base_url=base)
            rows["noop_command_s"], _ = median_seconds(
                lambda: _command("--to", str(filled), "--url", base), args.repeats
            )
            rows["noop_library_s"], _ = median_seconds(lambda: fetch(filled, base_url=base), args.repeats)
        rows["from_command_s"], _ = median_seconds(
            lambda: _command("--to", str(fresh()), "--from", str(data)), args.repeats
        )
        rows["from_library_s"], _ = median_seconds(lambda: fetch(fresh(), source=data), args.repeats)
        rows["from_floor_copytree_s"], _ = median_seconds(
            lambda: shutil.copytree(data, fresh(), ignore=shutil.ignore_patterns("*.md")), args.repeats
        )
        rows["check_command_s"], _ = median_seconds(lambda: _command("--to", str(filled), "--check"), args.repeats)
        rows["version_command_s"], _ = median_seconds(
            lambda: subprocess.run([sys.executable, "-m", "ordeval", "--version"], capture_output=True, check=True),
            args.repeats,
        )

        # planning: the replication's check of its input files, with and without the registered bytes
        config = load_yaml(REPO / "config" / "replication.yaml") | {"data_root": str(filled)}
        planned = plan(config, workdir=work)
        datasets = {name: dataset.spec for name, dataset in planned.datasets.items()}
        files = [Path(path) for dataset in planned.datasets.values() for path in dataset.files]
        repeats = max(args.repeats, 20)
        rows["plan_files_checked"] = len(set(files))
        rows["plan_bytes_checked"] = sum(path.stat().st_size for path in set(files))
        rows["check_registered_ms"] = (
            1000 * median_seconds(lambda: check_data_files(datasets, filled, work), repeats)[0]
        )
        rows["check_exist_only_ms"] = 1000 * median_seconds(lambda: check_files_exist(datasets, filled), repeats)[0]
        rows["registry_load_ms"] = 1000 * median_seconds(load, repeats)[0]
        rows["plan_whole_ms"] = 1000 * median_seconds(lambda: plan(config, workdir=work), max(args.repeats, 5))[0]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    rows["http_library_over_floor"] = rows["http_library_s"] / rows["http_floor_requests_s"]
    rows["from_library_over_copytree"] = rows["from_library_s"] / rows["from_floor_copytree_s"]
    rows["check_added_ms"] = rows["check_registered_ms"] - rows["check_exist_only_ms"]
    rows["check_added_share_of_plan"] = rows["check_added_ms"] / rows["plan_whole_ms"]
    rounded = {key: round(value, 4) if isinstance(value, float) else value for key, value in rows.items()}
    write_results("fetch", {"machine": machine(), "data": str(data), "repeats": args.repeats, "rows": [rounded]})
    width = max(map(len, rounded))
    for key, value in rounded.items():
        print(f"{key:<{width}}  {value}")
    print(" ".join(f"{key}={value}" for key, value in rounded.items()))


if __name__ == "__main__":
    main()
