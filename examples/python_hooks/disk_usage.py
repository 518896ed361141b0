"""disk_usage.py: the bytes under a path, as `du -sh` would say them.

The Python twin of examples/plugins/disk_usage (which has no Scheme twin: Scheme cannot
see file sizes). Needs the unsandboxed tier.
"""

import os

from harness.api import tool


def human(size: float) -> str:
    for unit in ("B", "K", "M", "G", "T"):
        if size < 1024:
            return f"{size}B" if unit == "B" else f"{size:.1f}{unit}"
        size /= 1024
    return f"{size:.1f}P"


@tool(description="Disk usage of a path (like du -sh)",
      parameters={"path": {"type": "string", "description": "file or directory"}})
def disk_usage(args: dict) -> str:
    path = args["path"]
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file or directory: {path}")
    if os.path.isfile(path):
        total = os.path.getsize(path)
    else:
        total = sum(os.path.getsize(os.path.join(root, name))
                    for root, _dirs, files in os.walk(path) for name in files
                    if not os.path.islink(os.path.join(root, name)))
    return f"{human(total)}\t{path}"
