"""Rule manifest: results/<name>/manifest.json with config, seeds, versions, git commit, input hashes."""

import logging

from ordeval.files import write_json
from ordeval.manifest import build_manifest

log = logging.getLogger("manifest")


def main(config: dict, input_files: dict[str, list[str]], requirements, commit: str, output):
    manifest = build_manifest(config, input_files, requirements, commit)
    write_json(manifest, output)
    log.info("manifest: %d input files, commit %s", len(manifest["input_files"]), manifest["git_commit"])
    return manifest


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "manifest"):
        main(
            snakemake.params.config,
            snakemake.params.input_files,
            snakemake.input.requirements,
            snakemake.params.commit,
            snakemake.output[0],
        )
