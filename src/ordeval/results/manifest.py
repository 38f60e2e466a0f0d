"""Provenance of a configuration's results: config, seeds, software versions, git commit, input hashes."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from ordeval.io.files import sha256


def pinned_packages(requirements: str | Path) -> list[str]:
    """Package names listed in a requirements file (``name==version`` lines)."""
    names = []
    for line in Path(requirements).read_text(encoding="utf-8").splitlines():
        match = re.match(r"\s*([A-Za-z0-9_.-]+)", line.split("#")[0])
        if match:
            names.append(match[1])
    return names


def installed_versions(packages: list[str]) -> dict[str, str]:
    """Installed version of each package ('not installed' where absent)."""
    versions = {}
    for name in packages:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit(repository: str | Path) -> str:
    """The checked-out commit of ``repository`` (with '+dirty' if it has uncommitted changes), or 'unknown'."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(repository), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(repository), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit}+dirty" if status else commit


#: Environment variables that choose the floating-point kernels of numpy, OpenBLAS, numba or the C library.
KERNEL_VARIABLES = (
    "NPY_DISABLE_CPU_FEATURES",
    "NPY_ENABLE_CPU_FEATURES",
    "OPENBLAS_CORETYPE",
    "NUMBA_CPU_NAME",
    "NUMBA_CPU_FEATURES",
    "GLIBC_TUNABLES",
    "MKL_CBWR",
    "MKL_ENABLE_INSTRUCTIONS",
)


def environment() -> dict:
    """What decides the last bits of floating-point results on this machine (recorded in the manifest and
    the reference, printed by ``ordeval diff`` where two sides differ; docs/methods.md, section 8): the
    architecture and CPU, the C library, numpy's SIMD baseline and the dispatched features this CPU has,
    the BLAS library and the kernels it chose, numba's target CPU, and the variables that override them."""
    import numpy as np

    try:
        from numpy._core import _multiarray_umath as umath

        found = [name for name in umath.__cpu_dispatch__ if umath.__cpu_features__.get(name)]
        simd = f"baseline {' '.join(umath.__cpu_baseline__)}; dispatched {' '.join(found) or 'none'}"
    except (ImportError, AttributeError):  # pragma: no cover - another numpy layout
        simd = "unknown"
    libc = " ".join(platform.libc_ver()).strip()
    return {
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "libc": libc or "unknown",
        "numpy_simd": simd,
        "blas": _blas(np),
        "numba_cpu": os.environ.get("NUMBA_CPU_NAME") or _llvm_host_cpu(),
        "kernel_variables": " ".join(f"{name}={os.environ[name]}" for name in KERNEL_VARIABLES if os.environ.get(name))
        or "none",
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "cpu model", "Hardware"):
                return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _blas(np) -> str:
    """The BLAS numpy was built with, and the kernels an OpenBLAS chose at run time (its core name)."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        described = f"{blas.get('name', 'unknown')} {blas.get('version', '')}".strip()
    except (KeyError, TypeError, ValueError, AttributeError):  # pragma: no cover - another numpy layout
        return "unknown"
    core = _openblas_core()
    return f"{described}, {core} kernels" if core else described


def _openblas_core() -> str:
    import ctypes

    try:
        maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    for library in sorted(set(re.findall(r"(/\S*openblas\S*\.so\S*)", maps))):
        try:
            handle = ctypes.CDLL(library)
        except OSError:
            continue
        for name in (
            "openblas_get_corename",
            "scipy_openblas_get_corename64_",
            "openblas_get_corename64_",
            "scipy_openblas_get_corename",
        ):
            function = getattr(handle, name, None)
            if function is not None:
                function.restype = ctypes.c_char_p
                return (function() or b"").decode(errors="replace")
    return ""


def _llvm_host_cpu() -> str:
    try:
        import llvmlite.binding as llvm

        return llvm.get_host_cpu_name()
    except Exception:  # noqa: BLE001 - no llvmlite, or an llvmlite that needs initialising: not recorded
        return "unknown"


def build_manifest(
    config: dict, input_files: dict[str, list[str]], requirements: str | Path, commit: str, data_root: str | Path = ""
) -> dict:
    """The manifest: configuration, seeds, Python and dependency versions, git commit and the
    SHA-256 of every input data file (``{dataset: [paths]}``), each path relative to ``data_root`` (the
    configuration's ``data_root``) where it lies below it, so that the manifest does not depend on the
    machine or folder; else as given."""
    seeds = {
        "seed": config.get("seed"),
        "derivation": "numpy.random.default_rng([seed, crc32(data set or corpus), crc32(analysis)])",
    }
    root = Path(data_root).resolve() if data_root else None

    def shown(path: str) -> str:
        resolved = Path(path).resolve()
        if root is not None and resolved.is_relative_to(root):
            return resolved.relative_to(root).as_posix()
        return str(path)

    files = [
        {"dataset": dataset, "path": shown(path), "sha256": sha256(path), "bytes": Path(path).stat().st_size}
        for dataset, paths in input_files.items()
        for path in paths
    ]
    return {
        "name": config.get("name"),
        "configuration": config,
        "seeds": seeds,
        "python": {"version": sys.version.split()[0], "implementation": platform.python_implementation()},
        "platform": platform.platform(),
        "dependencies": installed_versions(pinned_packages(requirements)),
        "environment": environment(),
        "git_commit": commit,
        "input_files": files,
    }


def _differences(made: object, asked: object, prefix: str = "") -> list[str]:
    """Dotted keys where two JSON-like configurations differ."""
    if isinstance(made, dict) and isinstance(asked, dict):
        found = []
        for key in sorted(set(made) | set(asked), key=str):
            found += _differences(made.get(key), asked.get(key), f"{prefix}{key}.")
        return found
    return [] if made == asked else [prefix.rstrip(".") or "(whole configuration)"]


def report_configuration_problem(config: dict, manifest_path: str | Path) -> str | None:
    """Why an HTML report of ``config`` would not describe the results in its folder, or None.

    ``snakemake --report`` without the run's ``--configfile``/``--config`` would read the default
    configuration and describe other results (or none); the manifest records the configuration that
    made the results, so the report can refuse instead."""
    import json

    path = Path(manifest_path)
    advice = "give `snakemake --report` the same --configfile and --config as the run"
    if not path.is_file():
        return (
            f"no results of configuration {config.get('name')!r} ({path} is missing): run the pipeline "
            f"first, or {advice}"
        )
    from ordeval.io.parsing import RECORD_BYTES, load_json

    try:
        made = load_json(path, RECORD_BYTES)["configuration"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return f"{path}: not a readable manifest ({error}); run the pipeline again"
    asked = json.loads(json.dumps(config, default=str))
    differences = _differences(made, asked)
    if differences:
        shown = ", ".join(differences[:5]) + (f" and {len(differences) - 5} more" if len(differences) > 5 else "")
        return f"{path.parent} was made with a different configuration (differs in {shown}): {advice}"
    return None


def output_records(paths) -> list[dict]:
    """``{path, sha256, bytes}`` of every output of ``paths`` (one path or several), sorted by path."""
    listed = [paths] if isinstance(paths, str) else sorted(paths)
    return [{"path": str(path), "sha256": sha256(path), "bytes": Path(path).stat().st_size} for path in listed]


def write_manifest(
    config: dict,
    input_files: dict[str, list[str]],
    requirements: str | Path,
    commit: str,
    made,
    path: str | Path,
    data_root: str | Path = "",
) -> dict:
    """The manifest of a run (:func:`build_manifest`) with the SHA-256 of every output the other jobs ``made``
    (``output_files``: :func:`output_records`), written to ``path`` (JSON, atomically); the manifest."""
    from ordeval.io.files import write_json

    manifest = build_manifest(config, input_files, requirements, commit, data_root)
    manifest["output_files"] = output_records(made)
    write_json(manifest, path)
    return manifest
