"""Not a Python package: the builtin tools harness ships, as ``.scm`` files.

This file only turns a baffling failure into a clear one. From a folder that holds a clone
of harness named ``harness`` (installed with ``pip install -e``), Python imports that clone
as a namespace package ``harness``, and ``harness.tools`` then finds this folder instead of
the package's own ``harness/tools/``.
"""

from pathlib import Path

_CLONE = Path(__file__).resolve().parent.parent
raise ImportError(
    f"'import harness' found the folder {_CLONE} (a clone of harness in the current "
    f"directory) instead of the installed package: Python imports a folder named harness "
    f"as a namespace package. Run from another directory (cd {_CLONE} works too), or "
    f"install harness without -e.")
