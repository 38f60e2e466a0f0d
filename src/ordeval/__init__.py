"""ordeval: meta-evaluation of evaluation measures for ordinal classification and ordinal quantification.

The library holds all the logic of the pipeline; the Snakemake rules call it through thin adapters in
``scripts/<rule>.py``. It never imports snakemake. Importing ``ordeval`` itself is cheap: the API
functions below (see :mod:`ordeval.api`) and the submodules are imported when first used.

>>> import ordeval
>>> scores = ordeval.score(gold, runs)      # tidy data frame: topic, run, measure, score
>>> ordeval.agreement(scores); ordeval.leaderboard(scores); ordeval.hsd_pvalues(scores, measure="NMD")
"""

__version__ = "0.2.0"

_API = (
    "score",
    "score_stack",
    "tidy",
    "as_stack",
    "agreement",
    "hsd_pvalues",
    "discriminative_power",
    "consistency",
    "leaderboard",
    "measures",
)

__all__ = [*_API, "plan", "load_config", "__version__"]


def __dir__() -> list[str]:
    """The public API (imported on first use, so not yet in the module's namespace) and the module's own names."""
    return sorted({*globals(), *__all__})


def __getattr__(name: str):
    if name in _API:
        from ordeval import api

        return getattr(api, name)
    if name == "plan":
        from ordeval.workflow.plan import plan

        return plan
    if name == "load_config":
        from ordeval.workflow.config import load

        return load
    raise AttributeError(f"module 'ordeval' has no attribute {name!r}")
