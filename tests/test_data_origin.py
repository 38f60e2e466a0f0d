"""Where numbers come from: the data origin is an enumerated value, a CSV's data-origin column holds only
those values, and totals never add real to synthetic counts."""

from __future__ import annotations

import numpy as np
import pytest

from ordeval.io.provenance import ORIGINS, Origin, combined_origin
from ordeval.io.table import Table, write_csv


def test_totals_never_add_real_to_synthetic_counts(tmp_path):
    from ordeval.analysis.popularity import Deltas, preference_table, total_origins
    from ordeval.reports.latex.popularity import preference_latex

    def deltas(values):
        return Deltas(["NMD"], ["t1", "t2", "t3"], np.array([values], dtype=float), [True])

    compared = {"Real": deltas([1, 1, -1]), "Sim": deltas([-1, -1, -1]), "Sim2": deltas([1, -1, -1])}
    origins = {"Real": "real", "Sim": "synthetic", "Sim2": "synthetic"}
    table = preference_table(compared, ["NMD"], 1e-12, origins)
    rows = {row["dataset"]: (row["uniform"], row["popularity"]) for row in table.records()}
    assert "TOTAL" not in rows
    assert rows["TOTAL (real)"] == rows["Real"]
    assert rows["TOTAL (synthetic)"] == (1, 5)
    write_csv(table, tmp_path / "p.csv", total_origins(table, origins))
    written = Table.read(tmp_path / "p.csv", sep=",")
    assert dict(zip(written["dataset"], written["data_origin"], strict=True))["TOTAL (real)"] == "real"
    assert set(written["data_origin"]) <= set(ORIGINS)
    latex = preference_latex(table, ["NMD"], {"NMD": "NMD"}, "")
    assert latex.index("\\midrule", latex.index("Sim2")) < latex.index("TOTAL (real)")
    # one origin: one TOTAL, as before
    same = preference_table(compared, ["NMD"], 1e-12, dict.fromkeys(compared, "synthetic"))
    assert [name for name in same["dataset"] if name.startswith("TOTAL")] == ["TOTAL"]


def test_data_origin_is_an_enumerated_value():
    assert [origin.value for origin in Origin] == ["real", "partly synthetic", "synthetic"]
    assert combined_origin({"A": "real", "B": "synthetic"}) == "partly synthetic"
    assert combined_origin({"A": "real", "B": "real"}) == "real"


def test_csv_data_origin_column_holds_only_enumerated_values(tmp_path):
    table = Table({"dataset": ["A", "B", "mean"], "x": [1, 2, 3]})
    write_csv(table, tmp_path / "a.csv", {"A": "real", "B": "synthetic"})
    assert list(Table.read(tmp_path / "a.csv", sep=",")["data_origin"]) == ["real", "synthetic", "partly synthetic"]
    write_csv(Table({"x": [1]}), tmp_path / "b.csv", {"A": "real", "B": "synthetic"})
    assert list(Table.read(tmp_path / "b.csv", sep=",")["data_origin"]) == ["partly synthetic"]
    with pytest.raises(ValueError):
        write_csv(table, tmp_path / "c.csv", {"A": "mostly real"})
    assert not (tmp_path / "c.csv").exists()
