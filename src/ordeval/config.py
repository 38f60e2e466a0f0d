"""The configuration: strict YAML loading, JSON-schema validation with defaults, one-line errors.

:func:`load` reads a YAML file (a duplicate key is an error, with its line); :func:`validate` checks a
configuration dict against ``ordeval/schemas/config.schema.yaml``, fills in the defaults and raises a
:class:`~ordeval.errors.ConfigError` whose message names the offending key, e.g.
``config key datasets.Sem16T4E.runs[1]: unexpected key 'sytems'``. The planner
(:func:`ordeval.plan.plan`) does the checks that need more than the schema.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError

SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"


# --------------------------------------------------------------------------- YAML


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys (PyYAML silently keeps the last one)."""


def _mapping_without_duplicates(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    # Only the keys written in this mapping count: those a merge key (<<) brings in may be overridden.
    explicit = {id(key_node) for key_node, _ in node.value if key_node.tag != "tag:yaml.org,2002:merge"}
    loader.flatten_mapping(node)  # resolves the merge keys, putting the merged entries first
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if id(key_node) not in explicit:
            continue
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ConfigError(
                f"{loader.name}, line {key_node.start_mark.line + 1}: duplicate key {key!r} (first at line {seen[key]})"
            )
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_duplicates)


def load_yaml(path: str | Path) -> Any:
    """A YAML file, strictly: duplicate keys and non-UTF-8 bytes are errors naming the file and line."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise ConfigError(f"{path}, line {line}: not UTF-8 (byte 0x{error.object[error.start]:02x})") from None
    loader = _StrictLoader(text)
    loader.name = str(path)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f", line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}{where}: {error.problem}") from None
    finally:
        loader.dispose()


def load(path: str | Path) -> dict:
    """Load and validate a configuration file; the validated dict has every default filled in."""
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a configuration is a mapping of keys, not {type(data).__name__}")
    return validate(data)


# --------------------------------------------------------------------------- schema


@cache
def schema() -> dict:
    """The configuration schema (package data: libyaml's loader when there is one, 10x faster)."""
    return yaml.load(SCHEMA_PATH.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _validator_class():
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if isinstance(subschema, dict) and "default" in subschema and name not in instance:
                    instance[name] = copy.deepcopy(subschema["default"])
        yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)

    return validators.extend(Draft202012Validator, {"properties": set_defaults})


def key_path(path) -> str:
    """``datasets.X.runs[1].systems`` from a jsonschema error path."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _message(error) -> str:
    """A one-line message for the most relevant schema error."""
    from jsonschema.exceptions import best_match

    error = best_match([error]) if error.context else error
    while error.context:  # descend into oneOf/anyOf to the most specific failure
        error = best_match(error.context)
    where = key_path(error.absolute_path)
    if error.validator == "additionalProperties":
        unexpected = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        allowed = ", ".join(sorted(error.schema.get("properties", {})))
        return f"config key {where}: unexpected key(s) {', '.join(map(repr, unexpected))} (allowed: {allowed})"
    if error.validator == "required":
        return f"config key {where}: {error.message}"
    if error.validator == "not" and error.validator_value == {}:
        return f"config key {where}: not used here (it belongs to another kind of data set: see 'task')"
    return f"config key {where}: {error.message}"


def validate(config: Mapping) -> dict:
    """A deep copy of ``config``, checked against the schema and with its defaults filled in."""
    data = copy.deepcopy(dict(config))
    validator = _validator_class()(schema())
    errors = sorted(validator.iter_errors(data), key=lambda error: (len(error.absolute_path), key_path(error.path)))
    if errors:
        raise ConfigError(_message(errors[0]))
    return data
