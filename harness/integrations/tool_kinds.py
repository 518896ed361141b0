"""Which permission point a framework's tool call fires, by the tool's name and arguments.

A framework's tools have whatever names their authors gave them; harness's guards are
written on the four permission points (SPEC §14: ``pre_shell_exec``, ``pre_file_write``,
``pre_file_read``, ``pre_fetch_url``). A ``ToolKinds`` table says which tool names are of
which kind and where in their arguments the command, path, content or URL is:

```python
kinds = DEFAULT_TOOL_KINDS.with_rule(ToolKind("pre_shell_exec", {"run_in_sandbox"},
                                              {"command": ("script",)}))
```

A call matches a rule when its tool name (compared without case) is one of the rule's
names and the rule's first field is a string among the arguments; the payload then carries
``tool_name`` and every field found (a missing optional field is null). A call that
matches no rule fires no permission point (``pre_tool`` still fires for it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["DEFAULT_TOOL_KINDS", "ToolKind", "ToolKinds"]


@dataclass(frozen=True)
class ToolKind:
    """One rule: tools named one of ``names`` fire ``point``; ``fields`` maps each payload
    field to the argument names it is read from, first found wins. The first field is
    required (a call without it as a string matches no rule). ``extra``: constant payload
    fields (pre_fetch_url's ``safety``)."""

    point: str
    names: Iterable[str]
    fields: Mapping[str, tuple[str, ...]]
    extra: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from harness.hooks.catalogue import HOOK_POINTS
        point = HOOK_POINTS.get(self.point)
        if point is None or point.combine != "permission":
            raise ValueError(f"ToolKind: {self.point!r} is not a permission point "
                             "(pre_shell_exec, pre_file_write, pre_file_read, pre_fetch_url)")
        if not self.fields:
            raise ValueError("ToolKind: fields must name at least the required field")
        object.__setattr__(self, "names", frozenset(n.lower() for n in self.names))

    def payload(self, tool_name: str, arguments: Mapping) -> dict | None:
        """The permission payload for this call, or None when its required field is not a
        string argument."""
        payload: dict = {"tool_name": tool_name}
        required = True
        for name, sources in self.fields.items():
            value = None
            for source in sources:
                value = arguments.get(source)
                if value is not None:
                    break
            if required and not isinstance(value, str):
                return None
            required = False
            payload[name] = value
        payload.update(self.extra)
        return payload


class ToolKinds:
    """An ordered table of ToolKind rules (the first rule that matches a call wins)."""

    def __init__(self, rules: Iterable[ToolKind]) -> None:
        self.rules = tuple(rules)
        by_name: dict[str, list[ToolKind]] = {}
        for rule in self.rules:
            for name in rule.names:
                by_name.setdefault(name, []).append(rule)
        self._by_name = {name: tuple(rules) for name, rules in by_name.items()}

    def with_rule(self, rule: ToolKind) -> ToolKinds:
        """This table with ``rule`` tried first."""
        return ToolKinds((rule, *self.rules))

    def permission_request(self, tool_name: str, arguments: object) -> tuple[str, dict] | None:
        """``(point, payload)`` for this tool call, or None when no rule matches it."""
        rules = self._by_name.get(tool_name.lower())
        if rules is None or not isinstance(arguments, Mapping):
            return None
        for rule in rules:
            payload = rule.payload(tool_name, arguments)
            if payload is not None:
                return rule.point, payload
        return None


DEFAULT_TOOL_KINDS = ToolKinds([
    ToolKind("pre_shell_exec",
             {"shell", "bash", "sh", "run_command", "run_shell_command", "shell_exec", "exec",
              "execute", "execute_command", "run", "terminal"},
             {"command": ("command", "cmd", "script")}),
    ToolKind("pre_file_write",
             {"write_file", "file_write", "write", "create_file", "edit", "edit_file",
              "file_edit", "multi_edit", "str_replace", "replace", "append_file"},
             {"path": ("path", "file_path", "filename", "file"),
              "content": ("content", "contents", "text", "new_string", "new_str")}),
    ToolKind("pre_file_read",
             {"read_file", "file_read", "read", "cat", "view", "open_file"},
             {"path": ("path", "file_path", "filename", "file")}),
    ToolKind("pre_fetch_url",
             {"fetch", "fetch_url", "http_get", "http_request", "web_fetch", "get_url",
              "download", "curl"},
             {"url": ("url", "uri", "href")},
             {"safety": "unchecked", "reason": "", "summary": ""}),
])
