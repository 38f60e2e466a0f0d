"""Rule report_captions: the caption of every entry of Snakemake's HTML report, from the catalogue."""

from __future__ import annotations

import logging

from ..files import write_text
from . import Job

log = logging.getLogger("report_captions")


def rst_text(text: str) -> str:
    """Plain text as reStructuredText (inline markup characters escaped, one paragraph)."""
    for character in "\\*`_|":
        text = text.replace(character, "\\" + character)
    return " ".join(text.split()) + "\n"


def run(job: Job):
    """params: captions ({path: caption text}) -- one reStructuredText file per reported entry."""
    for path, caption in job.params["captions"].items():
        write_text(rst_text(caption), path)
    log.info("%d captions", len(job.params["captions"]))
