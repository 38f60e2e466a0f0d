"""What the pipeline's table and report jobs write: a function per output, or per group of outputs that one
computation makes (a table's CSV, HTML page and LaTeX fragment), called by the rules' scripts
(``scripts/<rule>.py``: one hop from the rule to the library).

Each function takes the paths its rule reads (a ``{data set: path}`` mapping where the rule gathers a file over
data sets: :func:`ordeval.workflow.scripting.keyed`), the rule's settings as keywords, and ``outputs``, the rule's
output names and paths (its docstring names those it writes); it reads, computes with ordeval.analysis,
ordeval.stats or ordeval.results, writes with ordeval.reports.latex and the pages, and
returns what the job logs. A module per stage, so that what a job's code reaches (its digest,
:mod:`ordeval.workflow.modules`) is what its stage uses; none imports matplotlib: a figure's job is beside its
drawing (``write_*`` of :mod:`ordeval.reports.figures`' modules; a data set's figures:
:mod:`ordeval.reports.figures.dataset`), so that only the figure jobs pay for matplotlib and never reach the
LaTeX helpers.
"""
