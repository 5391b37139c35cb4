"""A real `parlor serve` for the integration tests: started once per session on a free port."""

import contextlib
import os
import pathlib
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(*extra):
    """Runs `parlor serve` (with `extra` arguments) on a free port; yields its base URL."""
    binary = pathlib.Path(os.environ.get("PARLOR_BIN", REPO / "target" / "debug" / "parlor"))
    if not binary.exists():
        pytest.fail(f"no parlor binary at {binary}: run `cargo build -p parlor-server` or set PARLOR_BIN")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tempfile.TemporaryFile("w+")
    # Each server keeps its tables in a directory of its own, never in the working directory.
    data = tempfile.TemporaryDirectory(prefix="parlor-sdk-test-")
    own_data = [] if "--data" in extra else ["--data", data.name]
    proc = subprocess.Popen(
        [str(binary), "serve", "--addr", f"127.0.0.1:{port}", *own_data, *extra],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"parlor serve exited with {proc.returncode}:\n{log.read()}")
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("parlor serve did not answer /healthz within 30 s")
            time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        data.cleanup()


@pytest.fixture(scope="session")
def server():
    """The base URL of a running server (`PARLOR_BIN`, default target/debug/parlor).

    Every test of the session creates its tables from this one address: the per-address
    table quota is lifted for it.
    """
    with running_server("--tables-per-ip-per-minute", "0", "--tables-per-ip", "0") as url:
        yield url


@pytest.fixture
def start_server():
    """`running_server`, for tests that need a server with other settings."""
    return running_server


@pytest.fixture
def unused_port():
    """A port nothing listens on."""
    return free_port()
