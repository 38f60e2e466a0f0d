"""The configuration: strict YAML loading, JSON-schema validation with defaults, one-line errors.

:func:`load` reads a YAML file (a duplicate key is an error, with its line); :func:`validate` checks a
configuration dict against ``ordeval/schemas/config.schema.yaml``, fills in the defaults and raises a
:class:`~ordeval.io.errors.ConfigError` whose message names the offending key, e.g.
``config key datasets.Sem16T4E.runs[1]: unexpected key 'sytems'``; then
:func:`ordeval.workflow.config_checks.check_values` checks what the schema cannot (finite numbers, 64-bit
integers, no control characters, min/max pairs, fields that must agree). The planner
(:func:`ordeval.workflow.plan.plan`) checks names, files and sizes (:mod:`ordeval.workflow.limits`).

Configuration files are read with limits (:data:`MAX_BYTES`, :data:`MAX_ALIASES`,
:data:`MAX_MERGED_KEYS`), and every configuration, however it was loaded (a file, Snakemake's
``configfile:``, a dict given to the API), is measured with its aliases expanded before the schema sees
it (:data:`MAX_EXPANDED`): a YAML "alias bomb" is refused in microseconds instead of costing gigabytes
when a message shows it. :func:`check_config_file` checks a file that another program (Snakemake)
has loaded with a lenient YAML loader: duplicate keys, limits.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ordeval.io.errors import ConfigError, shorten
from ordeval.io.names import printable

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml"
#: A configuration file larger than this is refused before it is parsed.
MAX_BYTES = 2 * 2**20
#: YAML aliases (``*name``) a configuration file may use.
MAX_ALIASES = 1000
#: Entries a YAML mapping may have once its merge keys (``<<``) are resolved.
MAX_MERGED_KEYS = 10_000
#: Size of a configuration with its aliases expanded: one per value, plus the length of each string.
MAX_EXPANDED = 1_000_000
#: Entries of one list or mapping of a configuration.
MAX_ITEMS = 2000


# --------------------------------------------------------------------------- YAML


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys (PyYAML silently keeps the last one), more than
    :data:`MAX_ALIASES` aliases and mappings that merge keys (``<<``) into more than
    :data:`MAX_MERGED_KEYS` entries."""

    aliases = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise ConfigError(f"{self.name}, line {mark.line + 1}: more than {MAX_ALIASES} YAML aliases")
        return super().compose_node(parent, index)

    def flatten_mapping(self, node):
        super().flatten_mapping(node)
        if len(node.value) > MAX_MERGED_KEYS:
            raise ConfigError(
                f"{self.name}, line {node.start_mark.line + 1}: a mapping with more than {MAX_MERGED_KEYS} "
                "entries once its merge keys (<<) are resolved"
            )


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
    """A YAML file, strictly: duplicate keys and non-UTF-8 bytes are errors naming the file and line; a
    file over :data:`MAX_BYTES`, more than :data:`MAX_ALIASES` aliases or :data:`MAX_MERGED_KEYS` merged
    entries are refused (the expanded size: :func:`check_size`, by :func:`check_config_file`)."""
    from ordeval.io.errors import InputError
    from ordeval.io.files import open_regular

    path = Path(path)
    try:
        with open_regular(path) as handle:  # a FIFO or a device is refused before it is read
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_BYTES:
                raise ConfigError(f"{path}: {size} bytes; a configuration file may have at most {MAX_BYTES}")
            raw = handle.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:  # grew since it was measured
            raise ConfigError(f"{path}: more than {MAX_BYTES} bytes; a configuration file may have at most {MAX_BYTES}")
        text = raw.decode("utf-8")
    except InputError as error:
        problem = "no such configuration file" if error.problem == "file not found" else error.problem
        raise ConfigError(f"{path}: {problem.replace('not a file', 'not a configuration file')}") from None
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ConfigError(f"{path}, line {line}: not UTF-8 (byte 0x{error.object[error.start]:02x})") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
    loader = _StrictLoader(text)
    loader.name = str(path)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f", line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}{where}: {error.problem}") from None
    except yaml.YAMLError as error:  # e.g. a reader error: a character YAML does not allow
        raise ConfigError(f"{path}: {shorten(str(error).replace(chr(10), ' '))}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply") from None
    finally:
        loader.dispose()


def check_config_file(path: str | Path) -> dict:
    """The configuration file ``path`` read strictly (duplicate keys, size, aliases, a mapping at the
    top), not validated: for a file that a lenient loader has already read (Snakemake's ``configfile:``
    and ``--configfile``, which keep the last of two equal keys). Raises a ConfigError naming the file."""
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a configuration is a mapping of keys, not {type(data).__name__}")
    check_size(data, str(path))
    return data


def load(path: str | Path) -> dict:
    """Load and validate a configuration file; the validated dict has every default filled in."""
    data = check_config_file(path)
    try:
        return validate(data)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None


def check_size(config: Any, where: str = "") -> int:
    """The size of ``config`` with its aliases (shared objects) expanded: one per value plus the length
    of every string, counted without expanding anything (each shared object is measured once); a
    ConfigError when it exceeds :data:`MAX_EXPANDED`, refers to itself, or has a list or mapping of more
    than :data:`MAX_ITEMS` entries (the schema's ``uniqueItems`` compares the items of a list of mixed
    types pairwise: 20,000 classes would take a minute)."""
    memo: dict[int, int] = {}
    if not isinstance(config, (dict, list, tuple)):
        return len(config) if isinstance(config, str) else 1
    frames = [_frame(config, "", where)]
    active = {id(config)}
    while frames:
        frame = frames[-1]
        key, child = next(frame[1], (None, frames))  # ``frames`` marks the end
        if child is frames:
            frames.pop()
            active.discard(id(frame[0]))
            memo[id(frame[0])] = frame[2]
            if frames:
                frames[-1][2] += frame[2]
        elif isinstance(child, (dict, list, tuple)):
            if id(child) in memo:
                frame[2] += memo[id(child)]
            elif id(child) in active:
                raise ConfigError(f"{_lead(where)}config key {key}: a value contains itself (a recursive YAML alias)")
            else:
                active.add(id(child))
                frames.append(_frame(child, key, where))
        else:
            frame[2] += len(child) if isinstance(child, str) else 1
        if frame[2] > MAX_EXPANDED:
            raise ConfigError(
                f"{_lead(where) or 'configuration: '}more than {MAX_EXPANDED} values and characters with its YAML "
                "aliases expanded (an alias bomb?)"
            )
    return memo[id(config)]


def _lead(where: str) -> str:
    return f"{where}: " if where else ""


def _frame(value, key: str, where: str) -> list:
    """[container, iterator of (key path, child), size so far] for :func:`check_size`."""
    if len(value) > MAX_ITEMS:
        what = "mapping" if isinstance(value, dict) else "list"
        raise ConfigError(
            f"{_lead(where)}config key {shorten(key) or '(top level)'}: a {what} of {len(value)} entries "
            f"(at most {MAX_ITEMS})"
        )
    if isinstance(value, dict):
        return [value, _mapping_children(value, key), 1]
    return [value, ((f"{key}[{index}]", item) for index, item in enumerate(value)), 1]


def _mapping_children(value: dict, key: str):
    """(key path, the key) and (key path, its value) of every entry of a mapping."""
    for name, item in value.items():
        shown = printable(shorten(str(name)))
        path = f"{key}.{shown}" if key else shown
        yield path, name
        yield path, item


# --------------------------------------------------------------------------- schema


def schema() -> dict:
    """The configuration schema (package data: libyaml's loader when there is one, 10x faster), read once per
    process while the file stays as it was."""
    status = SCHEMA_PATH.stat()
    signature = (status.st_mtime_ns, status.st_size)
    if _SCHEMA.get("signature") != signature:
        text = SCHEMA_PATH.read_text(encoding="utf-8")
        _SCHEMA.update(
            signature=signature, schema=yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        )
    return _SCHEMA["schema"]


_SCHEMA: dict = {}


#: The JSON schema of a source key that a file format needs (``FileFormat.needs``).
NEEDED_KEYS = {"score": {"$ref": "#/$defs/score"}}


def schema_with_formats() -> dict:
    """The schema with the tasks ``ordeval.tasks`` finds (a data set's ``task``) and every file format
    registered with a task (``ordeval.tasks.<task>.formats``, and any a plugin added): each a source
    ``type`` of the task's gold or run sources, with the keys it takes."""
    from ordeval.tasks import all_tasks

    result = copy.deepcopy(schema())
    dataset = result["$defs"]["dataset"]
    dataset["properties"]["task"]["enum"] = [task.name for task in all_tasks()]
    for task in all_tasks():  # the task's section: its data sets' keys, its sources' definitions
        section = copy.deepcopy(task.schema)
        result["$defs"].update(section.get("$defs") or {})
        condition = {"properties": {"task": {"const": task.name}}}
        if not task.implied:
            condition["required"] = ["task"]
        dataset["allOf"].append({"if": condition, "then": section.get("dataset") or {}})
    for task in all_tasks():
        for role, name in task.schema_sources.items():
            definition = result["$defs"][name]
            formats = task.formats.names(role)
            definition["properties"]["type"]["enum"] = [*formats, *definition["properties"]["type"]["enum"]]
            clauses = [_format_clause(task, task.formats[fmt], role) for fmt in formats]
            definition["allOf"] = [*clauses, *definition["allOf"]]
    return result


def _format_clause(task, fmt, role: str) -> dict:
    """The schema of a ``role`` source of file format ``fmt``: ``path``, the keys it needs, and for a run
    its ``name`` (or, a file of several runs, the ``runs`` to take) and the task's run options."""
    properties: dict = {"type": {}, "path": {"type": "string"}}
    required = ["path", *fmt.needs]
    if role == "run":
        if fmt.several_runs:
            properties["runs"] = {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "description": "Runs to take from the file (default all).",
            }
        else:
            properties["name"] = {"type": "string", "minLength": 1}
            required.append("name")
        properties.update(copy.deepcopy(dict(task.run_file_options)))
    for key in fmt.needs:
        properties[key] = NEEDED_KEYS.get(key, {"type": "string"})
    return {
        "if": {"properties": {"type": {"const": fmt.name}}},
        "then": {"additionalProperties": False, "required": required, "properties": properties},
    }


def _strict_integer(checker, instance) -> bool:  # noqa: ARG001 - jsonschema's signature
    """JSON schema's ``integer``, strictly: a Python int (not a bool), never a float. JSON Schema counts a number
    with a zero fraction (``6.0``) as an integer, but YAML reads ``6.0`` as a float, which the code that counts
    systems, topics or trials with it cannot use (``range(6.0)``): refused here, naming the key."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _validator_class():
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if isinstance(subschema, dict) and "default" in subschema and name not in instance:
                    instance[name] = copy.deepcopy(subschema["default"])
        yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer)
    return validators.extend(Draft202012Validator, {"properties": set_defaults}, type_checker=checker)


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
    if len(where) > 300:
        where = shorten(where)
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        known = set(error.schema.get("properties", {})) | _clause_keys(error.schema, error.instance)
        unexpected = sorted(set(error.instance) - known)
        allowed = ", ".join(sorted(known))
        return f"config key {where}: unexpected key(s) {shorten(', '.join(map(repr, unexpected)))} (allowed: {allowed})"
    if error.validator == "required":
        return f"config key {where}: {error.message}"
    if error.validator == "not" and error.validator_value == {}:
        return f"config key {where}: not used here (it belongs to another kind of data set: see 'task')"
    return f"config key {where}: {_without_huge_values(error)}"


def _clause_keys(schema: Mapping, instance) -> set[str]:
    """The keys that the ``if task ... then`` clause of ``instance``'s task allows (a data set's task section)."""
    from ordeval.tasks import task_of

    task = task_of(instance) if isinstance(instance, Mapping) else None
    for clause in schema.get("allOf", []):
        if clause.get("if", {}).get("properties", {}).get("task", {}).get("const") == task:
            return set(clause.get("then", {}).get("properties", {}))
    return set()


def _without_huge_values(error) -> str:
    """jsonschema's message with the offending value shortened (it shows the whole value)."""
    shown = repr(error.instance)
    if len(shown) <= 200 or shown not in error.message:
        return shorten(error.message)
    return error.message.replace(shown, shorten(shown), 1)


def validate(config: Mapping) -> dict:
    """A deep copy of ``config``, checked against the schema and with its defaults filled in, then its
    values (:func:`ordeval.workflow.config_checks.check_values`). Measured first (:func:`check_size`)."""
    from ordeval.workflow.config_checks import check_values

    if not isinstance(config, Mapping):
        raise ConfigError(f"a configuration is a mapping of keys, not {type(config).__name__}")
    check_size(config)
    data = copy.deepcopy(dict(config))
    validator = _validator_class()(schema_with_formats())
    # A data set key that its task's clause does not allow is reported last: a clause that fails anywhere (a
    # misspelled key of a run source) leaves every key of the data set unevaluated, which says nothing.
    errors = sorted(
        validator.iter_errors(data),
        key=lambda error: (error.validator == "unevaluatedProperties", len(error.absolute_path), key_path(error.path)),
    )
    if errors:
        raise ConfigError(_message(errors[0]))
    check_values(data)
    return data


def parameters(config: Mapping) -> dict:
    """The analysis parameters of a validated configuration, flattened once: the values captions and the
    report's parameter line print, and those the cost model (:func:`ordeval.workflow.resources.estimate`) and the
    size limits (:mod:`ordeval.workflow.limits`) use."""
    from ordeval.stats.intervals import CI_METHODS  # the tau interval methods, as captions name them
    from ordeval.stats.splits import CONDITIONS

    return {
        "seed": config["seed"],
        "kendall": config["kendall"],
        "ci_level": config["agreement"]["ci_level"],
        "ci_method": CI_METHODS[config["agreement"]["ci_method"]],
        "consistency_trials": config["consistency"]["trials"],
        "subset_size": config["consistency"]["subset_size"],
        "conditions": len(CONDITIONS),
        "consistency_hsd_trials": config["consistency"]["hsd_trials"],
        "consistency_alpha": config["consistency"]["alpha"],
        "significance_hsd_trials": config["significance"]["hsd_trials"],
        "significance_alpha": config["significance"]["alpha"],
        "popularity_run": config["popularity"]["popularity_run"],
        "uniform_run": config["popularity"]["uniform_run"],
        "leaderboard_level": config["leaderboard"]["ci_level"],
        "tss_alpha": config["topic_set_size"]["alpha"],
        "tss_power": config["topic_set_size"]["power"],
        "replication_tolerance": "tolerances: mean tau {consistency_mean_tau:g}, VE2 {consistency_ve2:g}, "
        "significant pairs {dp_significant:g}, from re-runs with other seeds".format(
            **config["replication"]["tolerance"]
        ),
    }
