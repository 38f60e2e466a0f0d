"""Checks of configuration values that the JSON schema cannot express, run right after it.

:func:`check_values` walks a validated configuration (defaults filled in) once and raises a
:class:`~ordeval.io.errors.ConfigError` naming the key at the first value that cannot work:

* **numbers**: every float finite (YAML's ``.nan`` and ``.inf`` are floats the schema's ranges let
  through); every integer within a signed 64-bit integer (numpy's, and the seed's 0..2^63-1);
* **strings**: no control character (tab, newline, carriage return, NUL ...) nor line or paragraph
  separator anywhere: labels, prefixes, names, descriptions and paths end up in TSV and CSV cells,
  LaTeX and file names;
* **ranges**: every ``<x>_min`` / ``<x>_max`` pair of a source (given or by its default) in order;
* **consistency between fields**: class labels distinct as text, ``class_shares`` one per class, a
  ``constant_class`` run's class among the classes, ``english_variants`` at most ``systems``,
  ``weak_teams`` at most the number of teams, an annotator simulation's ``score`` among its ``scores``
  and a ``latent_correlation`` that gives a valid correlation matrix for that many scores.

Names follow :mod:`ordeval.io.names`: the configuration's and the data sets' here (the schema takes any
string, so that a bad name gets the policy's message, not a regular expression), as are the run names of the
Popularity vs Uniform comparison; run and measure names by the planner.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping

from ordeval.io.errors import ConfigError, shorten, shorten_repr
from ordeval.io.names import check_name, printable
from ordeval.tasks import latent, task_of, topic_model
from ordeval.tasks.latent import team_count

#: numpy's int64 (and the seed's upper bound).
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: Unicode categories refused in configuration strings: controls, line and paragraph separators.
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def check_values(config: Mapping) -> None:
    """Raise a ConfigError for the first value of ``config`` that cannot work (see the module doc)."""
    for key, value in _leaves(config, ""):
        _check_leaf(key, value)
    check_name(config["name"], kind="configuration name", key="config key name")
    for name in config.get("datasets", {}):
        check_name(name, kind="data set", key=f"config key datasets.{printable(shorten(str(name)))}")
    for key in ("popularity_run", "uniform_run"):  # the schema has filled in the defaults
        check_name(config["popularity"][key], kind="run", key=f"config key popularity.{key}")
    for name, spec in config.get("datasets", {}).items():
        _check_dataset(f"datasets.{name}", spec)


def _leaves(value, key: str) -> Iterator[tuple[str, object]]:
    """(key path, value) of every number and string of a configuration, keys included; iterative (a
    deeply nested value costs no recursion)."""
    stack = [(key, value)]
    while stack:
        key, value = stack.pop()
        if isinstance(value, Mapping):
            for child_key, child in reversed(list(value.items())):
                child_path = f"{key}.{child_key}" if key else str(child_key)
                yield child_path, child_key
                stack.append((child_path, child))
        elif isinstance(value, (list, tuple)):
            stack.extend((f"{key}[{index}]", child) for index, child in reversed(list(enumerate(value))))
        else:
            yield key, value


def _check_leaf(key: str, value) -> None:
    if isinstance(value, bool):
        return
    shown_key = printable(shorten(key))
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"config key {shown_key}: {value!r} is not a finite number")
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        raise ConfigError(f"config key {shown_key}: {shorten(str(value))} is outside the 64-bit integer range")
    if isinstance(value, str):
        for position, character in enumerate(value):
            if unicodedata.category(character) in FORBIDDEN_CATEGORIES:
                raise ConfigError(
                    f"config key {shown_key}: {shorten_repr(value)} contains the control character {character!r} "
                    f"at position {position + 1} (not allowed in text that goes into files)"
                )


# --------------------------------------------------------------------------- one data set


def _check_dataset(entry: str, spec: Mapping) -> None:
    task = task_of(spec)
    classes = [str(label) for label in spec.get("classes", [])]
    repeated = sorted(label for label, count in Counter(classes).items() if count > 1)
    if repeated:
        raise ConfigError(
            f"config key {entry}.classes: label(s) {shorten(', '.join(map(repr, repeated)))} given twice (as text)"
        )
    if "gold" in spec:
        _check_source(f"{entry}.gold", spec["gold"], task, classes)
    for index, source in enumerate(spec.get("runs", [])):
        _check_source(f"{entry}.runs[{index}]", source, task, classes)


def _check_source(entry: str, source: Mapping, task: str, classes: list[str]) -> None:
    kind = source.get("type")
    given = {**_defaults(task, kind), **source}
    for key in sorted(given):
        if key.endswith("_min") and key[:-4] + "_max" in given:
            low, high = given[key], given[key[:-4] + "_max"]
            if _is_number(low) and _is_number(high) and low > high:
                which = key[:-4] + "_max" if key[:-4] + "_max" in source else key
                raise ConfigError(
                    f"config key {entry}.{which}: {key} ({low}) is greater than {key[:-4]}_max ({high})"
                    + ("" if key in source and key[:-4] + "_max" in source else " (the other is its default)")
                )
    if "class_shares" in source and len(source["class_shares"]) != len(classes):
        raise ConfigError(
            f"config key {entry}.class_shares: {len(source['class_shares'])} shares for {len(classes)} classes "
            "(one per class, in the order of 'classes')"
        )
    logistic = topic_model.logistic_gold_problem(source, len(classes))
    if logistic:
        raise ConfigError(f"config key {entry}.{logistic[0]}: {logistic[1]}")
    if kind == "constant_class" and str(source["class"]) not in classes:
        raise ConfigError(
            f"config key {entry}.class: {shorten_repr(source['class'])} is not one of the classes "
            f"({shorten(', '.join(classes))})"
        )
    if kind == "simulate" and given.get("english_variants", 0) > source["systems"]:
        raise ConfigError(
            f"config key {entry}.english_variants: {source['english_variants']} English variants of "
            f"{source['systems']} systems (at most one per system)"
        )
    if kind == "simulate" and given.get("weak_teams", 0) > team_count(source["systems"], given.get("team_size", 1)):
        raise ConfigError(
            f"config key {entry}.weak_teams: {source['weak_teams']} weak teams, more than the "
            f"{source['systems']} systems in teams of {given.get('team_size', 1)} make"
        )
    if kind == "simulate":
        _check_profiles(entry, source, task, len(classes))
    if kind == "simulate_annotators":
        scores = source.get("scores", [source["score"]])
        if source["score"] not in scores:
            raise ConfigError(f"config key {entry}.score: {source['score']!r} is not one of scores {scores}")
        correlation = given.get("latent_correlation")
        if len(scores) > 1 and _is_number(correlation) and correlation <= -1 / (len(scores) - 1):
            raise ConfigError(
                f"config key {entry}.latent_correlation: {correlation} with {len(scores)} scores is not a valid "
                f"correlation (it must be greater than {-1 / (len(scores) - 1):.3g})"
            )


def _check_profiles(entry: str, source: Mapping, task: str, num_classes: int) -> None:
    """Systems fitted to real runs (``profiles``) go with the latent model, and each has K - 1 ascending edges and
    the keys of the task's profiles (:attr:`ordeval.tasks.base.Task.profile_keys`)."""
    from ordeval.tasks import get_task

    found = get_task(task)
    profiles = source.get("profiles")
    if source.get("model") == "latent" and found.latent_needs_profiles and not profiles:
        raise ConfigError(f"config key {entry}.profiles: the latent model needs profiles (systems fitted to real runs)")
    if profiles is None:
        return
    if source.get("model") != "latent":
        raise ConfigError(f"config key {entry}.profiles: profiles are systems of the latent model (set model: latent)")
    for position, profile in enumerate(profiles):
        problem = latent.profile_problem(profile, num_classes, found.profile_keys, found.profile_optional)
        if problem:
            raise ConfigError(f"config key {entry}.profiles[{position}]: {shorten(problem)}")
    problem = latent.loadings_problem(profiles)
    if problem:
        raise ConfigError(f"config key {entry}.profiles: {problem}")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _defaults(task: str, kind: str | None) -> Mapping:
    """The defaults of a source's parameters (where the task's simulator keeps them)."""
    from ordeval.tasks import get_task

    return get_task(task).source_defaults(kind)
