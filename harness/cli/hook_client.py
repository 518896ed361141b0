"""The per-event clients of ``harness hook HOST --socket PATH | --http URL``.

A host that only runs commands starts one of these per event, so they import nothing but
the standard library's ``socket``, ``json`` and ``os`` (bench/hosts.py measures the cost
against a full ``harness hook`` and against curl). Each returns the command form of the
answer, ``{"exit_code", "stdout", "stderr"}``, or raises:

- `Unreachable`: nothing listens there (no socket, connection refused): the caller answers
  the event itself, in process;
- `ClientFailure`: anything else that keeps the daemon's answer from us — a socket owned by
  another user, a timeout, a 401/413/400, an answer that is not one — which the caller turns
  into a deny on a guard event (never open).

The socket client checks, before it sends a byte, that the server runs as our own user
(SO_PEERCRED): a socket another user planted must not see the event nor decide it. It sends
the event, the directory and only the environment a handler needs (CLAUDE_*, HARNESS_*,
the host's own prefixes, PATH, HOME, locale; never a variable whose name says KEY, TOKEN,
SECRET, PASSWORD or CREDENTIAL); the server lays these over its own environment.
"""

from __future__ import annotations

import json
import os
import socket
import struct

__all__ = ["ClientFailure", "Unreachable", "handler_environment", "over_http", "over_socket"]

_PASSED_PREFIXES = ("CLAUDE_", "HARNESS_", "CODEX_", "GEMINI_", "CURSOR_", "COPILOT_",
                    "WINDSURF_", "CLINE_", "KIRO_", "LC_")
_PASSED_NAMES = frozenset(("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "TZ", "TMPDIR",
                           "TERM", "PWD", "VIRTUAL_ENV"))
_SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH")
_MAX_ANSWER = 16 * 1024 * 1024


class Unreachable(Exception):
    """Nothing listens at the address: answer the event here instead."""


class ClientFailure(Exception):
    """The daemon's answer cannot be had or trusted; the message says why."""


def handler_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """The part of `env` (default: ours) that a hook handler may need and a daemon may see."""
    env = os.environ if env is None else env
    return {name: value for name, value in env.items()
            if (name in _PASSED_NAMES or name.startswith(_PASSED_PREFIXES))
            and not any(word in name.upper() for word in _SECRET_WORDS)}


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def over_socket(path: str, host: str, data: bytes, event: str | None,
                timeout: float) -> dict:
    """The answer of ``harness serve --socket PATH`` to one `host` event."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "host_hook",
               "params": {"host": host, "event": data.decode("utf-8", "replace"),
                          "event_name": event, "cwd": _cwd(), "env": handler_environment()}}
    try:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as exc:
        raise ClientFailure(f"cannot open a socket: {exc}") from None
    with connection:
        connection.settimeout(timeout)
        try:
            connection.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise Unreachable(f"no server at {path}: {exc.strerror}") from None
        except OSError as exc:
            raise ClientFailure(f"cannot connect to {path}: {exc}") from None
        _check_owner(connection, path)
        try:
            connection.sendall(json.dumps(request).encode() + b"\n")
            connection.shutdown(socket.SHUT_WR)
            raw = _read_all(connection)
        except TimeoutError:
            raise ClientFailure(f"the server at {path} did not answer within "
                                f"{timeout:g} s") from None
        except OSError as exc:
            raise ClientFailure(f"the server at {path} failed: {exc}") from None
    try:
        response = json.loads(raw)
    except ValueError:
        raise ClientFailure(f"the server at {path} answered something not JSON") from None
    result = response.get("result") if isinstance(response, dict) else None
    if not isinstance(result, dict):
        error = response.get("error") if isinstance(response, dict) else None
        message = error.get("message") if isinstance(error, dict) else "no result"
        raise ClientFailure(f"the server at {path} answered an error: {message}")
    return _command_reply(result, path)


def _check_owner(connection: socket.socket, path: str) -> None:
    """Refuse a server that does not run as our user (before anything is sent)."""
    if not hasattr(socket, "SO_PEERCRED"):
        stat = os.stat(path)  # no peer credentials here: the socket file's owner, then
        uid = stat.st_uid
    else:
        creds = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                      struct.calcsize("3i"))
        _, uid, _ = struct.unpack("3i", creds)
    if uid != os.getuid():
        raise ClientFailure(f"the server at {path} runs as user {uid}, not as us "
                            f"({os.getuid()}): not sending it the event")


def _read_all(connection: socket.socket) -> bytes:
    chunks, size = [], 0
    while chunk := connection.recv(65536):
        chunks.append(chunk)
        size += len(chunk)
        if size > _MAX_ANSWER:
            raise ClientFailure("the answer is too large")
    return b"".join(chunks)


def _command_reply(result: dict, where: str) -> dict:
    code, out, err = result.get("exit_code"), result.get("stdout", ""), result.get("stderr", "")
    if not isinstance(code, int) or not isinstance(out, str) or not isinstance(err, str):
        raise ClientFailure(f"{where} answered no exit_code/stdout/stderr")
    return {"exit_code": code, "stdout": out, "stderr": err}


def over_http(url: str, host: str, data: bytes, event: str | None, token: str | None,
              timeout: float) -> dict:
    """The answer of ``harness serve --http`` at `url` (``http://HOST:PORT``) to one
    `host` event, in the command form (``?reply=command``)."""
    address, base = _split_url(url)
    target = f"{base}/{host}" + (f"/{event}" if event else "") + "?reply=command"
    head = [f"POST {target} HTTP/1.1", f"Host: {address[0]}:{address[1]}",
            "Content-Type: application/json", f"Content-Length: {len(data)}",
            "Connection: close"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    cwd = _cwd()
    if cwd and cwd.isascii() and "\n" not in cwd and "\r" not in cwd:
        head.append(f"X-Harness-Cwd: {cwd}")
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + data
    try:
        connection = socket.create_connection(address, timeout=timeout)
    except ConnectionRefusedError as exc:
        raise Unreachable(f"nothing listens at {url}: {exc.strerror}") from None
    except TimeoutError:
        raise ClientFailure(f"{url} did not accept a connection within {timeout:g} s") from None
    except OSError as exc:
        raise ClientFailure(f"cannot connect to {url}: {exc}") from None
    with connection:
        try:
            connection.sendall(request)
            raw = _read_all(connection)
        except TimeoutError:
            raise ClientFailure(f"{url} did not answer within {timeout:g} s") from None
        except OSError as exc:
            raise ClientFailure(f"{url} failed: {exc}") from None
    status, body = _parse_response(raw, url)
    if status != 200:
        try:
            message = json.loads(body).get("error", "")
        except (ValueError, AttributeError):
            message = body[:200].decode("utf-8", "replace")
        raise ClientFailure(f"{url} answered HTTP {status}: {message}")
    try:
        result = json.loads(body)
    except ValueError:
        raise ClientFailure(f"{url} answered something not JSON") from None
    if not isinstance(result, dict):
        raise ClientFailure(f"{url} answered no object")
    return _command_reply(result, url)


def _split_url(url: str) -> tuple[tuple[str, int], str]:
    rest = url.removeprefix("http://")
    if rest == url:
        raise ClientFailure(f"{url}: only http:// URLs are served (harness serve --http)")
    hostport, _, path = rest.partition("/")
    name, _, port = hostport.rpartition(":")
    if not name or not port.isdigit():
        raise ClientFailure(f"{url}: give the address as http://HOST:PORT")
    return (name.strip("[]"), int(port)), ("/" + path).rstrip("/")


def _parse_response(raw: bytes, url: str) -> tuple[int, bytes]:
    head, sep, body = raw.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].split()
    if not sep or len(status_line) < 2 or not status_line[1].isdigit():
        raise ClientFailure(f"{url} answered something not HTTP")
    return int(status_line[1]), body
