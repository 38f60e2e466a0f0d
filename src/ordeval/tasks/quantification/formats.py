"""The file formats of ordinal quantification, each a reader registered with the task: a new format is
one more ``@FORMATS.register(...)`` here or in a plugin (``ordeval.tasks.quantification.register_format``)."""

from __future__ import annotations

from ordeval.tasks.formats import FileFormats
from ordeval.tasks.quantification import canonical_tables, readers

FORMATS = FileFormats()
register_format = FORMATS.register


@register_format(
    "semeval_dist", roles=("gold", "run"), description="topic<TAB>p(-2)<TAB>...<TAB>p(2): one distribution per topic"
)
def _semeval_dist(path, classes, source):
    return {"": readers.read_semeval_dist(path, classes)}


@register_format(
    "semeval_labels",
    roles=("gold", "run"),
    description="id<TAB>topic<TAB>label: a topic's distribution is its label shares",
)
def _semeval_labels(path, classes, source):
    return {"": readers.read_semeval_labels(path, classes)}


@register_format(
    "ntcir_annotations",
    roles=("gold",),
    needs=("score",),
    json=True,
    description="STC-3/DialEval-1 annotations JSON: the annotators' ratings of score A, E or S",
)
def _ntcir_annotations(path, classes, source):
    return {"": readers.read_ntcir_annotations(path, classes, source["score"])}


@register_format(
    "ntcir_submission",
    roles=("run",),
    needs=("score",),
    json=True,
    description="STC-3/DialEval-1 submission JSON: the distribution of score A, E or S",
)
def _ntcir_submission(path, classes, source):
    return {"": readers.read_ntcir_submission(path, classes, source["score"])}


@register_format(
    "tsv",
    roles=("gold", "run"),
    several_runs=True,
    description="the canonical long table: topic, class, prob (gold); topic, run, class, prob (runs)",
)
def _tsv(path, classes, source):
    if source.get("role") == "gold":
        return {"": canonical_tables.read_canonical_gold(path, classes)}
    return canonical_tables.read_canonical_runs(path, classes)
