"""The builtin tool layer (SPEC §11): chibi's builtin tools, found after the home's tools
and plugins, so a home may shadow any of them.

Tools that Scheme can express on ``(harness vfs)`` / ``(harness io)`` are ``.scm`` files
in the repository's top-level ``tools/`` folder (see harness.shipped); the
ones that must touch the host (a process, the network, a model, a regex engine) are
Python functions in this package. The layer is loaded once per process, on first use.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from harness.loading.registry import PythonTool, Tool
from harness.shipped import shipped_dir

#: the builtin .scm tools (the top-level tools/ folder)
BUILTIN_TOOLS_DIR = shipped_dir("tools")

#: Python builtins, by module of this package
_PYTHON_MODULES = ("shell", "search", "network", "messages", "agents", "evaluation")


class BuiltinTools(Mapping):
    """The builtin tools by name; loaded on first use (a process pays for them only when
    a call or a listing needs one)."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] | None = None
        self._names: frozenset[str] | None = None
        self._lock = threading.Lock()
        self.load_errors: dict[str, str] = {}
        #: where the .scm files' read data is cached (the first runtime's home cache)
        self.parse_cache = None

    def names(self) -> frozenset[str]:
        """The builtin tools' names, without loading them: listings and shadowing checks
        need no more (the .scm files are read for their define-tool names)."""
        if self._names is None:
            import importlib
            found = set()
            for path in BUILTIN_TOOLS_DIR.glob("*.scm"):
                found.update(_defined_names(path))
            for module in _PYTHON_MODULES:
                found.update(t.name for t in
                             importlib.import_module(f"{__name__}.{module}").TOOLS)
            self._names = frozenset(found)
        return self._names

    def __contains__(self, name: object) -> bool:
        return name in self.names()

    def _loaded(self) -> dict[str, Tool]:
        tools = self._tools
        if tools is None:
            with self._lock:
                if self._tools is None:
                    self._tools = self._load()
                tools = self._tools
        return tools

    def _load(self) -> dict[str, Tool]:
        import importlib

        from harness.loading.loader import ToolLoadError, load_tool_file
        from harness.sandbox.scheme_calls import Limits
        tools: dict[str, Tool] = {}
        for path in sorted(BUILTIN_TOOLS_DIR.glob("*.scm")):
            try:
                registration = load_tool_file(path, "unsandboxed",
                                              Limits(steps=None, seconds=None),
                                              self.parse_cache)
            except ToolLoadError as exc:  # a broken install: say so, keep the rest
                self.load_errors[str(path)] = exc.message
                continue
            for tool in registration.tools:
                tools[tool.name] = tool
        for module in _PYTHON_MODULES:
            for tool in importlib.import_module(f"{__name__}.{module}").TOOLS:
                tools[tool.name] = tool
        return tools

    @property
    def loaded(self) -> bool:
        """Whether the layer has been loaded (by a call or a listing that needed it)."""
        return self._tools is not None

    def failures(self) -> dict[str, str]:
        """Builtin .scm files that failed to load (path -> FILE:LINE:COL message): a
        broken install. Loads the layer first."""
        self._loaded()
        return dict(self.load_errors)

    def failure_of(self, name: str) -> str | None:
        """Why the builtin ``name`` is missing when its file failed to load, else None."""
        self._loaded()
        for path, message in self.load_errors.items():
            if name in _defined_names(Path(path)):
                return message
        return None

    def __getitem__(self, name: str) -> Tool:
        return self._loaded()[name]

    def get(self, name: str, default=None):
        return self._loaded().get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


def _defined_names(path: Path) -> list[str]:
    """The names a builtin .scm file gives ``define-tool``, read without loading it."""
    import re
    return re.findall(r"\(define-tool\s+([^\s()]+)", path.read_text(encoding="utf-8"))


_shared = BuiltinTools()


def builtin_tools(parse_cache=None) -> BuiltinTools:
    """The process's builtin layer (one for every runtime: builtin files never change);
    ``parse_cache`` (a harness.scheme.parse_cache.ParseCache) serves its first load."""
    if parse_cache is not None and _shared.parse_cache is None:
        _shared.parse_cache = parse_cache
    return _shared


def lenient_count(arguments: dict, name: str, default: int, minimum: int = 0) -> int:
    """chibi's lenient integers: anything but an integer >= ``minimum`` is the default."""
    value = arguments.get(name, default)
    if isinstance(value, int) and not isinstance(value, bool) and value >= minimum:
        return value
    return default


def python_tool(name: str, description: str, parameters: dict, category: str):
    """Decorator: the function as a builtin PythonTool (``TOOLS`` of its module)."""
    def make(fn) -> PythonTool:
        return PythonTool(name, description, {"type": "object", **parameters}, fn,
                          f"builtin:{name}", category)
    return make
