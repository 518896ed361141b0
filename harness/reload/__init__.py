"""Hot reload: watch a home's ``tools/``, ``plugins/`` and ``harness.toml``; apply changes live.

Three steps, each on its own thread:

- **observe** (``observe.py``, the watchdog observer thread): directories are watched, never
  single files — HOME (for ``harness.toml``, ``hooks.toml`` and for ``tools/`` or
  ``plugins/`` appearing or going away), HOME/tools/ (recursive), HOME/plugins/ and the
  folders of the Claude Code settings files that declare handlers. An event only becomes a
  pending key (``("file", path)``, ``("tree", dir)``, ``("plugins", dir)``,
  ``("config", path)``, ``("handlers", path)``); both ends of a move count, so a rename
  into ``X.scm`` touches X and a rename away too.
  Where inotify is unavailable or its limits are hit, it falls back to polling.
- **debounce** (``debounce.py``): a key waits until no event touched it for DEBOUNCE seconds
  (at most MAX_DELAY after its first event), so the several events of one editor save make
  one reload; an event that ends a save (the writer closed the file, or a rename landed on
  it) shortens the wait to SETTLE, which keeps save-to-live latency low.
- **apply** (``apply.py``, the worker thread): looks at the file system *now*, not at the
  events, and makes the runtime agree: a tool file that exists is loaded (unless its content
  is unchanged), one that is gone is unloaded; a directory is re-synchronised as a whole; a
  plugins change re-reads the plugins; a handlers' source is read again; a ``harness.toml``
  change re-reads the config, reloads the tool files whose tier changed and, when
  ``[hooks]`` changed, the handler sources it names. ``Runtime.load_file`` swaps a file's
  registrations in one step and keeps the last good version when the new one fails.

``watcher.py`` ties them together: ``Watcher(runtime)`` with ``start()``, ``stop()``,
``add_listener(callback)`` and ``wait_idle(timeout)``. Every change is logged (logger
``harness.reload``) and sent to listeners as a JSON-serialisable dict (see ``apply.py``).
"""

from harness.reload.files import is_editor_dropping

__all__ = ["Watcher", "is_editor_dropping"]


def __getattr__(name: str):
    # Watcher brings in watchdog: import it when a watcher is wanted, not when a runtime
    # only asks files.py which paths are tool files
    if name == "Watcher":
        from harness.reload.watcher import Watcher
        return Watcher
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
