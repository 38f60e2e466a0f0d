"""Trust in recorded files (issue 54, item 5).

Class: a file ordeval wrote and reads back, trusted as it is read. Members: a reference's fingerprints (setting
one magnitude to 1e300 turned a +0.3 change into EQUAL: the magnitude widened the bound the comparison allows),
its hashes and the rest of its record, ``provenance.json``'s data origin (``"origin": "real"`` labelled a
simulated data set real in every table), the tables a stack says it mirrors. What can be checked is: the
magnitude is compared like the weighted sums (it moves no more than they may), a fingerprint must agree with
itself (every weighted sum at most twice the magnitude), the record is sealed with its SHA-256, the origin must
agree with the record's own gold and runs, a stack's tables lie beside it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_diff import _manifest, _write

from ordeval.cli import main
from ordeval.io.errors import InputError
from ordeval.results.compare import PORTABLE
from ordeval.results.fingerprint import Fingerprint, compare_fingerprints, fingerprint, inconsistency, text_numbers

SCORES = "scores/X/NMD.tsv"
TEXT = "topic\tA\tB\n" + "".join(f"t{i}\t{0.1 * i!r}\t{0.05 * i!r}\n" for i in range(1, 30))


@pytest.fixture
def recorded(tmp_path) -> tuple[Path, Path]:
    """(a results folder, its reference)."""
    results = tmp_path / "results"
    _write(results, SCORES, TEXT)
    _manifest(results)
    assert main(["reference", str(results), str(tmp_path / "ref")]) == 0
    return results, tmp_path / "ref"


def _edit_record(reference: Path, change, keep_seal: bool = True) -> None:
    index = reference / "reference.json"
    document = json.loads(index.read_text(encoding="utf-8"))
    change(document)
    if not keep_seal:
        document.pop("seal")
    index.write_text(json.dumps(document, indent=1), encoding="utf-8")


def _magnitude_1e300(document) -> None:
    document["numbers"][SCORES]["numbers"][""]["magnitude"] = "1e300"


def _moved(results: Path) -> None:
    """A score changed by +0.3."""
    path = results / SCORES
    path.write_text(TEXT.replace("t3\t0.30000000000000004", "t3\t0.6000000000000001"), encoding="utf-8")
    _manifest(results)


def test_an_edited_record_is_refused_by_its_seal(recorded, capsys):
    results, reference = recorded
    _edit_record(reference, _magnitude_1e300)
    assert main(["diff", str(reference), str(results)]) == 2
    err = capsys.readouterr().err
    assert f"{reference / 'reference.json'}, key 'seal': the record does not agree with its seal" in err


def test_an_inflated_magnitude_no_longer_hides_a_change(recorded, capsys):
    """A reference without a seal (written before it): the magnitude is compared, so the bound stays tight."""
    results, reference = recorded
    _edit_record(reference, _magnitude_1e300, keep_seal=False)
    _moved(results)
    assert main(["diff", str(reference), str(results)]) == 1
    out = capsys.readouterr().out
    assert f"{SCORES}: numbers changed beyond the tolerance (the sum of their magnitudes moved from 1e+300" in out


def test_a_fingerprint_that_does_not_agree_with_itself_is_refused(recorded, capsys):
    results, reference = recorded

    def sums_beyond_the_magnitude(document):
        part = document["numbers"][SCORES]["numbers"][""]
        part["sums"][0] = repr(3 * float(part["magnitude"]))

    _edit_record(reference, sums_beyond_the_magnitude, keep_seal=False)
    assert main(["diff", str(reference), str(results)]) == 2
    assert "a fingerprint that does not agree with itself: a weighted sum" in capsys.readouterr().err


def test_the_magnitude_check_never_fails_numbers_equal_within_the_tolerance():
    rng = np.random.default_rng(3)
    for _ in range(50):
        values = rng.normal(size=200) * 10.0 ** rng.integers(-5, 5)
        noisy = values * (1 + rng.uniform(-1, 1, values.size) * 5e-10) + rng.uniform(-1, 1, values.size) * 5e-13
        before = fingerprint(text_numbers(" ".join(map(repr, values))))
        after = fingerprint(text_numbers(" ".join(map(repr, noisy))))
        assert compare_fingerprints(before, after, PORTABLE) is None


def test_inconsistency():
    assert inconsistency(0, 0.0, (0.0, 0.0, 0.0)) is None
    assert inconsistency(3, 1.0, (1.9, -1.5, 0.2)) is None
    assert "no numbers" in inconsistency(0, 1.0, (0.0, 0.0, 0.0))
    assert "below 0" in inconsistency(2, -1.0, (0.0, 0.0, 0.0))
    assert "more than twice the magnitude" in inconsistency(2, 1.0, (2.5, 0.0, 0.0))
    with pytest.raises(InputError, match="does not agree with itself"):
        Fingerprint.from_json(
            {"layout": "0" * 64, "numbers": {"": {"count": 2, "magnitude": "1.0", "sums": ["5.0", "0", "0"]}}},
            ("reference.json", "key 'numbers'['x']"),
        )


def test_a_new_reference_is_sealed_and_opens(recorded, capsys):
    results, reference = recorded
    document = json.loads((reference / "reference.json").read_text(encoding="utf-8"))
    from ordeval.results.reference import seal

    assert document["seal"] == seal(document)
    assert main(["diff", str(reference), str(results)]) == 0


def test_provenance_whose_origin_disagrees_with_its_own_sources_is_refused(tmp_path):
    from ordeval.io.provenance import read_provenance

    record = {
        "dataset": "X",
        "origin": "real",
        "gold": {"source": "simulated", "type": "simulate_tweets"},
        "runs": {"A": {"source": "simulated"}, "B": {"source": "baseline"}},
    }
    path = tmp_path / "provenance.json"
    path.write_text(json.dumps(record))
    with pytest.raises(InputError, match=r"key 'origin': 'real' does not agree with the record's own gold and runs"):
        read_provenance(path)
    for gold, runs, origin in [
        ("simulated", "simulated", "synthetic"),
        ("file", "simulated", "partly synthetic"),
        ("file", "file", "real"),
    ]:
        record.update(origin=origin, gold={"source": gold}, runs={"A": {"source": runs}})
        path.write_text(json.dumps(record))
        assert read_provenance(path)["origin"] == origin


def test_a_stack_whose_tables_are_not_beside_it_is_refused(tmp_path):
    from ordeval.tasks.stack import ScoreStack, load_stack, score_files, write_scores

    stack = ScoreStack(["NMD"], ["t1", "t2"], ["A", "B"], np.array([[[0.1, 0.2], [0.3, 0.4]]]))
    paths = write_scores(stack, score_files(stack, tmp_path / "s"))
    with np.load(paths["stack"]) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["sources"] = np.array(["../../etc/passwd", "measures.tsv"])
    np.savez(paths["stack"], **arrays)
    with pytest.raises(InputError, match="a table it mirrors is not a file beside it"):
        load_stack(paths["stack"])
