"""The library files a rule declares as inputs (ordeval.modules): the import closure, the cache of each
module's direct imports (kept by file modification time and size), and the job parameters that Snakemake
records only as a digest (ordeval.jobs.JobParams)."""

from __future__ import annotations

import json
import os
import pickle

import pytest

from ordeval import modules
from ordeval.jobs import Job, JobParams, params_digest
from ordeval.plan import JOB_MODULES


def _package(root, files: dict[str, str]):
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from . import b\nimport os\n\ndef f():\n    from . import c  # inside a function: not followed\n",
    "pkg/b.py": "from pkg.sub import d\ntry:\n    from .sub import e\nexcept ImportError:\n    pass\n",
    "pkg/c.py": "",
    "pkg/sub/__init__.py": "",
    "pkg/sub/d.py": "from .. import c\n",
    "pkg/sub/e.py": "",
    "pkg/notapackage/x.py": "",  # no __init__.py: not importable as pkg.notapackage.x
}


def _names(paths, root):
    return sorted(str(path.relative_to(root)) for path in paths)


def test_closure_follows_module_level_imports_only(tmp_path):
    _package(tmp_path, PACKAGE)
    index = modules.ModuleIndex(tmp_path / "pkg", "pkg")
    assert _names(index.closure("a"), tmp_path) == [
        "pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/c.py", "pkg/sub/__init__.py", "pkg/sub/d.py", "pkg/sub/e.py"
    ]  # fmt: skip
    assert _names(index.closure("pkg.c"), tmp_path) == ["pkg/__init__.py", "pkg/c.py"]
    assert "pkg.notapackage.x" not in index.files
    with pytest.raises(ValueError, match="has no module 'pkg.missing'"):
        index.closure("pkg.missing")
    with pytest.raises(ValueError, match="is not an pkg module"):
        index.path("other.a")


def test_cache_is_used_while_files_are_unchanged_and_refreshed_when_edited(tmp_path, monkeypatch):
    _package(tmp_path, PACKAGE)
    cache = tmp_path / "cache" / "imports.json"
    first = modules.ModuleIndex(tmp_path / "pkg", "pkg", cache).closure("a")
    stored = json.loads(cache.read_text())
    assert stored["version"] == modules.CACHE_VERSION and stored["modules"]["pkg.a"]["imports"] == ["pkg", "pkg.b"]

    parsed = []
    original = modules.ModuleIndex._parse

    def counting(self, module, *rest):
        parsed.append(module)
        return original(self, module, *rest)

    monkeypatch.setattr(modules.ModuleIndex, "_parse", counting)
    assert modules.ModuleIndex(tmp_path / "pkg", "pkg", cache).closure("a") == first
    assert parsed == []  # every module from the cache

    edited = tmp_path / "pkg" / "c.py"
    edited.write_text("from .sub import e\n")
    os.utime(edited, ns=(edited.stat().st_atime_ns, edited.stat().st_mtime_ns + 1_000_000))
    again = modules.ModuleIndex(tmp_path / "pkg", "pkg", cache)
    expected = ["pkg/__init__.py", "pkg/c.py", "pkg/sub/__init__.py", "pkg/sub/e.py"]
    assert _names(again.closure("pkg.c"), tmp_path) == expected
    assert parsed == ["pkg.c"]  # only the edited module parsed again
    assert json.loads(cache.read_text())["modules"]["pkg.c"]["imports"] == ["pkg.sub", "pkg.sub.e"]


@pytest.mark.parametrize("content", ["not json", '{"version": 0, "modules": {}}', '{"version": 1, "modules": []}'])
def test_a_bad_or_old_cache_file_is_ignored(tmp_path, content):
    _package(tmp_path, PACKAGE)
    cache = tmp_path / "imports.json"
    cache.write_text(content)
    expected = modules.ModuleIndex(tmp_path / "pkg", "pkg").closure("a")
    assert modules.ModuleIndex(tmp_path / "pkg", "pkg", cache).closure("a") == expected


def test_an_unwritable_cache_location_keeps_nothing(tmp_path):
    _package(tmp_path, PACKAGE)
    blocker = tmp_path / "file"
    blocker.write_text("")
    index = modules.ModuleIndex(tmp_path / "pkg", "pkg", blocker / "imports.json")  # its folder is a file
    assert len(index.closure("a")) == 7


def test_the_package_closures_are_the_same_with_and_without_the_cache(tmp_path):
    """For every job's modules, ordeval's own index with a fresh cache, then read back from it, gives the
    files that parsing every module gives."""
    cache = tmp_path / "imports.json"
    parsed = modules.ModuleIndex(modules.PACKAGE_DIR)
    written = modules.ModuleIndex(modules.PACKAGE_DIR, cache=cache)
    for job, names in JOB_MODULES.items():
        expected = parsed.closure(*names)
        assert written.closure(*names) == expected, job
        assert modules.ModuleIndex(modules.PACKAGE_DIR, cache=cache).closure(*names) == expected, job
        assert modules.module_files(*names) == expected, job
    assert cache.is_file()


def test_job_params_are_a_mapping_snakemake_does_not_record_with_a_digest_it_does():
    params = {"datasets": ["A", "B"], "trials": 1000, "nested": {"x": [1.5, None], "y": "é"}}
    wrapped = JobParams(params)
    # Snakemake records (repr) parameters of builtin types only: this one is passed, not recorded
    assert not isinstance(wrapped, (dict, list, tuple, str))
    assert dict(wrapped) == params and wrapped["trials"] == 1000 and len(wrapped) == 3
    assert dict(pickle.loads(pickle.dumps(wrapped))) == params  # how Snakemake hands it to the script
    digest = params_digest(params)
    assert digest.startswith("sha256:") and len(digest) == 7 + 64 and digest in repr(wrapped)
    assert params_digest(dict(reversed(list(params.items())))) == digest  # key order does not matter
    for changed in ({**params, "trials": 1001}, {**params, "nested": {"x": [1.5], "y": "é"}}, {**params, "new": 0}):
        assert params_digest(changed) != digest
    with pytest.raises(TypeError):
        params_digest({"path": object()})


def test_a_job_built_from_the_snakemake_object_unwraps_its_params():
    class Named(dict):
        def items(self):
            return super().items()

    class Fake:
        rule = "r"
        input = Named(a="in.tsv")
        output = Named(b=["out1", "out2"])
        params = type("P", (), {"job": JobParams({"k": [1, 2]}), "digest": "sha256:..."})()
        wildcards = Named()
        threads = 2
        log = ["log.txt"]

    job = Job.from_snakemake(Fake())
    assert job.params == {"k": [1, 2]} and type(job.params) is dict
    assert job.input == {"a": "in.tsv"} and job.output == {"b": ["out1", "out2"]} and job.log == "log.txt"
