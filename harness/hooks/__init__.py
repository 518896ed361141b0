"""Hook points, their combine rules and outcomes (the dispatcher builds on these)."""

from harness.hooks.catalogue import HOOK_POINTS, HookPoint, UnknownHookError, hook_point
from harness.hooks.outcome import NO_ANSWER

__all__ = ["HOOK_POINTS", "NO_ANSWER", "HookPoint", "UnknownHookError", "hook_point"]
