"""Rule report_tex: results/<name>/report/ordeval.tex, a LaTeX document that inputs every table fragment and
includes every figure of the configuration, each with its caption, in the catalogue's sections."""

import json
from pathlib import Path

from ordeval.files import write_text
from ordeval.latex.report import latex_document, report_introduction, report_sections
from ordeval.provenance import origins_of
from ordeval.scripting import job

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    origins = origins_of(inputs.provenance)
    manifest = json.loads(Path(inputs.manifest).read_text(encoding="utf-8"))
    sections = report_sections(list(zip(params.sections, inputs.fragments, strict=True)), params.seed)
    title = f"ordeval: meta-evaluation of ordinal classification and quantification measures ({params.name})"
    introduction = report_introduction(params.name, params.parameters, origins, manifest["git_commit"])
    write_text(latex_document(sections, title, introduction, snakemake.output.tex), snakemake.output.tex)
    log.info("%d sections, %d items", len(sections), sum(len(section.items) for section in sections))
