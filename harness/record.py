"""The audit log (SPEC §17): every dispatch of a home written as one JSON line.

``[record]`` in ``harness.toml`` turns it on::

    [record]
    path = "audit.jsonl"          # relative to the home
    max_bytes = 10485760          # rotate past this size (false: never)
    keep = 3                      # rotated files kept: audit.jsonl.1 ... .3
    redact = ["customer_id"]      # more keys whose values are never written
    redact_patterns = ["ACME-[0-9]+"]   # more secret patterns (regular expressions)
    redact_defaults = true        # the built-in keys and patterns (below)

Every front-end that fires through a Runtime gets it: ``serve``, ``serve --http``, ``harness
mcp``, ``fire``, the host adapters. A host adapter wraps its dispatches of one host event in
`Recorder.host_event`, so that event is one line (``host``, ``event``, ``payload``, the
host's ``reply`` and the ``dispatches`` it made); any other dispatch is a line of its own
(``host`` null, ``event`` the hook point). A dispatch made from inside another dispatch's
hooks (``call-tool`` in a hook) is marked ``nested``: replaying the outer one makes it
again. Each dispatch lists its ``hooks`` in the order they ran with ``source``, ``ms`` and
their ``answer`` or ``error``. ``harness replay`` reads these files.

Redaction, by default: the value of every key that names a secret (``token``, ``secret``,
``password``, ``api_key``, ``authorization``, ``cookie``, ``credentials``, ``private_key``
..., in any case, as in ``GITHUB_TOKEN``), ``NAME=value`` assignments of such names inside
strings (``export API_KEY=...``), and strings that look like keys (``sk-...``, ``ghp_...``,
``AKIA...``, ``xox?-...``, JWTs, ``Bearer ...``, PEM private keys) become ``[redacted]``.
A replay of a redacted line sees the redacted text.

Lines are written with one ``write`` on a file opened for appending, so several processes
(one ``harness claude-hook`` per event) can share a log. Rotation renames the file when a
write would take it past ``max_bytes``.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from harness.bridge import dumps

__all__ = ["RECORD_MARK", "RecordConfig", "Recorder", "Redactor", "open_recorder"]

#: the key every line of a recording carries (with the format's version)
RECORD_MARK = "harness_record"
REDACTED = "[redacted]"

_SECRET_WORDS = (r"secret|token|passw(?:or)?d|passphrase|api[_-]?key|apikey|access[_-]?key|"
                 r"private[_-]?key|auth(?:orization)?|credentials?|cookie|session[_-]?key|"
                 r"client[_-]?secret")
_SECRET_PATTERNS = (
    # NAME=value where NAME names a secret (a shell assignment, an env file line)
    rf"(?i:\b[A-Z0-9_]*(?:{_SECRET_WORDS})[A-Z0-9_]*\s*[=:]\s*(?:(?:bearer|basic|token)\s+)?(?:\"[^\"]*\"|'[^']*'|[^\s;&|]+))",
    r"\bsk-[A-Za-z0-9_-]{16,}",                       # OpenAI / Anthropic keys
    r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})",
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",                 # AWS access key ids
    r"\bxox[abprs]-[A-Za-z0-9-]{10,}",                # Slack
    r"\bAIza[0-9A-Za-z_-]{35}",                       # Google API keys
    r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",   # JWTs
    r"(?i:\bbearer\s+[A-Za-z0-9._~+/=-]{12,})",
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
)

_NAMED = re.compile(r"[A-Za-z0-9_]+\s*[=:]\s*")


@dataclass(frozen=True)
class RecordConfig:
    """``[record]`` of harness.toml (see the module doc); ``path`` is absolute."""

    path: str
    max_bytes: int | None = 10 * 1024 * 1024
    keep: int = 3
    redact: tuple[str, ...] = ()
    redact_patterns: tuple[str, ...] = ()
    redact_defaults: bool = True


class Redactor:
    """Replaces secrets in JSON values (see the module doc)."""

    def __init__(self, keys: tuple[str, ...] = (), patterns: tuple[str, ...] = (),
                 defaults: bool = True) -> None:
        key_forms = [re.escape(k) for k in keys] + ([_SECRET_WORDS] if defaults else [])
        self._key = re.compile(".*(?:" + "|".join(key_forms) + ")", re.IGNORECASE) \
            if key_forms else None
        texts = list(patterns) + (list(_SECRET_PATTERNS) if defaults else [])
        self._text = re.compile("|".join(f"(?:{p})" for p in texts)) if texts else None

    def __call__(self, value: object) -> object:
        """A copy of ``value`` with its secrets replaced (``value`` itself is unchanged)."""
        kind = type(value)
        if kind is str:
            return self._text.sub(self._hide, value) if self._text is not None else value
        if kind is dict:
            key = self._key
            return {k: (REDACTED if key is not None and type(k) is str and key.match(k)
                        and v not in (None, "", True, False) else self(v))
                    for k, v in value.items()}
        if kind is list or kind is tuple:
            return [self(v) for v in value]
        return value

    @staticmethod
    def _hide(match: re.Match) -> str:
        named = _NAMED.match(match.group(0))  # keep the name: NAME=[redacted]
        return named.group(0) + REDACTED if named else REDACTED


@dataclass
class HostEntry:
    """One host event being recorded: the adapter sets ``reply`` (and ``decision``) once
    it has answered; the dispatches it made are collected in ``dispatches``."""

    host: str
    event: str
    payload: dict
    reply: dict | None = None
    decision: str | None = None
    dispatches: list = field(default_factory=list)


class Recorder:
    """Writes dispatches to the audit log of ``config`` (see the module doc)."""

    def __init__(self, config: RecordConfig) -> None:
        self.config = config
        self.path = config.path
        self.redact = Redactor(config.redact, config.redact_patterns, config.redact_defaults)
        self._lock = threading.Lock()
        self._scopes = threading.local()
        #: why the last write failed (said once on stderr), None while all is well
        self.failure: str | None = None

    def dispatched(self, hook: str, payload: dict, result: dict, trace: list,
                   start: float, nested: bool) -> None:
        """Record one finished dispatch (called by the dispatcher)."""
        entry = {"hook": hook, "payload": payload, "outcome": result["outcome"],
                 "errors": result["errors"], "hooks": trace,
                 "ms": round((time.perf_counter() - start) * 1000, 3)}
        scope = getattr(self._scopes, "entry", None)
        if scope is not None:
            scope.dispatches.append(entry)
            return
        if nested:
            entry["nested"] = True
        self.write({"host": None, "event": hook, **entry})

    @contextmanager
    def host_event(self, host: str, event: str, payload: dict) -> Iterator[HostEntry]:
        """Collect the dispatches of one host event into one line, written at the end."""
        outer = getattr(self._scopes, "entry", None)
        entry = HostEntry(host, event, payload)
        self._scopes.entry = entry
        start = time.perf_counter()
        try:
            yield entry
        finally:
            self._scopes.entry = outer
            line = {"host": host, "event": event, "payload": payload,
                    "decision": entry.decision, "reply": entry.reply,
                    "dispatches": entry.dispatches,
                    "ms": round((time.perf_counter() - start) * 1000, 3)}
            if outer is not None:
                line["nested"] = True
            self.write(line)

    def write(self, record: dict) -> None:
        """Append ``record`` (redacted, with the time and the format mark) as one line."""
        line = dumps({RECORD_MARK: 1, "time": _now(), **self.redact(record)}) + b"\n"
        with self._lock:
            cap = self.config.max_bytes
            if cap is not None:
                try:
                    size = os.stat(self.path).st_size
                except FileNotFoundError:
                    size = 0
                if size and size + len(line) > cap:
                    self._rotate()
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    os.write(fd, line)
                finally:
                    os.close(fd)
            except OSError as exc:  # the audit log never breaks a dispatch
                if self.failure is None:
                    self.failure = f"cannot write the audit log {self.path}: {exc}"
                    sys.stderr.write(f"harness: {self.failure}\n")

    def _rotate(self) -> None:
        """audit.jsonl -> audit.jsonl.1 -> .2 ...; the oldest past ``keep`` is dropped."""
        keep = self.config.keep
        if keep < 1:
            os.unlink(self.path)
            return
        for n in range(keep, 0, -1):
            older = f"{self.path}.{n - 1}" if n > 1 else self.path
            try:
                os.replace(older, f"{self.path}.{n}")
            except FileNotFoundError:
                pass


def _now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def open_recorder(config: RecordConfig | None) -> Recorder | None:
    """The recorder ``[record]`` asks for, or None when it is not configured."""
    return Recorder(config) if config is not None else None
