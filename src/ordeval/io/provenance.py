"""Where numbers come from: every data set, and every output built from it, is real, partly synthetic
or synthetic, and says so (CSV ``data_origin`` column, LaTeX comment, figure note, captions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path


class Origin(StrEnum):
    """The data origin of a data set or of numbers computed from part of it."""

    REAL = "real"  #: official gold; runs from official files or baselines computed from that gold
    PARTLY_SYNTHETIC = "partly synthetic"  #: real gold, some runs simulated
    SYNTHETIC = "synthetic"  #: simulated gold (and so everything computed from it)


ORIGIN_REAL, ORIGIN_PARTLY_SYNTHETIC, ORIGIN_SYNTHETIC = (
    Origin.REAL.value,
    Origin.PARTLY_SYNTHETIC.value,
    Origin.SYNTHETIC.value,
)
ORIGINS = tuple(origin.value for origin in Origin)


def dataset_origin(gold_source: str, run_sources: Mapping[str, dict]) -> str:
    """Origin of a data set from its gold's and runs' provenance records (``source``: file,
    baseline, simulated)."""
    if gold_source == "simulated":
        return ORIGIN_SYNTHETIC
    if any(record["source"] == "simulated" for record in run_sources.values()):
        return ORIGIN_PARTLY_SYNTHETIC
    return ORIGIN_REAL


def origin_of_runs(provenance: Mapping, runs: Sequence[str]) -> str:
    """Origin of numbers computed from the gold and ``runs`` only (e.g. two baselines): synthetic if
    the gold is simulated, partly synthetic if one of ``runs`` is, real otherwise."""
    return dataset_origin(provenance["gold"]["source"], {run: provenance["runs"][run] for run in runs})


def read_provenance(path: str | Path) -> dict:
    """A ``provenance.json`` (strict JSON, read block by block), checked to be an object whose ``origin`` is
    one of :data:`ORIGINS`; an InputError naming the file otherwise."""
    from ordeval.io.errors import InputError
    from ordeval.io.parsing import RECORD_BYTES, load_json

    record = load_json(path, RECORD_BYTES)
    if not isinstance(record, dict):
        raise InputError(path, None, f"not a provenance record: a JSON object, not {type(record).__name__}")
    if "origin" not in record:
        raise InputError(path, None, f"no key 'origin' (the data origin: {', '.join(ORIGINS)})")
    if record["origin"] not in ORIGINS:
        shown = repr(record["origin"])[:60]
        raise InputError(path, "key 'origin'", f"{shown} is not a data origin ({', '.join(ORIGINS)})")
    gold, runs = record.get("gold"), record.get("runs")
    if _sourced(gold) and isinstance(runs, Mapping) and all(_sourced(run) for run in runs.values()):
        expected = dataset_origin(gold["source"], runs)
        if record["origin"] != expected:  # the label every table and figure of the data set carries
            raise InputError(
                path,
                "key 'origin'",
                f"{record['origin']!r} does not agree with the record's own gold and runs (their sources make it "
                f"{expected!r}): edited by hand? delete it and run the pipeline again",
            )
    return record


def _sourced(entry) -> bool:
    return isinstance(entry, Mapping) and isinstance(entry.get("source"), str)


def read_origins(provenance_paths: Mapping[str, str | Path]) -> dict[str, str]:
    """``{dataset: origin}`` from the provenance.json files written by prepare_data."""
    return {name: read_provenance(path)["origin"] for name, path in provenance_paths.items()}


def origins_of(provenance_paths) -> dict[str, str]:
    """``{dataset: origin}`` from provenance.json files, each naming its data set (in the files' order)."""
    records = [read_provenance(path) for path in provenance_paths]
    return {record["dataset"]: record["origin"] for record in records}


def read_run_origins(provenance_paths: Mapping[str, str | Path], runs: Sequence[str]) -> dict[str, str]:
    """``{dataset: origin}`` of numbers that depend on the gold and ``runs`` only."""
    return {name: origin_of_runs(read_provenance(path), runs) for name, path in provenance_paths.items()}


def origin_label(origins: Mapping[str, str]) -> str:
    """One label for outputs that combine data sets: the common origin, or ``name: origin; ...``."""
    distinct = sorted(set(origins.values()))
    if len(distinct) == 1:
        return distinct[0]
    return "; ".join(f"{name}: {origin}" for name, origin in origins.items())


def combined_origin(origins: Mapping[str, str]) -> str:
    """The origin (an :class:`Origin` value) of numbers combining data sets of ``origins``: their
    common origin, else partly synthetic (some of the numbers come from simulated data)."""
    distinct = {Origin(origin).value for origin in origins.values()}
    if len(distinct) == 1:
        return distinct.pop()
    return ORIGIN_PARTLY_SYNTHETIC if distinct else ORIGIN_REAL


def origin_sentence(origins: Mapping[str, str]) -> str:
    """A caption sentence such as 'SYNTHETIC data: simulated gold and runs.'"""
    label = origin_label(origins)
    if label == ORIGIN_SYNTHETIC:
        return "SYNTHETIC data: simulated gold and simulated runs (baselines computed from the simulated gold)."
    if label == ORIGIN_REAL:
        return "Real data: official gold; runs from official files or baselines computed from that gold."
    if label == ORIGIN_PARTLY_SYNTHETIC:
        return "Partly synthetic data: real gold, some runs simulated."
    return f"Data origin per data set: {label}."


def figure_note(origins: Mapping[str, str]) -> str:
    """The note written in a figure's corner."""
    label = origin_label(origins)
    return "SYNTHETIC DATA (simulated)" if label == ORIGIN_SYNTHETIC else f"data: {label}"
