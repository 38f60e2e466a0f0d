"""Rule topic_set_size_design: per data set, the topics a test collection needs for each measure (Sakai, "Topic
Set Size Design", Information Retrieval Journal 19(3), 2016): a table (CSV and LaTeX) and a figure."""

from __future__ import annotations

import logging

from ..figures import measure_text, save_figure
from ..figures.topic_set_size import dataset_figure
from ..latex import measure_labels, write_latex
from ..latex.topic_set_size import topic_set_size_caption, topic_set_size_latex
from ..provenance import read_origins
from ..scores import read_stack
from ..table import write_csv
from ..topic_set_size import topic_set_size_table
from . import Job, each_dataset

log = logging.getLogger("topic_set_size_design")


def run(job: Job):
    """params: datasets, measures ({data set: measures}), alpha, power, mdd_fractions. Inputs ``stack``,
    ``provenance`` and outputs ``csv``, ``tex``, ``pdf``, ``png`` one per data set."""
    params = job.params
    alpha, power = params["alpha"], params["power"]
    tables = {}
    for index, dataset in each_dataset(job, params["datasets"]):
        stack = read_stack(job.input["stack"][index], params["measures"][dataset])
        origins = read_origins({dataset: job.input["provenance"][index]})
        matrices = {m: stack.matrix(m) for m in stack.measures}
        table = topic_set_size_table(matrices, alpha=alpha, power=power, fractions=params["mdd_fractions"])
        write_csv(table, job.output["csv"][index], origins)
        write_latex(topic_set_size_latex(table, measure_labels(stack)), job.output["tex"][index], origins,
                    topic_set_size_caption(table, dataset, params["mdd_fractions"]))  # fmt: skip
        names = {m: measure_text(d) for m, d in zip(stack.measures, stack.display, strict=True)}
        title = f"{dataset}: topics needed (alpha = {alpha:g}, power = {power:g})"
        figure = dataset_figure(matrices, names, title, alpha=alpha, power=power)
        description = (
            f"{dataset}: topics needed against the minimum detectable difference, per measure, for a paired "
            f"t-test and a one-way ANOVA over the {len(stack.runs)} runs (alpha = {alpha:g}, power = {power:g}) "
            "and for a CI of a paired difference of that width; from each measure's residual variance."
        )
        save_figure(figure, job.output["pdf"][index], job.output["png"][index], origins, description)
        log.info("%s: %d measures, %d rows", dataset, len(stack.measures), len(table))
        tables[dataset] = table
    return tables
