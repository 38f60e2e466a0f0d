"""Property checks computed for every measure (ordeval.properties): the paper's Table 4 reproduced cell for
cell, every registered measure's declared flags equal to its checks, a wrong declaration caught with its
counterexample, the tables and their text."""

from __future__ import annotations

import numpy as np
import pytest

from ordeval import properties as props
from ordeval.tasks.classification.measures import REGISTRY as OC
from ordeval.tasks.classification.measures import accuracy, linear_weighted_kappa
from ordeval.tasks.measure_properties import QUANTIFIERS
from ordeval.tasks.quantification.measures import REGISTRY as OQ
from ordeval.tasks.quantification.measures import normalised_match_distance
from ordeval.tasks.registry import Registry

#: The ACL-IJCNLP 2021 paper's Table 4, columns (I) ordinal, (II) constant runs, (III) class imbalance.
TABLE_4 = {
    "kappa": (True, False, True),
    "alpha_ORD": (True, True, True),
    "alpha_INT": (True, True, True),
    "CEM_ORD": (True, True, True),
    "MAE_M": (True, True, True),
    "F1_M": (False, True, True),
    "HMPR": (False, True, True),
    "MAE_mu": (True, True, False),
    "Accuracy": (False, True, False),
}
PAPER = ("ordinal", "handles_constant", "handles_imbalance")


def test_computed_checks_reproduce_the_papers_table_4():
    flags = props.computed_flags(OC.values())
    assert {name: tuple(flags[name][key] for key in PAPER) for name in TABLE_4} == TABLE_4
    assert [p.name for p in props.properties_of("classification").values() if p.paper] == list(PAPER)


@pytest.mark.parametrize("measure", [*OC.values(), *OQ.values()], ids=lambda m: m.name)
def test_every_registered_measure_declares_what_its_checks_find(measure):
    checked = props.check_measure(measure)
    assert set(checked) <= set(measure.properties), "declare every property of the task"
    assert props.disagreements([measure]) == []


def test_a_wrong_declaration_is_caught_with_its_counterexample():
    registry = Registry("classification")
    registry.register("ACC_ORD", lower_is_better=False, ordinal=True, handles_constant=True)(accuracy)
    registry.register("KAPPA_OK", lower_is_better=False, handles_constant=True)(linear_weighted_kappa)
    lines = props.disagreements(registry.values())
    assert len(lines) == 2
    assert lines[0].startswith("classification measure ACC_ORD: declares ordinal=True, but violated: counterexample")
    assert "before [[" in lines[0] and "score before" in lines[0]
    # kappa's smallest counterexample: three classes, gold counts 1, 2, 3 in some order, every constant run 0
    assert lines[1].startswith("classification measure KAPPA_OK: declares handles_constant=True, but violated")
    result = props.check(registry["KAPPA_OK"], "handles_constant")
    assert result.example.size == (3, 6)
    assert sorted(result.example.case["gold counts"]) == [1, 2, 3]
    assert result.example.scores["constant runs score"] == [0.0, 0.0, 0.0]
    # a wrong OQ declaration as well
    oq = Registry("quantification")
    oq.register("NMD_P", priority_preserving=True)(normalised_match_distance)
    assert props.disagreements(oq.values())[0].startswith("quantification measure NMD_P: declares priority_preserving")


def test_verdicts_say_what_decides_them():
    accuracy_checks = props.check_measure(OC["Accuracy"])
    imbalance = accuracy_checks["handles_imbalance"]  # existential, no witness: the search decides
    assert (imbalance.holds, imbalance.decided, imbalance.example) == (False, False, None)
    assert imbalance.explain() == f"violated: no witness among {imbalance.instances} instances"
    assert imbalance.instances >= props.DEFAULT_TRIALS
    witness = props.check(OC["MAE_M"], "handles_imbalance")
    assert witness.holds and witness.decided and witness.explain().startswith("holds: witness topic 1")
    pooled, weighted = witness.example.scores["pooled"], witness.example.scores["item-weighted mean"]
    assert pooled != pytest.approx(weighted)
    search = props.check(OC["alpha_ORD"], "ordinal")
    assert search.holds and not search.decided and "no counterexample among" in search.explain()


def test_dnkt_fails_on_uniform_distributions_and_alone_keeps_the_priority():
    dnkt = props.check_measure(OQ["DNKT"])
    assert {name: result.holds for name, result in dnkt.items()} == {
        "ordinal": False,
        "farther_is_worse": False,
        "perfect_estimate": False,
        "uniform_gold": False,
        "uniform_estimate_graded": False,
        "priority_preserving": True,
    }
    uniform = dnkt["uniform_gold"].example
    assert uniform.size[0] == 2 and uniform.scores == {"score": 0.5, "score of the uniform estimate": 0.5}
    keeps_priority = {name for name, m in OQ.items() if props.check(m, "priority_preserving").holds}
    assert keeps_priority == {"DNKT", "DNKT_JSD", "DNKT_NMD", "DNKT_RNOD"}
    nominal = {name for name, m in OQ.items() if not props.check(m, "ordinal").holds}
    assert nominal == {"NVD", "RNSS", "JSD", "DNKT", "DNKT_JSD"}


def test_a_measure_that_fails_or_returns_nan_fails_universal_properties():
    registry = Registry("quantification")

    def broken(estimate, gold):
        raise ValueError("no")

    registry.register("BROKEN")(broken)
    registry.register("NANS")(
        lambda estimate, gold: np.full(np.broadcast_shapes(estimate.shape, gold.shape)[:-1], np.nan)
    )
    for measure in registry.values():
        results = props.check_measure(measure)
        assert not any(r.holds for r in results.values()), measure.name


def test_checks_are_seeded_and_reproducible():
    first = props.check(OC["CEM_ORD"], "majority_run_far_from_perfect", trials=300, seed=5)
    props.instances.cache_clear()
    again = props.check(OC["CEM_ORD"], "majority_run_far_from_perfect", trials=300, seed=5)
    assert first == again and not first.holds


def test_property_table_and_its_text():
    measures = props.resolve_measures(["kappa", "DNKT"])
    table = props.property_table(measures, trials=400)
    assert table.columns == [
        "measure",
        "task",
        "property",
        "title",
        "quantifier",
        "holds",
        "decided",
        "declared",
        "instances",
        "explanation",
    ]
    rows = {(r["measure"], r["property"]): r for r in table.records()}
    assert rows[("kappa", "handles_constant")]["holds"] is False
    assert rows[("kappa", "handles_constant")]["declared"] is False
    text = props.render(table)
    assert text.splitlines()[0] == "classification"
    grid = text.splitlines()[2:4]
    assert grid[0].split()[:2] == ["measure", "(I)"] and grid[1].split()[:4] == ["kappa", "yes*", "no", "yes"]
    assert "kappa / handles_constant: violated: counterexample gold counts" in text
    markdown = props.render(table, markdown=True)
    assert "## quantification" in markdown and r"| DNKT | no\* | no |" in markdown
    with pytest.raises(KeyError, match="unknown measure 'nDCG'"):
        props.resolve_measures(["nDCG"])
    assert len(props.resolve_measures(task="classification")) == len(OC)


def test_every_property_is_defined_with_its_reference():
    for task in ("classification", "quantification"):
        for prop in props.properties_of(task).values():
            assert prop.quantifier in QUANTIFIERS and prop.title and prop.definition, prop.name
            own = prop.name in ("constant_no_better_than_chance", "majority_run_far_from_perfect")
            assert ("ordeval's earlier reading" in prop.definition) if own else ("Sakai" in prop.definition), prop.name
