"""Host adapters (SPEC §14): harness as the hook of every coding-agent host.

One module per host (``claude_code``, ``codex``, ``gemini``, ``cursor``, ``copilot``,
``windsurf``, ``cline``, ``kiro``, ``opencode`` — with the plugin
``opencode-plugin.js`` that forwards OpenCode's events to ``harness serve --http``), the cross-host vocabulary (``vocabulary``), the firing
they share (``guard``), and this registry. The interface other parts of harness call:

- ``HOSTS``: the host names (``harness hook HOST``, ``POST /HOST``).
- ``adapter(name)`` -> the `HostAdapter` of a host (raises UnknownHost, naming the
  closest host).
- ``answer(runtime, host, data, event=None)`` -> `HostReply`: one event (the bytes,
  text or object the host sent) answered with `runtime`, in the host's format. It never
  raises and never fails open: bad input is a non-blocking error (exit 1); an internal
  error on a guard event is an explicit deny in the host's format.
- ``edge_failure(host, data, reason, event=None)`` -> `HostReply`: what to answer when
  no runtime can (a missing home, a broken ``harness.toml``, an unreachable daemon, a
  timeout of our own): a deny on a guard event, a non-blocking error on any other.
- ``ignored_answers(host)`` -> ``{answer: why}``: what the host reads but does not honour
  (``harness check`` warns with it).
- ``guard_events(host)`` -> the host's events where a deny stops something (what an
  installer must hook for a guard to hold).
- ``fail_open()``: whether ``HARNESS_FAIL_OPEN=1`` asks edge failures to let things
  through (the escape hatch: loud on stderr and in the host's message field).
"""

from __future__ import annotations

import importlib
import os

from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, UnknownEvent

__all__ = ["HOSTS", "HostAdapter", "HostEvent", "HostReply", "UnknownEvent", "UnknownHost",
           "adapter", "answer", "edge_failure", "fail_open", "guard_events", "ignored_answers"]

#: host name -> (module of harness.hosts, class)
_ADAPTERS = {
    "claude-code": ("claude_code", "ClaudeCode"),
    "codex": ("codex", "Codex"),
    "gemini": ("gemini", "Gemini"),
    "cursor": ("cursor", "Cursor"),
    "copilot": ("copilot", "Copilot"),
    "windsurf": ("windsurf", "Windsurf"),
    "cline": ("cline", "Cline"),
    "kiro": ("kiro", "Kiro"),
    "opencode": ("opencode", "OpenCode"),
}
HOSTS = tuple(_ADAPTERS)
_FAIL_OPEN = "HARNESS_FAIL_OPEN"


class UnknownHost(ValueError):
    """A host harness has no adapter for."""

    def __init__(self, name: str) -> None:
        import difflib
        close = difflib.get_close_matches(name, HOSTS, n=1, cutoff=0.5)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        super().__init__(f"unknown host '{name}'{hint} (hosts: {', '.join(HOSTS)})")


def adapter(name: str) -> HostAdapter:
    """The adapter of host `name`; raises UnknownHost."""
    if name == "claude":
        name = "claude-code"
    entry = _ADAPTERS.get(name)
    if entry is None:
        raise UnknownHost(name)
    module = importlib.import_module(f"harness.hosts.{entry[0]}")
    return getattr(module, entry[1])()


def fail_open() -> bool:
    """Whether HARNESS_FAIL_OPEN=1: edge failures answer no decision instead of a deny."""
    return os.environ.get(_FAIL_OPEN) == "1"


def ignored_answers(host: str) -> dict[str, str]:
    """What `host` reads but does not honour: ``{answer: why}``."""
    return dict(adapter(host).ignored)


def guard_events(host: str) -> list[str]:
    """The events of `host` where a deny stops something, in the host's spelling."""
    events = adapter(host).events.values()  # Copilot and Kiro spell some events twice
    return list(dict.fromkeys(event.name for event in events if event.guard))


def _payload(data: bytes | str | dict):
    if isinstance(data, dict):
        return data
    from harness.bridge import loads
    return loads(data)


def answer(runtime, host: str, data: bytes | str | dict, event: str | None = None) -> HostReply:
    """Answer one `host` event with `runtime` (see the module docstring); never raises
    for what the event, the hooks or harness itself do."""
    adapter_ = adapter(host)
    try:
        payload = _payload(data)
    except ValueError as exc:
        return adapter_.failure(f"the event is not JSON: {exc}")
    if not isinstance(payload, dict):
        return adapter_.failure(f"the event must be a JSON object (a {adapter_.title} "
                                "hook event)")
    try:
        host_event = adapter_.event_of(payload, event)
    except UnknownEvent as exc:
        return adapter_.failure(str(exc))
    try:
        recorder = runtime.recorder
        if recorder is None:
            return adapter_.respond(runtime, host_event, payload)
        with recorder.host_event(host, host_event.name, payload) as entry:  # the audit log
            reply = adapter_.respond(runtime, host_event, payload)
            from harness.replay.decisions import claude_decision
            entry.reply = reply.to_json()
            entry.decision = claude_decision(host_event.name, reply)[0]
        return reply
    except Exception as exc:  # noqa: BLE001 - an internal error must not let a guard event by
        return _edge(adapter_, host_event if host_event.guard else None,
                     f"internal error: {type(exc).__name__}: {exc}")


def edge_failure(host: str, data: bytes | str | dict | None, reason: str,
                 event: str | None = None) -> HostReply:
    """What `host` gets when harness cannot answer `data` at all, for `reason`."""
    adapter_ = adapter(host)
    try:
        payload = _payload(data) if data is not None else None
    except ValueError:
        payload = None
    return _edge(adapter_, adapter_.guard_event_of(payload, event), reason)


def _edge(adapter_: HostAdapter, guard: HostEvent | None, reason: str) -> HostReply:
    if guard is None:
        return adapter_.failure(reason)
    if fail_open():
        reply = adapter_.failure(f"{reason} — NOT denied because {_FAIL_OPEN}=1: this guard "
                                 "event goes through unguarded")
        return reply
    return adapter_.render_deny(guard, f"harness cannot answer, so it denies: {reason} "
                                       f"(set {_FAIL_OPEN}=1 to let events through "
                                       "unguarded instead)")
