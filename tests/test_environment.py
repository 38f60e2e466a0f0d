"""requirements.txt (pip) and environment.yml (conda) pin the same packages at the same versions."""

import re

import yaml
from conftest import REPO


def pins_from_requirements() -> dict[str, str]:
    pins = {}
    for line in (REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([A-Za-z0-9_.+-]+)", line)
            assert match, f"requirements.txt: {line!r} is not pinned as name==version"
            pins[match[1].lower()] = match[2]
    return pins


def pins_from_environment() -> dict[str, str]:
    environment = yaml.safe_load((REPO / "environment.yml").read_text())
    pins = {}
    for dependency in environment["dependencies"]:
        entries = dependency["pip"] if isinstance(dependency, dict) else [dependency]
        for entry in entries:
            match = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\s*==?\s*([A-Za-z0-9_.+*-]+))?", entry)
            assert match, f"environment.yml: cannot parse {entry!r}"
            if match[1] not in ("python", "pip"):
                pins[match[1].lower()] = match[2]
    return pins


def test_requirements_and_environment_list_the_same_pins():
    requirements = pins_from_requirements()
    assert {"snakemake", "numpy", "pandas", "scipy", "matplotlib", "pytest"} <= set(requirements)
    assert requirements["snakemake"].startswith("9.")
    assert pins_from_environment() == requirements


def test_environment_python_matches_the_project():
    environment = yaml.safe_load((REPO / "environment.yml").read_text())
    assert "python=3.11" in environment["dependencies"]


def test_no_sys_path_edits_anywhere():
    """The package is installed (pip install -e .): scripts, workflow, tests and benchmarks import it."""
    folders = ["src", "scripts", "workflow", "tests", "benchmarks"]
    files = [REPO / "Snakefile"] + [p for f in folders for p in (REPO / f).rglob("*") if p.suffix in (".py", ".smk")]
    edits = [str(p.relative_to(REPO)) for p in files if re.search(r"sys\.path\.(insert|append)", p.read_text())]
    assert edits == []


def test_the_slurm_extra_is_pinned_and_named_where_it_is_needed():
    """The executor plugin of profiles/slurm: an optional extra of the package (``pip install -e ".[slurm]"``),
    pinned exactly, the same pins that environment.yml's comment gives; profiles/slurm names the plugin's version,
    and .ci/run installs the extra (it runs the Slurm tests)."""
    import tomllib

    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["slurm"]
    pins = dict(re.fullmatch(r"([a-z0-9-]+)==([0-9.]+)", entry).groups() for entry in extra)
    assert set(pins) == {"snakemake-executor-plugin-slurm", "snakemake-executor-plugin-slurm-jobstep"}
    environment = (REPO / "environment.yml").read_text()
    profile = (REPO / "profiles" / "slurm" / "config.yaml").read_text()
    for name, version in pins.items():
        assert f"{name}=={version}" in environment, name
        assert name not in pins_from_environment() and name not in pins_from_requirements()  # optional
    assert f"snakemake-executor-plugin-slurm=={pins['snakemake-executor-plugin-slurm']}" in profile
    assert 'pip install -e ".[slurm]"' in profile and 'pip install -e ".[slurm]"' in environment
    assert 'pip install -e ".[slurm]"' in (REPO / ".ci" / "run").read_text().splitlines()
