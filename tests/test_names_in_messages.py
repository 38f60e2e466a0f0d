"""Names as messages print them: a 200-character name is reported as 200 characters, and topics that differ
only in Unicode normalisation print differently."""

from __future__ import annotations

import unicodedata

from cli_helpers import one_error_line

from ordeval.cli import main


def test_a_200_character_name_is_reported_as_200_characters(tmp_path, capsys):
    from ordeval.io.names import name_problem

    assert "... (200 characters) is not allowed" in name_problem("x" * 200, kind="run")
    gold = tmp_path / "gold.txt"
    gold.write_text("t1\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    assert (
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
                f"{'y' * 200}={gold}",
            ]
        )
        == 2
    )
    assert "(200 characters)" in one_error_line(capsys.readouterr().err)


def test_topics_that_differ_only_in_unicode_normalisation_print_differently(tmp_path, capsys):
    composed = "caf\u00e9"
    decomposed = unicodedata.normalize("NFD", composed)
    gold, run = tmp_path / "gold.txt", tmp_path / "run.txt"
    gold.write_text(f"{composed}\t0.2\t0.2\t0.2\t0.2\t0.2\n{decomposed}\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    run.write_text(f"{composed}\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    assert (
        main(["validate", "--task", "quantification", "--format", "semeval_dist", "--gold", str(gold), str(run)]) == 1
    )
    assert f"misses topic 'cafe\\u0301' of the gold ({gold}:2)" in capsys.readouterr().out
    gold.write_text(f"{decomposed}\t0.2\t0.2\t0.2\t0.2\t0.2\n{decomposed}\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    assert main(["validate", "--task", "quantification", "--format", "semeval_dist", str(gold)]) == 1
    assert "duplicate topic 'cafe\\u0301' (first at line 1)" in capsys.readouterr().out
