"""The one error every tool file loader raises."""

from __future__ import annotations


class ToolLoadError(Exception):
    """A tool file failed to load; ``message`` starts with FILE:LINE:COL when known."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
