"""Deterministic random streams: one per (seed, data set, analysis), never Python's salted hash()."""

from __future__ import annotations

import zlib

import numpy as np


def stream(seed: int, *labels: str | int) -> np.random.Generator:
    """``default_rng([seed, crc32(label_1), ...])``: the same seed and labels give the same numbers."""
    words = [int(seed)]
    for label in labels:
        words.append(label if isinstance(label, int) else zlib.crc32(str(label).encode("utf-8")))
    return np.random.default_rng(words)
