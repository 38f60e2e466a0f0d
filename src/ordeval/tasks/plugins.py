"""Plugins: user modules that register measures (or more) before anything is planned or scored.

A plugin is named in the configuration's ``plugins`` list -- a Python file (``my_measures.py``, relative
to the working directory) or an importable module name (``mylab.measures``) -- or installed by a
package under the ``ordeval.plugins`` entry point group. Loading is idempotent: each plugin runs once
per process, however often the configuration is planned.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path

from ordeval.io.errors import ConfigError

ENTRY_POINT_GROUP = "ordeval.plugins"  # the group installed packages name (a contract)
_loaded: dict[str, str] = {}  # plugin file (resolved) or module name -> module name
_signatures: dict[str, tuple] = {}  # plugin file (resolved) -> (modification time, size) when it was loaded


def _signature(path: Path) -> tuple:
    try:
        status = path.stat()
    except OSError:
        return ()
    return (status.st_mtime_ns, status.st_size)


def is_file(plugin: str) -> bool:
    return plugin.endswith(".py") or "/" in plugin or "\\" in plugin


def plugin_file(plugin: str, base: str | Path = ".") -> Path | None:
    """The file of a file plugin (resolved against ``base``), None for a module name."""
    if not is_file(plugin):
        return None
    path = Path(plugin)
    return (path if path.is_absolute() else Path(base) / path).resolve()


def load_plugins(plugins: Iterable[str], base: str | Path = ".", key: str = "plugins") -> list[str]:
    """Import every plugin of the configuration (and the installed entry points); returns the files
    the plugins live in, so that rules can declare them as inputs."""
    load_entry_points()
    files = []
    for index, plugin in enumerate(plugins):
        path = plugin_file(plugin, base)
        loaded_as = str(path) if path is not None else plugin  # a file by where it is, not how it is named
        if loaded_as in _loaded:
            if path is not None and _signatures.get(loaded_as) not in (None, _signature(path)):
                raise ConfigError(
                    f"config key {key}[{index}]: plugin file {plugin!r} changed since this process "
                    "loaded it; its first version is what runs here: start a new process"
                )
        elif path is not None:
            if path.is_dir():
                raise ConfigError(
                    f"config key {key}[{index}]: plugin {plugin!r} is a folder, not a file (a plugin is "
                    "a Python file or an importable module)"
                )
            if not path.is_file():
                from ordeval.io.files import file_kind

                what = f"is {file_kind(path.stat().st_mode)}, not a file" if path.exists() else "does not exist"
                raise ConfigError(f"config key {key}[{index}]: plugin file {plugin!r} {what}")
            digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
            name = f"ordeval_plugin_{path.stem}_{digest}"
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except (Exception, SystemExit) as error:  # sys.exit in a plugin: one line, not a silent end
                del sys.modules[name]
                problem = f"called sys.exit({error.code!r})" if isinstance(error, SystemExit) else str(error)
                raise ConfigError(f"config key {key}[{index}]: plugin {plugin!r} failed: {problem}") from error
            _loaded[loaded_as] = name
            _signatures[loaded_as] = _signature(path)
        else:
            try:
                module = importlib.import_module(plugin)
            except ImportError as error:
                missing = isinstance(error, ModuleNotFoundError) and error.name == plugin.split(".")[0]
                if missing and (Path(base) / plugin).exists():  # a folder (or file) named like a module
                    what = "a folder" if (Path(base) / plugin).is_dir() else "a file without the .py ending"
                    raise ConfigError(
                        f"config key {key}[{index}]: plugin {plugin!r} is {what}, not a Python file "
                        "(*.py) nor an importable module"
                    ) from None
                raise ConfigError(
                    f"config key {key}[{index}]: cannot import plugin module {plugin!r}: {error}"
                ) from None
            _loaded[loaded_as] = plugin
            path = Path(module.__file__).resolve() if getattr(module, "__file__", None) else None
        if path is not None:
            files.append(str(path))
    return files


@cache
def load_entry_points() -> tuple[str, ...]:
    """Load the plugins that installed packages declare under ``ordeval.plugins`` (once)."""
    names = []
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        entry_point.load()
        names.append(entry_point.name)
    return tuple(names)
