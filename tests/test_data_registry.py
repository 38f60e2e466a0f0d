"""The registry of the public real data (src/ordeval/data/registry.yaml): well formed, every address well formed,
every file the replication and the presets read registered, the hashes those of the real files, docs/data.md
current; planning names missing registered files with the fetch command and refuses changed ones before any job;
LICENSE and CITATION.cff."""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from cli_helpers import one_error_line
from conftest import REPO, SHARED_RAW, no_shared_data, tiny_config

from ordeval.cli import main
from ordeval.data import docs
from ordeval.data.registry import REGISTRY_FILE, check_base_url, fetch_command, load, registered_among
from ordeval.io.errors import ConfigError
from ordeval.tasks.sources import source_files
from ordeval.workflow.config import load_yaml
from ordeval.workflow.plan import plan as make_plan

CONFIGURATIONS = [REPO / "config" / "replication.yaml", *sorted((REPO / "config" / "papers").glob("*.yaml"))]


def configured_files() -> dict[str, set[tuple[str, str]]]:
    """place -> {(configuration, data set)} for every file the replication and the presets read."""
    found: dict[str, set[tuple[str, str]]] = {}
    for path in CONFIGURATIONS:
        config = load_yaml(path)
        assert config["data_root"] == "resources/", path
        for name, spec in config["datasets"].items():
            for file, _ in source_files(name, spec, "."):
                found.setdefault(file.as_posix(), set()).add((path.stem, name))
    return found


def test_the_registry_holds_the_36_files_with_their_facts():
    registry = load()
    assert len(registry.files) == 36 and set(registry.datasets) == {"Sem16T4CE", "Sem17T4CE", "STC3-DQ"}
    assert sum(entry.size for entry in registry.files) == 9_228_475
    assert registry.host == "https://raw.githubusercontent.com"
    assert {entry.repo for entry in registry.files} == {
        "candlewill/Ordinal_classification",
        "WladimirSidorenko/SemEval-2016",
        "cbaziotis/datastories-semeval2017-task4",
        "SeanCherngTW/NTCIR-STC3-NDDQsubtask",
    }
    assert all(entry.place.split("/")[0] == entry.dataset for entry in registry.files)
    potts = [entry for entry in registry.files if entry.repo == "WladimirSidorenko/SemEval-2016"]
    assert len(potts) == 2 and all(entry.licence.startswith("MIT") for entry in potts)


def test_every_address_is_well_formed_and_the_path_quoted():
    for entry in load().files:
        url = entry.url("https://raw.githubusercontent.com/")
        parts = urlsplit(url)
        assert (parts.scheme, parts.netloc, parts.query, parts.fragment) == (
            "https",
            "raw.githubusercontent.com",
            "",
            "",
        )
        owner, repo, commit, path = parts.path.lstrip("/").split("/", 3)
        assert f"{owner}/{repo}" == entry.repo and re.fullmatch(r"[0-9a-f]{40}", commit) and commit == entry.commit
        assert unquote(path) == entry.path and not re.search(r"[^A-Za-z0-9_.~/%-]", path), url
    plus = [entry for entry in load().files if "+" in entry.path]
    assert [entry.url("http://m").rsplit("/", 1)[1] for entry in plus] == [
        "_baseline-average-on-train%2Bdev%2Bdevtest-E.output"
    ]


def test_the_registered_sizes_and_hashes_are_those_of_the_real_files():
    registry = load()
    absent = [entry.place for entry in registry.files if not (SHARED_RAW / entry.place).is_file()]
    if absent:
        pytest.skip(no_shared_data(SHARED_RAW / absent[0]))
    for entry in registry.files:
        data = (SHARED_RAW / entry.place).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (entry.size, entry.sha256), entry.place


def test_every_file_the_replication_and_the_presets_read_is_registered_and_its_use_says_so():
    places = load().by_place()
    for place, readers in configured_files().items():
        assert place in places, f"{place} is read by {sorted(readers)} but not registered"
        use = places[place].use
        for configuration, dataset in readers:
            named = "STC3-DQ-A, -E and -S" if dataset.startswith("STC3-DQ-") else f"{dataset} "
            assert named in use and configuration in use, (place, configuration, dataset, use)
    # the files no configuration reads say what they are for
    others = set(places) - set(configured_files())
    assert len(others) == 7 and all("(replication" not in places[place].use for place in others)


def test_docs_data_md_is_generated_from_the_registry():
    committed = (REPO / "docs" / "data.md").read_text(encoding="utf-8")
    assert committed == docs.markdown(), "regenerate it: python -m ordeval.data.docs > docs/data.md"
    for entry in load().files:
        assert entry.sha256 in committed and entry.place in committed


@pytest.mark.parametrize(
    "edit, problem",
    [
        (
            lambda f: f[0].update(sha256="abc"),
            "files[0] (Sem16T4CE/official/gold/SemEval2016_task4_subtaskC_test_gold.txt): bad sha256",
        ),
        (lambda f: f[1].update(place="../outside.txt"), "files[1]: place '../outside.txt' is not a relative path"),
        (lambda f: f[2].update(licence="unknown"), "bad licence"),
        (lambda f: f[3].update(commit="HEAD"), "bad commit"),
        (lambda f: f[4].pop("use"), "files[4]: needs exactly the fields place, dataset, use,"),
        (lambda f: f.append(dict(f[0])), "a place is registered twice"),
    ],
)
def test_a_damaged_registry_is_refused_naming_the_entry(tmp_path, edit, problem):
    raw = yaml.safe_load(REGISTRY_FILE.read_text(encoding="utf-8"))
    edit(raw["files"])
    path = tmp_path / "registry.yaml"
    path.write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match=re.escape(problem)):
        load(path)


def test_the_fetch_command_named_for_a_data_folder(tmp_path):
    assert fetch_command("resources") == fetch_command(tmp_path / "resources", tmp_path) == "ordeval fetch"
    assert fetch_command("/data/my copy", tmp_path) == "ordeval fetch --to '/data/my copy'"
    assert check_base_url("https://mirror.example.org/raw/") == "https://mirror.example.org/raw"
    with pytest.raises(ValueError, match="--url: 'file:///x' is not an http"):
        check_base_url("file:///x")
    found = registered_among(
        [(tmp_path / "d" / "Sem16T4CE/runs/../runs/PotTS.SubtaskE.res.official.txt", "k")], tmp_path / "d"
    )
    assert [entry.place for entry, _, _ in found] == ["Sem16T4CE/runs/PotTS.SubtaskE.res.official.txt"]


# --------------------------------------------------------------------------- planning: missing and changed files

SEM17E = "Sem17T4CE/SemEval2017_task4_subtaskE_test_english_gold.txt"


def sem17e_config(data_root: Path) -> dict:
    """The replication's Sem17T4E (real gold, simulated runs) alone, reading ``data_root``."""
    config = load_yaml(REPO / "config" / "replication.yaml")
    config["datasets"] = {"Sem17T4E": config["datasets"]["Sem17T4E"]}
    config.update(data_root=str(data_root), measure_reports=[])
    return config


def test_missing_registered_files_are_named_with_the_command_that_fetches_them(tmp_path):
    config = sem17e_config(tmp_path / "resources")
    (tmp_path / "resources").mkdir()
    with pytest.raises(ConfigError) as error:
        make_plan(config, workdir=tmp_path)
    assert str(error.value) == (
        f"data_root {str(tmp_path / 'resources')!r} lacks 1 input file: {tmp_path / 'resources' / SEM17E} (asked for "
        "by datasets.Sem17T4E.gold); it is public data (docs/data.md): fetch it with `ordeval fetch`"
    )
    config = load_yaml(REPO / "config" / "replication.yaml") | {"data_root": str(tmp_path / "elsewhere")}
    with pytest.raises(ConfigError) as error:
        make_plan(config, workdir=tmp_path)
    assert str(error.value).endswith(
        f"the configuration reads 31 files below it (e.g. Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold."
        f"txt); they are public data (docs/data.md): fetch them with `ordeval fetch --to {tmp_path / 'elsewhere'}`"
    )


def test_a_missing_file_of_ones_own_gets_no_fetch_command(tmp_path):
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"]["Own"] = {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [{"type": "constant_class", "name": "BL", "class": 1}, {"type": "simulate", "systems": 6}],
    }
    with pytest.raises(ConfigError) as error:
        make_plan(config)
    assert "ordeval fetch" not in str(error.value) and "gold.txt" in str(error.value)


@pytest.mark.parametrize("change", ["size", "bytes"])
def test_a_registered_file_changed_by_hand_is_refused_when_planned(tmp_path, change):
    """Any content at a registered place that is not the registered file: refused before any file is read (here a
    made-up gold, well formed, that would otherwise build)."""
    entry = load().by_place()[SEM17E]
    gold = tmp_path / "resources" / SEM17E
    gold.parent.mkdir(parents=True)
    text = "".join(f"t{index}\t0.2\t0.2\t0.2\t0.2\t0.2\n" for index in range(125))
    if change == "bytes":  # the registered size exactly
        text = (text + " " * entry.size)[: entry.size - 1] + "\n"
    gold.write_text(text)
    with pytest.raises(ConfigError) as error:
        make_plan(sem17e_config(tmp_path / "resources"), workdir=tmp_path)
    found = "changed: " + (
        f"{len(text)} bytes, registered {entry.size}"
        if change == "size"
        else f"SHA-256 {hashlib.sha256(text.encode()).hexdigest()}, registered {entry.sha256} (the same size)"
    )
    assert str(error.value) == (
        f"{gold} (asked for by datasets.Sem17T4E.gold) is not the registered public file {SEM17E}: {found}; "
        "`ordeval fetch` restores the registered bytes (to read your own version, give it another name)"
    )


def test_every_configuration_without_its_data_stops_ordeval_run_with_one_line(tmp_path, monkeypatch, capsys):
    """`ordeval run` of the replication and of each preset in a project without resources/: exit 2 before
    Snakemake starts, one line naming the missing files and `ordeval fetch`."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    (tmp_path / "config").symlink_to(REPO / "config")
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} -c 'raise SystemExit(9)'")
    for path in CONFIGURATIONS:
        status = main(["run", "-n", "--configfile", str(path.relative_to(REPO))])
        line = one_error_line(capsys.readouterr().err)
        assert status == 2, path
        assert f"config key data_root: '{tmp_path / 'resources'}': no such folder; the configuration reads" in line
        assert line.endswith("they are public data (docs/data.md): fetch them with `ordeval fetch`"), line


# --------------------------------------------------------------------------- LICENSE and CITATION.cff


def test_the_licence_is_the_one_pyproject_states():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the ordeval authors\n")
    assert 'license = { text = "MIT" }' in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_citation_cff_cites_ordeval_and_the_papers_it_reproduces():
    """The CFF 1.2.0 fields every reader needs (checked against the official schema with check-jsonschema when it was
    written); the papers' titles as docs/methods.md and the published numbers' README give them."""
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software" and citation["license"] == "MIT"
    assert {"message", "title", "authors", "version", "references"} <= set(citation)
    assert citation["version"] == re.search(r'^version = "(.*)"', (REPO / "pyproject.toml").read_text(), re.M)[1]
    titles = [reference["title"] for reference in citation["references"]]
    known = (REPO / "docs" / "methods.md").read_text(encoding="utf-8") + (
        REPO / "src" / "ordeval" / "published" / "README.md"
    ).read_text(encoding="utf-8")
    for title in titles[:2]:
        assert " ".join(title.split()) in " ".join(known.split()), title
    assert titles[2].startswith("On Variants of Root Normalised Order-aware Divergence")
    assert titles[3] == "SemEval-2016 Task 4: Sentiment Analysis in Twitter"
    for reference in citation["references"]:
        assert {"type", "title", "authors", "year"} <= set(reference), reference["title"]
        assert all("family-names" in author for author in reference["authors"])


def test_the_tests_find_the_real_data_in_resources_once_fetched(tmp_path, monkeypatch):
    """conftest: ORDEVAL_SHARED_DATA where set; else resources/ once every registered file is there at its size; else
    ../shared/data/raw beside the checkout."""
    import conftest

    monkeypatch.delenv(conftest.SHARED_VARIABLE, raising=False)
    monkeypatch.setattr(conftest, "FETCHED", tmp_path / "resources")
    shared = (REPO.parent / "shared" / "data" / "raw").absolute()
    assert conftest._real_data() == shared
    files = load().files
    for index, entry in enumerate(files):  # files of the registered sizes (sparse: their bytes are not read)
        path = tmp_path / "resources" / entry.place
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            handle.truncate(entry.size)
        if index == 0:
            assert conftest._real_data() == shared  # one file is not the whole data
    assert conftest._real_data() == tmp_path / "resources"
    monkeypatch.setenv(conftest.SHARED_VARIABLE, str(tmp_path / "elsewhere"))
    assert conftest._real_data() == tmp_path / "elsewhere"
