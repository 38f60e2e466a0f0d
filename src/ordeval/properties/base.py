"""What checking a property on a measure finds: the verdict, the instances examined and the smallest example."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Instances per property: its defining cases, then seeded random ones.
DEFAULT_TRIALS = 2000


@dataclass(frozen=True)
class Example:
    """One instance: the case (plain lists and numbers) and the measure's scores on it."""

    size: tuple[int, ...]
    case: Mapping[str, Any]
    scores: Mapping[str, Any]

    def __str__(self) -> str:
        parts = [f"{key} {_number_text(value)}" for key, value in self.case.items()]
        parts += [f"{key} {_number_text(value)}" for key, value in self.scores.items()]
        return "; ".join(parts)


@dataclass(frozen=True)
class PropertyResult:
    """The check of one property on one measure."""

    measure: str
    property: str
    quantifier: str
    holds: bool
    instances: int  #: instances examined (defining cases and random ones)
    example: Example | None  #: the smallest counterexample (violated "all") or witness (satisfied "exists")

    @property
    def decided(self) -> bool:
        """The verdict is settled by its example (not by the search alone)."""
        return self.example is not None

    def explain(self) -> str:
        if self.quantifier == "all":
            if self.holds:
                return f"holds: no counterexample among {self.instances} instances"
            return f"violated: counterexample {self.example}"
        if self.holds:
            return f"holds: witness {self.example}"
        return f"violated: no witness among {self.instances} instances"


def _number_text(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_number_text(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)
