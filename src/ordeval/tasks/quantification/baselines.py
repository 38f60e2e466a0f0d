"""Organiser baselines computed from the gold (docs/methods.md, section 1)."""

from __future__ import annotations

import numpy as np

#: Gold probabilities this close to the topic's maximum share the popularity mass.
MAXIMUM_TIE_TOLERANCE = 1e-12


def uniform(gold: np.ndarray) -> np.ndarray:
    """BL-uniform: 1/K for every class of every topic."""
    return np.full_like(gold, 1.0 / gold.shape[-1], dtype=float)


def popularity(gold: np.ndarray) -> np.ndarray:
    """BL-popularity, an oracle: probability 1 on the gold's most probable class, split evenly
    between the classes that tie for the maximum."""
    is_maximum = gold >= gold.max(axis=-1, keepdims=True) - MAXIMUM_TIE_TOLERANCE
    return is_maximum / is_maximum.sum(axis=-1, keepdims=True)


def constant_class(gold: np.ndarray, class_index: int) -> np.ndarray:
    """All mass on one class for every topic (e.g. SemEval's 'all positive' baseline)."""
    estimate = np.zeros_like(gold, dtype=float)
    estimate[..., class_index] = 1.0
    return estimate
