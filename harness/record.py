"""The audit log (SPEC §17): every dispatch of a home written as one JSON line.

``[record]`` in ``harness.toml`` turns it on::

    [record]
    path = "audit.jsonl"          # relative to the home
    max_bytes = 10485760          # rotate past this size (false: never)
    keep = 3                      # rotated files kept: audit.jsonl.1 ... .3
    redact = ["customer_id"]      # more keys whose values are never written
    redact_patterns = ["ACME-[0-9]+"]   # more secret patterns (regular expressions)
    redact_defaults = true        # the built-in keys and patterns (below)
    hooks = "all"                 # or "answered": only the hooks that answered or failed

Every front-end that fires through a Runtime gets it: ``serve``, ``serve --http``, ``harness
mcp``, ``fire``, the host adapters. A host adapter wraps its dispatches of one host event in
`Recorder.host_event`, so that event is one line (``host``, ``event``, ``payload``, the
host's ``reply`` and the ``dispatches`` it made); any other dispatch is a line of its own
(``host`` null, ``event`` the hook point). A dispatch made from inside another dispatch's
hooks (``call-tool`` in a hook) is marked ``nested``: replaying the outer one makes it
again. Each dispatch lists its ``hooks`` in the order they ran with ``source``, ``ms`` and
their ``answer`` or ``error``; with ``hooks = "answered"`` only the hooks that answered or
failed, without ``ms``, and ``ran``, how many hooks ran (the dispatch then runs its hooks
as an untraced one does: harness.hooks.dispatcher). ``harness replay`` reads these files
(the payload, host, event, outcome and decision: never the ``hooks``).

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

import atexit
import bisect
import functools
import itertools
import os
import re
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from harness.bridge import dumps, loads

__all__ = ["RECORD_MARK", "RecordConfig", "Recorder", "Redactor", "open_recorder"]

#: the key every line of a recording carries (with the format's version)
RECORD_MARK = "harness_record"
REDACTED = "[redacted]"
_MARK = RECORD_MARK.encode()

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

#: a string none of whose lower-cased text holds one of these cannot match _SECRET_PATTERNS
_MARKERS = ("secret", "token", "passw", "passphrase", "key", "auth", "credential", "cookie",
            "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "asia",
            "xox", "aiza", "eyj", "bearer")
_REMEMBERED_KEYS = 4096
#: the writer thread writes when this many records wait, or every _PERIOD seconds
_BATCH = 256
_PERIOD = 0.05
#: keys whose values are identifiers, names or paths: written as they are, never scanned
_PLAIN_KEYS = frozenset({
    "session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode",
    "tool_use_id", "tool_name", "turn_id", "model", "source", "hook", "event", "host",
    "time", "context_name", "hookEventName", "permissionDecision", "decision", "ms"})
_DEFAULT_PATTERNS = "|".join(f"(?:{p})" for p in _SECRET_PATTERNS)
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
    #: every hook in ``hooks`` with its ``ms`` (``hooks = "all"``), else only the hooks
    #: that answered or failed
    hook_trace: bool = True


class Redactor:
    """Replaces secrets in JSON values (see the module doc).

    Speed: a dispatch's strings are mostly commands, paths and names without secrets, and
    Python's case-blind alternations cost ~35 us on a 40-character string; so lines are
    first serialised as they are and a batch of them is searched once for the marker
    words of the patterns and keys (``token``, ``key``, ``sk-``, ...; `may_hold_secrets`):
    only a line that has one is walked, and then only strings that hold a marker meet the
    patterns; what a key name decides is remembered."""

    def __init__(self, keys: tuple[str, ...] = (), patterns: tuple[str, ...] = (),
                 defaults: bool = True) -> None:
        self._plain = _PLAIN_KEYS.difference(keys)
        self._line_markers = tuple(sorted({m.encode() for m in _MARKERS if defaults}
                                          | {k.lower().encode() for k in keys}))
        key_forms = [re.escape(k) for k in keys] + ([_SECRET_WORDS] if defaults else [])
        self._key_source = "|".join(key_forms) if key_forms else None
        self._keys: dict[str, bool] = {}
        self._defaults = defaults
        self._own = re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None

    def may_hold_secrets(self, lines: list[bytes]) -> list[int]:
        """The indexes of the JSON texts of ``lines`` that may hold something to redact
        (the others hold no marker word of the default patterns nor any key of
        ``redact``, and there are no ``redact_patterns``): most lines are written without
        the walk. One search over the batch: its markers never hold a line break."""
        if self._own is not None:
            return list(range(len(lines)))
        if not self._line_markers or not lines:
            return []
        found = _automaton(self._line_markers).find_matches_as_indexes(
            b"\n".join(lines).lower())
        if not found:
            return []
        ends = list(itertools.accumulate(len(line) + 1 for line in lines))
        return sorted({bisect.bisect_right(ends, start) for _, start, _ in found})

    def __call__(self, value: object) -> object:
        """A copy of ``value`` with its secrets replaced (``value`` itself is unchanged)."""
        kind = type(value)
        if kind is str:
            return self._text(value)
        if kind is dict:
            out = {}
            for k, v in value.items():
                if v is None or v is True or v is False or v == "" or k in self._plain:
                    out[k] = v
                elif type(k) is str and self._secret_key(k):
                    out[k] = REDACTED
                else:
                    out[k] = self(v)
            return out
        if kind is list or kind is tuple:
            return [self(v) for v in value]
        return value

    def _secret_key(self, key: str) -> bool:
        known = self._keys.get(key)
        if known is None:
            known = self._key_source is not None and \
                _compiled(self._key_source, re.IGNORECASE).search(key) is not None
            if len(self._keys) < _REMEMBERED_KEYS:
                self._keys[key] = known
        return known

    def _text(self, text: str) -> str:
        if self._own is not None:
            text = self._own.sub(REDACTED, text)
        if self._defaults:
            lowered = text.lower()
            if any(marker in lowered for marker in _MARKERS):
                text = _compiled(_DEFAULT_PATTERNS).sub(self._hide, text)
        return text

    @staticmethod
    def _hide(match: re.Match) -> str:
        named = _NAMED.match(match.group(0))  # keep the name: NAME=[redacted]
        return named.group(0) + REDACTED if named else REDACTED


@functools.cache
def _automaton(markers: tuple[bytes, ...]):
    """One pass over lines for all the markers at once: an Aho-Corasick automaton
    (ahocorasick_rs, Rust) reads a 1 KB line in ~0.3 us where Python's ``re`` takes ~13 us
    for the alternation of the markers (leftmost-first matching: it lets the automaton skip
    ahead, ~7x faster than the standard kind here); built, and its module imported, on the
    writer thread's first batch."""
    from ahocorasick_rs import BytesAhoCorasick, MatchKind
    return BytesAhoCorasick(list(markers), matchkind=MatchKind.LeftmostFirst)


@functools.cache
def _compiled(pattern: str, flags: int = 0) -> re.Pattern:
    """Compiled on first use: a live hook process whose lines hold no secret never pays."""
    return re.compile(pattern, flags)


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


class _HostScope:
    """`Recorder.host_event`: while it is open, the thread's dispatches go to its entry."""

    __slots__ = ("entry", "outer", "recorder", "start")

    def __init__(self, recorder: Recorder, entry: HostEntry) -> None:
        self.recorder, self.entry = recorder, entry

    def __enter__(self) -> HostEntry:
        scopes = self.recorder._scopes
        self.outer = getattr(scopes, "entry", None)
        scopes.entry = self.entry
        self.start = time.perf_counter()
        return self.entry

    def __exit__(self, *exc_info) -> None:
        self.recorder._scopes.entry = outer = self.outer
        entry = self.entry
        line = {"host": entry.host, "event": entry.event, "payload": entry.payload,
                "decision": entry.decision, "reply": entry.reply,
                "dispatches": entry.dispatches,
                "ms": _ms_since(self.start)}
        if outer is not None:
            line["nested"] = True
        self.recorder._submit(line)


class Recorder:
    """Writes dispatches to the audit log of ``config`` (see the module doc)."""

    def __init__(self, config: RecordConfig) -> None:
        self.config = config
        self.path = config.path
        #: the dispatcher traces every hook for the log (else: only what answered or failed)
        self.hook_trace = config.hook_trace
        self.redact = Redactor(config.redact, config.redact_patterns, config.redact_defaults)
        self._lock = threading.Lock()  # the log's descriptor and size
        self._scopes = threading.local()
        #: why the last write failed (said once on stderr), None while all is well
        self.failure: str | None = None
        self._fd: int | None = None  # the log, open for appending
        self._size = 0  # its size as this process last knew it
        # The hand-over to the writer thread, lock-free on the dispatch side: a dispatch
        # appends (time, JSON body) to the deque and sets the event only when the writer
        # sleeps with nothing pending or a batch is full.
        self._pending: deque[tuple[float, bytes]] = deque()
        self._wake = threading.Event()
        self._idle = False  # the writer sleeps until a record comes
        self._state = threading.Condition()  # the writer's start and end, and flushes
        self._writer: threading.Thread | None = None
        self._asked = self._served = 0  # flushes asked for / done
        self._at_exit = False

    def dispatched(self, hook: str, payload: dict, result: dict, trace: list,
                   start: float, nested: bool, ran: int | None = None) -> None:
        """Record one finished dispatch (called by the dispatcher); ``ran``: how many hooks
        ran, when ``trace`` lists only those that answered or failed."""
        ms = _ms_since(start)
        scope = getattr(self._scopes, "entry", None)
        if scope is not None:  # the host event's payload is on its line: not again here
            entry = {"hook": hook, "outcome": result["outcome"], "errors": result["errors"],
                     "hooks": trace, "ms": ms}
            if ran is not None:
                entry["ran"] = ran
            scope.dispatches.append(entry)
            return
        line = {"host": None, "event": hook, "payload": payload, "hook": hook,
                "outcome": result["outcome"], "errors": result["errors"], "hooks": trace,
                "ms": ms}
        if ran is not None:
            line["ran"] = ran
        if nested:
            line["nested"] = True
        self._submit(line)

    def host_event(self, host: str, event: str, payload: dict) -> _HostScope:
        """Collect the dispatches of one host event into one line, written at the end
        (``with recorder.host_event(...) as entry``: the HostEntry to give the reply)."""
        return _HostScope(self, HostEntry(host, event, payload))

    def write(self, record: dict) -> None:
        """Append ``record`` now (redacted, with the time and the format mark)."""
        self._write_lines([(time.time(), dumps(record))])

    def flush(self) -> None:
        """Wait until every record handed to the writer thread is written."""
        with self._state:
            if self._writer is None:
                return  # none started, or close() drained it
            self._asked += 1
            ticket = self._asked
            self._wake.set()
            while self._served < ticket and self._writer is not None:
                self._state.wait()

    def close(self) -> None:
        """Write what is pending, stop the writer thread and close the log (a later
        record starts them again)."""
        with self._state:
            writer, self._writer = self._writer, None  # a dismissed writer drains and ends
            self._state.notify_all()
        if writer is not None:
            self._wake.set()
            writer.join()
        with self._lock:
            if self._fd is not None:
                self._close_fd()

    # -- the writer thread -------------------------------------------------------------------
    def _submit(self, record: dict) -> None:
        """Snapshot ``record`` as JSON (what a caller or a hook changes later is not
        written) and hand it to the writer thread: the dispatch does not wait for the
        secret scan nor the disk, and takes no lock."""
        pending = self._pending
        pending.append((time.time(), dumps(record)))
        if self._writer is None:
            self._start_writer()
        elif self._idle or len(pending) == _BATCH:  # (a batch that fills unseen waits
            self._wake.set()                          # _PERIOD at most)

    def _start_writer(self) -> None:
        with self._state:
            if self._writer is not None:
                return
            self._writer = threading.Thread(target=self._drain, name="harness-record",
                                            daemon=True)
            self._writer.start()
            if not self._at_exit:
                self._at_exit = True
                atexit.register(self.close)

    def _drain(self) -> None:
        """The writer thread: it writes what is pending when a batch is full, someone
        flushes, or the first record of a batch waited ``_PERIOD`` seconds (so the writing
        happens between dispatches rather than inside one); it sleeps while nothing is
        pending and ends, once drained, when `close` dismissed it."""
        me = threading.current_thread()
        pending, wake = self._pending, self._wake
        while True:
            if not pending and self._writer is me and self._served == self._asked:
                self._idle = True  # said before looking again: a record now sets wake
                if not pending and self._writer is me and self._served == self._asked:
                    wake.wait()
                self._idle = False
                wake.clear()
            if len(pending) < _BATCH and self._writer is me and self._served == self._asked:
                wake.wait(_PERIOD)
                wake.clear()
            with self._state:
                asked, dismissed = self._asked, self._writer is not me
            # every record handed over before `asked` flushes is in the deque by now
            batch = [pending.popleft() for _ in range(len(pending))]
            if batch:
                try:
                    self._write_lines(batch)
                except Exception as exc:  # noqa: BLE001  (a dead writer would hang flush())
                    self._failed(f"cannot record to {self.path}: {type(exc).__name__}: {exc}")
            with self._state:
                self._served = asked
                self._state.notify_all()
            if dismissed and not pending:
                return

    def _write_lines(self, batch: list[tuple[float, bytes]]) -> None:
        """Redact, stamp and append ``(time, JSON body)`` records: one write per run of
        lines that fits under the size cap, so a batch never takes a file past it."""
        bodies = [body for _, body in batch]
        for n in self.redact.may_hold_secrets(bodies):
            bodies[n] = dumps(self.redact(loads(bodies[n])))
        lines, last, head = [], -1, b""
        for (when, _), body in zip(batch, bodies):
            ms = int(when * 1000)
            if ms != last:  # a burst of records shares its millisecond
                head, last = b'{"%s":1,"time":"%s",' % (_MARK, _stamp(ms)), ms
            lines.append(b"%s%s\n" % (head, body[1:]))
        cap = self.config.max_bytes
        with self._lock:
            try:
                fd = self._fd if self._fd is not None else self._open()
                chunk: list[bytes] = []
                size = 0
                for line in lines:
                    if cap is not None and self._size + size + len(line) > cap:
                        fd = self._append(fd, chunk, size)
                        chunk, size = [], 0
                        fd = self._rotate_if_full(len(line), cap)
                    chunk.append(line)
                    size += len(line)
                self._append(fd, chunk, size)
            except OSError as exc:  # the audit log never breaks a dispatch
                self._failed(f"cannot write the audit log {self.path}: {exc}")

    def _failed(self, why: str) -> None:
        """Say the first failure to record on stderr; the records it lost are gone."""
        if self.failure is None:
            self.failure = why
            sys.stderr.write(f"harness: {why}\n")

    def _append(self, fd: int, chunk: list[bytes], size: int) -> int:
        if chunk:
            os.write(fd, b"".join(chunk))
            self._size += size
        return fd

    def _open(self) -> int:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self._size = os.fstat(self._fd).st_size
        return self._fd

    def _rotate_if_full(self, adding: int, cap: int) -> int:
        """Rotate when the file (which other processes may write too) is full; return
        the descriptor to write to."""
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            on_disk = None
        mine = os.fstat(self._fd)
        if on_disk is None or (on_disk.st_ino, on_disk.st_dev) != (mine.st_ino, mine.st_dev):
            self._close_fd()  # another process rotated it: write to the new file
            return self._open()
        self._size = on_disk.st_size
        if self._size and self._size + adding > cap:
            self._rotate()
            self._close_fd()
            return self._open()
        return self._fd

    def _close_fd(self) -> None:
        os.close(self._fd)
        self._fd = None

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


@functools.lru_cache(maxsize=4)
def _second(whole: int) -> bytes:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)).encode()


def _stamp(ms: int) -> bytes:
    """``ms`` milliseconds after the epoch as UTC ISO 8601 (the seconds formatted once per
    second)."""
    return b"%s.%03dZ" % (_second(ms // 1000), ms % 1000)


def _ms_since(start: float) -> float:
    """Milliseconds since the ``perf_counter`` value ``start``, to the microsecond (an
    integer's thousandths: twice as fast as ``round(ms, 3)``)."""
    return round((time.perf_counter() - start) * 1e6) / 1e3


def open_recorder(config: RecordConfig | None) -> Recorder | None:
    """The recorder ``[record]`` asks for, or None when it is not configured."""
    return Recorder(config) if config is not None else None
