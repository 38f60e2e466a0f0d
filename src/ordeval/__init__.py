"""ordeval: meta-evaluation of evaluation measures for ordinal quantification.

The library holds all the logic of the pipeline; the Snakemake rules call it through thin
adapters in ``scripts/<rule>.py``. It never imports snakemake.
"""

__version__ = "0.1.0"
