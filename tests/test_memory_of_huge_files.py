"""Readers stream: the peak memory of ``validate``, ``score``, ``leaderboard``, ``topics`` and ``run`` on a
1 GB sparse file follows the records read, not the file's size; a file larger than the address space is refused,
and running out of memory is one line in a command and in a job."""

from __future__ import annotations

import pytest
from cli_helpers import one_error_line, peak, sparse
from conftest import tiny_config

from ordeval.cli import main

THREE_TOPICS = "".join(f"t{i}\t0.1\t0.2\t0.3\t0.2\t0.2\n" for i in range(3))


FORMAT = ["--task", "quantification", "--format", "semeval_dist"]


def test_peak_memory_of_validate_and_score_on_a_1_gb_sparse_file_follows_the_records(tmp_path):
    """Three valid lines, then a 1 GB hole: refused at line 4, the hole never held in memory (measured before:
    validate 3.2 GB, score 1.09 GB; now about 45 MB, the interpreter and numpy)."""
    big = sparse(tmp_path / "big.txt", THREE_TOPICS)
    run = tmp_path / "run.txt"
    run.write_text(THREE_TOPICS)
    where = "big.txt:4: NUL byte at line 4 (byte offset 69): not a text file"
    for arguments, status in [
        (["validate", *FORMAT, str(big)], 1),
        (["score", *FORMAT, "--gold", str(big), "--run", f"A={run}"], 2),
        (["score", *FORMAT, "--gold", str(run), "--run", f"A={big}", "--baseline", "uniform"], 2),
    ]:
        code, err, mib = peak(arguments)
        assert code == status and where in err and "Traceback" not in err, err
        assert mib < 150, f"{arguments[0]}: peak {mib} MiB"


def test_peak_memory_of_leaderboard_topics_and_run_on_a_1_gb_sparse_file(tmp_path):
    folder = tmp_path / "scores"
    folder.mkdir()
    sparse(folder / "NMD.tsv", "topic\tA\tB\nt1\t0.1\t0.2\nt2\t0.3\t0.1\n")
    for arguments in (["leaderboard", str(folder), "--out", str(tmp_path / "b")], ["topics", str(folder)]):
        code, err, mib = peak(arguments)
        assert code == 2 and "NMD.tsv:4: NUL byte at line 4" in err and "Traceback" not in err, err
        assert mib < 150, f"{arguments[0]}: peak {mib} MiB"
    import yaml  # the planner, at workflow load: a gold file of three lines and a hole

    sparse(tmp_path / "gold.txt", THREE_TOPICS)
    config = tiny_config("hole", data_root=str(tmp_path))
    config["datasets"]["TinySem"]["gold"] = {"type": "semeval_dist", "path": "gold.txt"}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(config))
    code, err, mib = peak(["run", "-n", "--configfile", str(tmp_path / "c.yaml")], folder=tmp_path)
    assert code == 2 and "gold.txt:4: NUL byte at line 4" in one_error_line(err), err
    assert mib < 250, f"run: peak {mib} MiB"


def test_a_4_gb_sparse_file_under_a_3_gb_address_space_is_refused_not_a_memory_error(tmp_path):
    big = sparse(tmp_path / "big.txt", THREE_TOPICS, 4 << 30)
    code, err, _ = peak(["validate", *FORMAT, str(big)], limit=3_000_000 * 1024)
    assert code == 1 and "big.txt:4: NUL byte at line 4" in err and "MemoryError" not in err, err


def test_out_of_memory_is_one_line_in_a_command_and_in_a_job(tmp_path, monkeypatch, capsys):
    from ordeval.tasks import validation
    from ordeval.workflow.offline import mock_snakemake
    from ordeval.workflow.scripting import job

    def exhausted(*arguments, **options):
        raise MemoryError

    monkeypatch.setattr(validation, "check_file", exhausted)
    (tmp_path / "gold.txt").write_text(THREE_TOPICS)
    assert main(["validate", *FORMAT, str(tmp_path / "gold.txt")]) == 2
    assert one_error_line(capsys.readouterr().err) == (
        "ordeval: error: out of memory: 'ordeval validate' needs more memory than this process may use"
    )
    monkeypatch.delenv("ORDEVAL_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stopped, job(mock_snakemake("score_runs", log=[str(tmp_path / "x.log")])):
        raise MemoryError
    assert stopped.value.code == 1
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(
            "score_runs failed: out of memory (more than this machine or its limits allow; see the rule's mem_mb)"
        )
    )
