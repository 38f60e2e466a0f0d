"""Issue 34, point 4: a plugin measure that misbehaves (NaN, inf, strings, a wrong shape, a scalar, None, an
exception, ``sys.exit``) is one line naming the measure (and the run and topic where a score is not finite),
where the task calls it: in ``ordeval score`` and in the pipeline's scoring script alike."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import one_error_line
from conftest import built, run_rule_script, tiny_config

from ordeval.cli import main
from ordeval.io.errors import MeasureError
from ordeval.tasks import plugins

#: name -> (body of the measure function of ``estimate`` and ``gold``, what the error line says)
BEHAVIOURS = {
    "NANM": (
        "v = np.abs(estimate - gold).sum(axis=-1)\n    v[..., 1] = np.nan\n    return v",
        r"gave nan for run '\S+' on topic '\S+' of data set '\S+' \(\d+ of \d+ scores not finite\)",
    ),
    "INFM": (
        "v = np.abs(estimate - gold).sum(axis=-1)\n    v[0, 0] = -np.inf\n    return v",
        r"gave -inf for run '\S+' on topic '\S+' of data set '\S+' \(1 of \d+ scores not finite\)",
    ),
    "STRM": ("return np.full(estimate.shape[:-1], 'x')", r"returned strings, not numbers"),
    "SHAPEM": (
        "return np.abs(estimate - gold)",
        r"returned shape \(\d+, \d+, 5\) on data set .*expected one score "
        r"per run and topic, shape \(\d+, \d+\)",
    ),
    "SCALARM": ("return 0.5", r"returned a single number on data set"),
    "NONEM": ("return None", r"returned None, not scores"),
    "RAISEM": ("raise RuntimeError('boom')", r"raised RuntimeError: boom"),
    "EXITM": ("sys.exit(3)", r"called sys\.exit\(3\) while scoring"),
}


@pytest.fixture
def bad_plugin(tmp_path):
    """A plugin file registering one misbehaving quantification measure per entry of BEHAVIOURS (all
    unregistered afterwards: the registry is module state)."""
    from ordeval.tasks.quantification import REGISTRY

    path = tmp_path / "bad_measures.py"
    functions = "".join(
        f"\n\n@register({name!r})\ndef measure_{name.lower()}(estimate, gold):\n    {body}\n"
        for name, (body, _) in BEHAVIOURS.items()
    )
    path.write_text(
        "import sys\n\nimport numpy as np\n\nfrom ordeval.tasks.quantification import register\n" + functions
    )
    yield path
    for name in BEHAVIOURS:
        REGISTRY._measures.pop(name, None)
    plugins._loaded.pop(str(path.resolve()), None)


@pytest.fixture
def files(tmp_path):
    gold = tmp_path / "gold.txt"
    gold.write_text("t1\t0.2\t0.2\t0.2\t0.2\t0.2\nt2\t0.1\t0.2\t0.4\t0.2\t0.1\nt3\t0.5\t0.2\t0.1\t0.1\t0.1\n")
    run = tmp_path / "run.txt"
    run.write_text("t1\t0.1\t0.3\t0.2\t0.2\t0.2\nt2\t0.1\t0.1\t0.5\t0.2\t0.1\nt3\t0.3\t0.2\t0.3\t0.1\t0.1\n")
    return gold, run


@pytest.mark.parametrize("name", list(BEHAVIOURS))
def test_ordeval_score_names_the_misbehaving_measure_in_one_line(bad_plugin, files, tmp_path, capsys, name):
    gold, run = files
    out = tmp_path / "out"
    status = main(
        [
            "score",
            "--task",
            "quantification",
            "--format",
            "semeval_dist",
            "--gold",
            str(gold),
            "--run",
            f"R1={run}",
            "--run",
            f"R2={gold}",
            "--plugins",
            str(bad_plugin),
            "--measures",
            f"NMD,{name}",
            "--out",
            str(out),
            "--trials",
            "50",
        ]
    )
    line = one_error_line(capsys.readouterr().err)
    assert status == 2
    assert f"bad_measures.py: quantification measure '{name}' " in line
    assert re.search(BEHAVIOURS[name][1], line), line
    assert not out.exists()  # nothing written


def test_a_nan_names_the_run_and_topic(bad_plugin, files, tmp_path, capsys):
    gold, run = files
    main(
        [
            "score",
            "--task",
            "quantification",
            "--format",
            "semeval_dist",
            "--gold",
            str(gold),
            "--run",
            f"R1={run}",
            "--plugins",
            str(bad_plugin),
            "--measures",
            "NANM",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    line = one_error_line(capsys.readouterr().err)
    assert f"gave nan for run 'R1' on topic 't2' of data set '{tmp_path.name}' (1 of 3 scores not finite)" in line


@pytest.mark.parametrize("name", ["NANM", "SCALARM", "EXITM"])
def test_the_pipelines_scoring_job_names_the_measure_in_one_logged_line(bad_plugin, tmp_path, monkeypatch, name):
    """Script score_runs (as rule score_runs runs it) ends with one logged line naming the
    measure, exit status 1 and no traceback; a NaN names the run and topic."""
    from conftest import CANONICAL, SCORED

    from ordeval.workflow.plan import plan as make_plan

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ORDEVAL_DEBUG", raising=False)
    config = tiny_config(plugins=[bad_plugin.name], measures=["NMD", name])
    del config["datasets"]["TinyDQ"]
    planned = make_plan(config, workdir=tmp_path)
    data = planned.datasets["TinySem"]
    files = {key: f"results/tiny/data/TinySem/{name}" for key, name in CANONICAL.items()}
    run_rule_script(
        "prepare_data",
        input={**planned.source_paths("TinySem"), "plugins": planned.plugin_files},
        output=files,
        wildcards={"dataset": "TinySem"},
        params={"task": data.task, "spec": data.spec, "seed": planned.config["seed"], "plugins": planned.plugin_files},
    )
    log = tmp_path / "score_runs.log"
    outputs = {key: f"results/tiny/scores/TinySem/{name}" for key, name in SCORED.items()}
    assert data.measures == ["NMD", name]
    with pytest.raises(SystemExit) as stop:
        run_rule_script(
            "score_runs",
            input={**files, "plugins": planned.plugin_files},
            output=outputs,
            params={"task": data.task, "spec": data.spec, "measures": data.measures, "plugins": planned.plugin_files},
            wildcards={"dataset": "TinySem"},
            log=str(log),
        )
    assert stop.value.code == 1
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "Traceback" not in log.read_text()
    assert "score_runs[TinySem] failed: " in errors[0]
    assert f"bad_measures.py: quantification measure '{name}' " in errors[0]
    assert re.search(BEHAVIOURS[name][1], errors[0]), errors[0]
    if name == "NANM":
        assert "gave nan for run 'BL-positive' on topic 't002' of data set 'TinySem'" in errors[0]
    assert not any(Path(path).exists() for path in outputs.values())  # no partial output


def test_a_classification_measure_is_checked_the_same_way(tmp_path):
    import numpy as np

    from ordeval.tasks import get_task

    task = get_task("classification")
    spec = {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "simulate_items", "topics": 4},
        "runs": [{"type": "simulate", "systems": 2}],
    }
    dataset = built(task, "Syn", spec, tmp_path, 7)

    @task.registry.register("OCSCALAR")
    def scalar(confusion):
        return np.float64(1.0)

    try:
        with pytest.raises(MeasureError, match=r"classification measure 'OCSCALAR' returned a single number"):
            task.score(dataset, ["Accuracy", "OCSCALAR"])
    finally:
        task.registry._measures.pop("OCSCALAR")


def test_a_plugin_that_exits_while_loading_is_one_line(tmp_path, capsys):
    plugin = tmp_path / "exits.py"
    plugin.write_text("import sys\nsys.exit(3)\n")
    assert main(["measures", "--plugins", str(plugin)]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "exits.py' failed: called sys.exit(3)" in line


def test_sys_exit_in_any_plugin_code_ends_a_command_with_one_line(tmp_path, capsys):
    """E.g. a plugin's file format whose reader calls sys.exit: one line, exit status 2, never a silent end."""
    from ordeval.tasks import get_task

    plugin = tmp_path / "exiting_format.py"
    plugin.write_text(
        "import sys\n\nfrom ordeval.tasks.quantification import register_format\n\n\n"
        "@register_format('exiting', roles=('gold', 'run'), description='calls sys.exit')\n"
        "def read(path, classes, source):\n    sys.exit(4)\n"
    )
    gold = tmp_path / "gold.txt"
    gold.write_text("t1\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    formats = get_task("quantification").formats
    before = dict(formats)
    try:
        status = main(
            [
                "score",
                "--task",
                "quantification",
                "--format",
                "exiting",
                "--gold",
                str(gold),
                "--run",
                f"R={gold}",
                "--plugins",
                str(plugin),
                "--out",
                str(tmp_path / "out"),
            ]
        )
    finally:
        formats.clear()
        formats.update(before)
        plugins._loaded.pop(str(plugin.resolve()), None)
    assert status == 2
    assert one_error_line(capsys.readouterr().err) == (
        "ordeval: error: 'ordeval score' ended by sys.exit(4) in a plugin's code"
    )
    assert not (tmp_path / "out").exists()


def test_an_installed_package_registers_its_measures_through_the_ordeval_plugins_entry_point(tmp_path):
    """The entry point group is a contract with installed packages: ``ordeval.plugins``."""
    (tmp_path / "maxd_plugin.py").write_text(
        "from ordeval.tasks.quantification import register\n"
        "@register('MAXDEP', display='MaxDEP', description='largest absolute difference', lower_is_better=True)\n"
        "def maxdep(gold, est):\n"
        "    '''max_i |p_i - p*_i|'''\n"
        "    return abs(gold - est).max()\n"
    )
    info = tmp_path / "maxd_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: maxd-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[ordeval.plugins]\nmaxd = maxd_plugin\n")
    code = (
        "from ordeval.tasks.plugins import load_entry_points\n"
        "from ordeval.tasks.quantification.measures import REGISTRY\n"
        "print(load_entry_points(), 'MAXDEP' in REGISTRY.names())\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["('maxd',)", "True"]
