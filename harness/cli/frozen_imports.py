"""``freeze_imports()``: what a one-command harness process does once its modules are in."""

from __future__ import annotations

import gc

_frozen = False


def freeze_imports() -> None:
    """Once per process, put every object alive now (chiefly the modules just imported:
    the Scheme runtime, the hook runtime) out of the cyclic collector's reach
    (``gc.freeze``), so that neither the collections while the command works nor the one
    at exit walk them again: at exit that walk was ~8 ms of a one-line program's 60
    (bench/commands.py). Call it after the imports and before the work: what the work
    makes comes after and is collected and finalized as before. Once only: a host calling
    a command in its own process freezes what it had then, never each call's garbage."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.freeze()
