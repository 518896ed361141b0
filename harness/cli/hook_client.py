"""The per-event clients of ``harness hook HOST --socket PATH | --http URL``.

A host that only runs commands starts one of these per event, so they import as little as
they can: the HTTP client only ``_socket`` (the C module: ``socket`` brings ``enum`` and
``selectors``) and reads the daemon's ``?reply=raw`` answer, which needs no ``json``; the
Unix socket client adds ``socket``, ``struct`` and ``json`` (bench/hosts.py measures each
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

Run as a script (``python3 -S -I PATH/TO/hook_client.py HOST --http URL [--home DIR]
[--event NAME] [--timeout S]``) it is the whole per-event client without even Python's
``site`` or harness's package: only when the daemon cannot answer does it load harness
(``site`` first, for its dependencies) to answer the event itself or deny it, exactly as
``harness hook HOST`` does. `client_argv` builds that command line.
"""

from __future__ import annotations

import os

__all__ = ["ClientFailure", "Unreachable", "ask", "client_argv", "handler_environment", "main",
           "over_http", "over_socket", "shell_client_argv", "token"]

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


def token(home: str | None) -> str | None:
    """The daemon's bearer token: $HARNESS_TOKEN, else HOME/serve.token (None: neither)."""
    given = os.environ.get("HARNESS_TOKEN")
    if given:
        return given.strip()
    home = home or os.environ.get("HARNESS_HOME") or "~/.harness"
    try:
        with open(os.path.join(os.path.expanduser(home), "serve.token"),
                  encoding="ascii") as file:
            return file.read().strip()
    except (OSError, ValueError):
        return None


def ask(host: str, data: bytes, url: str | None, path: str | None, event: str | None,
        bearer: str | None, timeout: float) -> dict:
    """The daemon's answer, over HTTP at `url` or else the Unix socket `path`."""
    if url:
        return over_http(url, host, data, event, bearer, timeout)
    return over_socket(path, host, data, event, timeout)


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
    import json
    import socket
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


def _check_owner(connection, path: str) -> None:
    """Refuse a server that does not run as our user (before anything is sent)."""
    import socket
    import struct
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


def _read_all(connection) -> bytes:
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
    `host` event, in the command form (``?reply=raw``: the exit code and the length of
    stdout in headers, stdout then stderr as the body)."""
    import _socket
    address, base = _split_url(url)
    target = f"{base}/{host}" + (f"/{event}" if event else "") + "?reply=raw"
    head = [f"POST {target} HTTP/1.1", f"Host: {address[0]}:{address[1]}",
            "Content-Type: application/json", f"Content-Length: {len(data)}",
            "Connection: close"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    cwd = _cwd()
    if cwd and cwd.isascii() and "\n" not in cwd and "\r" not in cwd:
        head.append(f"X-Harness-Cwd: {cwd}")
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + data
    family = _socket.AF_INET6 if ":" in address[0] else _socket.AF_INET
    if address[0].replace(".", "").isdigit() or family == _socket.AF_INET6:
        where = address
    else:  # a name: resolve it (loopback names mostly)
        try:
            family, _, _, _, where = _socket.getaddrinfo(address[0], address[1], 0,
                                                         _socket.SOCK_STREAM)[0]
        except OSError as exc:
            raise ClientFailure(f"cannot resolve {address[0]}: {exc}") from None
    connection = _socket.socket(family, _socket.SOCK_STREAM)
    try:
        connection.settimeout(timeout)
        try:
            connection.connect(where)
        except ConnectionRefusedError as exc:
            raise Unreachable(f"nothing listens at {url}: {exc.strerror}") from None
        except TimeoutError:
            raise ClientFailure(f"{url} did not accept a connection within {timeout:g} s") \
                from None
        except OSError as exc:
            raise ClientFailure(f"cannot connect to {url}: {exc}") from None
        try:
            connection.sendall(request)
            raw = _read_all(connection)
        except TimeoutError:
            raise ClientFailure(f"{url} did not answer within {timeout:g} s") from None
        except OSError as exc:
            raise ClientFailure(f"{url} failed: {exc}") from None
    finally:
        connection.close()
    status, headers, body = _parse_response(raw, url)
    if status != 200:
        message = body[:300].decode("utf-8", "replace").strip()
        raise ClientFailure(f"{url} answered HTTP {status}: {message}")
    code, size = headers.get("x-harness-exit", ""), headers.get("x-harness-stdout-length", "")
    if not code.lstrip("-").isdigit() or not size.isdigit() or int(size) > len(body):
        raise ClientFailure(f"{url} answered no harness reply")
    stdout, stderr = body[:int(size)], body[int(size):]
    return {"exit_code": int(code), "stdout": stdout.decode("utf-8", "replace"),
            "stderr": stderr.decode("utf-8", "replace")}


def _split_url(url: str) -> tuple[tuple[str, int], str]:
    rest = url.removeprefix("http://")
    if rest == url:
        raise ClientFailure(f"{url}: only http:// URLs are served (harness serve --http)")
    hostport, _, path = rest.partition("/")
    name, _, port = hostport.rpartition(":")
    if not name or not port.isdigit():
        raise ClientFailure(f"{url}: give the address as http://HOST:PORT")
    return (name.strip("[]"), int(port)), ("/" + path).rstrip("/")


def _parse_response(raw: bytes, url: str) -> tuple[int, dict[str, str], bytes]:
    head, sep, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status_line = lines[0].split()
    if not sep or len(status_line) < 2 or not status_line[1].isdigit():
        raise ClientFailure(f"{url} answered something not HTTP")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line[1]), headers, body


_OPTIONS = ("--http", "--socket", "--home", "--event", "--timeout", "--failed")


def client_argv(python: str, host: str, *, http: str | None = None,
                socket_path: str | None = None, home: str | None = None,
                event: str | None = None, timeout: float | None = None) -> list[str]:
    """The command line of the lightest per-event client (this file as a script): what a
    host's hook configuration runs to reach a daemon."""
    argv = [python, "-S", "-I", os.path.abspath(__file__), host]
    for option, value in (("--http", http), ("--socket", socket_path), ("--home", home),
                          ("--event", event), ("--timeout", timeout)):
        if value is not None:
            argv += [option, str(value)]
    return argv


def shell_client_argv(host: str, url: str, home: str | None = None,
                      event: str | None = None) -> list[str]:
    """The command line of the bash client (harness/hosts/hook-client.sh): the fastest per
    event; it hands over to this file's client whenever the daemon does not simply answer.
    Set $HARNESS_PYTHON for it when python3 on PATH is not the one harness is installed in."""
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "hosts", "hook-client.sh")
    home = home or os.environ.get("HARNESS_HOME") or os.path.expanduser("~/.harness")
    # run by bash, not by its mode bits: an installed package may lose the executable bit
    return ["bash", script, host, url, home, *([event] if event else [])]


def main(argv: list[str]) -> int:
    """The script: HOST and the options of ``harness hook`` that a client needs (and
    ``--failed REASON``: the shell client gave up for REASON; answer as an edge failure)."""
    import sys
    if not argv or argv[0].startswith("-"):
        sys.stderr.write("usage: hook_client.py HOST (--http URL | --socket PATH) "
                         "[--home DIR] [--event NAME] [--timeout S]\n")
        return 1
    host, options = argv[0], {}
    rest = argv[1:]
    while rest:
        if rest[0] not in _OPTIONS or len(rest) < 2:
            sys.stderr.write(f"hook_client.py: unknown or incomplete option {rest[0]}\n")
            return 1
        options[rest[0][2:]] = rest[1]
        rest = rest[2:]
    host = "claude-code" if host == "claude" else host
    data = sys.stdin.buffer.read()
    if "failed" in options:  # hook-client.sh gave up for this reason: deny, ask nobody
        return _with_harness(host, options, data, ClientFailure(options["failed"]))
    try:
        timeout = float(options.get("timeout", 60))
        reply = ask(host, data, options.get("http"), options.get("socket"),
                    options.get("event"), token(options.get("home")), timeout)
    except (Unreachable, ClientFailure, ValueError) as exc:
        return _with_harness(host, options, data, exc)
    if reply["stdout"]:
        sys.stdout.write(reply["stdout"])
    if reply["stderr"]:
        sys.stderr.write(reply["stderr"])
    return reply["exit_code"]


def _with_harness(host: str, options: dict, data: bytes, failure: Exception) -> int:
    """Load harness (we run without site and outside its package) and let ``harness hook``
    finish: answer here, or deny."""
    import site
    import sys
    from types import SimpleNamespace
    site.main()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    from harness.cli.answer_here import after_client
    reason = f"bad option: {failure}" if isinstance(failure, ValueError) else str(failure)
    timeout = options.get("timeout")
    args = SimpleNamespace(home=options.get("home"), event=options.get("event"),
                           timeout=float(timeout) if timeout and timeout.replace(
                               ".", "", 1).isdigit() else None)
    return after_client(host, args, data, reason, isinstance(failure, Unreachable))


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
