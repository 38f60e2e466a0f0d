"""Helpers of the tests that try bad input: a file written as given, and the one-line error of planning a
configuration after a change."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from conftest import tiny_config

from ordeval.io.errors import ConfigError
from ordeval.workflow.plan import plan as make_plan


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """``content`` as the file ``name`` in ``tmp_path``: bytes as they are, text as UTF-8 with its line ends kept."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def attempt(change) -> str:
    """The one-line ConfigError of planning the tiny configuration after ``change``."""
    config = copy.deepcopy(tiny_config())
    change(config)
    with pytest.raises(ConfigError) as error:
        make_plan(config, check_files=False)
    message = str(error.value)
    assert "\n" not in message and "\r" not in message, message
    return message
