"""ordeval: meta-evaluation of evaluation measures for ordinal classification and ordinal quantification.

The library holds all the logic of the pipeline; the Snakemake rules call it through thin adapters in
``scripts/<rule>.py``. It never imports snakemake. Importing ``ordeval`` itself is cheap: the
submodules are imported when used.
"""

__version__ = "0.2.0"
