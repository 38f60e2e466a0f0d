"""The page a replicator reads first (ordeval.reports.replication_page) and the HTML report's first page
(ordeval.reports.captions.report_intro): counts per verdict, the verdict beside each number, names as printed,
every text escaped, the intro true to the configuration's data."""

from __future__ import annotations

from ordeval.io.table import Table
from ordeval.reports.captions import origin_paragraph, report_intro
from ordeval.reports.replication_page import replication_page
from ordeval.results.replication import summary


def _numbers(dataset="X<script>"):
    return Table(
        {
            "source": ["Sakai, a paper, Table 3"] * 3,
            "dataset": [dataset] * 3,
            "statistic": ["tau_a", "tau_a", "dp_significant"],
            "a": ["MAE_M", "NMD", "NMD"],
            "b": ["alpha_ORD", "RNOD", ""],
            "published": ["0.909", "0.500", "38"],
            "reproduced": [0.9090909, 0.41, 37.0],
            "difference": [9.1e-05, -0.09, -1.0],
            "verdict": ["exact", "differs", "within randomisation error"],
            "tolerance": [float("nan")] * 2 + [4.0],
            "note": ["", "", ""],
            "data_origin": ["real"] * 3,
        }
    )


def test_the_page_gives_the_counts_then_every_number_with_its_verdict_beside_it():
    table = _numbers()
    counts = summary([table]).with_column("data_origin", ["real", "real"])
    page = replication_page(
        "t: published versus reproduced",
        counts,
        {"X<script>": table},
        {"MAE_M": "MAE^M", "alpha_ORD": "α_ORD"},
        {"X<script>": "real"},
    )
    assert "<script>" not in page and "X&lt;script&gt;" in page  # escaped, and no script at all
    assert "Of the 3 published numbers" in page
    assert "Kendall's &tau;" in page and "tau_a" not in page  # the statistic as printed
    row = '<td>MAE^M / α_ORD</td><td class=num>0.909</td><td class=num>0.909</td><td><span class="verdict exact">'
    assert row in page  # published, reproduced at the printed precision, the verdict beside them
    assert "exact</span></td><td class='num unrounded'>0.909091</td>" in page  # then unrounded
    assert '<td class=num>38</td><td class=num>37</td><td><span class="verdict within">' in page  # counts as counts
    assert "differs</span></td><td class='num unrounded'>0.41</td><td class=num>-0.0900</td>" in page


def test_the_first_page_of_the_html_report_is_true_to_the_configuration():
    assert "is synthetic" in origin_paragraph({"A": "synthetic", "B": "synthetic"})
    mixed = origin_paragraph({"A": "real", "B": "partly synthetic", "C": "synthetic"})
    assert "real (official gold and runs): A" in mixed and "synthetic (simulated gold and runs): C" in mixed
    plain = report_intro("default", 1, {"A": "synthetic"})
    assert "replication-page" not in plain and "Configuration 'default', seed 1" in plain
    counts = {"numbers": 3, "exact": 1, "within randomisation error": 1, "differs": 0, "not comparable": 1}
    page = "results/r/tables/replication/published_vs_reproduced.html"
    text = report_intro("r", 1, {"A": "real"}, counts, page)
    assert text.index("Published versus reproduced: 3 published numbers") < text.index("ordeval meta-evaluates")
    assert f"results['{page}'].data_uri" in text and "{% raw %}" in text  # the link kept literal through Jinja
    assert "entirely synthetic" not in text and "is real" in text
