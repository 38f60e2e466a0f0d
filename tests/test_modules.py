"""The library files a rule declares as inputs (ordeval.workflow.modules): the import closure of its script."""

from __future__ import annotations

import ast

import pytest
from conftest import REPO

from ordeval.workflow import modules


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


def test_parsing_the_import_part_finds_what_parsing_the_whole_module_finds():
    """Every module of the package: the imports found in the part before its first definition are those
    of the whole file; a cut inside a string, or an import after the definitions, parses all of it."""
    index = modules.package_index()
    cut = 0
    for name, (path, _) in index.files.items():
        source = path.read_text(encoding="utf-8")
        whole = [ast.dump(node) for node in modules._top_level_imports(ast.parse(source))]
        assert [ast.dump(node) for node in modules._top_level_imports(modules._parse_imports(source))] == whole, name
        cut += len(modules.import_part(source)) < len(source)
    assert cut > len(index.files) // 2  # most modules are parsed in part
    late = "import os\n\ndef f():\n    pass\n\nfrom . import b\n"
    assert modules.import_part(late) == late
    in_string = 'import os\nTEXT = """\nclass Foo: in a string\n"""\n'
    assert modules.import_part(in_string) == 'import os\nTEXT = """\n'  # does not parse: all of it is parsed
    assert [node.names[0].name for node in modules._top_level_imports(modules._parse_imports(in_string))] == ["os"]


def test_every_script_closure_is_in_the_package():
    """For every rule's script, the modules it imports (at its top and in its ``with job(...)`` block) and
    their closure are files of the installed package only, ``ordeval.workflow.scripting`` among them."""
    for script in sorted((REPO / "scripts").glob("*.py")):
        names = modules.script_modules(script)
        assert "ordeval.workflow.scripting" in names, script.name
        found = modules.module_files(*names)
        assert found and all(path.is_relative_to(modules.PACKAGE_DIR) for path in found), script.name


def test_a_script_names_the_modules_it_imports_in_its_with_block(tmp_path):
    script = tmp_path / "rule.py"
    script.write_text(
        "from ordeval.workflow.scripting import job\n\nwith job(snakemake):\n    from ordeval.stats import hsd\n"
        "    import ordeval.stats.kendall\n\ndef f():\n    from ordeval.stats import intervals\n"
    )
    assert set(modules.script_modules(script)) == {
        "ordeval.workflow.scripting",
        "ordeval.stats",
        "ordeval.stats.hsd",
        "ordeval.stats.kendall",
    }
