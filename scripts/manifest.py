"""Rule manifest: results/<name>/manifest.json with the configuration, seeds, versions, git commit, the SHA-256 of
every input file and of every output of the other jobs (``output_files``: the manifest runs after them)."""

from ordeval.io.files import write_json
from ordeval.results.manifest import build_manifest, output_records
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params = snakemake.params
    manifest = build_manifest(
        params.config, params.input_files, snakemake.input.requirements, params.commit, params.data_root
    )
    manifest["output_files"] = output_records(snakemake.input.outputs)
    write_json(manifest, snakemake.output.manifest)
    log.info(
        "manifest: %d input files, %d output files, commit %s",
        len(manifest["input_files"]),
        len(manifest["output_files"]),
        manifest["git_commit"],
    )
