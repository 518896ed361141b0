"""The shapes of hook configuration that hosts read, and how harness's entries are added
to, found in and taken out of each one without touching the user's.

| shape | hosts | ``hooks`` holds |
|---|---|---|
| ``GroupedHooks`` | Claude Code, Codex, Gemini CLI | event -> [{"matcher"?, "hooks": [handler, ...]}] |
| ``FlatHooks`` | Cursor, Copilot, Windsurf | event -> [handler, ...] (plus ``"version": 1`` for Cursor and Copilot) |
| ``NamedHooks`` | Kiro | [{"name", "trigger", "action": {"type": "command", "command"}}, ...] |

A handler is harness's when its command is (harness.install.command), or for Claude
Code's ``http`` type when its URL ends in ``/claude-code`` with the ``$HARNESS_TOKEN``
header. Adding replaces harness's entry of an event where it is (so a second install
changes nothing) or appends it after the user's; removing drops harness's handlers and
then the groups, events and tables that only held them.
"""

from __future__ import annotations

from collections.abc import Iterator

from harness.install.command import TOKEN_VARIABLE, is_harness_command
from harness.install.config_file import InstallError


def handler_command(handler: object) -> object:
    """The shell command a handler runs (``command``, Copilot's ``bash``, Kiro's
    ``action.command``), or None."""
    if not isinstance(handler, dict):
        return None
    action = handler.get("action")
    if isinstance(action, dict):
        return action.get("command")
    return handler.get("command", handler.get("bash"))


def is_ours(handler: object, host: str) -> bool:
    if not isinstance(handler, dict):
        return False
    if handler.get("type") == "http":
        url = handler.get("url")
        return (isinstance(url, str) and url.rstrip("/").endswith(f"/{host}")
                and TOKEN_VARIABLE in (handler.get("allowedEnvVars") or ()))
    return is_harness_command(handler_command(handler), host)


class GroupedHooks:
    """``{"hooks": {EVENT: [{"matcher": M, "hooks": [HANDLER, ...]}, ...]}}``."""

    version: int | None = None

    def __init__(self, host: str) -> None:
        self.host = host

    def _table(self, data: dict, path: str, create: bool) -> dict:
        hooks = data.get("hooks")
        if hooks is None and create:
            hooks = data["hooks"] = {}
        if hooks is not None and not isinstance(hooks, dict):
            raise InstallError(f"{path}: \"hooks\" must be an object of events; nothing was "
                               "changed")
        return hooks if hooks is not None else {}

    def found(self, data: dict, path: str) -> Iterator[tuple[str, dict]]:
        """(event, handler) for each of harness's handlers."""
        for event, groups in self._table(data, path, False).items():
            for group in groups if isinstance(groups, list) else ():
                for handler in _handlers(group):
                    if is_ours(handler, self.host):
                        yield event, handler

    def put(self, data: dict, path: str, event: str, handler: dict,
            matcher: str | None) -> None:
        groups = self._table(data, path, True).setdefault(event, [])
        if not isinstance(groups, list):
            raise InstallError(f"{path}: \"hooks\".\"{event}\" must be a list; nothing was "
                               "changed")
        for group in groups:
            handlers = _handlers(group)
            for i, old in enumerate(handlers):
                if is_ours(old, self.host):
                    handlers[i] = handler
                    return
        group = {"matcher": matcher} if matcher is not None else {}
        groups.append({**group, "hooks": [handler]})

    def remove(self, data: dict, path: str) -> None:
        table = self._table(data, path, False)
        for event in list(table):
            groups = table[event]
            if not isinstance(groups, list):
                continue
            for group in groups:
                if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                    group["hooks"] = [h for h in group["hooks"] if not is_ours(h, self.host)]
            table[event] = [g for g in groups if not (isinstance(g, dict) and
                                                      g.get("hooks") == [])]
            if not table[event]:
                del table[event]
        if "hooks" in data and not table:
            del data["hooks"]


def _handlers(group: object) -> list:
    if isinstance(group, dict) and isinstance(group.get("hooks"), list):
        return group["hooks"]
    return []


class FlatHooks(GroupedHooks):
    """``{"version": 1, "hooks": {EVENT: [HANDLER, ...]}}`` (``version`` only where the
    host has one)."""

    def __init__(self, host: str, version: int | None = None) -> None:
        super().__init__(host)
        self.version = version

    def found(self, data: dict, path: str) -> Iterator[tuple[str, dict]]:
        for event, handlers in self._table(data, path, False).items():
            for handler in handlers if isinstance(handlers, list) else ():
                if is_ours(handler, self.host):
                    yield event, handler

    def put(self, data: dict, path: str, event: str, handler: dict,
            matcher: str | None) -> None:
        if self.version is not None:
            data.setdefault("version", self.version)
        handlers = self._table(data, path, True).setdefault(event, [])
        if not isinstance(handlers, list):
            raise InstallError(f"{path}: \"hooks\".\"{event}\" must be a list; nothing was "
                               "changed")
        for i, old in enumerate(handlers):
            if is_ours(old, self.host):
                handlers[i] = handler
                return
        handlers.append(handler)

    def remove(self, data: dict, path: str) -> None:
        table = self._table(data, path, False)
        for event in list(table):
            if isinstance(table[event], list):
                table[event] = [h for h in table[event] if not is_ours(h, self.host)]
                if not table[event]:
                    del table[event]
        if "hooks" in data and not table:
            del data["hooks"]


class NamedHooks(GroupedHooks):
    """Kiro: ``{"version": "v1", "hooks": [{"name", "trigger", "action", ...}, ...]}``."""

    version = "v1"

    def _list(self, data: dict, path: str, create: bool) -> list:
        hooks = data.get("hooks")
        if hooks is None and create:
            data.setdefault("version", self.version)
            hooks = data["hooks"] = []
        if hooks is not None and not isinstance(hooks, list):
            raise InstallError(f"{path}: \"hooks\" must be a list of hooks; nothing was "
                               "changed")
        return hooks if hooks is not None else []

    def found(self, data: dict, path: str) -> Iterator[tuple[str, dict]]:
        for handler in self._list(data, path, False):
            if is_ours(handler, self.host):
                yield str(handler.get("trigger")), handler

    def put(self, data: dict, path: str, event: str, handler: dict,
            matcher: str | None) -> None:
        hooks = self._list(data, path, True)
        for i, old in enumerate(hooks):
            if is_ours(old, self.host) and old.get("trigger") == event:
                hooks[i] = handler
                return
        hooks.append(handler)

    def remove(self, data: dict, path: str) -> None:
        hooks = [h for h in self._list(data, path, False) if not is_ours(h, self.host)]
        if hooks:
            data["hooks"] = hooks
        else:
            data.pop("hooks", None)
