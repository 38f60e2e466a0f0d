"""Configuration files are read with limits: duplicate keys refused by every loader, alias bombs, merge
keys that multiply, recursive aliases and huge files refused in one line; ``ordeval run`` refuses a bad file before
writing anything; the configuration schema is read again when it changes."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO

from ordeval.io.errors import ConfigError
from ordeval.workflow.config import MAX_ALIASES, check_config_file, check_size, load, load_yaml, validate
from ordeval.workflow.limits import HOURS_VARIABLE, MEMORY_VARIABLE


@pytest.fixture(autouse=True)
def _no_limit_overrides(monkeypatch):
    monkeypatch.delenv(MEMORY_VARIABLE, raising=False)
    monkeypatch.delenv(HOURS_VARIABLE, raising=False)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_duplicate_keys_are_refused_by_every_loader(tmp_path):
    path = write(tmp_path, "c.yaml", "name: a\nseed: 1\nseed: 2\ndatasets: {}\n")
    for loader in (load, load_yaml, check_config_file):
        with pytest.raises(ConfigError, match=r"c.yaml, line 3: duplicate key 'seed' \(first at line 2\)"):
            loader(path)


ALIAS_BOMB = (
    'a: &a ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]\n'
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))
    + "name: *i\nseed: 1\ndatasets: {}\n"
)


def test_an_alias_bomb_is_refused_in_milliseconds_with_a_short_message(tmp_path):
    path = write(tmp_path, "bomb.yaml", ALIAS_BOMB)  # 9^8 * 84 characters once expanded: 3.6 GB
    started = time.monotonic()
    with pytest.raises(ConfigError) as error:
        load(path)
    assert time.monotonic() - started < 2
    assert "alias bomb" in str(error.value) and len(str(error.value)) < 300
    data = load_yaml(path)  # the API given such a dict: measured before the schema sees it
    with pytest.raises(ConfigError, match="alias bomb"):
        validate(data)


def test_merge_keys_that_multiply_and_too_many_aliases_are_refused(tmp_path):
    merges = "a0: &a0 {" + ", ".join(f"k{i}: {i}" for i in range(10)) + "}\n"
    merges += "".join(f"a{i + 1}: &a{i + 1} {{<<: [*a{i}, *a{i}, *a{i}], x{i}: 1}}\n" for i in range(20))
    with pytest.raises(ConfigError, match="once its merge keys"):
        load_yaml(write(tmp_path, "merge.yaml", merges))
    many = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(ConfigError, match=f"more than {MAX_ALIASES} YAML aliases"):
        load_yaml(write(tmp_path, "many.yaml", many))


def test_a_recursive_alias_and_a_huge_file_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="contains itself"):
        check_config_file(write(tmp_path, "loop.yaml", "name: &a [*a]\nseed: 1\ndatasets: {}\n"))
    with pytest.raises(ConfigError, match="bytes; a configuration file may have at most"):
        load_yaml(write(tmp_path, "big.yaml", "# " + "x" * (3 * 2**20) + "\n"))
    assert check_size({"a": ["bc", 1]}) == 6


def _dumped(change):
    """The default configuration after ``change`` (a function of the dict), as YAML text."""

    def text(config):
        import yaml

        change(config)
        return yaml.safe_dump(config, sort_keys=False)

    return text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            _dumped(lambda c: c["consistency"].update(alpha=float("nan"))),
            "config key consistency.alpha: nan is not a finite number",
        ),
        (_dumped(lambda c: c.update(seed=10**30)), "config key seed: 1000000000000000000000000000000 is greater"),
        (
            _dumped(lambda c: c["significance"].update(hsd_trials=10**9)),
            "config key datasets: too long for this machine",
        ),
        (lambda c: "seed: 5\n" + _dumped(lambda c: None)(c), "duplicate key 'seed' (first at line 1)"),
        (
            lambda c: (
                ALIAS_BOMB.replace("name: *i\nseed: 1\ndatasets: {}\n", "")
                + _dumped(lambda c: c.update(description="x"))(c).replace("description: x", "description: *i")
            ),
            "(an alias bomb?)",
        ),
    ],
)
def test_ordeval_run_refuses_before_writing_anything(tmp_path, text, expected):
    config = load_yaml(REPO / "config" / "config.yaml")
    config["name"] = f"hostile-{tmp_path.name}"
    path = write(tmp_path, "c.yaml", text(config))
    result = subprocess.run(
        [sys.executable, "-m", "ordeval", "run", "--dry-run", "--configfile", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert expected in result.stderr and result.stderr.count("\n") == 1 and len(result.stderr) < 700, result.stderr
    assert not (REPO / "results" / config["name"]).exists()


def test_the_configuration_schema_is_read_again_when_it_changes(tmp_path, monkeypatch):
    from ordeval.workflow import config

    copied = tmp_path / "config.schema.yaml"
    copied.write_text(config.SCHEMA_PATH.read_text())
    monkeypatch.setattr(config, "SCHEMA_PATH", copied)
    assert "datasets" in config.schema()["properties"]
    copied.write_text("type: object\nproperties: {changed: {type: string}}\n")
    assert list(config.schema()["properties"]) == ["changed"]
