"""Code tracking (ordeval.workflow.modules): the files a rule's script depends on -- its imports, at module level
and inside functions, transitively, packages as files -- and every script dated after the newest of them, so that
Snakemake's code trigger re-runs exactly the jobs whose code changed."""

from __future__ import annotations

from conftest import REPO

from ordeval.workflow import modules


def _package(root, files: dict[str, str]):
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


PACKAGE = {
    "pkg/__init__.py": "from pkg import c  # the package's own import: followed only where pkg itself is imported\n",
    "pkg/a.py": "from . import b\nimport os\n\ndef f():\n    from . import c  # inside a function: followed too\n",
    "pkg/b.py": "from pkg.sub import d\ntry:\n    from .sub import (\n        e,  # in parentheses\n    )\n"
    "except ImportError:\n"
    "    pass\n",
    "pkg/c.py": "",
    "pkg/sub/__init__.py": "",
    "pkg/sub/d.py": "from .. import c as renamed\n",
    "pkg/sub/e.py": "",
    "pkg/sub/f.py": "",
    "pkg/notapackage/x.py": "",  # no __init__.py: not importable as pkg.notapackage.x
}


def _names(paths, root):
    return sorted(str(path.relative_to(root)) for path in paths)


def test_closure_follows_every_import_and_takes_packages_as_files(tmp_path):
    _package(tmp_path, PACKAGE)
    index = modules.ModuleIndex(tmp_path / "pkg", "pkg")
    assert _names(index.closure("pkg.a"), tmp_path) == [
        "pkg/__init__.py",
        "pkg/a.py",
        "pkg/b.py",
        "pkg/c.py",
        "pkg/sub/__init__.py",
        "pkg/sub/d.py",
        "pkg/sub/e.py",
    ]
    assert "pkg/sub/f.py" not in _names(index.closure("pkg.sub.d"), tmp_path)
    assert _names(index.closure("pkg.sub.e"), tmp_path) == ["pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/e.py"]
    assert "pkg.notapackage.x" not in index.files


def test_a_script_depends_on_what_it_imports_and_nothing_else(tmp_path):
    script = tmp_path / "rule.py"
    script.write_text(
        "from ordeval.workflow.scripting import job\n\nwith job(snakemake):\n    from ordeval.stats import hsd\n"
    )
    files = {
        path.relative_to(modules.PACKAGE_DIR).as_posix()
        for path in modules.script_files(script)
        if path.is_relative_to(modules.PACKAGE_DIR)
    }
    assert {"workflow/scripting.py", "stats/hsd.py", "stats/__init__.py", "__init__.py"} <= files
    assert not any(name.startswith(("reports/", "analysis/")) for name in files), files
    assert script in modules.script_files(script)


def test_every_script_depends_on_package_files_only_and_on_the_kernels_it_runs():
    """No script imports a module for the tracker's sake: the kernels the analyses import inside functions
    are found through them."""
    for script in sorted((REPO / "scripts").glob("*.py")):
        files = modules.script_files(script)
        assert all(path == script or path.is_relative_to(modules.PACKAGE_DIR) for path in files), script.name
        assert "noqa: F401" not in script.read_text(), script.name
    for script, kernel in (
        ("significance_pvalues", "stats/hsd.py"),
        ("consistency_taus", "stats/hsd.py"),
        ("agreement_dataset", "stats/kendall_kernel.py"),
    ):
        files = modules.script_files(REPO / "scripts" / f"{script}.py")
        assert modules.PACKAGE_DIR / kernel in files, (script, kernel)


def test_the_replication_scripts_depend_on_the_published_numbers():
    files = modules.script_files(REPO / "scripts" / "replication_dataset.py")
    assert modules.PACKAGE_DIR / "published" / "published.tsv" in files


def test_the_code_digest_changes_with_the_code_a_script_reaches_and_only_with_it(tmp_path):
    """The digest a rule carries as params (``code``): it changes when a file the script's code reaches changes,
    not when another module does, and it does not depend on where the checkout lies; reading it writes nothing."""
    for folder in ("here", "there"):
        _package(tmp_path / folder, PACKAGE)
        (tmp_path / folder / "rule.py").write_text("from pkg import a\n")
    original = modules._INDEX
    try:
        digests = {}
        for folder in ("here", "there"):
            modules._INDEX = modules.ModuleIndex(tmp_path / folder / "pkg", "pkg")
            modules._FILE_DIGESTS.clear()
            before = {path: path.stat().st_mtime_ns for path in (tmp_path / folder).rglob("*")}
            digests[folder] = modules.code_digest(tmp_path / folder / "rule.py")
            assert {path: path.stat().st_mtime_ns for path in (tmp_path / folder).rglob("*")} == before
        assert digests["here"] == digests["there"]  # relative names: the same wherever the checkout lies
        index = modules._INDEX = modules.ModuleIndex(tmp_path / "here" / "pkg", "pkg")
        script = tmp_path / "here" / "rule.py"
        reached = set(index.script_files(script))
        assert tmp_path / "here" / "pkg" / "sub" / "f.py" not in reached
        for path in sorted((tmp_path / "here" / "pkg").rglob("*.py")):
            text = path.read_text()
            path.write_text(text + "\n# edited\n")
            modules._FILE_DIGESTS.clear()
            assert (modules.code_digest(script) != digests["here"]) == (path in reached), path
            path.write_text(text)
    finally:
        modules._INDEX = original
        modules._FILE_DIGESTS.clear()
