"""Rule report_captions: the caption of every output of Snakemake's HTML report, from the catalogue: per rule
output one file, holding each of its files' caption (and a table's rows) under a condition on the wildcards
(ordeval.reports.captions)."""

from pathlib import Path

from ordeval.io.files import write_text
from ordeval.reports.captions import CaptionBlock, caption_document
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    outputs = {Path(path).stem: path for path in snakemake.output.captions}  # each caption file named after its key
    for name, blocks in snakemake.params.captions.items():
        made = []
        for block in blocks:
            table = block.get("table")
            text = None
            if table:
                with open(table, encoding="utf-8", newline="") as handle:
                    text = handle.read()
            made.append(CaptionBlock(block["wildcards"], block["caption"], text, Path(table).name if table else ""))
        write_text(caption_document(made), outputs[name])
    log.info("%d caption files", len(snakemake.params.captions))
