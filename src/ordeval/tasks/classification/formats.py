"""The file formats of ordinal classification, each a reader registered with the task: a new format is
one more ``@FORMATS.register(...)`` here or in a plugin (``ordeval.tasks.classification.register_format``).
A reader returns label tables (:class:`~ordeval.tasks.classification.readers.LabelTable`)."""

from __future__ import annotations

from ordeval.tasks.classification import readers
from ordeval.tasks.formats import FileFormats

FORMATS = FileFormats()
register_format = FORMATS.register


@register_format("semeval_labels", roles=("gold", "run"), description="id<TAB>topic<TAB>label: one item per line")
def _semeval_labels(path, classes, source):
    return {"": readers.read_semeval_labels(path, classes)}


@register_format(
    "tsv",
    roles=("gold", "run"),
    several_runs=True,
    description="the canonical long table: topic, item, label (gold); topic, item, run, label (runs)",
)
def _tsv(path, classes, source):
    if source.get("role") == "gold":
        return {"": readers.read_canonical_gold(path, classes)}
    return readers.read_canonical_runs(path, classes, source.get("runs"))
