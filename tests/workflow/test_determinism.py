"""Same configuration, same bytes (issue 13): two clean runs of a tiny configuration in two folders give
byte-identical outputs, and the manifest records each output's SHA-256."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from conftest import run_workflow, tiny_config

from ordeval.reference import compare_folders

#: Files that are not outputs: job logs (time-stamped) and the TeX engine's byproducts.
BYPRODUCTS = {".log", ".aux", ".fls", ".fdb_latexmk", ".out", ".toc"}


def hashes(results: Path) -> dict[str, str]:
    return {
        str(path.relative_to(results)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(results.rglob("*"))
        if path.is_file() and "logs" not in path.relative_to(results).parts and path.suffix not in BYPRODUCTS
    }


def test_two_clean_runs_give_byte_identical_outputs(tmp_path):
    config = tiny_config(name="determinism")
    runs = []
    for folder in ("first", "second"):
        workdir = tmp_path / folder
        run_workflow(workdir, config)
        runs.append(workdir / "results" / config["name"])
    first, second = hashes(runs[0]), hashes(runs[1])
    assert len(first) > 50
    assert sorted(first) == sorted(second)
    differing = sorted(name for name in first if first[name] != second[name])
    assert differing == []
    assert compare_folders(runs[0], runs[1]).equal  # ordeval diff agrees
    assert not [name for name in first if Path(name).name.startswith(".") or "-partial" in name]

    manifest = json.loads((runs[0] / "manifest.json").read_text())
    recorded = {entry["path"]: entry["sha256"] for entry in manifest["output_files"]}
    prefix = f"results/{config['name']}/"
    for name, digest in first.items():
        if name in ("manifest.json", "report/ordeval.tex", "report/ordeval.pdf"):
            continue
        assert recorded.get(prefix + name) == digest, name
    text = (runs[0] / "manifest.json").read_text()
    assert str(tmp_path) not in text  # no absolute path of the run folder
