"""Rule manifest: results/<name>/manifest.json with config, seeds, versions, git commit, input hashes
and the SHA-256 of every output of the other jobs (``output_files``; the manifest runs after them)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..files import sha256, write_json
from ..manifest import build_manifest
from . import Job

log = logging.getLogger("manifest")


def run(job: Job):
    params = job.params
    manifest = build_manifest(params["config"], params["input_files"], job.input["requirements"], params["commit"],
                              params["data_root"])  # fmt: skip
    outputs = job.input.get("outputs", [])
    manifest["output_files"] = [
        {"path": str(path), "sha256": sha256(path), "bytes": Path(path).stat().st_size}
        for path in ([outputs] if isinstance(outputs, str) else sorted(outputs))
    ]
    write_json(manifest, job.output["manifest"])
    log.info(
        "manifest: %d input files, %d output files, commit %s",
        len(manifest["input_files"]),
        len(manifest["output_files"]),
        manifest["git_commit"],
    )
    return manifest
