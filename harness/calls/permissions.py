"""Who may run a tool call: chibi's permission gate by category (reference §3) and the
sandbox's rule for ``call-tool`` (SPEC §7).

The gate fires one deny-only hook — ``pre_file_read`` for a host path outside the allowed
paths, ``pre_file_write`` for any host write, ``pre_shell_exec`` always, ``pre_fetch_url``
for a sensitive URL (or a network tool without one) — and its outcome decides: a hook's
``denied: true``, else the host's permission handler, else a fail-safe deny. VFS paths
pass no gate (their zones decide). The text the model sees is ``Permission denied:
<reason>`` (for shell_exec the bare reason, as in chibi).
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse
from pathlib import Path

from harness.vfs.paths import is_vfs_uri

#: categories whose tools may reach the host; sandboxed code may only call them on VFS
#: paths (fs_read, fs_write) or not at all (shell, network)
_HOST_CATEGORIES = ("fs_read", "fs_write", "shell", "network", "flow")
#: flow tools a sandboxed caller may use (they touch no host resource)
_SANDBOX_FLOW = ("send_message",)
#: the argument of a tool category that names a place (a host path or a vfs:/// URI)
_PLACE_ARGUMENT = "path"


def place_of(tool, arguments: dict, argument: str = _PLACE_ARGUMENT) -> str | None:
    """The place the call names through ``argument``, as the tool will see it: the value
    when it is a string, else the default the tool's schema declares (``dir_list`` with no
    ``path`` lists ``"."``), else None (the tool has no place to go to).

    Every check judges this, never the raw argument: an absent or wrong-typed argument is
    still a place when the tool falls back to one."""
    value = arguments.get(argument)
    if isinstance(value, str):
        return value
    parameters = getattr(tool, "parameters", None) or {}
    declared = (parameters.get("properties") or {}).get(argument)
    default = declared.get("default") if isinstance(declared, dict) else None
    return default if isinstance(default, str) else None


def gate(call, category: str, arguments: dict, tool=None) -> str | None:
    """Fire the permission hook of ``category`` for this call, if it has one; return the
    denial text, or None when the call may go on. ``tool`` gives the defaults of its
    place arguments (see place_of)."""
    name = call.name
    if name == "summarize_content":  # a flow tool that reads a file or fetches a URL
        source = arguments.get("source")
        if isinstance(source, str) and not _is_url(source):
            return gate(call, "fs_read", {"path": source})
    path = place_of(tool, arguments)
    if category == "fs_read":
        if not isinstance(path, str) or is_vfs_uri(path):
            return None
        full = _host_path(call.runtime, path)
        if _allowed(call.runtime, full):
            return None
        return _denial(call.fire("pre_file_read", {"tool_name": name, "path": str(full)}))
    if category == "fs_write":
        if not isinstance(path, str) or is_vfs_uri(path):
            return None
        payload = {"tool_name": name, "path": path}
        if name == "file_edit":
            payload["operation"] = arguments.get("operation")
            content = arguments.get("content")
            payload["content"] = content if isinstance(content, str) else None
        else:
            content = arguments.get("content")
            payload["content"] = content if isinstance(content, str) else None
        return _denial(call.fire("pre_file_write", payload))
    if category == "shell":
        outcome = call.fire("pre_shell_exec", {"tool_name": name,
                                               "command": arguments.get("command")})
        if not outcome["denied"]:
            return None
        return outcome["reason"] or "permission denied"  # chibi: the bare reason
    if category == "network" or (name == "summarize_content" and _is_url(
            arguments.get("source"))):
        url = arguments.get("url", arguments.get("source"))
        if isinstance(url, str):
            reason = url_sensitivity(url)
            if reason is None:
                return None
            return _denial(call.fire("pre_fetch_url", {
                "tool_name": name, "url": url, "safety": "sensitive", "reason": reason}))
        summary = " ".join(str(arguments.get(p, "")) for p in call.summary_params)
        return _denial(call.fire("pre_fetch_url", {"tool_name": name, "summary": summary,
                                                   "safety": "no_url"}))
    return None


def _denial(outcome: dict) -> str | None:
    if not outcome["denied"]:
        return None
    return f"Permission denied: {outcome['reason'] or 'permission denied'}"


def _host_path(runtime, path: str) -> Path:
    full = Path(os.path.expanduser(path))
    if not full.is_absolute():
        full = Path(runtime.project_root) / full
    return Path(os.path.normpath(full))


def _allowed(runtime, path: Path) -> bool:
    """True when the resolved ``path`` is inside one of the allowed paths (the project root
    and harness.toml's [tools] allowed_paths), compared part by part."""
    real = Path(os.path.realpath(path))
    for root in runtime.allowed_paths():
        base = Path(os.path.realpath(root))
        if real == base or base in real.parents:
            return True
    return False


def _is_url(text: object) -> bool:
    return isinstance(text, str) and text.startswith(("http://", "https://"))


def url_sensitivity(url: str) -> str | None:
    """Why fetching ``url`` needs permission (chibi's categories), or None when it is a
    public address."""
    try:
        host = urllib.parse.urlsplit(url).hostname
    except ValueError:
        return "could not parse URL"
    if not host:
        return "could not parse URL"
    if host == "localhost" or host.endswith(".localhost"):
        return "loopback address"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None  # a host name: public as far as the URL tells
    if str(address) == "169.254.169.254":
        return "cloud metadata endpoint"
    if address.is_loopback:
        return "loopback address"
    if address.is_link_local:
        return "link-local address"
    if address.is_private:
        return "private network address"
    return None


def sandbox_refusal(tool, category: str, name: str, arguments: dict,
                    builtin: bool) -> str | None:
    """Why sandboxed code may not call this tool with these arguments (None: it may).

    It may call sandboxed tools, and builtins that stay inside the VFS: fs_read / fs_write
    on a ``vfs:///`` path, the vfs and memory tools, scheme_eval and send_message. Never a
    plugin, an unsandboxed tool, or a builtin that reaches the host."""
    from harness.loading.registry import SchemeTool
    if not builtin:
        if isinstance(tool, SchemeTool) and tool.env.tier == "sandboxed":
            return None
        kind = "an unsandboxed tool" if isinstance(tool, SchemeTool) else (
            "a plugin tool" if not hasattr(tool, "fn") else "a Python tool")
        return f"sandboxed code cannot call {name} ({kind})"
    if category in ("fs_read", "fs_write"):
        path = place_of(tool, arguments)
        if path is not None and not is_vfs_uri(path):
            return f"sandboxed code cannot call {name} on a host path (only vfs:/// paths)"
        return None
    if category in _HOST_CATEGORIES and name not in _SANDBOX_FLOW:
        return f"sandboxed code cannot call {name} (it reaches the host)"
    return None
