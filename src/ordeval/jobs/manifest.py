"""Rule manifest: results/<name>/manifest.json with config, seeds, versions, git commit, input hashes."""

from __future__ import annotations

import logging

from ..files import write_json
from ..manifest import build_manifest
from . import Job

log = logging.getLogger("manifest")


def run(job: Job):
    params = job.params
    manifest = build_manifest(params["config"], params["input_files"], job.input["requirements"], params["commit"])
    write_json(manifest, job.output["manifest"])
    log.info("manifest: %d input files, commit %s", len(manifest["input_files"]), manifest["git_commit"])
    return manifest
