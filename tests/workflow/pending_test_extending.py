"""Adding a measure is one function and one registry entry: every analysis, table and figure picks it up."""

import shutil
import subprocess
import sys

import pandas as pd
import yaml
from conftest import REPO, tiny_config

NEW_MEASURE = '''

@register("MAXDIFF", display="MaxDiff", description="largest absolute difference of one class")
def max_difference(estimate, gold):
    """MAXDIFF = max_i |p_i - p*_i|."""
    return np.abs(estimate - gold).max(axis=-1)
'''


def test_a_measure_added_to_the_registry_appears_in_every_analysis(tmp_path):
    checkout = tmp_path / "ordeval"
    listing = ["git", "-C", str(REPO), "ls-files", "--cached", "--others", "--exclude-standard"]
    tracked = subprocess.run(listing, capture_output=True, text=True, check=True)
    for name in tracked.stdout.split():
        if (REPO / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, checkout / name)
    measures_file = checkout / "scripts" / "ordeval" / "measures.py"
    measures_file.write_text(measures_file.read_text() + NEW_MEASURE)

    config = tiny_config()
    del config["measures"]  # the default: every registered measure
    config["report"] = {"pdf": False}
    (checkout / "tiny.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "tiny.yaml"],
        cwd=checkout, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-6000:]

    results = checkout / "results" / "tiny"
    assert (results / "scores" / "TinyDQ" / "MAXDIFF.tsv").is_file()
    assert "MAXDIFF" in pd.read_csv(results / "scores" / "TinyDQ" / "means.tsv", sep="\t").columns
    agreement = pd.read_csv(results / "tables" / "agreement" / "mean.csv")
    assert "MAXDIFF" in set(agreement.measure_a) | set(agreement.measure_b)
    assert "MAXDIFF" in set(pd.read_csv(results / "tables" / "consistency" / "TinyDQ_half.csv").measure)
    assert "MAXDIFF" in set(pd.read_csv(results / "tables" / "discriminative_power.csv").measure)
    assert "MAXDIFF" in set(pd.read_csv(results / "tables" / "popularity_vs_uniform.csv").measure)
    # LaTeX tables show the display name
    assert "MaxDiff" in (results / "tables" / "sso" / "TinyDQ.tex").read_text()
    assert "MaxDiff" in (results / "tables" / "discriminative_power.tex").read_text()
    assert (results / "figures" / "dp_curves" / "all.png").is_file()
