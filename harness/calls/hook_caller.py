"""Whom a tool call made from a hook callback acts for (issue 23, item 2).

chibi runs ``call-tool`` from a hook as System, which may write every zone. A context may
write hook files (``vfs:///tools/shared/``, its own ``/tools/home/<ctx>/``, a flock's
``/tools/flocks/<flock>/``), and they load at once, so that rule let any context write
any zone. Here:

- a hook of an **unsandboxed** file calls tools as System: only the host may write files
  of that tier (harness.vfs.store), and it already has ``(harness io)``;
- a hook of a **sandboxed** file calls tools as the context whose dispatch it is, and only
  when that context could have written the file itself: a file in ``tools/home/<ctx>/``
  acts for ``<ctx>`` alone, one in ``tools/flocks/<flock>/`` for the flock's members, one
  in ``tools/shared/`` (which every context may write) for nobody. A file elsewhere in
  ``tools/`` was written by the host and acts for any context.
"""

from __future__ import annotations

from pathlib import Path


def hook_call_refusal(runtime, code_file: str | None, context: str) -> str | None:
    """Why a hook of ``code_file`` may not call a tool for ``context`` (None: it may)."""
    if code_file is None:
        return None
    try:
        parts = Path(code_file).resolve().relative_to(runtime.tools_dir.resolve()).parts
    except (ValueError, OSError):
        return None  # not a file of the home's tools/ (a builtin, a checked file)
    where = "vfs:///tools/" + "/".join(parts[:2]) + "/"
    if parts[:1] == ("shared",) and len(parts) > 1:
        return (f"a hook of {code_file} cannot call tools: vfs:///tools/shared/ is "
                "writable by every context, so its hooks act for none")
    if parts[:1] == ("home",) and len(parts) > 2 and parts[1] != context:
        return (f"a hook of {code_file} cannot call tools for context '{context}': "
                f"{where} acts only for context '{parts[1]}'")
    if parts[:1] == ("flocks",) and len(parts) > 2 and \
            not runtime.vfs.is_member(parts[1], context):
        return (f"a hook of {code_file} cannot call tools for context '{context}': "
                f"{where} acts only for members of flock '{parts[1]}'")
    return None
