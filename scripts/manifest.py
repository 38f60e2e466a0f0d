"""Rule manifest: results/<name>/manifest.json with the configuration, seeds, versions, git commit, the SHA-256 of
every input file and of every output of the other jobs (``output_files``: the manifest runs after them)."""

from ordeval.results.manifest import write_manifest
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    manifest = write_manifest(
        params.config,
        params.input_files,
        inputs.requirements,
        params.commit,
        inputs.outputs,
        snakemake.output.manifest,
        params.data_root,
    )
    log.info(
        "manifest: %d input files, %d output files, commit %s",
        len(manifest["input_files"]),
        len(manifest["output_files"]),
        manifest["git_commit"],
    )
