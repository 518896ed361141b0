"""What a tool call through the hook stack returns (harness.calls.pipeline makes it). Its
own module, so that the embedding API can name it without importing the pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ToolResult:
    """A tool call through the hook stack.

    ``output`` is what the model sees; ``error`` is set when the tool failed, was refused
    or does not exist (``output`` then starts with ``Error: ``); ``blocked`` when
    ``pre_tool`` blocked it; ``stdout`` / ``stderr`` what a Scheme tool printed;
    ``errors`` every hook failure (``{"source", "message"}``) of every dispatch the call
    made; ``context`` the calling context; ``denied`` when a permission gate or the
    sandbox refused it; ``cached`` when the output was stored in the VFS and ``output`` is
    the stub that says where."""

    tool: str
    output: str
    error: str | None = None
    blocked: bool = False
    stdout: str = ""
    stderr: str = ""
    errors: list[dict] = field(default_factory=list)
    context: str = "default"
    denied: bool = False
    cached: bool = False
