"""``http`` handlers: POST the event JSON to a URL; a JSON object in a 2xx answer decides.

Both allowlists fail closed. The URL must match an ``allowedHttpHookUrls`` entry, or the
handler is not called (an error says so). ``$VAR`` and ``${VAR}`` in ``headers`` (and in
the URL) take the caller's environment only for names listed in the handler's
``allowedEnvVars`` (and in ``httpHookAllowedEnvVars`` where a file sets that limit); any
other name becomes an empty string, with a warning. Redirects are refused: an allowed
URL cannot hand the request, headers and all, to one that is not. The handler's timeout
bounds the whole call, not each read (a server trickling its answer is cut off, and its
thread ends with it).

Results as in Claude Code: a 2xx with an empty body is no answer; a 2xx with a JSON object
is read as a command's stdout would be; any other body or status, a refused connection or
a timeout is a non-blocking error. A status code alone never blocks.
"""

from __future__ import annotations

import http.client
import re
import socket
import threading
import time
import urllib.parse
from collections.abc import Collection, Mapping
from contextlib import suppress
from dataclasses import dataclass

from harness.handlers.spec import Handler

__all__ = ["HttpReply", "call_http", "expand_variables"]

#: bytes of a response body read at most; a bigger answer is an error
MAX_BODY = 4 * 1024 * 1024
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class HttpReply:
    """A 2xx answer's body (text), or the error that stands for the call; warnings about
    environment variables that were left out."""

    body: str | None
    error: str | None
    warnings: tuple[str, ...] = ()


def _post(url: str, body: bytes, headers: dict, timeout: float) -> tuple[int, bytes, str]:
    """POST and read the answer: (status, body up to MAX_BODY + 1 bytes, Location).

    The socket's timeout bounds each read, so a server that trickles a byte at a time
    would hold the call (and its thread) for ever; a timer shuts the socket down when
    `timeout` is over, whatever the call is waiting for, and TimeoutError is raised."""
    split = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if split.scheme == "https" else \
        http.client.HTTPConnection
    connection = kind(split.hostname, split.port, timeout=timeout)
    deadline = time.monotonic() + timeout
    timer = threading.Timer(timeout, _cut, (connection,))
    timer.daemon = True
    timer.start()
    try:
        target = (split.path or "/") + (f"?{split.query}" if split.query else "")
        connection.request("POST", target, body, headers)
        response = connection.getresponse()
        raw = response.read(MAX_BODY + 1)
    except (OSError, http.client.HTTPException):
        if time.monotonic() >= deadline:
            raise TimeoutError from None
        raise
    else:
        if time.monotonic() >= deadline:  # cut off: what was read is a part at best
            raise TimeoutError
        return response.status, raw, response.getheader("Location", "")
    finally:
        timer.cancel()
        connection.close()


def _cut(connection) -> None:
    sock = connection.sock
    if sock is not None:
        with suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def expand_variables(text: str, env: Mapping[str, str], allowed: Collection[str],
                     warnings: list[str], where: str) -> str:
    """`text` with ``$VAR`` / ``${VAR}`` replaced: allowed names by their value, others by
    "" (with a warning naming `where`)."""
    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        if name in allowed:
            return env.get(name, "")
        warnings.append(f"{where}: ${name} is not an allowed environment variable "
                        "(allowedEnvVars); replaced by an empty string")
        return ""
    return _VARIABLE.sub(value, text)


def call_http(handler: Handler, body: bytes, timeout: float, env: Mapping[str, str],
              allowed_vars: Collection[str], url_allowed) -> HttpReply:
    """POST `body` for `handler`; `url_allowed(url)` is the URL allowlist. The whole call
    (connecting, sending, the status line, headers and body) ends within `timeout`."""
    warnings: list[str] = []
    options = handler.options
    url = expand_variables(options["url"], env, allowed_vars, warnings, "url")
    if not url_allowed(url):
        return HttpReply(None, f"URL {url} is not in allowedHttpHookUrls; the handler was "
                               "not called (list it in hooks.toml or a settings file)",
                         tuple(warnings))
    headers = {"Content-Type": "application/json"}
    for name, text in (options.get("headers") or {}).items():
        headers[name] = expand_variables(text, env, allowed_vars, warnings, f"header {name}")
    try:
        status, raw, location = _post(url, body, headers, timeout)
    except TimeoutError:
        return HttpReply(None, f"{url}: timed out after {timeout:g} s", tuple(warnings))
    except (OSError, ValueError, http.client.HTTPException) as exc:
        return HttpReply(None, f"{url}: {exc}", tuple(warnings))
    if 300 <= status < 400:
        return HttpReply(None, f"{url}: HTTP {status}: redirect to {location} refused (http "
                               "handlers do not follow redirects)", tuple(warnings))
    if not 200 <= status < 300:
        detail = raw[:300].decode("utf-8", "replace").strip()
        return HttpReply(None, f"{url}: HTTP {status}" + (f": {detail}" if detail else ""),
                         tuple(warnings))
    if len(raw) > MAX_BODY:
        return HttpReply(None, f"{url}: the answer is over {MAX_BODY} bytes", tuple(warnings))
    text = raw.decode("utf-8", "replace")
    if text.strip() and not text.lstrip().startswith("{"):
        return HttpReply(None, f"{url}: the answer is not a JSON object: "
                               f"{text.strip()[:200]}", tuple(warnings))
    return HttpReply(text, None, tuple(warnings))
