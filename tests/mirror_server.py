"""A mirror of the public data on 127.0.0.1 for the tests of ``ordeval fetch`` (no internet): the registered files laid
out as ``<base>/<owner>/<repo>/<commit>/<path>``, as raw.githubusercontent.com serves them, served by ``http.server``
in a thread; handlers that cut a download in the middle or hang in it; a port where nothing listens."""

from __future__ import annotations

import http.server
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from urllib.parse import unquote, urlsplit


def build_mirror(source: Path, target: Path, registry) -> Path:
    """The registered files of the data folder ``source`` copied to ``target`` in the registry's layout."""
    for entry in registry.files:
        destination = target / entry.repo / entry.commit / entry.path
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / entry.place, destination)
    return target


def mirror_file(mirror: Path, entry) -> Path:
    return mirror / entry.repo / entry.commit / entry.path


class Quiet(http.server.SimpleHTTPRequestHandler):
    """The standard file server, silent, recording each request's path as sent (still percent-encoded)."""

    requests: list[str]  # set per server

    def log_message(self, *arguments) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.requests.append(self.path)
        super().do_GET()


class Cut(Quiet):
    """Announces each file's full length, sends the first half, then closes the connection (the first
    ``cuts`` requests; later ones are served whole)."""

    cuts: int
    hang: threading.Event | None = None  #: set: the half is sent, then the handler waits for this event

    def do_GET(self) -> None:  # noqa: N802
        self.requests.append(self.path)
        if len(self.requests) > self.cuts:
            return http.server.SimpleHTTPRequestHandler.do_GET(self)
        path = Path(self.directory, unquote(urlsplit(self.path).path).lstrip("/"))
        data = path.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        if self.hang is not None:
            self.hang.wait(60)
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)


@contextmanager
def serve(folder: Path, handler: type[Quiet] = Quiet, **settings) -> Iterator[tuple[str, list[str]]]:
    """(base address, the request paths received) of a server of ``folder`` on 127.0.0.1 while the block runs."""
    requests: list[str] = []
    kind = type("Handler", (handler,), {"requests": requests, **settings})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(kind, directory=os.fspath(folder)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        hang = settings.get("hang")
        if hang is not None:
            hang.set()
        server.shutdown()
        server.server_close()
        thread.join(10)


def closed_port() -> int:
    """A port of 127.0.0.1 where nothing listens (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
