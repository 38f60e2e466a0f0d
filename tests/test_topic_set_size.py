"""Topic set size design (ordeval.stats.topic_set_size): the residual variance, exact power against statsmodels'
power classes, the smallest n of each design, a Monte-Carlo check of the paired t design, the table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.power import FTestAnovaPower, TTestPower

from ordeval.stats import topic_set_size as tss
from ordeval.tasks.stack import read_score_folder


def score_matrix(topics=120, runs=6, seed=3) -> np.ndarray:
    """Scores in [0, 1] with topic and run effects, like a measure's topics x runs matrix."""
    rng = np.random.default_rng(seed)
    topic = rng.normal(0, 0.12, (topics, 1))
    run = np.linspace(-0.05, 0.05, runs)[None, :]
    return np.clip(rng.beta(4, 4, (topics, runs)) + topic + run, 0, 1)


def test_residual_variance_is_the_two_way_anova_error_mean_square():
    x = score_matrix(30, 5)
    n, m = x.shape
    total = ((x - x.mean()) ** 2).sum()
    topics = m * ((x.mean(axis=1) - x.mean()) ** 2).sum()
    runs = n * ((x.mean(axis=0) - x.mean()) ** 2).sum()
    assert tss.residual_variance(x) == pytest.approx((total - topics - runs) / ((n - 1) * (m - 1)), rel=1e-12)
    # topic and run effects do not change it; with two runs it is half the variance of the paired differences
    shifted = x + np.arange(n)[:, None] * 0.3 + np.arange(m)[None, :] * 0.7
    assert tss.residual_variance(shifted) == pytest.approx(tss.residual_variance(x), rel=1e-9)
    assert tss.residual_variance(x[:, :2]) == pytest.approx(np.var(x[:, 0] - x[:, 1], ddof=1) / 2, rel=1e-12)
    with pytest.raises(ValueError, match="at least 2 x 2"):
        tss.residual_variance(x[:, :1])
    with pytest.raises(ValueError, match="finite"):
        tss.residual_variance(np.array([[0.1, np.nan], [0.2, 0.3]]))


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
@pytest.mark.parametrize("variance", [0.002, 0.03, 0.4])
def test_powers_equal_statsmodels(alpha, variance):
    for n in (2, 3, 10, 47, 300):
        for mdd in (0.01, 0.05, 0.2):
            effect = mdd / math.sqrt(2 * variance)  # paired t: a one-sample t-test on the differences
            expected = TTestPower().power(effect_size=effect, nobs=n, alpha=alpha, alternative="two-sided")
            if np.isnan(expected):  # scipy's noncentral t fails at a large noncentrality; ours integrates
                assert tss.paired_t_power(n, mdd, variance, alpha) == pytest.approx(1.0, abs=1e-9)
                continue
            assert tss.paired_t_power(n, mdd, variance, alpha) == pytest.approx(expected, abs=1e-6)
            for runs in (2, 5, 20):  # Cohen's f^2 = mdd^2 / (2 m sigma^2), m n observations
                f = mdd / math.sqrt(2 * runs * variance)
                expected = FTestAnovaPower().power(effect_size=f, nobs=runs * n, alpha=alpha, k_groups=runs)
                assert tss.anova_power(n, mdd, variance, runs, alpha) == pytest.approx(expected, abs=1e-6)


def test_designs_give_the_smallest_n_that_reaches_the_requirement():
    variance = 0.03
    for mdd in (0.02, 0.05, 0.1, 0.3):
        n = tss.topics_paired_t(mdd, variance, 0.05, 0.8)
        assert tss.paired_t_power(n, mdd, variance) >= 0.8
        assert n == 2 or tss.paired_t_power(n - 1, mdd, variance) < 0.8
        n = tss.topics_anova(mdd, variance, 10, 0.05, 0.8)
        assert tss.anova_power(n, mdd, variance, 10) >= 0.8
        assert n == 2 or tss.anova_power(n - 1, mdd, variance, 10) < 0.8
        n = tss.topics_ci(mdd, variance, 0.05)
        assert tss.ci_expected_width(n, variance) <= mdd
        assert n == 2 or tss.ci_expected_width(n - 1, variance) > mdd
    # the normal approximation 2 sigma_d^2 (z_{alpha/2} + z_beta)^2 / mdd^2 is close, and a little below
    approximate = 2 * variance * (stats.norm.isf(0.025) + stats.norm.isf(0.2)) ** 2 / 0.05**2
    assert approximate < tss.topics_paired_t(0.05, variance) <= approximate + 3
    # more runs, more topics; a smaller difference, more topics
    assert tss.topics_anova(0.05, variance, 20) > tss.topics_anova(0.05, variance, 5) > tss.topics_paired_t(0.05, 0.01)
    assert tss.topics_paired_t(0.02, variance) > tss.topics_paired_t(0.05, variance)
    assert tss.topics_paired_t(0.05, 0.0) == 2


def test_expected_ci_width_matches_simulation():
    rng = np.random.default_rng(11)
    variance, n = 0.02, 15
    differences = rng.normal(0, math.sqrt(2 * variance), (20000, n))
    width = 2 * stats.t.isf(0.025, n - 1) * differences.std(axis=1, ddof=1) / math.sqrt(n)
    assert width.mean() == pytest.approx(tss.ci_expected_width(n, variance), rel=0.01)


def test_monte_carlo_power_of_the_paired_t_design():
    # Two runs' scores; shift one run so that the true (population) mean difference is the mdd. Resampling
    # topics at the computed n, the paired t-test must reject at the target rate.
    x = score_matrix(400, 2, seed=5)
    difference = x[:, 0] - x[:, 1]
    mdd = 0.5 * difference.std()
    x[:, 0] += mdd - difference.mean()
    variance = tss.residual_variance(x)
    n = tss.topics_paired_t(mdd, variance, 0.05, 0.8)
    assert 20 < n < 60
    rng = np.random.default_rng(2016)
    sample = (x[:, 0] - x[:, 1])[rng.integers(0, len(x), (6000, n))]
    t = sample.mean(axis=1) / (sample.std(axis=1, ddof=1) / math.sqrt(n))
    empirical = np.mean(np.abs(t) > stats.t.isf(0.025, n - 1))
    assert abs(empirical - 0.8) <= 0.03
    assert abs(empirical - tss.paired_t_power(n, mdd, variance)) <= 0.03


def test_table_rows_scaled_mdds_and_errors():
    x = score_matrix(50, 4)
    table = tss.topic_set_size_table({"A": x, "B": 3 * x})
    assert table.columns == ["measure", "design", "alpha", "power", "mdd", "residual_variance", "topics", "runs"]
    assert len(table) == 2 * 3 * 3
    records = table.records()
    spread = x.max() - x.min()
    assert [r["mdd"] for r in records[:3]] == [float(f"{f * spread:.4g}") for f in tss.MDD_FRACTIONS]
    # scores three times larger: mdds three times larger, the same topics (up to the mdds' rounding)
    a = [r["topics"] for r in records if r["measure"] == "A" and r["design"] == "paired_t"]
    b = [r["topics"] for r in records if r["measure"] == "B" and r["design"] == "paired_t"]
    assert np.allclose(a, b, rtol=0.02)
    anova = [r for r in records if r["design"] == "anova"]
    assert {r["runs"] for r in anova} == {4} and all(math.isnan(r["power"]) for r in records if r["design"] == "ci")
    fixed = tss.topic_set_size_table({"A": x}, mdds=[0.05], designs=["paired_t"], alpha=0.01, power=0.9)
    row = fixed.records()[0]
    assert (row["mdd"], row["alpha"], row["power"]) == (0.05, 0.01, 0.9)
    assert row["topics"] == tss.topics_paired_t(0.05, tss.residual_variance(x), 0.01, 0.9)
    text = tss.table_text(fixed)
    assert text.splitlines()[0].split() == tss.COLUMNS and text.splitlines()[1].split()[:2] == ["A", "paired_t"]
    with pytest.raises(ValueError, match="unknown design 'z'"):
        tss.topic_set_size_table({"A": x}, designs=["z"])
    with pytest.raises(ValueError, match="positive"):
        tss.topics_paired_t(0.0, 0.1)
    with pytest.raises(ValueError, match="power"):
        tss.topics_paired_t(0.1, 0.1, power=1.0)
    assert tss.scaled_mdds(np.ones((3, 3))) == [0.05, 0.1, 0.2]  # constant scores: range taken as 1


def test_curves_fall_as_the_difference_grows():
    curves = tss.topic_curves({"A": score_matrix(40, 3)}, "paired_t")
    topics = curves["A"]
    assert len(topics) == len(tss.CURVE_FRACTIONS) and (np.diff(topics) <= 0).all() and topics[0] > topics[-1]


# --------------------------------------------------------------------------- LaTeX and figure


def test_latex_fragment_escapes_names_and_is_a_well_formed_tabular():
    from tabular_check import check_tabular

    from ordeval.reports.latex.topic_set_size import topic_set_size_latex, topic_set_size_note

    x = score_matrix(30, 5)
    table = tss.topic_set_size_table({"M_#1&": x, "kappa": x / 2})
    fragment = topic_set_size_latex(table, {"kappa": r"$\kappa$"})
    assert check_tabular(fragment) == 1 + 2 * 3
    assert r"M\_\#1\&" in fragment and r"$\kappa$" in fragment and "ANOVA ($m = 5$)" in fragment
    first = fragment.splitlines()[4].removesuffix(r" \\").split(" & ")
    assert first[:3] == [r"M\_\#1\&", f"{tss.residual_variance(x):.3g}", f"{table['mdd'][0]:.4g}"]
    assert first[3:] == [str(table["topics"][i]) for i in (0, 3, 6)]
    note = topic_set_size_note(table)  # what the table holds: its alpha and power, under it
    assert r"$\alpha = 0.05$, power $= 0.8$; minD: 5\%, 10\% and 20\% of" in note
    assert r"minD: 2.5\% and 50\% of" in topic_set_size_note(table, fractions=(0.025, 0.5))  # as configured
    with_note = topic_set_size_latex(table, {"kappa": r"$\kappa$"}, note=note)
    assert check_tabular(with_note) == check_tabular(fragment) + 1  # one row more: the note, after the bottom rule
    assert with_note.splitlines()[-2] == rf"\multicolumn{{6}}{{l}}{{\footnotesize {note}}} \\"


def test_figure_is_byte_reproducible(tmp_path):
    from ordeval.reports.figures import save_figure
    from ordeval.reports.figures.topic_set_size import topic_set_size_figure

    matrices = {"A": score_matrix(40, 4), "B$x$": score_matrix(40, 4, seed=9) / 2}
    fractions = tss.CURVE_FRACTIONS[::4]
    curves = {design: tss.topic_curves(matrices, design, fractions=fractions) for design in tss.DESIGNS}
    outputs = []
    for attempt in range(2):
        figure = topic_set_size_figure(curves, fractions, {"A": "alpha"}, "Topics needed", runs=4)
        pdf, png = tmp_path / f"{attempt}.pdf", tmp_path / f"{attempt}.png"
        save_figure(figure, pdf, png, {"X": "synthetic"})
        outputs.append((pdf.read_bytes(), png.read_bytes()))
    assert outputs[0] == outputs[1] and outputs[0][0].startswith(b"%PDF")


def test_score_folder_from_stack_or_tables(tmp_path):
    from ordeval.io.errors import InputError
    from ordeval.tasks.stack import ScoreStack, score_files, write_scores

    x = score_matrix(6, 3)
    stack = ScoreStack(["A", "B"], [f"t{i}" for i in range(6)], ["r1", "r2", "r3"], np.stack([x, 2 * x]))
    write_scores(stack, score_files(stack, tmp_path / "scores"))
    read = read_score_folder(tmp_path / "scores")
    assert list(read) == ["A", "B"] and np.array_equal(read["B"], 2 * x)
    (tmp_path / "scores" / "stack.npz").unlink()
    read = read_score_folder(tmp_path / "scores")
    assert list(read) == ["A", "B"] and np.array_equal(read["A"], x)
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / "M.tsv").write_text("topic\tsys1\nt1\t0.5\nt2\t0.25\n")
    with pytest.raises(InputError, match=r"M.tsv: 2 topic\(s\) x 1 run\(s\)"):
        read_score_folder(tmp_path / "own")
    with pytest.raises(InputError, match="no such folder"):
        read_score_folder(tmp_path / "missing")


def test_the_worked_example_of_the_document():
    # docs/topic_set_size.md: V_E = 0.0031, mdd = 0.02
    assert (tss.topics_paired_t(0.02, 0.0031), tss.topics_anova(0.02, 0.0031, 12), tss.topics_ci(0.02, 0.0031)) == (
        124,
        262,
        241,
    )


@pytest.mark.parametrize("design", tss.DESIGNS)
def test_searching_many_differences_together_finds_each_ones_topics(design):
    """topics_each (the table's and the curves' search, all differences at once) equals topics_for one at a
    time, including differences that need 2 topics and ones that need thousands."""
    rng = np.random.default_rng(7)
    for _ in range(8):
        variance, runs = float(rng.uniform(0.0005, 0.2)), int(rng.integers(2, 30))
        mdds = np.round(rng.uniform(0.005, 0.6, size=5), 4)
        found = tss.topics_each(design, mdds, variance, runs=runs)
        assert list(found) == [tss.topics_for(design, float(mdd), variance, runs=runs) for mdd in mdds]
    assert list(tss.topics_each(design, [5.0, 0.01], 0.01, runs=3)) == [
        tss.topics_for(design, 5.0, 0.01, runs=3),
        tss.topics_for(design, 0.01, 0.01, runs=3),
    ]
    with pytest.raises(ValueError, match="positive number"):
        tss.topics_each(design, [0.1, 0.0], 0.01)


def test_the_command_offers_the_designs_of_the_library():
    """``ordeval topics --design`` writes the designs out (the library module imports scipy): the same ones."""
    from ordeval.cli import build_parser

    commands = next(action for action in build_parser()._actions if action.dest == "command")
    design = next(action for action in commands.choices["topics"]._actions if action.dest == "design")
    assert tuple(design.choices) == tss.DESIGNS
