"""Shared test helpers: evaluate Scheme text and compare written results."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from harness.scheme.interpreter import Interpreter, format_error
from harness.scheme.printer import write_string


class SchemeRunner:
    """Evaluate Scheme source in one environment; results as written text."""

    def __init__(self, tier: str = "unsandboxed") -> None:
        self.interp = Interpreter(tier=tier)

    def value(self, src: str):
        return self.interp.eval_string(src)

    def __call__(self, src: str) -> str:
        return write_string(self.interp.eval_string(src))

    def error(self, src: str) -> str:
        """The formatted error ``src`` raises (fails the test if it raises none)."""
        try:
            value = self.interp.eval_string(src)
        except BaseException as exc:  # noqa: BLE001 - the error is what we test
            return format_error(exc)
        pytest.fail(f"expected an error, got {write_string(value)}")


E2E_TESTS = Path(__file__).resolve().parent / "e2e"


def pytest_collection_modifyitems(items: list) -> None:
    """Every test under tests/e2e/ is marked ``e2e`` (scripts/test-all-pythons runs them
    under one interpreter only)."""
    for item in items:
        if E2E_TESTS in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session", autouse=True)
def _private_user_cache(tmp_path_factory):
    """``harness run`` keeps read programs in $XDG_CACHE_HOME/harness: the suite's runs (in
    this process and the ones it starts) use a directory of their own, never the user's."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if saved is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@pytest.fixture
def scheme() -> SchemeRunner:
    return SchemeRunner()


@pytest.fixture
def sandboxed() -> SchemeRunner:
    return SchemeRunner("sandboxed")


@pytest.fixture(scope="module")
def interp() -> Interpreter:
    """One unsandboxed interpreter shared by a test module's Scheme-level cases."""
    return Interpreter()


@pytest.fixture
def expect_written(interp):
    """Check that Scheme ``src`` evaluates to a value written as ``expected``."""
    def check(src: str, expected: str) -> None:
        assert write_string(interp.eval_string(src)) == expected
    return check


@pytest.fixture
def expect_error(interp):
    """Check that Scheme ``src`` raises a SchemeError whose message contains ``message``."""
    from harness.scheme.errors import SchemeError

    def check(src: str, message: str) -> None:
        with pytest.raises(SchemeError) as info:
            interp.eval_string(src)
        assert message in info.value.message
    return check


class LocalServer:
    """An HTTP server on 127.0.0.1 that records each request (``{"method", "path",
    "headers", "body"}``, a JSON body parsed) and answers with ``respond(path, headers,
    body) -> (status, body bytes[, headers])``: for http handlers, model endpoints and
    fetch_url."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.respond = lambda path, headers, body: (200, b"")
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.answer(b"")

            def do_POST(self) -> None:
                self.answer(self.rfile.read(int(self.headers.get("Content-Length", 0))))

            def answer(self, body: bytes) -> None:
                server.requests.append({"method": self.command, "path": self.path,
                                        "headers": dict(self.headers),
                                        "body": json.loads(body) if body else None})
                status, answer, *extra = server.respond(self.path, self.headers, body)
                self.send_response(status)
                for name, value in (extra[0] if extra else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def local_server():
    server = LocalServer()
    yield server
    server.close()
