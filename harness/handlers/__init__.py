"""Declared handlers (SPEC §13): hooks written as settings entries, not as plugins.

A handler is declared in the home's ``hooks.toml`` or in a Claude Code settings file
(``sources``), checked entry by entry (``spec``), selected by Claude Code's matchers and
``if`` rules (``matcher``, ``if_rule``) under the kill switch and managed-only policy
(``policy``), and run by its type — ``command``, ``http``, ``mcp``, ``model_handlers``
(prompt and agent) — whose output ``output`` turns into an answer. ``handler_set`` ties it
together for the dispatcher; ``async_pool`` runs the ``async`` ones in the background.
"""

from harness.handlers.handler_set import HandlerResult, HandlerSet
from harness.handlers.invocation import Invocation, current_invocation, using_invocation

__all__ = ["HandlerResult", "HandlerSet", "Invocation", "current_invocation",
           "using_invocation"]
