"""Glue shared by the rule scripts: send a job's log to its ``log:`` file (no snakemake import)."""

from __future__ import annotations

import logging
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def logged(log_path: str | Path, rule: str):
    """Log to ``log_path`` (and to stderr); record an exception there before re-raising it."""
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    handlers = [logging.FileHandler(log_path, mode="w", encoding="utf-8"), logging.StreamHandler(sys.stderr)]
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s", handlers=handlers, force=True
    )
    logging.captureWarnings(True)
    warnings.simplefilter("default")
    logger = logging.getLogger(rule)
    try:
        yield logger
    except Exception as error:
        logger.error("%s failed: %s", rule, error)
        raise
    logger.info("%s done", rule)
