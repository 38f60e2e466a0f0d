"""``ordeval fetch`` against a mirror on 127.0.0.1 (no internet): files fetched, verified and written atomically; a
tampered file refused and removed; a download cut in the middle, or a fetch killed in the middle, leaves nothing
under the file's name; an unreachable address, a data folder that cannot be written, a file name that needs URL
quoting; ``--from`` and ``--check``."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from cli_helpers import one_error_line
from conftest import REPO, SHARED_RAW, no_shared_data
from mirror_server import Cut, build_mirror, closed_port, mirror_file, serve

from ordeval.cli import main
from ordeval.data.fetch import fetch
from ordeval.data.registry import load
from ordeval.io.errors import InputError

# --------------------------------------------------------------------------- a small registry of made-up files

CONTENTS = {
    "Set/gold.txt": b"t1\t0.2\t0.2\t0.2\t0.2\t0.2\n" * 200,
    "Set/runs/_baseline-average-on-train+dev+devtest-E.output": b"t1\t0.1\t0.2\t0.4\t0.2\t0.1\n" * 300,
    "Other/notes.json": b'{"a": 1}\n' * 500,
}


def small_registry(folder: Path):
    """A registry of three made-up files (one named with '+'), the files in a mirror under ``folder/mirror``."""
    files = []
    for index, (place, data) in enumerate(CONTENTS.items()):
        files.append(
            {
                "place": place,
                "dataset": place.split("/")[0],
                "use": "a test",
                "repo": f"owner{index}/repo",
                "commit": f"{index}" * 40,
                "path": f"data/{place}",
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "licence": "none",
            }
        )
    text = {
        "host": "https://raw.githubusercontent.com",
        "datasets": {name: {"title": name, "reference": "r", "about": "a", "terms": "t"} for name in ("Set", "Other")},
        "licences": {"none": "none stated"},
        "files": files,
    }
    path = folder / "registry.yaml"
    path.write_text(yaml.safe_dump(text, sort_keys=False))
    registry = load(path)
    for entry in registry.files:
        target = mirror_file(folder / "mirror", entry)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(CONTENTS[entry.place])
    return registry


def leftovers(folder: Path) -> list[str]:
    """Every file below ``folder`` (relative paths), temporary ones included."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def test_every_file_is_fetched_verified_and_a_second_fetch_downloads_nothing(tmp_path):
    registry = small_registry(tmp_path)
    with serve(tmp_path / "mirror") as (base, requests):
        outcomes, origin = fetch(tmp_path / "data", base_url=base, registry=registry)
        assert [outcome.line(origin) for outcome in outcomes] == [
            f"Set: 2 files, 0.0 MB: 2 fetched from {base}",
            f"Other: 1 files, 0.0 MB: 1 fetched from {base}",
        ]
        assert len(requests) == 3
        # the name with '+' is asked for percent-encoded (a bare '+' reads as a space on some servers)
        assert "/owner1/repo/" + "1" * 40 + "/data/Set/runs/_baseline-average-on-train%2Bdev%2Bdevtest-E.output" in (
            requests
        )
        outcomes, _ = fetch(tmp_path / "data", base_url=base, registry=registry)
        assert len(requests) == 3  # nothing downloaded again
        assert outcomes[0].line(origin) == "Set: 2 files, 0.0 MB: all present and verified, nothing fetched"
    assert leftovers(tmp_path / "data") == sorted(CONTENTS)
    assert all((tmp_path / "data" / place).read_bytes() == data for place, data in CONTENTS.items())


def test_a_tampered_mirror_file_is_refused_and_nothing_is_left_under_its_name(tmp_path):
    registry = small_registry(tmp_path)
    plus = registry.files[1]
    mirror_file(tmp_path / "mirror", plus).write_bytes(CONTENTS[plus.place].replace(b"0.4", b"0.5", 1))
    with serve(tmp_path / "mirror") as (base, requests):
        with pytest.raises(InputError) as error:
            fetch(tmp_path / "data", base_url=base, registry=registry, retries=1)
    assert len(requests) == 3  # the first file, then the tampered one twice (one retry)
    message = str(error.value)
    assert message.startswith(f"{tmp_path / 'data' / plus.place}: the download from {base}/")
    found = hashlib.sha256(CONTENTS[plus.place].replace(b"0.4", b"0.5", 1)).hexdigest()
    assert f"SHA-256 {found}; expected {plus.size} bytes, SHA-256 {plus.sha256}; it was removed" in message
    assert "\n" not in message
    assert leftovers(tmp_path / "data") == ["Set/gold.txt"]  # the good one before it, and nothing else


@pytest.mark.parametrize("cuts, retries", [(2, 1), (1, 0)])
def test_a_download_cut_in_the_middle_leaves_no_file(tmp_path, cuts, retries):
    """The server announces the whole length, sends half, closes: every try fails, nothing is written under the
    name and no temporary file stays."""
    registry = small_registry(tmp_path)
    with serve(tmp_path / "mirror", Cut, cuts=cuts) as (base, requests):
        with pytest.raises(InputError) as error:
            fetch(tmp_path / "data", base_url=base, registry=registry, retries=retries)
    assert len(requests) == retries + 1
    first = registry.files[0]
    assert str(error.value).startswith(f"{tmp_path / 'data' / first.place}: the connection to {base} dropped")
    assert leftovers(tmp_path / "data") == []


def test_a_dropped_connection_is_tried_again(tmp_path):
    registry = small_registry(tmp_path)
    with serve(tmp_path / "mirror", Cut, cuts=1) as (base, requests):
        outcomes, _ = fetch(tmp_path / "data", base_url=base, registry=registry, retries=1)
    assert len(requests) == 4 and sum(outcome.fetched for outcome in outcomes) == 3
    assert leftovers(tmp_path / "data") == sorted(CONTENTS)


def test_from_a_local_copy_with_the_same_checks(tmp_path):
    registry = small_registry(tmp_path)
    copy = tmp_path / "copy"
    for place, data in CONTENTS.items():
        (copy / place).parent.mkdir(parents=True, exist_ok=True)
        (copy / place).write_bytes(data)
    (copy / "Other/notes.json").write_bytes(b"{}\n")
    with pytest.raises(InputError, match=r"the copy .*notes\.json is not the registered file: 3 bytes"):
        fetch(tmp_path / "data", source=copy, registry=registry)
    assert leftovers(tmp_path / "data") == ["Set/gold.txt", "Set/runs/_baseline-average-on-train+dev+devtest-E.output"]
    (copy / "Other/notes.json").unlink()
    with pytest.raises(InputError, match=r"notes\.json: not in the local copy: .*copy/Other/notes\.json"):
        fetch(tmp_path / "data", source=copy, registry=registry)
    (copy / "Other/notes.json").write_bytes(CONTENTS["Other/notes.json"])
    outcomes, origin = fetch(tmp_path / "data", source=copy, registry=registry)
    assert [outcome.line(origin) for outcome in outcomes] == [
        "Set: 2 files, 0.0 MB: all present and verified, nothing fetched",
        f"Other: 1 files, 0.0 MB: 1 fetched from {copy}",
    ]


def test_a_changed_file_is_replaced_and_a_folder_in_the_way_is_named(tmp_path):
    registry = small_registry(tmp_path)
    with serve(tmp_path / "mirror") as (base, _):
        fetch(tmp_path / "data", base_url=base, registry=registry)
        (tmp_path / "data/Set/gold.txt").write_bytes(b"changed by hand\n")
        outcomes, _ = fetch(tmp_path / "data", base_url=base, registry=registry)
        assert (
            outcomes[0].line(base)
            == f"Set: 2 files, 0.0 MB: 1 changed and replaced from {base}, 1 present and verified"
        )
        assert (tmp_path / "data/Set/gold.txt").read_bytes() == CONTENTS["Set/gold.txt"]
        (tmp_path / "data/Other/notes.json").unlink()
        (tmp_path / "data/Other/notes.json").mkdir()
        with pytest.raises(InputError, match=r"notes\.json: a folder, not a file: remove it, then fetch again$"):
            fetch(tmp_path / "data", base_url=base, registry=registry)


def test_stale_temporary_files_of_a_killed_fetch_are_removed(tmp_path):
    registry = small_registry(tmp_path)
    stale, fresh = tmp_path / "data/Set/tmpab12cd34", tmp_path / "data/Set/runs/tmpzz99yy88"
    for path in (stale, fresh):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half a file")
    os.utime(stale, (time.time() - 3600,) * 2)
    with serve(tmp_path / "mirror") as (base, _):
        fetch(tmp_path / "data", base_url=base, registry=registry)
    assert not stale.exists() and fresh.exists()  # the fresh one may belong to a fetch running now


# --------------------------------------------------------------------------- the command, on the real registry


def run_fetch(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["fetch", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_unreachable_address_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    port = closed_port()
    status, out, err = run_fetch(
        capsys, "--to", str(tmp_path / "data"), "--url", f"http://127.0.0.1:{port}/", "--retries", "0"
    )
    first = load().files[0]
    assert status == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith(f"ordeval: error: {tmp_path / 'data' / first.place}: cannot reach http://127.0.0.1:{port} (")
    assert "--from DIR" in line
    monkeypatch.setenv("ORDEVAL_DATA_URL", f"http://127.0.0.1:{port}")  # the same through the environment
    status, _, err = run_fetch(capsys, "--to", str(tmp_path / "data"), "--retries", "0")
    assert status == 2 and f"cannot reach http://127.0.0.1:{port} (" in one_error_line(err)
    assert leftovers(tmp_path / "data") == []


def test_a_tampered_file_through_the_command_is_refused_and_removed(tmp_path, capsys):
    """The mirror's copy of the first registered file has the registered size but other bytes: exit 2, one line
    with both SHA-256, and no file under its name."""
    registry = load()
    first = registry.files[0]
    target = mirror_file(tmp_path / "mirror", first)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"x" * first.size)
    with serve(tmp_path / "mirror") as (base, _):
        status, out, err = run_fetch(capsys, "--to", str(tmp_path / "data"), "--url", base, "--retries", "0")
    line = one_error_line(err)
    assert status == 2 and out == ""
    assert f"SHA-256 {hashlib.sha256(b'x' * first.size).hexdigest()}; expected {first.size} bytes, SHA-256 " in line
    assert line.startswith(f"ordeval: error: {tmp_path / 'data' / first.place}: the download from {base}/")
    assert leftovers(tmp_path / "data") == []


def test_a_fetch_killed_in_the_middle_of_a_file_leaves_nothing_under_its_name(tmp_path):
    """SIGTERM while the server hangs half-way through the first file: exit 130, neither the file nor the temporary
    one is left. SIGKILL cannot be caught: its temporary file stays (under pooch's tmp* name, removed by a later
    fetch once stale), never the file's name."""
    registry = load()
    first = registry.files[0]
    target = mirror_file(tmp_path / "mirror", first)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"x" * first.size)
    for kill, status in ((signal.SIGTERM, 130), (signal.SIGKILL, -signal.SIGKILL)):
        data = tmp_path / f"data-{kill.name}"
        hang = threading.Event()
        with serve(tmp_path / "mirror", Cut, cuts=1, hang=hang) as (base, requests):
            process = subprocess.Popen(
                [sys.executable, "-m", "ordeval", "fetch", "--to", str(data), "--url", base, "--retries", "0"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            deadline = time.monotonic() + 60
            while not any(path.name.startswith("tmp") for path in data.rglob("*")) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)  # the half written
            process.send_signal(kill)
            _, err = process.communicate(timeout=60)
        assert process.returncode == status, err
        assert not (data / first.place).exists()
        names = [path.name for path in data.rglob("*") if path.is_file()]
        assert names == ([] if kill == signal.SIGTERM else [names[0]]) and all(n.startswith("tmp") for n in names)
        if kill == signal.SIGTERM:
            assert err.strip().splitlines() == ["ordeval: interrupted"]


@pytest.fixture
def unwritable(tmp_path):
    """A folder this process cannot write: a read-only tmpfs as root (root writes through permissions), else mode
    0o555; skipped where neither can be had."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(folder)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a read-only filesystem here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_data_folder_that_cannot_be_written_is_one_line(unwritable, capsys):
    for folder in (unwritable, unwritable / "resources"):
        status, out, err = run_fetch(capsys, "--to", str(folder), "--from", str(unwritable))
        line = one_error_line(err)
        assert status == 2 and out == ""
        assert line.startswith(f"ordeval: error: {folder}: cannot write the data folder here (")
        assert line.endswith(
            "fetch into another folder with --to DIR (and point data_root at it: --config data_root=DIR)"
        )


def test_usage_errors_are_one_line(tmp_path, capsys):
    cases = {
        (
            "--check",
            "--from",
            str(tmp_path),
        ): "--check verifies the data folder only: it takes neither --from nor --url",
        ("--from", str(tmp_path), "--url", "http://x"): "--from copies from a local copy and --url downloads from",
        ("--url", "ftp://example.org/data"): "--url: 'ftp://example.org/data' is not an http(s) address of a mirror",
        ("--from", str(tmp_path / "nowhere")): f"{tmp_path / 'nowhere'}: no such folder (--from takes a local copy",
        ("--retries", "-1"): "argument --retries: -1: between 0 and 20",
    }
    for arguments, expected in cases.items():
        status, _, err = run_fetch(capsys, "--to", str(tmp_path / "data"), *arguments)
        assert status == 2 and expected in one_error_line(err), (arguments, err)


def test_from_and_check_on_the_real_data(tmp_path, capsys):
    """From a local copy of the real data (the tests' copy): every file fetched and verified, a second fetch fetches
    nothing, --check passes; a file changed and one removed: --check names both (exit 1), a fetch restores them."""
    registry = load()
    if not all((SHARED_RAW / entry.place).is_file() for entry in registry.files):
        pytest.skip(no_shared_data())
    data = tmp_path / "data"
    status, out, _ = run_fetch(capsys, "--to", str(data), "--from", str(SHARED_RAW))
    assert status == 0
    assert out.splitlines() == [
        f"Sem16T4CE: 31 files, 5.8 MB: 31 fetched from {SHARED_RAW}",
        f"Sem17T4CE: 2 files, 0.4 MB: 2 fetched from {SHARED_RAW}",
        f"STC3-DQ: 3 files, 3.0 MB: 3 fetched from {SHARED_RAW}",
    ]
    status, out, _ = run_fetch(capsys, "--to", str(data), "--from", str(SHARED_RAW))
    assert status == 0 and all(line.endswith("all present and verified, nothing fetched") for line in out.splitlines())
    status, out, err = run_fetch(capsys, "--to", str(data), "--check")
    assert status == 0 and err == "" and len(out.splitlines()) == 3
    changed, removed = data / registry.files[5].place, data / registry.files[-1].place
    changed.write_bytes(changed.read_bytes()[:-1] + b"X")
    removed.unlink()
    status, out, err = run_fetch(capsys, "--to", str(data), "--check")
    assert status == 1
    assert out.splitlines() == [
        f"{changed}: changed: SHA-256 {hashlib.sha256(changed.read_bytes()).hexdigest()}, registered "
        f"{registry.files[5].sha256} (the same size)",
        f"{removed}: missing",
    ]
    assert err == (
        f"ordeval fetch --check: 2 of the 36 registered files missing or changed in {data}; `ordeval fetch --to "
        f"{data}` fetches them (and replaces the changed ones)\n"
    )
    status, out, _ = run_fetch(capsys, "--to", str(data), "--from", str(SHARED_RAW))
    assert status == 0 and "1 changed and replaced from" in out and "STC3-DQ: 3 files, 3.0 MB: 1 fetched" in out
    assert run_fetch(capsys, "--to", str(data), "--check")[0] == 0


def test_the_real_mirror_serves_every_file_and_the_plus_name_quoted(tmp_path, capsys):
    """The whole registry from a mirror of the real data in the registry's layout, through ORDEVAL_DATA_URL."""
    registry = load()
    if not all((SHARED_RAW / entry.place).is_file() for entry in registry.files):
        pytest.skip(no_shared_data())
    mirror = build_mirror(SHARED_RAW, tmp_path / "mirror", registry)
    with serve(mirror) as (base, requests):
        done = subprocess.run(
            [sys.executable, "-m", "ordeval", "fetch", "--to", str(tmp_path / "data")],
            capture_output=True,
            text=True,
            env={**os.environ, "ORDEVAL_DATA_URL": base},
            cwd=REPO,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress bar, nothing but the summary
    assert done.stdout.splitlines()[0] == f"Sem16T4CE: 31 files, 5.8 MB: 31 fetched from {base}"
    assert len(requests) == 36 and sum("%2Bdev%2Bdevtest" in request for request in requests) == 1
    assert not any("+" in request for request in requests)


def test_a_progress_bar_on_a_terminal_and_the_summary_after_it(tmp_path):
    """On a terminal (a pseudo-terminal of 100 columns) one bar over the bytes to fetch, cleared at the end, then
    the summary; in a pipe nothing but the summary (test above)."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    registry = load()
    if not all((SHARED_RAW / entry.place).is_file() for entry in registry.files):
        pytest.skip(no_shared_data())
    mirror = build_mirror(SHARED_RAW, tmp_path / "mirror", registry)
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with serve(mirror) as (base, _):
        command = [sys.executable, "-m", "ordeval", "fetch", "--to", str(tmp_path / "data"), "--url", base]
        process = subprocess.Popen(command, stdin=secondary, stdout=secondary, stderr=secondary)
        os.close(secondary)
        shown = b""
        while True:
            ready, _, _ = select.select([primary], [], [], 5)
            if not ready and process.poll() is not None:
                break
            try:
                chunk = os.read(primary, 65536) if ready else b""
            except OSError:  # the terminal closed with the process
                break
            if ready and not chunk:
                break
            shown += chunk
        os.close(primary)
        assert process.wait(timeout=60) == 0
    text = shown.decode("utf-8", errors="replace")
    assert "ordeval fetch:" in text and "9.23M" in text and "%|" in text
    assert text.rstrip().endswith(f"STC3-DQ: 3 files, 3.0 MB: 3 fetched from {base}")
